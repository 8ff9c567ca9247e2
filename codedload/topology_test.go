package codedload

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shells runs a full search from u and checks that the shells partition the
// nodes with the right distances, returning the shell sizes.
func shells(t *testing.T, top Topology, u int) []int {
	t.Helper()
	q := top.newSearch()
	q.start(u)
	seen := make([]bool, top.Order())
	var sizes []int
	last := -1
	for {
		d, nodes, ok := q.next()
		if !ok {
			break
		}
		require.Greater(t, d, last, "distances must increase")
		last = d
		for len(sizes) <= d {
			sizes = append(sizes, 0)
		}
		for _, v := range nodes {
			require.False(t, seen[v], "node %d listed twice", v)
			seen[v] = true
			require.Equal(t, d, top.Dist(u, int(v)), "shell distance of %d from %d", v, u)
		}
		sizes[d] += len(nodes)
	}
	for v, s := range seen {
		require.True(t, s, "node %d never listed from %d", v, u)
	}
	return sizes
}

func TestTorusDistanceHistogramCheckD(t *testing.T) {
	// Spec §8 D.
	want := map[int][]int{
		3:  {1, 4, 4},
		4:  {1, 4, 6, 4, 1},
		5:  {1, 4, 8, 8, 4},
		10: {1, 4, 8, 12, 16, 18, 16, 12, 8, 4, 1},
	}
	for s, w := range want {
		tor := &Torus{Side: s}
		for u := 0; u < s*s; u++ {
			assert.Equal(t, w, shells(t, tor, u), "side %d from %d", s, u)
		}
	}
}

func TestTorusGeometryCheckD(t *testing.T) {
	// Spec §8 D mean distances, printed to 6 decimals.
	specMean := map[int]float64{10: 5, 32: 16, 45: 22.488889, 71: 35.492958, 100: 50}
	for _, s := range []int{3, 4, 7, 10, 32, 45, 71, 100} {
		tor := &Torus{Side: s}
		n := s * s
		// Diameter 2⌊s/2⌋ with 1 antipode (even side) or 4 (odd side).
		diam, antipodes := 0, 0
		var sum float64
		for v := 0; v < n; v++ {
			d := tor.Dist(0, v)
			sum += float64(d)
			if d > diam {
				diam, antipodes = d, 0
			}
			if d == diam {
				antipodes++
			}
		}
		assert.Equal(t, 2*(s/2), diam)
		if s%2 == 0 {
			assert.Equal(t, 1, antipodes)
		} else {
			assert.Equal(t, 4, antipodes)
		}
		// Mean distance s/2 (even) or (s²−1)/(2s) (odd); sums of integers
		// are exact, the division rounds once.
		want := float64(s) / 2
		if s%2 == 1 {
			want = float64(s*s-1) / float64(2*s)
		}
		assert.InDelta(t, want, sum/float64(n), 1e-12)
		if v, ok := specMean[s]; ok {
			assert.InDelta(t, v, sum/float64(n), 5e-7, "side %d", s)
		}
	}
}

func TestTorusMetricProperties(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 3))
	for _, m := range []TorusMetric{WrapExact, WrapLegacy} {
		tor := &Torus{Side: 9, Metric: m}
		for range 2000 {
			a, b, c := rnd.IntN(81), rnd.IntN(81), rnd.IntN(81)
			assert.Equal(t, tor.Dist(a, b), tor.Dist(b, a))
			if m == WrapExact { // the legacy metric is not a metric
				assert.LessOrEqual(t, tor.Dist(a, c), tor.Dist(a, b)+tor.Dist(b, c))
			}
			assert.Equal(t, a == b, tor.Dist(a, b) == 0)
		}
	}
}

