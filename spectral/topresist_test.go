package spectral

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/largetest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// tolTop is the relative tolerance between resistances of the dense
// path (Cholesky, error ~ κ(A) ε, κ ≤ 10⁵ on these graphs) and of the
// pivot path (second-order solves to 1e-12, error ≤ 1e-24 κ(L)): 1e-9
// leaves a wide margin over both.
const tolTop = 1e-9

// allPairs is the brute force: every pair's resistance from the dense
// matrix, in the order of TopResistances.
func allPairs(t testing.TB, g *wgraph.Graph) []Pair {
	t.Helper()
	m, err := ResistanceMatrix(g)
	require.NoError(t, err)
	var out []Pair
	for u := range g.Order() {
		for v := u + 1; v < g.Order(); v++ {
			out = append(out, Pair{U: u, V: v, R: m.At(u, v)})
		}
	}
	slices.SortFunc(out, pairOrder)
	return out
}

// checkTop checks top against the brute force all: the same values in
// the same order, and each pair's value its own resistance, within
// tolTop relative (pairs whose values tie within the tolerance may come
// in either order, so pairs are checked by value, not by position).
func checkTop(t *testing.T, name string, top, all []Pair, k int) {
	t.Helper()
	want := min(k, len(all))
	require.Len(t, top, want, name)
	exact := map[[2]int]float64{}
	for _, p := range all {
		exact[[2]int{p.U, p.V}] = p.R
	}
	seen := map[[2]int]bool{}
	for i, p := range top {
		key := [2]int{p.U, p.V}
		require.Less(t, p.U, p.V, "%s: pair %d", name, i)
		require.False(t, seen[key], "%s: pair %v twice", name, key)
		seen[key] = true
		require.InEpsilon(t, all[i].R, p.R, tolTop, "%s: rank %d", name, i)
		require.InEpsilon(t, exact[key], p.R, tolTop, "%s: pair %v", name, key)
		if i > 0 {
			require.LessOrEqual(t, p.R, top[i-1].R*(1+tolTop), "%s: order at %d", name, i)
		}
	}
}

// TestTopResistancesClosedForms: families whose resistances are known.
// Path: R_uv = |u − v|, so the top pairs are (0, n−1), then the two of
// distance n − 2, the three of distance n − 3. Cycle C_n: R = h(n − h)/n
// at hop distance h, n/4 for the n/2 antipodal pairs. Star: leaf to leaf
// 2, hub to leaf 1. Complete K_n: every R = 2/n. Grid a×b: the two
// diagonals tie (symmetry). Both paths of the method run (topPivots
// directly on these small graphs).
func TestTopResistancesClosedForms(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *wgraph.Graph
		k    int
		want []float64
	}{
		{"P9", graphtest.Must(gen.Path(9)), 6, []float64{8, 7, 7, 6, 6, 6}},
		{"C10", graphtest.Must(gen.Cycle(10)), 5, []float64{2.5, 2.5, 2.5, 2.5, 2.5}},
		{"C10 k=7", graphtest.Must(gen.Cycle(10)), 7, []float64{2.5, 2.5, 2.5, 2.5, 2.5, 2.4, 2.4}}, // h = 4: 4·6/10
		{"S6", graphtest.Must(gen.Star(6)), 11, []float64{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1}},
		{"K7", graphtest.Must(gen.Complete(7)), 4, []float64{2.0 / 7, 2.0 / 7, 2.0 / 7, 2.0 / 7}},
	} {
		for _, method := range []string{"dense", "pivots"} {
			var top []Pair
			var err error
			if method == "dense" {
				top, err = TopResistances(tc.g, tc.k)
			} else {
				top, _, err = topPivots(tc.g, tc.k)
			}
			require.NoError(t, err)
			require.Len(t, top, len(tc.want))
			for i, p := range top {
				require.InDelta(t, tc.want[i], p.R, 1e-10*tc.want[0], "%s %s rank %d", tc.name, method, i)
				require.InDelta(t, p.R, resistanceOf(tc.name, p), 1e-10*tc.want[0], "%s %s pair %v", tc.name, method, p)
			}
		}
	}
	// The grid's two diagonals, 0–(ab−1) and (b−1)–(a−1)b, tie at the top.
	g := graphtest.Must(gen.Grid(4, 6))
	for _, f := range []func() ([]Pair, error){
		func() ([]Pair, error) { return TopResistances(g, 2) },
		func() ([]Pair, error) { p, _, err := topPivots(g, 2); return p, err },
	} {
		top, err := f()
		require.NoError(t, err)
		require.ElementsMatch(t, [][2]int{{0, 23}, {5, 18}}, [][2]int{{top[0].U, top[0].V}, {top[1].U, top[1].V}})
		require.InEpsilon(t, top[0].R, top[1].R, tolTop)
	}
}

