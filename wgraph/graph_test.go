package wgraph_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSizesTooLarge: a size beyond the memory budget is ErrTooLarge,
// refused before anything is allocated, and a negative one ErrInvalid.
func TestSizesTooLarge(t *testing.T) {
	_, err := wgraph.NewBuilder(1 << 40)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "n = 1099511627776")
	_, err = wgraph.FromEdges(1<<40, nil)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = wgraph.NewBuilder(-1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = wgraph.FromEdges(-3, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

func TestFromEdges(t *testing.T) {
	g, err := wgraph.FromEdges(4, []wgraph.Edge{{U: 2, V: 0, W: 1.5}, {U: 0, V: 1, W: 2}, {U: 3, V: 2, W: 0.25}})
	require.NoError(t, err)
	assert.Equal(t, 4, g.Order())
	assert.Equal(t, 3, g.Size())
	assert.Equal(t, []wgraph.Edge{{U: 0, V: 1, W: 2}, {U: 0, V: 2, W: 1.5}, {U: 2, V: 3, W: 0.25}}, g.Edges())
	assert.Equal(t, []int32{1, 2}, g.Neighbors(0))
	assert.Equal(t, []float64{2, 1.5}, g.Weights(0))
	assert.Equal(t, []int32{0, 3}, g.Neighbors(2))
	assert.Equal(t, 1.5, g.Weight(2, 0))
	assert.Equal(t, 0.0, g.Weight(1, 3))
	assert.Equal(t, 1.75, g.WeightedDegree(2))
	off, adj, w := g.CSR()
	assert.Equal(t, []int{0, 2, 3, 5, 6}, off)
	assert.Equal(t, []int32{1, 2, 0, 0, 3, 2}, adj)
	assert.Equal(t, []float64{2, 1.5, 2, 1.5, 0.25, 0.25}, w)

	// A duplicate, in either orientation, is named.
	_, err = wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 1, V: 0, W: 3}})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "edges[2] = {1, 0} repeats edges[0] = {0, 1}")
	_, err = wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 3, W: 1}})
	assert.ErrorContains(t, err, "edges[0]: wgraph: node v = 3 out of range [0, 3)")
	_, err = wgraph.FromEdges(3, []wgraph.Edge{{U: 1, V: 1, W: 1}})
	assert.ErrorContains(t, err, "self-loop at node 1")
	_, err = wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: -1}})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)

	// The zero value is the empty graph.
	var z wgraph.Graph
	assert.Equal(t, 0, z.Order())
	assert.Equal(t, 0, z.Size())
	off, _, _ = z.CSR()
	assert.Equal(t, []int{0}, off)
	assert.True(t, wgraph.IsConnected(&z))
}

func TestViewsCannotGrowIntoNeighbours(t *testing.T) {
	// Neighbors and Weights have capacity = length: an append by a careless
	// caller reallocates instead of overwriting the next node's list.
	g := graphtest.Must(gen.Path(3))
	nb := g.Neighbors(0)
	_ = append(nb, 99)
	assert.Equal(t, []int32{0, 2}, g.Neighbors(1))
	ws := g.Weights(0)
	_ = append(ws, 99)
	assert.Equal(t, []float64{1, 1}, g.Weights(1))
}

func TestBuilderRoundTrip(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		n := 1 + rnd.IntN(30)
		b, err := wgraph.NewBuilder(n)
		require.NoError(t, err)
		want := map[[2]int]float64{}
		for range rnd.IntN(3 * n) {
			u, v := rnd.IntN(n), rnd.IntN(n)
			if u == v {
				continue
			}
			w := 0.5 + rnd.Float64()
			require.NoError(t, b.SetEdge(u, v, w))
			want[[2]int{min(u, v), max(u, v)}] = w
		}
		g := b.Build()
		checkValid(t, g)
		require.Equal(t, len(want), g.Size())
		for k, w := range want {
			require.Equal(t, w, g.Weight(k[0], k[1]))
		}
		// A builder seeded from g rebuilds g; reweighting one edge changes
		// only that edge, and g itself stays as it was.
		h := g.Builder().Build()
		require.Equal(t, g.Edges(), h.Edges())
		if es := g.Edges(); len(es) > 0 {
			e := es[rnd.IntN(len(es))]
			gb := g.Builder()
			require.NoError(t, gb.SetEdge(e.V, e.U, 7))
			h = gb.Build()
			assert.Equal(t, 7.0, h.Weight(e.U, e.V))
			assert.Equal(t, e.W, g.Weight(e.U, e.V))
			assert.Equal(t, g.Size(), h.Size())
		}
	}
}

func TestSetEdgeErrors(t *testing.T) {
	g, err := wgraph.NewBuilder(3)
	require.NoError(t, err)
	assert.ErrorContains(t, g.SetEdge(0, 3, 1), "node v = 3 out of range [0, 3)")
	assert.ErrorContains(t, g.SetEdge(-1, 2, 1), "node u = -1 out of range [0, 3)")
	assert.ErrorContains(t, g.SetEdge(1, 1, 1), "self-loop at node 1")
	assert.ErrorContains(t, g.SetEdge(0, 1, 0), "weight of edge {0, 1} = 0:")
	assert.ErrorContains(t, g.SetEdge(0, 2, -2), "weight of edge {0, 2} = -2:")
	assert.ErrorContains(t, g.SetEdge(2, 1, math.NaN()), "weight of edge {2, 1} = NaN:")
	assert.ErrorContains(t, g.SetEdge(0, 1, math.Inf(1)), "weight of edge {0, 1} = +Inf:")
	assert.ErrorContains(t, g.SetEdge(0, 1, math.Inf(-1)), "weight of edge {0, 1} = -Inf:")
	assert.Equal(t, 0, g.Build().Size())
	require.NoError(t, g.SetEdge(0, 1, 2))
	require.NoError(t, g.SetEdge(1, 0, 5))
	// The last SetEdge of a pair wins, in either orientation.
	h := g.Build()
	assert.Equal(t, 1, h.Size())
	assert.Equal(t, 5.0, h.Weight(0, 1))
	assert.Equal(t, 5.0, h.Weight(1, 0))
	assert.False(t, h.HasEdge(0, 2))
}
