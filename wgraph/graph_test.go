package wgraph_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestSizesTooLarge(t *testing.T) {
	// Issue 11: NewGraph(1<<40) crashed with an out-of-memory error.
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

// floyd returns all hop distances by Floyd–Warshall, −1 for unreachable.
func floyd(g *wgraph.Graph) [][]int {
	n := g.Order()
	const inf = 1 << 30
	d := make([][]int, n)
	for u := range d {
		d[u] = make([]int, n)
		for v := range d[u] {
			if u != v {
				d[u][v] = inf
			}
		}
		for _, v := range g.Neighbors(u) {
			d[u][v] = 1
		}
	}
	for k := range n {
		for i := range n {
			for j := range n {
				d[i][j] = min(d[i][j], d[i][k]+d[k][j])
			}
		}
	}
	for i := range d {
		for j := range d[i] {
			if d[i][j] == inf {
				d[i][j] = -1
			}
		}
	}
	return d
}

func TestBFSAgainstFloyd(t *testing.T) {
	for seed := range uint64(20) {
		n := 2 + int(seed)*3
		// Sparse enough that some graphs are disconnected.
		g, err := gen.ErdosRenyi(n, 1.5/float64(n), false, graphtest.PCG(seed))
		require.NoError(t, err)
		ref := floyd(g)
		s := wgraph.NewBFS(g)
		dist := make([]int32, n)
		for u := range n {
			s.Distances(u, dist)
			for v := range n {
				require.Equal(t, ref[u][v], int(dist[v]), "n=%d u=%d v=%d", n, u, v)
			}
			// Levels are the distance shells, in order.
			s.Start(u)
			for d, level, ok := s.Next(); ok; d, level, ok = s.Next() {
				for _, v := range level {
					require.Equal(t, d, ref[u][v])
				}
			}
			// Bidirectional distances, after a partial search or none.
			for v := range n {
				s.Start(u)
				if v%2 == 0 {
					s.Next()
					s.Next()
				}
				require.Equal(t, ref[u][v], s.Dist(v), "Dist n=%d u=%d v=%d", n, u, v)
			}
		}
		count, comp := wgraph.Components(g)
		for u := range n {
			for v := range n {
				require.Equal(t, ref[u][v] >= 0, comp[u] == comp[v])
			}
		}
		require.Equal(t, count == 1, wgraph.IsConnected(g))
		err = wgraph.CheckConnected(g)
		require.Equal(t, count == 1, err == nil)
		if err != nil {
			require.True(t, errors.Is(err, loadlab.ErrDisconnected))
		}
		require.Equal(t, int(slices.Max(comp))+1, count)
	}
}

func TestBFSPanics(t *testing.T) {
	assert.PanicsWithValue(t, "wgraph: NewBFS: nil graph g", func() { wgraph.NewBFS(nil) })
	s := wgraph.NewBFS(graphtest.Must(gen.Path(3)))
	assert.Panics(t, func() { s.Next() })
	assert.Panics(t, func() { s.Start(3) })
	assert.Panics(t, func() { s.Distances(0, make([]int32, 2)) })
	assert.PanicsWithValue(t, "wgraph: IsConnected: nil graph g", func() { wgraph.IsConnected(nil) })
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

// A million-node path is cheap as a graph but its dense Laplacian needs
// 8 TB: an error, not an out-of-memory crash.
func TestLaplacianTooLarge(t *testing.T) {
	g := graphtest.Must(gen.Path(1 << 20))
	l, err := g.Laplacian()
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "1048576")
	assert.Nil(t, l)
}
