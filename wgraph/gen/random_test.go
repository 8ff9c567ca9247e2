package gen_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/spatial/r2"
)

// zMC is the number of standard errors allowed in the frequency tests of
// this file: a false alarm has probability about 6e-7 per comparison.
const zMC = 5

// sameEdges reports whether g and h have the same edges and weights.
func sameEdges(t *testing.T, g, h *wgraph.Graph, msg string) {
	t.Helper()
	assert.Equal(t, g.Order(), h.Order(), msg)
	assert.Equal(t, g.Edges(), h.Edges(), msg)
}

// checkSimple fails unless every adjacency list is free of loops and
// repeats and agrees with the other endpoint's list.
func checkSimple(t *testing.T, g *wgraph.Graph) {
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
	src := graphtest.PCG(1)
	count := map[[2]int]int{}
	for range draws {
		g, err := gen.ErdosRenyi(n, p, false, src)
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
		g, err := gen.ErdosRenyi(tc.n, tc.p, false, graphtest.PCG(uint64(tc.n)))
		require.NoError(t, err)
		checkSimple(t, g)
		pairs := float64(tc.n) * float64(tc.n-1) / 2
		sd := math.Sqrt(pairs * tc.p * (1 - tc.p))
		assert.InDelta(t, pairs*tc.p, float64(g.Size()), zMC*sd, "n=%d p=%v", tc.n, tc.p)
	}
	g, err := gen.ErdosRenyi(7, 1, false, graphtest.PCG(1))
	require.NoError(t, err)
	assert.Equal(t, 21, g.Size())
	g, err = gen.ErdosRenyi(7, 0, false, graphtest.PCG(1))
	require.NoError(t, err)
	assert.Equal(t, 0, g.Size())
}

func TestErdosRenyiConnected(t *testing.T) {
	// G(3, 1/2): P(connected) = 3p²(1−p) + p³ = 1/2 and P(triangle) = 1/8,
	// so conditioned on connectivity the triangle has probability 1/4.
	const draws = 20000
	src := graphtest.PCG(2)
	tri := 0
	for range draws {
		g, err := gen.ErdosRenyi(3, 0.5, true, src)
		require.NoError(t, err)
		require.True(t, wgraph.IsConnected(g))
		if g.Size() == 3 {
			tri++
		}
	}
	assert.InDelta(t, 0.25, float64(tri)/draws, zMC*math.Sqrt(0.25*0.75/draws))

	n := 500
	p := 1.5 * math.Log(float64(n)) / float64(n)
	g, err := gen.ErdosRenyi(n, p, true, graphtest.PCG(3))
	require.NoError(t, err)
	assert.True(t, wgraph.IsConnected(g))

	_, err = gen.ErdosRenyi(1000, 0.001, true, graphtest.PCG(4))
	assert.ErrorContains(t, err, "p = 0.001 too small")
	_, err = gen.ErdosRenyi(10, 1.5, false, graphtest.PCG(4))
	assert.ErrorContains(t, err, "p = 1.5")
	_, err = gen.ErdosRenyi(10, math.NaN(), false, graphtest.PCG(4))
	assert.ErrorContains(t, err, "p = NaN")
	_, err = gen.ErdosRenyi(-1, 0.5, false, graphtest.PCG(4))
	assert.ErrorContains(t, err, "n = -1")
}

func TestRandomDeterministic(t *testing.T) {
	for name, f := range map[string]func(rand.Source) (*wgraph.Graph, error){
		"ER":      func(s rand.Source) (*wgraph.Graph, error) { return gen.ErdosRenyi(200, 0.05, true, s) },
		"regular": func(s rand.Source) (*wgraph.Graph, error) { return gen.RandomRegular(200, 3, s) },
		"SW":      func(s rand.Source) (*wgraph.Graph, error) { return gen.RandomRegular(200, 8, s) },
		"RGG":     func(s rand.Source) (*wgraph.Graph, error) { return gen.RandomGeometric(200, 0.1, true, s) },
	} {
		a, err := f(graphtest.PCG(9))
		require.NoError(t, err)
		b, err := f(graphtest.PCG(9))
		require.NoError(t, err)
		sameEdges(t, a, b, name)
		c, err := f(graphtest.PCG(10))
		require.NoError(t, err)
		assert.NotEqual(t, a.Edges(), c.Edges(), name)
	}
}