func TestTorusLegacyShells(t *testing.T) {
	// The legacy search must list every node once at its legacy distance,
	// which is never below the exact one and differs only for pairs that
	// wrap in both coordinates (spec §3.1).
	for _, s := range []int{3, 4, 5, 8, 11} {
		leg := &Torus{Side: s, Metric: WrapLegacy}
		ex := &Torus{Side: s}
		differ := 0
		for u := 0; u < s*s; u++ {
			shells(t, leg, u)
			for v := 0; v < s*s; v++ {
				require.GreaterOrEqual(t, leg.Dist(u, v), ex.Dist(u, v))
				if leg.Dist(u, v) != ex.Dist(u, v) {
					differ++
				}
			}
		}
		if s >= 5 {
			assert.Positive(t, differ, "side %d", s)
		}
	}
	// Hand example on side 10: (0,0)–(9,9) wraps in both coordinates:
	// exact 1+1 = 2, legacy min(18, 1+9, 9+1) = 10.
	leg := &Torus{Side: 10, Metric: WrapLegacy}
	assert.Equal(t, 10, leg.Dist(0, 99))
	assert.Equal(t, 2, (&Torus{Side: 10}).Dist(0, 99))
}

func TestGridShells(t *testing.T) {
	g, err := NewGrid(4, 7)
	require.NoError(t, err)
	for u := 0; u < g.Order(); u++ {
		sizes := shells(t, g, u)
		assert.Len(t, sizes, 1+max(u/7, 3-u/7)+max(u%7, 6-u%7))
	}
	_, err = NewGrid(0, 5)
	assert.ErrorContains(t, err, "0×5")
}

func TestHypercubeBinomialShells(t *testing.T) {
	for m := 1; m <= 10; m++ {
		h := &Hypercube{Dim: m}
		sizes := shells(t, h, (1<<m)/3)
		for d, c := range sizes {
			// C(m, d) nodes at Hamming distance d.
			want := 1
			for i := 0; i < d; i++ {
				want = want * (m - i) / (i + 1)
			}
			assert.Equal(t, want, c, "m=%d d=%d", m, d)
		}
	}
	_, err := NewHypercube(12)
	assert.ErrorContains(t, err, "Order = 12")
	h, err := NewHypercube(1024)
	require.NoError(t, err)
	assert.Equal(t, 10, h.Dim)
	assert.Equal(t, bits.OnesCount(5^1000), h.Dist(5, 1000))
}

func TestNewTorusErrors(t *testing.T) {
	_, err := NewTorus(50)
	assert.ErrorContains(t, err, "Order = 50")
	tor, err := NewTorus(2025)
	require.NoError(t, err)
	assert.Equal(t, 45, tor.Side)
}

// edgeGraph returns the unit-weight graph on n nodes with the given
// edges, repeated pairs allowed (Builder semantics).
func edgeGraph(t testing.TB, n int, edges [][2]int) *wgraph.Graph {
	t.Helper()
	b, err := wgraph.NewBuilder(n)
	require.NoError(t, err)
	for _, e := range edges {
		require.NoError(t, b.SetEdge(e[0], e[1], 1))
	}
	return b.Build()
}

func TestFromGraphBFS(t *testing.T) {
	// A torus given as a plain graph must reproduce the closed-form
	// distances: BFS against the ring search.
	s := 6
	tor := &Torus{Side: s}
	var es [][2]int
	for u := range s * s {
		r, c := u/s, u%s
		es = append(es, [2]int{u, mod(r+1, s)*s + c}, [2]int{u, r*s + mod(c+1, s)})
	}
	w, err := FromGraph(edgeGraph(t, s*s, es))
	require.NoError(t, err)
	for u := 0; u < s*s; u++ {
		assert.Equal(t, shells(t, tor, u), shells(t, w, u))
	}
	_, err = FromGraph(edgeGraph(t, 4, [][2]int{{0, 1}, {2, 3}}))
	assert.ErrorIs(t, err, loadlab.ErrDisconnected)
	assert.ErrorContains(t, err, "node 2 is not reachable from node 0")
	_, err = FromGraph(edgeGraph(t, 1, nil))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "Order = 1")
	assert.PanicsWithValue(t, "codedload: FromGraph: nil graph g", func() { FromGraph(nil) })
}

