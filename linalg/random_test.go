package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// zMC is the number of standard errors allowed in the frequency tests of
// this file: a false alarm has probability about 6e-7 per comparison.
const zMC = 5

func pcg(seed uint64) rand.Source { return rand.NewPCG(seed, 0x5eed) }

// sameEdges reports whether g and h have the same edges and weights.
func sameEdges(t *testing.T, g, h *Graph, msg string) {
	t.Helper()
	assert.Equal(t, g.Order(), h.Order(), msg)
	assert.Equal(t, g.Edges(), h.Edges(), msg)
}

// checkSimple fails unless every adjacency list is free of loops and
// repeats and agrees with the other endpoint's list.
func checkSimple(t *testing.T, g *Graph) {
	t.Helper()
	m := 0
	for u := range g.Order() {
		seen := map[int]bool{}
		for i, x := range g.Neighbors(u) {
			v := int(x)
			require.NotEqual(t, u, v, "loop at %d", u)
			require.False(t, seen[v], "repeated edge {%d, %d}", u, v)
			seen[v] = true
			require.Equal(t, g.Weights(u)[i], g.Weight(v, u))
			m++
		}
	}
	require.Equal(t, 2*g.Size(), m)
}

func TestErdosRenyiPairFrequencies(t *testing.T) {
	// Every one of the 10 pairs of G(5, 0.3) must be an edge with
	// frequency 0.3: this catches off-by-one errors in the geometric skips.
	const n, p, draws = 5, 0.3, 20000
	src := pcg(1)
	count := map[[2]int]int{}
	for range draws {
		g, err := ErdosRenyi(n, p, false, src)
		require.NoError(t, err)
		checkSimple(t, g)
		for _, e := range g.Edges() {
			count[[2]int{e.U, e.V}]++
		}
	}
	se := math.Sqrt(p * (1 - p) / draws) // binomial standard error
	for u := range n {
		for v := u + 1; v < n; v++ {
			f := float64(count[[2]int{u, v}]) / draws
			assert.InDelta(t, p, f, zMC*se, "pair {%d, %d}", u, v)
		}
	}
	assert.Len(t, count, 10)
}

func TestErdosRenyiEdgeCount(t *testing.T) {
	// m ~ Binomial(n(n−1)/2, p).
	for _, tc := range []struct {
		n int
		p float64
	}{{2000, 0.01}, {300, 0.5}, {100, 0.97}, {10000, 2e-4}} {
		g, err := ErdosRenyi(tc.n, tc.p, false, pcg(uint64(tc.n)))
		require.NoError(t, err)
		checkSimple(t, g)
		pairs := float64(tc.n) * float64(tc.n-1) / 2
		sd := math.Sqrt(pairs * tc.p * (1 - tc.p))
		assert.InDelta(t, pairs*tc.p, float64(g.Size()), zMC*sd, "n=%d p=%v", tc.n, tc.p)
	}
	g, err := ErdosRenyi(7, 1, false, pcg(1))
	require.NoError(t, err)
	assert.Equal(t, 21, g.Size())
	g, err = ErdosRenyi(7, 0, false, pcg(1))
	require.NoError(t, err)
	assert.Equal(t, 0, g.Size())
}

func TestErdosRenyiConnected(t *testing.T) {
	// G(3, 1/2): P(connected) = 3p²(1−p) + p³ = 1/2 and P(triangle) = 1/8,
	// so conditioned on connectivity the triangle has probability 1/4.
	const draws = 20000
	src := pcg(2)
	tri := 0
	for range draws {
		g, err := ErdosRenyi(3, 0.5, true, src)
		require.NoError(t, err)
		require.True(t, IsConnected(g))
		if g.Size() == 3 {
			tri++
		}
	}
	assert.InDelta(t, 0.25, float64(tri)/draws, zMC*math.Sqrt(0.25*0.75/draws))

	n := 500
	p := 1.5 * math.Log(float64(n)) / float64(n)
	g, err := ErdosRenyi(n, p, true, pcg(3))
	require.NoError(t, err)
	assert.True(t, IsConnected(g))

	_, err = ErdosRenyi(1000, 0.001, true, pcg(4))
	assert.ErrorContains(t, err, "p = 0.001 too small")
	_, err = ErdosRenyi(10, 1.5, false, pcg(4))
	assert.ErrorContains(t, err, "p = 1.5")
	_, err = ErdosRenyi(10, math.NaN(), false, pcg(4))
	assert.ErrorContains(t, err, "p = NaN")
	_, err = ErdosRenyi(-1, 0.5, false, pcg(4))
	assert.ErrorContains(t, err, "n = -1")
}

