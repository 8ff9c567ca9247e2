package codedload

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

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

// adjList is a minimal Graph for FromGraph.
type adjList [][]int32

func (a adjList) Order() int              { return len(a) }
func (a adjList) Neighbors(u int) []int32 { return a[u] }

func TestFromGraphBFS(t *testing.T) {
	// A torus given as a plain graph must reproduce the closed-form
	// distances: BFS against the ring search.
	s := 6
	tor := &Torus{Side: s}
	a := make(adjList, s*s)
	for u := range a {
		r, c := u/s, u%s
		a[u] = []int32{int32(mod(r+1, s)*s + c), int32(mod(r-1, s)*s + c), int32(r*s + mod(c+1, s)), int32(r*s + mod(c-1, s))}
	}
	w, err := FromGraph(a)
	require.NoError(t, err)
	for u := 0; u < s*s; u++ {
		assert.Equal(t, shells(t, tor, u), shells(t, w, u))
	}
	_, err = FromGraph(adjList{{1}, {}})
	assert.ErrorContains(t, err, "listed at 0 only")
	_, err = FromGraph(adjList{{1}, {0}, {3}, {2}})
	assert.ErrorContains(t, err, "not connected")
	_, err = FromGraph(adjList{{0}})
	assert.ErrorContains(t, err, "Order = 1")
	_, err = FromGraph(adjList{{1}, {0, 0, 5}})
	assert.ErrorContains(t, err, "out of range")
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

func TestRGGMatchesBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	n := 600
	xs, ys := make([]float64, n), make([]float64, n)
	for i := range xs {
		xs[i], ys[i] = rnd.Float64(), rnd.Float64()
	}
	for _, r := range []float64{0.03, RGGRadius(n), 0.4, 2} {
		w := rggFrom(xs, ys, r)
		for i := 0; i < n; i++ {
			want := []int32{}
			for j := 0; j < n; j++ {
				if j != i && math.Hypot(xs[i]-xs[j], ys[i]-ys[j]) <= r {
					want = append(want, int32(j))
				}
			}
			got := slices.Clone(w.Neighbors(i))
			slices.Sort(got)
			require.Equal(t, want, got, "r=%v node %d", r, i)
		}
	}
}

func TestNewRGG(t *testing.T) {
	w, err := NewRGG(2025, 0, rand.NewPCG(5, 5))
	require.NoError(t, err)
	require.True(t, w.connected())
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
}

func TestNewRegular(t *testing.T) {
	for _, c := range []struct{ n, d int }{{10, 3}, {100, 3}, {1000, 4}, {64, 7}, {500, 10}} {
		w, err := NewRegular(c.n, c.d, rand.NewPCG(uint64(c.n), uint64(c.d)))
		require.NoError(t, err)
		for u := 0; u < c.n; u++ {
			nb := slices.Clone(w.Neighbors(u))
			require.Len(t, nb, c.d)
			slices.Sort(nb)
			for i, v := range nb {
				require.NotEqual(t, int32(u), v, "self-loop")
				if i > 0 {
					require.NotEqual(t, nb[i-1], v, "multi-edge")
				}
				require.True(t, w.hasArc(int(v), int32(u)))
			}
		}
		require.True(t, w.connected())
	}
	_, err := NewRegular(11, 3, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "Degree·Order = 3·11")
	_, err = NewRegular(10, 10, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "Degree = 10")
}

func FuzzFromGraph(f *testing.F) {
	f.Add([]byte{1, 0, 2, 1})
	f.Add([]byte{3, 1, 2, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Bytes are read as pairs (u, v) of a graph on 8 nodes, listed in
		// both directions only when the pair's first byte is even.
		const n = 8
		a := make(adjList, n)
		for i := 0; i+1 < len(data); i += 2 {
			u, v := int(data[i]%n), int(data[i+1]%(n+1)) // v = 8 is out of range
			a[u] = append(a[u], int32(v))
			if data[i]%2 == 0 && v < n {
				a[v] = append(a[v], int32(u))
			}
		}
		w, err := FromGraph(a)
		if err != nil {
			require.Contains(t, err.Error(), "codedload: ")
			return
		}
		// A valid graph is connected and symmetric: full searches from
		// every node list every node once at its distance.
		for u := 0; u < n; u++ {
			shells(t, w, u)
		}
	})
}

// plainBFS returns the hop distances from u by the textbook queue-based
// breadth-first search (−1 for unreachable nodes), the reference for the
// level-synchronous and bidirectional searches.
func plainBFS(w *Network, u int) []int {
	dist := make([]int, w.Order())
	for i := range dist {
		dist[i] = -1
	}
	dist[u] = 0
	queue := []int{u}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, y := range w.Neighbors(x) {
			if dist[y] < 0 {
				dist[y] = dist[x] + 1
				queue = append(queue, int(y))
			}
		}
	}
	return dist
}

func TestNetworkDistBidirectional(t *testing.T) {
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
	path := make(adjList, 60)
	for i := range path {
		if i > 0 {
			path[i] = append(path[i], int32(i-1))
		}
		if i+1 < len(path) {
			path[i] = append(path[i], int32(i+1))
		}
	}
	line, err := FromGraph(path)
	require.NoError(t, err)
	// A random tree (each node joins a uniform earlier one): long, thin
	// paths where the two frontiers differ most in size.
	rnd := rand.New(rand.NewPCG(11, 4))
	tree := make(adjList, 700)
	for i := 1; i < len(tree); i++ {
		j := rnd.IntN(i)
		tree[i] = append(tree[i], int32(j))
		tree[j] = append(tree[j], int32(i))
	}
	tw, err := FromGraph(tree)
	require.NoError(t, err)
	for name, w := range map[string]*Network{"rgg": rgg, "regular3": reg3, "regular6": reg6, "path": line, "tree": tw} {
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
	two := &Network{off: []int64{0, 1, 2, 3, 5, 6}, adj: []int32{1, 0, 3, 2, 4, 3}}
	q := two.newSearch()
	q.start(0)
	assert.Equal(t, -1, q.dist(4))
	q.start(2)
	assert.Equal(t, 2, q.dist(4))
}
