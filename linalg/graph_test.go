package linalg

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSizesTooLarge(t *testing.T) {
	// Issue 11: NewGraph(1<<40) crashed with an out-of-memory error.
	_, err := NewBuilder(1 << 40)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "n = 1099511627776")
	_, err = FromEdges(1<<40, nil)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = NewBuilder(-1)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = FromEdges(-3, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

func TestFromEdges(t *testing.T) {
	g, err := FromEdges(4, []Edge{{2, 0, 1.5}, {0, 1, 2}, {3, 2, 0.25}})
	require.NoError(t, err)
	assert.Equal(t, 4, g.Order())
	assert.Equal(t, 3, g.Size())
	assert.Equal(t, []Edge{{0, 1, 2}, {0, 2, 1.5}, {2, 3, 0.25}}, g.Edges())
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
	_, err = FromEdges(3, []Edge{{0, 1, 1}, {1, 2, 1}, {1, 0, 3}})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "edges[2] = {1, 0} repeats edges[0] = {0, 1}")
	_, err = FromEdges(3, []Edge{{0, 3, 1}})
	assert.ErrorContains(t, err, "edges[0]: linalg: node v = 3 out of range [0, 3)")
	_, err = FromEdges(3, []Edge{{1, 1, 1}})
	assert.ErrorContains(t, err, "self-loop at node 1")
	_, err = FromEdges(3, []Edge{{0, 1, -1}})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)

	// The zero value is the empty graph.
	var z Graph
	assert.Equal(t, 0, z.Order())
	assert.Equal(t, 0, z.Size())
	off, _, _ = z.CSR()
	assert.Equal(t, []int{0}, off)
	assert.True(t, IsConnected(&z))
}

func TestViewsCannotGrowIntoNeighbours(t *testing.T) {
	// Neighbors and Weights have capacity = length: an append by a careless
	// caller reallocates instead of overwriting the next node's list.
	g := must(Path(3))
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
		b, err := NewBuilder(n)
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
func floyd(g *Graph) [][]int {
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
		g, err := ErdosRenyi(n, 1.5/float64(n), false, pcg(seed))
		require.NoError(t, err)
		ref := floyd(g)
		s := NewBFS(g)
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
		count, comp := Components(g)
		for u := range n {
			for v := range n {
				require.Equal(t, ref[u][v] >= 0, comp[u] == comp[v])
			}
		}
		require.Equal(t, count == 1, IsConnected(g))
		err = CheckConnected(g)
		require.Equal(t, count == 1, err == nil)
		if err != nil {
			require.True(t, errors.Is(err, loadlab.ErrDisconnected))
		}
		require.Equal(t, int(slices.Max(comp))+1, count)
	}
}

func TestBFSPanics(t *testing.T) {
	assert.PanicsWithValue(t, "linalg: NewBFS: nil graph g", func() { NewBFS(nil) })
	s := NewBFS(must(Path(3)))
	assert.Panics(t, func() { s.Next() })
	assert.Panics(t, func() { s.Start(3) })
	assert.Panics(t, func() { s.Distances(0, make([]int32, 2)) })
	assert.PanicsWithValue(t, "linalg: IsConnected: nil graph g", func() { IsConnected(nil) })
}

func TestSpectrumTinyAndHugeWeights(t *testing.T) {
	// Issue 11: gonum's eigensolver panicked ("lapack: insufficient length
	// of a") on a path whose weights were all ≲ 1e-122. The spectrum of
	// c·L is c times that of L; the scaling by a power of two is exact, so
	// the eigenvalues agree with the unit path's to the eigensolver's
	// accuracy, a few ulps of λ_n = 4c: 64 n ε λ_n absolute.
	p := must(Path(6))
	ref := must(PathSpectrum(6))
	for _, c := range []float64{1e-100, 1e-122, 1e-130, 1e-140, MinWeight, 1e100, MaxWeight} {
		g := reweight(t, p, func(Edge) float64 { return c })
		ev, err := Spectrum(g)
		require.NoError(t, err, "c = %g", c)
		for i := range ev {
			assert.InDelta(t, ref[i], ev[i]/c, 64*6*eps*4, "c = %g, λ_%d", c, i+1)
		}
		l2, f, err := AlgebraicConnectivity(g)
		require.NoError(t, err, "c = %g", c)
		assert.InEpsilon(t, ref[1], l2/c, 1e-12, "c = %g", c)
		assert.InDelta(t, 1, f.Norm(2), 1e-14)
	}
	// Weights spanning the whole range: no panic, λ₂ of the weak link
	// cannot be resolved but the call returns.
	g := graphOf(t, 3, Edge{0, 1, MaxWeight}, Edge{1, 2, MinWeight})
	_, err := Spectrum(g)
	require.NoError(t, err)
	_, _, err = AlgebraicConnectivity(g)
	require.NoError(t, err)
}

func TestDenseTooLarge(t *testing.T) {
	// A million-node path is cheap as a graph but its dense Laplacian
	// needs 8 TB: an error, not an out-of-memory crash.
	g := must(Path(1 << 20))
	_, err := Spectrum(g)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, _, err = AlgebraicConnectivity(g)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	l, err := g.Laplacian()
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "1048576")
	assert.Nil(t, l)
	_, _, err = LiftedLaplacian(g)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}
