package wgraph_test

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/iterator"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/mat"
)

func TestFromUndirectedWeighted(t *testing.T) {
	// The weighted triangle of spec §9 on gonum node IDs 30, 10, 20, with
	// a pendant node 5 joined to 20.
	gg := simple.NewWeightedUndirectedGraph(0, 0)
	edge := func(u, v int64, w float64) {
		gg.SetWeightedEdge(gg.NewWeightedEdge(simple.Node(u), simple.Node(v), w))
	}
	edge(30, 10, 1) // w12 = 1
	edge(10, 20, 2) // w23 = 2
	edge(30, 20, 3) // w13 = 3
	edge(5, 20, 0.5)
	g, ids, err := wgraph.FromUndirected(gg)
	require.NoError(t, err)
	assert.Equal(t, []int64{5, 10, 20, 30}, ids, "nodes numbered by increasing ID")
	assert.Equal(t, 4, g.Size())
	assert.Equal(t, 1.0, g.Weight(3, 1))
	assert.Equal(t, 2.0, g.Weight(1, 2))
	assert.Equal(t, 3.0, g.Weight(3, 2))
	assert.Equal(t, 0.5, g.Weight(0, 2))
	assert.False(t, g.HasEdge(0, 1))
	// R between IDs 30 and 10 is the triangle's r12 = 5/11 (spec §9):
	// the pendant edge does not change resistances inside the triangle.
	r, err := spectral.EffectiveResistance(g, 3, 1)
	require.NoError(t, err)
	assert.InDelta(t, 5.0/11, r, tolConvert)

	edge(10, 40, -1)
	_, _, err = wgraph.FromUndirected(gg)
	assert.ErrorContains(t, err, "= -1:")
	assert.ErrorContains(t, err, "node IDs")
}

func TestFromUndirectedUnweighted(t *testing.T) {
	// C6 with shuffled IDs: unit weights, K_f = 35/2 (spec §9).
	gg := simple.NewUndirectedGraph()
	ids := []int64{42, 7, 99, 3, 15, 64}
	for i := range ids {
		gg.SetEdge(gg.NewEdge(simple.Node(ids[i]), simple.Node(ids[(i+1)%6])))
	}
	gg.AddNode(simple.Node(1000))
	g, order, err := wgraph.FromUndirected(gg)
	require.NoError(t, err)
	assert.Equal(t, []int64{3, 7, 15, 42, 64, 99, 1000}, order)
	assert.Equal(t, 6, g.Size())
	for _, e := range g.Edges() {
		assert.Equal(t, 1.0, e.W)
	}
	assert.False(t, wgraph.IsConnected(g))
	gg.RemoveNode(1000)
	g, _, err = wgraph.FromUndirected(gg)
	require.NoError(t, err)
	k, err := spectral.KirchhoffIndex(g)
	require.NoError(t, err)
	assert.InDelta(t, 17.5, k, tolConvert)
}

// loopGraph is a graph.Undirected with a self-loop at node 1, which the
// simple package would refuse to build.
type loopGraph struct{}

func (loopGraph) Node(id int64) graph.Node { return simple.Node(id) }
func (loopGraph) Nodes() graph.Nodes {
	return iterator.NewOrderedNodes([]graph.Node{simple.Node(0), simple.Node(1)})
}
func (loopGraph) From(id int64) graph.Nodes {
	return iterator.NewOrderedNodes([]graph.Node{simple.Node(1 - id), simple.Node(1)})
}
func (loopGraph) HasEdgeBetween(x, y int64) bool { return true }
func (loopGraph) Edge(u, v int64) graph.Edge {
	return simple.Edge{F: simple.Node(u), T: simple.Node(v)}
}
func (g loopGraph) EdgeBetween(x, y int64) graph.Edge {
	return g.Edge(x, y)
}

func TestFromUndirectedSelfLoop(t *testing.T) {
	_, _, err := wgraph.FromUndirected(loopGraph{})
	assert.ErrorContains(t, err, "self-loop at node ID 1")
}

// strayGraph lists nodes 0 and 1 but reports node 5 as a neighbour of 0.
type strayGraph struct{ loopGraph }

func (strayGraph) From(id int64) graph.Nodes {
	return iterator.NewOrderedNodes([]graph.Node{simple.Node(5)})
}

func TestFromUndirectedStrayNeighbour(t *testing.T) {
	_, _, err := wgraph.FromUndirected(strayGraph{})
	assert.ErrorContains(t, err, "node ID 5")
}

// tolConvert is the tolerance of hand-checked resistances: a few ulps of
// values of order 1 after one dense factorisation of a tiny graph.
const tolConvert = 1e-12

func TestFromAdjacencyErrors(t *testing.T) {
	_, err := wgraph.FromMatrix(mat.NewDense(2, 3, nil))
	assert.ErrorContains(t, err, "adjacency matrix is 2×3, not square")
	_, err = wgraph.FromMatrix(mat.NewDense(2, 2, []float64{0, 1, 2, 0}))
	assert.ErrorContains(t, err, "adjacency not symmetric: [0][1] = 1 but [1][0] = 2")
	_, err = wgraph.FromAdjacency(mat.NewSymDense(2, []float64{1, 1, 1, 0}))
	assert.ErrorContains(t, err, "adjacency[0][0] = 1: self-loops are not allowed")
	for _, c := range []struct {
		w    float64
		want string
	}{
		{-1, "adjacency[0][1] = -1:"},
		{math.NaN(), "adjacency[0][1] = NaN:"},
		{math.Inf(1), "adjacency[0][1] = +Inf:"},
		{math.Inf(-1), "adjacency[0][1] = -Inf:"},
		{wgraph.MinWeight / 2, "adjacency[0][1] = 1.5"}, // 2^-501 ≈ 1.53e-151
	} {
		_, err = wgraph.FromAdjacency(mat.NewSymDense(2, []float64{0, c.w, c.w, 0}))
		assert.ErrorContains(t, err, c.want)
	}
	g, err := wgraph.FromAdjacency(mat.NewSymDense(3, []float64{0, 1, 3, 1, 0, 2, 3, 2, 0}))
	require.NoError(t, err)
	k, err := spectral.KirchhoffIndex(g)
	require.NoError(t, err)
	assert.InDelta(t, 12.0/11, k, tolConvert) // the weighted triangle again
}