func TestRandomDeterministic(t *testing.T) {
	for name, f := range map[string]func(rand.Source) (*Graph, error){
		"ER":      func(s rand.Source) (*Graph, error) { return ErdosRenyi(200, 0.05, true, s) },
		"regular": func(s rand.Source) (*Graph, error) { return RandomRegular(200, 3, s) },
		"SW":      func(s rand.Source) (*Graph, error) { return RandomRegular(200, 8, s) },
		"RGG":     func(s rand.Source) (*Graph, error) { return RandomGeometric(200, 0.1, true, s) },
	} {
		a, err := f(pcg(9))
		require.NoError(t, err)
		b, err := f(pcg(9))
		require.NoError(t, err)
		sameEdges(t, a, b, name)
		c, err := f(pcg(10))
		require.NoError(t, err)
		assert.NotEqual(t, a.Edges(), c.Edges(), name)
	}
}

func TestRandomRegularDegrees(t *testing.T) {
	for _, tc := range []struct{ n, d int }{
		{10, 0}, {2, 1}, {3, 2}, {4, 3}, {6, 3}, {1000, 3}, {999, 4},
		{1000, 5}, {500, 10}, {40, 19}, {12, 5}, {10, 7}, {11, 8}, {50, 49},
	} {
		g, err := RandomRegular(tc.n, tc.d, pcg(uint64(tc.n*100+tc.d)))
		require.NoError(t, err, "n=%d d=%d", tc.n, tc.d)
		checkSimple(t, g)
		for u := range tc.n {
			require.Equal(t, tc.d, g.Degree(u), "n=%d d=%d node %d", tc.n, tc.d, u)
		}
	}
}

func TestRandomRegularUniform(t *testing.T) {
	// There are 70 labelled cubic graphs on 6 nodes: 10 copies of K_{3,3}
	// and 60 prisms (6!/72 and 6!/12 by their automorphism groups). A
	// uniform sampler gives K_{3,3}, the triangle-free one, with
	// probability 1/7.
	const draws = 14000
	src := pcg(5)
	bip := 0
	for range draws {
		g, err := RandomRegular(6, 3, src)
		require.NoError(t, err)
		if !hasTriangle(g) {
			bip++
		}
	}
	p := 1.0 / 7
	assert.InDelta(t, p, float64(bip)/draws, zMC*math.Sqrt(p*(1-p)/draws))
}

func TestStegerWormaldNearUniform(t *testing.T) {
	// The Steger–Wormald process (used for d ≥ 5) against exact rejection
	// sampling, both at n = 200, d = 5: the mean number of triangles must
	// agree. Triangle counts are nearly Poisson with mean ≈ (d−1)³/6 ≈ 10.7,
	// so the difference of two means over 300 samples each has standard
	// error ≈ sqrt(2·10.7/300) ≈ 0.27.
	const n, d, draws = 200, 5, 300
	rnd := rand.New(pcg(11))
	var sw, ex []float64
	for range draws {
		g, err := pairing(n, d, false, rnd)
		require.NoError(t, err)
		sw = append(sw, float64(triangles(g)))
		g, err = pairing(n, d, true, rnd)
		require.NoError(t, err)
		ex = append(ex, float64(triangles(g)))
	}
	ms, me := mean(sw), mean(ex)
	t.Logf("triangles: SW %.3f, exact %.3f", ms, me)
	se := math.Sqrt(variance(sw)/draws + variance(ex)/draws)
	assert.InDelta(t, me, ms, zMC*se, "SW %.3g vs exact %.3g", ms, me)
	// Both near the asymptotic (d−1)³/6; loose check (finite-n bias).
	assert.InDelta(t, 64.0/6, me, 2)
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func variance(xs []float64) float64 {
	m, s := mean(xs), 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return s / float64(len(xs)-1)
}

// triangles counts the triangles of g.
func triangles(g *Graph) int {
	c := 0
	for _, e := range g.Edges() {
		for _, w := range g.Neighbors(e.U) {
			if int(w) > e.V && g.HasEdge(int(w), e.V) {
				c++
			}
		}
	}
	return c
}

func hasTriangle(g *Graph) bool {
	for _, e := range g.Edges() {
		for _, w := range g.Neighbors(e.U) {
			if int(w) != e.V && g.HasEdge(int(w), e.V) {
				return true
			}
		}
	}
	return false
}

func TestRandomRegularErrors(t *testing.T) {
	for _, tc := range []struct {
		n, d int
		msg  string
	}{
		{0, 0, "n = 0"}, {5, -1, "d = -1"}, {5, 5, "d = 5"}, {5, 3, "odd"},
	} {
		_, err := RandomRegular(tc.n, tc.d, pcg(1))
		assert.ErrorContains(t, err, tc.msg)
	}
}

// bruteGeometric joins every pair at distance ≤ r, O(n²).
func bruteGeometric(pts []r2.Vec, r float64, torus bool) *Graph {
	var p pairs
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			dx, dy := math.Abs(pts[i].X-pts[j].X), math.Abs(pts[i].Y-pts[j].Y)
			if torus {
				dx, dy = math.Min(dx, 1-dx), math.Min(dy, 1-dy)
			}
			if dx*dx+dy*dy <= r*r {
				p.add(i, j)
			}
		}
	}
	return p.graph(len(pts))
}