func TestRGGRadiusCheckI(t *testing.T) {
	// Spec §8 I, printed to 5 and 2 decimals.
	for _, c := range []struct {
		n       int
		r, area float64
	}{{1024, 0.09199, 27.22}, {2025, 0.06855, 29.90}, {10000, 0.03393, 36.17}} {
		r := RGGRadius(c.n)
		assert.InDelta(t, c.r, r, 5e-6)
		assert.InDelta(t, c.area, float64(c.n)*math.Pi*r*r, 5e-3)
	}
}

func TestNewRGG(t *testing.T) {
	w, err := NewRGG(2025, 0, rand.NewPCG(5, 5))
	require.NoError(t, err)
	require.True(t, wgraph.IsConnected(w.Graph()))
	rnd := rand.New(rand.NewPCG(6, 6))
	for range 50 {
		u, v := rnd.IntN(2025), rnd.IntN(2025)
		assert.Equal(t, w.Dist(u, v), w.Dist(v, u))
	}
	// The mean degree is below nπr² = 29.90 because of the boundary
	// (spec §8 I). Points within r of the border lose at most half their
	// disc, a fraction ≈ 4r = 27% of the points, so the mean stays above
	// 29.90·(1 − 0.27/2) ≈ 25.9; 24 leaves room for sampling noise (the
	// mean of 2025 correlated degrees of variance ≈ 30 has sd < 0.3).
	mean := float64(2*w.Size()) / 2025
	assert.Less(t, mean, 29.90)
	assert.Greater(t, mean, 24.0)
	_, err = NewRGG(1, 0, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "Order = 1")
	// A tiny radius ends the 100 attempts quickly in a named error (guards:
	// a 4 GiB bucket array per attempt): gen.RandomGeometric's cell grid has at most
	// (√n + 1)² cells.
	_, err = NewRGG(50, 1e-9, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrDisconnected)
	_, err = NewRGG(2, math.NaN(), rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.PanicsWithValue(t, "codedload: NewRGG: nil rand.Source src", func() { NewRGG(10, 0, nil) })
}

func TestNewRegular(t *testing.T) {
	for _, c := range []struct{ n, d int }{{10, 3}, {100, 3}, {1000, 4}, {64, 7}, {500, 10}} {
		w, err := NewRegular(c.n, c.d, rand.NewPCG(uint64(c.n), uint64(c.d)))
		require.NoError(t, err)
		g := w.Graph()
		for u := 0; u < c.n; u++ {
			nb := g.Neighbors(u)
			require.Len(t, nb, c.d)
			for i, v := range nb {
				require.NotEqual(t, int32(u), v, "self-loop")
				if i > 0 {
					require.Less(t, nb[i-1], v, "multi-edge or unsorted")
				}
				require.True(t, g.HasEdge(int(v), u))
			}
		}
		require.True(t, wgraph.IsConnected(g))
	}
	_, err := NewRegular(11, 3, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "Degree·Order = 3·11")
	_, err = NewRegular(10, 10, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "Degree = 10")
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	// A perfect matching on more than 2 nodes is never connected.
	_, err = NewRegular(10, 1, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrDisconnected)
	assert.PanicsWithValue(t, "codedload: NewRegular: nil rand.Source src", func() { NewRegular(10, 3, nil) })
}

func FuzzFromGraph(f *testing.F) {
	f.Add([]byte{1, 0, 2, 1})
	f.Add([]byte{3, 1, 2, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Bytes are read as pairs (u, v) of a graph on 8 nodes; loops are
		// skipped.
		const n = 8
		var es [][2]int
		for i := 0; i+1 < len(data); i += 2 {
			if u, v := int(data[i]%n), int(data[i+1]%n); u != v {
				es = append(es, [2]int{u, v})
			}
		}
		g := edgeGraph(t, n, es)
		w, err := FromGraph(g)
		if err != nil {
			require.ErrorIs(t, err, loadlab.ErrDisconnected)
			require.False(t, wgraph.IsConnected(g))
			return
		}
		// A valid graph is connected: full searches from every node list
		// every node once at its distance.
		for u := 0; u < n; u++ {
			shells(t, w, u)
		}
	})
}

// plainBFS returns the hop distances from u by the textbook queue-based
// breadth-first search (−1 for unreachable nodes), the reference for the
// level-synchronous and bidirectional searches.
func plainBFS(w *GraphTopology, u int) []int {
	dist := make([]int, w.Order())
	for i := range dist {
		dist[i] = -1
	}
	dist[u] = 0
	queue := []int{u}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, y := range w.Graph().Neighbors(x) {
			if dist[y] < 0 {
				dist[y] = dist[x] + 1
				queue = append(queue, int(y))
			}
		}
	}
	return dist
}

