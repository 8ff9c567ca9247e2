package wgraph_test

import (
	"fmt"

	"github.com/loadlab/loadlab/wgraph"
)

// A small weighted graph from its edges: weights are conductances, the
// Laplacian's rows sum to zero, and BFS gives hop distances.
func ExampleFromEdges() {
	g, err := wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 2}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 0.5}})
	if err != nil {
		panic(err)
	}
	fmt.Println(g.Order(), "nodes,", g.Size(), "edges; weighted degree of node 1:", g.WeightedDegree(1))
	b := wgraph.NewBFS(g)
	b.Start(0)
	fmt.Println("hops from 0 to 3:", b.Dist(3))
	// Output:
	// 4 nodes, 3 edges; weighted degree of node 1: 3
	// hops from 0 to 3: 3
}

// A repeated edge is refused: readers choose what to do with duplicates
// (package graphio), the graph never guesses.
func ExampleNewBuilder() {
	b, err := wgraph.NewBuilder(3)
	if err != nil {
		panic(err)
	}
	_ = b.SetEdge(0, 1, 1)
	_ = b.SetEdge(1, 2, 1)
	g := b.Build()
	count, comp := wgraph.Components(g)
	fmt.Println(count, comp, wgraph.IsConnected(g))
	_, err = wgraph.FromEdges(2, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 0, W: 1}})
	fmt.Println(err != nil)
	// Output:
	// 1 [0 0 0] true
	// true
}