func TestRandomGeometricMatchesBruteForce(t *testing.T) {
	for _, torus := range []bool{false, true} {
		for _, n := range []int{0, 1, 2, 50, 400} {
			for _, r := range []float64{0, 0.01, 0.05, 0.2, 0.34, 0.5, 0.8, 1.5} {
				g, pts, err := RandomGeometricPoints(n, r, torus, pcg(uint64(n)))
				require.NoError(t, err)
				require.Len(t, pts, n)
				for _, p := range pts {
					require.True(t, p.X >= 0 && p.X < 1 && p.Y >= 0 && p.Y < 1)
				}
				checkSimple(t, g)
				sameEdges(t, bruteGeometric(pts, r, torus), g, "RGG")
			}
		}
	}
	_, err := RandomGeometric(10, -0.1, false, pcg(1))
	assert.ErrorContains(t, err, "r = -0.1")
	_, err = RandomGeometric(10, math.Inf(1), false, pcg(1))
	assert.ErrorContains(t, err, "r = +Inf")
	_, err = RandomGeometric(-3, 0.1, false, pcg(1))
	assert.ErrorContains(t, err, "n = -3")
}

func TestRandomGeometricMeanDegree(t *testing.T) {
	// On the torus every point sees area πr² (r ≤ 1/2) wherever it is, so
	// the edge indicators of the N = n(n−1)/2 pairs are pairwise
	// independent Bernoulli(πr²): m has mean Nπr² and variance
	// Nπr²(1−πr²) exactly, and the mean degree is 2m/n.
	const n, r = 20000, 0.01
	g, err := RandomGeometric(n, r, true, pcg(7))
	require.NoError(t, err)
	q := math.Pi * r * r
	mean := 2 * float64(g.Size()) / n
	sd := 2 * math.Sqrt(float64(n)*(n-1)/2*q*(1-q)) / n
	assert.InDelta(t, (n-1)*q, mean, zMC*sd)
}

func TestRandomRegularUniformChiSquare(t *testing.T) {
	// The law stated in doc.go: for d ≤ 4 every labelled simple d-regular
	// graph is equally likely. Count each labelled graph (its edge list)
	// and compare with the uniform law by Pearson's χ² statistic, whose
	// mean is k−1 and standard deviation √(2(k−1)) for k classes; 6
	// standard deviations above the mean is a false-alarm rate below 1e-6.
	// Cubic graphs on 6 nodes: 70 labelled graphs (see above). 4-regular
	// graphs on 7 nodes, drawn as complements of 2-regular graphs (the
	// d > (n−1)/2 branch): as many as 2-regular ones, 360 seven-cycles and
	// 105 triangle-plus-square.
	for _, c := range []struct{ n, d, classes int }{{6, 3, 70}, {7, 4, 465}} {
		draws := 60 * c.classes
		src := pcg(uint64(c.n))
		count := map[string]int{}
		for range draws {
			g, err := RandomRegular(c.n, c.d, src)
			require.NoError(t, err)
			count[fmt.Sprint(g.Edges())]++
		}
		require.Len(t, count, c.classes, "n=%d d=%d: every labelled graph occurs", c.n, c.d)
		want := float64(draws) / float64(c.classes)
		var chi2 float64
		for _, k := range count {
			chi2 += (float64(k) - want) * (float64(k) - want) / want
		}
		dof := float64(c.classes - 1)
		t.Logf("n=%d d=%d: χ² = %.1f on %v degrees of freedom", c.n, c.d, chi2, dof)
		assert.Less(t, chi2, dof+6*math.Sqrt(2*dof), "n=%d d=%d", c.n, c.d)
	}
}

func TestRandomSizesAndNilSource(t *testing.T) {
	// Sizes that would not fit in memory are errors before anything is
	// drawn or allocated (issue 11), whatever the float parameter.
	_, err := RandomGeometric(1<<20, 10, false, pcg(1)) // complete: 5e11 edges
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = RandomGeometric(1<<40, 0.001, false, pcg(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = ErdosRenyi(1<<20, 1, false, pcg(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = RandomRegular(1<<30, 20, pcg(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = RandomRegular(1<<40, 3, pcg(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = ErdosRenyi(10, math.NaN(), false, pcg(1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = RandomGeometric(10, math.NaN(), false, pcg(1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	// A tiny radius costs O(n): at most (√n + 1)² cells.
	g, err := RandomGeometric(50, 1e-300, true, pcg(1))
	require.NoError(t, err)
	assert.Equal(t, 0, g.Size())
	// A nil source is a documented panic naming the argument.
	assert.PanicsWithValue(t, "linalg: ErdosRenyi: nil rand.Source src", func() { ErdosRenyi(5, 0.5, false, nil) })
	assert.PanicsWithValue(t, "linalg: RandomRegular: nil rand.Source src", func() { RandomRegular(6, 3, nil) })
	assert.PanicsWithValue(t, "linalg: RandomGeometric: nil rand.Source src", func() { RandomGeometric(5, 0.1, false, nil) })
}