// resistanceOf is the closed form of R for a pair of the families of
// TestTopResistancesClosedForms.
func resistanceOf(name string, p Pair) float64 {
	h := float64(p.V - p.U)
	switch name[0] {
	case 'P':
		return h
	case 'C':
		h = min(h, 10-h)
		return h * (10 - h) / 10
	case 'S':
		if p.U == 0 {
			return 1
		}
		return 2
	}
	return 2.0 / 7
}

// TestTopResistancesRandom: on random weighted graphs, sparse and dense,
// with weights spread over two and six orders of magnitude, both methods
// agree with the brute force over all pairs for several k.
func TestTopResistancesRandom(t *testing.T) {
	for i := range 18 {
		n := 20 + 8*i
		// At least twice the connectivity threshold ln n / n.
		p := max([]float64{0.05, 0.15, 0.5}[i%3], 2*math.Log(float64(n))/float64(n))
		spread := []float64{1, 100, 1e6}[i%3]
		g := graphtest.RandomWeighted(t, n, p, spread, graphtest.PCG(uint64(100+i)))
		all := allPairs(t, g)
		for _, k := range []int{1, 5, 40} {
			name := fmt.Sprintf("n=%d p=%v spread=%v k=%d", n, p, spread, k)
			top, err := TopResistances(g, k)
			require.NoError(t, err)
			checkTop(t, name+" dense", top, all, k)
			top, st, err := topPivots(g, k)
			require.NoError(t, err)
			checkTop(t, name+" pivots", top, all, k)
			require.LessOrEqual(t, st.Pivots, n)
		}
	}
}

// TestTopResistancesPendant: a tree hung on a cycle, whose long branch
// holds the farthest nodes: a graph where the path bounds are tight on
// the tree and loose on the cycle.
func TestTopResistancesPendant(t *testing.T) {
	b, err := wgraph.NewBuilder(60)
	require.NoError(t, err)
	for u := range 20 { // cycle 0..19
		require.NoError(t, b.SetEdge(u, (u+1)%20, 1))
	}
	for u := 20; u < 60; u++ { // a branch from 5 and one from 15
		parent := u - 1
		if u == 20 {
			parent = 5
		}
		if u == 40 {
			parent = 15
		}
		require.NoError(t, b.SetEdge(parent, u, 0.5+float64(u%3)))
	}
	g := b.Build()
	all := allPairs(t, g)
	for _, k := range []int{1, 3, 30, len(all), len(all) + 5} {
		top, st, err := topPivots(g, k)
		require.NoError(t, err)
		checkTop(t, fmt.Sprintf("k=%d", k), top, all, k)
		if k == 1 {
			require.Less(t, st.Pivots, g.Order(), "the bounds must prune")
		}
	}
}

// TestTopResistancesPowerGrid: on the 4941-node US power grid the pivot
// method (TopResistances' path above DenseMaxNodes) agrees with the
// brute force over the dense resistance matrix (tens of seconds).
func TestTopResistancesPowerGrid(t *testing.T) {
	largetest.Require(t)
	g := datasets.PowerGrid().Graph
	top, st, err := topPivots(g, 25)
	require.NoError(t, err)
	dense, err := topDense(g, 25)
	require.NoError(t, err)
	for i, p := range top {
		require.InEpsilon(t, dense[i].R, p.R, tolTop, "rank %d", i)
		r, err := EffectiveResistance(g, p.U, p.V)
		require.NoError(t, err)
		require.InEpsilon(t, r, p.R, tolTop, "pair %v", p)
	}
	t.Logf("pivots %d, solves %d, rounds %d; top pair %v", st.Pivots, st.Solves, st.Rounds, top[0])
}

// TestTopResistancesSmall: one node has no pairs; k beyond the number of
// pairs returns them all, in order.
func TestTopResistancesSmall(t *testing.T) {
	top, err := TopResistances(graphtest.Must(gen.Path(1)), 3)
	require.NoError(t, err)
	require.Empty(t, top)
	g := graphtest.Must(gen.Path(4))
	top, err = TopResistances(g, 100)
	require.NoError(t, err)
	checkTop(t, "P4", top, allPairs(t, g), 6)
}
