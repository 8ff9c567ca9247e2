package graphio

import (
	"sort"

	"github.com/loadlab/loadlab/wgraph"
)

// mustGraph panics, naming the writer, if g is nil (a programmer error,
// docs/conventions.md §2).
func mustGraph(fn string, g *wgraph.Graph) {
	if g == nil {
		panic("graphio: " + fn + ": g is nil")
	}
}

// build makes the CSR graph of the collected edges (already deduplicated).
func build(n int, es []wgraph.Edge) (*wgraph.Graph, error) {
	return wgraph.FromEdges(n, es)
}

// components returns the nodes of each connected component of g, largest
// first (ties: the component with the smaller lowest node first), each in
// increasing node order.
func components(g *wgraph.Graph) [][]int {
	count, comp := wgraph.Components(g)
	// One backing array for all the lists: a graph of many isolated
	// nodes would otherwise pay an allocation per node.
	start := make([]int, count+1)
	for _, c := range comp {
		start[c+1]++
	}
	for c := range count {
		start[c+1] += start[c]
	}
	nodes := make([]int, len(comp))
	out := make([][]int, count)
	for c := range out {
		out[c] = nodes[start[c]:start[c]:start[c+1]]
	}
	for u, c := range comp {
		out[c] = append(out[c], u)
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// keep returns the subgraph of g induced by nodes (increasing), renumbered
// 0..len(nodes)−1 in that order, and the matching labels.
func keep(g *wgraph.Graph, labels []string, nodes []int) (*wgraph.Graph, []string) {
	idx := make([]int32, g.Order())
	for i := range idx {
		idx[i] = -1
	}
	sub := make([]string, len(nodes))
	for i, u := range nodes {
		idx[u] = int32(i)
		sub[i] = labels[u]
	}
	var es []wgraph.Edge
	for _, e := range g.Edges() {
		if idx[e.U] >= 0 && idx[e.V] >= 0 {
			es = append(es, wgraph.Edge{U: int(idx[e.U]), V: int(idx[e.V]), W: e.W})
		}
	}
	h, err := wgraph.FromEdges(len(nodes), es)
	if err != nil {
		panic("graphio: induced subgraph: " + err.Error()) // cannot happen: the edges come from a valid graph
	}
	return h, sub
}

// mustIO panics, naming the function and the argument, if x (an
// io.Reader or io.Writer) is nil: a programmer error
// (docs/conventions.md §2).
func mustIO(fn, name string, x any) {
	if x == nil {
		panic("graphio: " + fn + ": " + name + " is nil")
	}
}