func TestGraphTopologyDistBidirectional(t *testing.T) {
	// The bidirectional dist must give plain BFS distances whatever the
	// number of levels the origin's search had already discovered (two
	// choices (b) calls it after finding the nearest holder), for any
	// target, with one searcher reused over many origins.
	rgg, err := NewRGG(800, 0, rand.NewPCG(11, 1))
	require.NoError(t, err)
	reg3, err := NewRegular(1000, 3, rand.NewPCG(11, 2))
	require.NoError(t, err)
	reg6, err := NewRegular(500, 6, rand.NewPCG(11, 3))
	require.NoError(t, err)
	line, err := FromGraph(mustGraph(gen.Path(60)))
	require.NoError(t, err)
	// A random tree (each node joins a uniform earlier one): long, thin
	// paths where the two frontiers differ most in size.
	rnd := rand.New(rand.NewPCG(11, 4))
	var tree [][2]int
	for i := 1; i < 700; i++ {
		tree = append(tree, [2]int{i, rnd.IntN(i)})
	}
	tw, err := FromGraph(edgeGraph(t, 700, tree))
	require.NoError(t, err)
	for name, w := range map[string]*GraphTopology{"rgg": rgg, "regular3": reg3, "regular6": reg6, "path": line, "tree": tw} {
		q := w.newSearch()
		for range 40 {
			u := rnd.IntN(w.Order())
			ref := plainBFS(w, u)
			for range 25 {
				v := rnd.IntN(w.Order())
				levels := rnd.IntN(4) // levels found before dist: none, origin, …
				q.start(u)
				for range levels {
					q.next()
				}
				require.Equal(t, ref[v], q.dist(v), "%s: %d→%d after %d levels", name, u, v, levels)
			}
			v := rnd.IntN(w.Order())
			require.Equal(t, ref[v], w.Dist(u, v), "%s: Dist(%d, %d)", name, u, v)
			require.Equal(t, 0, w.Dist(u, u))
		}
	}
	// Two components (built directly: FromGraph rejects them): −1 across,
	// exact within.
	two := &GraphTopology{g: edgeGraph(t, 5, [][2]int{{0, 1}, {2, 3}, {3, 4}})}
	q := two.newSearch()
	q.start(0)
	assert.Equal(t, -1, q.dist(4))
	q.start(2)
	assert.Equal(t, 2, q.dist(4))
}

// TestLargestTorus: the largest side whose node indices fit in int32 is
// accepted (beyond it: validate_test.go), and distances wrap.
func TestLargestTorus(t *testing.T) {
	tor, err := NewTorus(46340 * 46340)
	require.NoError(t, err)
	assert.NoError(t, tor.Validate())
	small := &Torus{Side: 10}
	assert.Equal(t, 2, small.Dist(0, 99)) // (0,0)–(9,9): one wrap each way
}