func TestRandomRegularDegrees(t *testing.T) {
	for _, tc := range []struct{ n, d int }{
		{10, 0}, {2, 1}, {3, 2}, {4, 3}, {6, 3}, {1000, 3}, {999, 4},
		{1000, 5}, {500, 10}, {40, 19}, {12, 5}, {10, 7}, {11, 8}, {50, 49},
	} {
		g, err := gen.RandomRegular(tc.n, tc.d, graphtest.PCG(uint64(tc.n*100+tc.d)))
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
	src := graphtest.PCG(5)
	bip := 0
	for range draws {
		g, err := gen.RandomRegular(6, 3, src)
		require.NoError(t, err)
		if !hasTriangle(g) {
			bip++
		}
	}
	p := 1.0 / 7
	assert.InDelta(t, p, float64(bip)/draws, zMC*math.Sqrt(p*(1-p)/draws))
}

func hasTriangle(g *wgraph.Graph) bool {
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
		_, err := gen.RandomRegular(tc.n, tc.d, graphtest.PCG(1))
		assert.ErrorContains(t, err, tc.msg)
	}
}

// bruteGeometric joins every pair at distance ≤ r, O(n²).
func bruteGeometric(pts []r2.Vec, r float64, torus bool) *wgraph.Graph {
	var us, vs []int32
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			dx, dy := math.Abs(pts[i].X-pts[j].X), math.Abs(pts[i].Y-pts[j].Y)
			if torus {
				dx, dy = math.Min(dx, 1-dx), math.Min(dy, 1-dy)
			}
			if dx*dx+dy*dy <= r*r {
				us, vs = append(us, int32(i)), append(vs, int32(j))
			}
		}
	}
	return graphtest.Must(wgraph.FromPairs(len(pts), us, vs))
}

func TestRandomGeometricMatchesBruteForce(t *testing.T) {
	for _, torus := range []bool{false, true} {
		for _, n := range []int{0, 1, 2, 50, 400} {
			for _, r := range []float64{0, 0.01, 0.05, 0.2, 0.34, 0.5, 0.8, 1.5} {
				g, pts, err := gen.RandomGeometricPoints(n, r, torus, graphtest.PCG(uint64(n)))
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
	_, err := gen.RandomGeometric(10, -0.1, false, graphtest.PCG(1))
	assert.ErrorContains(t, err, "r = -0.1")
	_, err = gen.RandomGeometric(10, math.Inf(1), false, graphtest.PCG(1))
	assert.ErrorContains(t, err, "r = +Inf")
	_, err = gen.RandomGeometric(-3, 0.1, false, graphtest.PCG(1))
	assert.ErrorContains(t, err, "n = -3")
}

func TestRandomGeometricMeanDegree(t *testing.T) {
	// On the torus every point sees area πr² (r ≤ 1/2) wherever it is, so
	// the edge indicators of the N = n(n−1)/2 pairs are pairwise
	// independent Bernoulli(πr²): m has mean Nπr² and variance
	// Nπr²(1−πr²) exactly, and the mean degree is 2m/n.
	const n, r = 20000, 0.01
	g, err := gen.RandomGeometric(n, r, true, graphtest.PCG(7))
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
		src := graphtest.PCG(uint64(c.n))
		count := map[string]int{}
		for range draws {
			g, err := gen.RandomRegular(c.n, c.d, src)
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
	// drawn or allocated, whatever the float parameter.
	_, err := gen.RandomGeometric(1<<20, 10, false, graphtest.PCG(1)) // complete: 5e11 edges
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = gen.RandomGeometric(1<<40, 0.001, false, graphtest.PCG(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = gen.ErdosRenyi(1<<20, 1, false, graphtest.PCG(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = gen.RandomRegular(1<<30, 20, graphtest.PCG(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = gen.RandomRegular(1<<40, 3, graphtest.PCG(1))
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = gen.ErdosRenyi(10, math.NaN(), false, graphtest.PCG(1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = gen.RandomGeometric(10, math.NaN(), false, graphtest.PCG(1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	// A tiny radius costs O(n): at most (√n + 1)² cells.
	g, err := gen.RandomGeometric(50, 1e-300, true, graphtest.PCG(1))
	require.NoError(t, err)
	assert.Equal(t, 0, g.Size())
	// A nil source is a documented panic naming the argument.
	assert.PanicsWithValue(t, "gen: ErdosRenyi: nil rand.Source src", func() { gen.ErdosRenyi(5, 0.5, false, nil) })
	assert.PanicsWithValue(t, "gen: RandomRegular: nil rand.Source src", func() { gen.RandomRegular(6, 3, nil) })
	assert.PanicsWithValue(t, "gen: RandomGeometric: nil rand.Source src", func() { gen.RandomGeometric(5, 0.1, false, nil) })
}
