package consensus

import (
	"fmt"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// tolRw is the relative tolerance of the designs: DesignSettings.Tol
// 1e-9 certifies each restricted optimum to that relative gap.
const tolRw = 1e-9

var rwSet = &DesignSettings{Tol: tolRw}

// totalWeight returns Σ_e w_e.
func totalWeight(g *wgraph.Graph) float64 {
	var s float64
	for _, e := range g.Edges() {
		s += e.W
	}
	return s
}

// checkReweighting checks the invariants of every answer: at most k
// links changed, the budget kept, ρ₂ non-increasing round by round and
// exact (Rho on the reweighted graph), and Lower ≤ answer.
func checkReweighting(t *testing.T, name string, th *Throttler, k int, budget float64, r *Reweighting) {
	t.Helper()
	require.LessOrEqual(t, len(r.Changed), k, name)
	require.LessOrEqual(t, totalWeight(r.Graph), budget*(1+1e-12), name)
	before, err := Rho(th, Case2, 1)
	require.NoError(t, err)
	require.InEpsilon(t, before, r.Rho2[0], 1e-12, name)
	for i := 1; i < len(r.Rho2); i++ {
		require.LessOrEqual(t, r.Rho2[i], r.Rho2[i-1]*(1+1e-12), "%s: round %d", name, i)
	}
	after, err := Rho(&Throttler{Graph: r.Graph, Gamma: th.Gamma}, Case2, 1)
	require.NoError(t, err)
	last := r.Rho2[len(r.Rho2)-1]
	require.InEpsilon(t, after, last, 1e-10, name)
	require.LessOrEqual(t, r.Lower, last*(1+1e-12), name)
	require.InDelta(t, last-r.Lower, r.Gap, 1e-12*last, name)
	// Unchanged links keep their weights.
	changed := map[[2]int]bool{}
	for _, e := range r.Changed {
		changed[[2]int{min(e.U, e.V), max(e.U, e.V)}] = true
	}
	for _, e := range th.Graph.Edges() {
		if !changed[[2]int{min(e.U, e.V), max(e.U, e.V)}] {
			require.Equal(t, e.W, r.Graph.Weight(e.U, e.V), "%s: link %v", name, e)
		}
	}
}

// TestReweightHarmfulLink: the triangle at γ = 0.6 has ρ₂ = 50/9 and the
// path (the triangle less a link) 250/63 (spec §5.1 fact 5): a link
// hurts. With one link free and the budget spent, only lowering it is
// possible; the best value over w ∈ [0, 1] of that link (a grid of 2000
// weights, ρ₂ by Rho) is the reference, and it is at most the path's.
func TestReweightHarmfulLink(t *testing.T) {
	th := &Throttler{Graph: graphtest.Must(gen.Complete(3)), Gamma: 0.6}
	r, err := ReweightLinks(th, 1, 3, rwSet)
	require.NoError(t, err)
	checkReweighting(t, "triangle", th, 1, 3, r)
	require.Len(t, r.Changed, 1)
	require.InEpsilon(t, 50.0/9, r.Rho2[0], 1e-12)
	best := 50.0 / 9
	for i := range 2001 {
		w := float64(i) / 2000
		g := triangleWith(t, w)
		if v, err := Rho(&Throttler{Graph: g, Gamma: 0.6}, Case2, 1); err == nil {
			best = min(best, v)
		}
	}
	require.LessOrEqual(t, best, 250.0/63+1e-12)
	last := r.Rho2[len(r.Rho2)-1]
	// The grid's step 5e-4 in w moves ρ₂ by at most ~1e-6 near the
	// optimum (a smooth minimum): the design must match or beat it.
	require.LessOrEqual(t, last, best+1e-6)
	require.GreaterOrEqual(t, last, best-1e-6)
}

// triangleWith is the triangle with w₀₁ = w (removed at 0) and unit
// weights on the other two links.
func triangleWith(t *testing.T, w float64) *wgraph.Graph {
	edges := []wgraph.Edge{{U: 1, V: 2, W: 1}, {U: 0, V: 2, W: 1}}
	if w > 0 {
		edges = append(edges, wgraph.Edge{U: 0, V: 1, W: w})
	}
	return graphtest.GraphOf(t, 3, edges...)
}

// TestReweightWeakLink: a path of 8 nodes with one link a hundred times
// weaker than the others dominates L†; with the budget spent, two links
// let the greedy move weight from a strong link to the weak one, a large
// gain, and the weak link is among those chosen.
func TestReweightWeakLink(t *testing.T) {
	b, err := wgraph.NewBuilder(8)
	require.NoError(t, err)
	for u := range 7 {
		w := 1.0
		if u == 3 {
			w = 0.01
		}
		require.NoError(t, b.SetEdge(u, u+1, w))
	}
	th := &Throttler{Graph: b.Build(), Gamma: 0.2}
	budget := totalWeight(th.Graph)
	r, err := ReweightLinks(th, 2, budget, rwSet)
	require.NoError(t, err)
	checkReweighting(t, "weak link", th, 2, budget, r)
	require.Contains(t, []int{r.Changed[0].U, r.Changed[1].U}, 3, "%+v", r.Changed)
	require.Less(t, r.Rho2[len(r.Rho2)-1], 0.5*r.Rho2[0])
	t.Logf("ρ₂ %v, lower %.6g, changed %v", r.Rho2, r.Lower, r.Changed)
}

// TestReweightUniformOptimal: on the complete graph with unit weights and
// the budget spent, uniform weights are optimal (symmetry and convexity:
// the average of the optimal weights over the automorphisms is optimal
// and uniform), so no link promises a first-order gain and nothing
// changes; the certificate agrees to the design's tolerance.
func TestReweightUniformOptimal(t *testing.T) {
	th := &Throttler{Graph: graphtest.Must(gen.Complete(6)), Gamma: 0.1}
	r, err := ReweightLinks(th, 3, 15, rwSet)
	require.NoError(t, err)
	checkReweighting(t, "K6", th, 3, 15, r)
	last := r.Rho2[len(r.Rho2)-1]
	require.InEpsilon(t, r.Rho2[0], last, 1e-9)
	require.LessOrEqual(t, r.Gap, 2*tolRw*last)
}

// TestReweightAllLinks: with k at least the number of links every link
// may be freed, and the answer comes within the designs' tolerance of
// the full optimum's certificate; with extra budget, weight is added.
func TestReweightAllLinks(t *testing.T) {
	for i, g := range []*wgraph.Graph{
		graphtest.Must(gen.Grid(3, 3)), graphtest.SparseWeighted(t, 12, 0.4, 1, 5),
	} {
		th := &Throttler{Graph: g, Gamma: 0.05}
		for _, extra := range []float64{1, 1.5} {
			budget := extra * totalWeight(g)
			r, err := ReweightLinks(th, g.Size(), budget, rwSet)
			require.NoError(t, err)
			name := fmt.Sprintf("graph %d budget ×%v", i, extra)
			checkReweighting(t, name, th, g.Size(), budget, r)
			last := r.Rho2[len(r.Rho2)-1]
			// Greedy rounds can stop before freeing every link when no
			// link promises a first-order gain: then the point is a
			// stationary point of the full convex problem up to the
			// restricted tolerances, and so near its optimum.
			require.LessOrEqual(t, r.Gap, 1e-4*last, "%s: %v, full %v", name, r.Rho2, r.Full.Value)
		}
	}
}

// TestReweightBruteForce: on small random graphs with k = 1, the greedy
// choice is compared with every single link freed in turn (the same
// restricted designs): the brute-force best is never above the greedy
// answer and never below the certificate.
func TestReweightBruteForce(t *testing.T) {
	for seed := range uint64(4) {
		g := graphtest.SparseWeighted(t, 10, 0.4, 1, 20+seed)
		th := &Throttler{Graph: g, Gamma: 0.1}
		budget := 1.2 * totalWeight(g)
		r, err := ReweightLinks(th, 1, budget, rwSet)
		require.NoError(t, err)
		checkReweighting(t, "greedy", th, 1, budget, r)
		best := r.Rho2[0]
		for i := range g.Size() {
			rw := newReweighter(th, g.Edges(), edgeWeights(g), budget, rwSet)
			rw.free = []int{i}
			best = min(best, rw.restricted())
		}
		last := r.Rho2[len(r.Rho2)-1]
		require.LessOrEqual(t, best, last*(1+1e-9), "seed %d", seed)
		require.LessOrEqual(t, r.Lower, best*(1+1e-12), "seed %d", seed)
		t.Logf("seed %d: before %.6g, greedy %.6g, best single link %.6g, lower %.6g", seed, r.Rho2[0], last, best, r.Lower)
	}
}

// edgeWeights returns the weights of g's edges in the order of Edges.
func edgeWeights(g *wgraph.Graph) []float64 {
	var w []float64
	for _, e := range g.Edges() {
		w = append(w, e.W)
	}
	return w
}
