package spectral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// reweighted returns the graph of support's edges with random weights
// e^N(0,1), zeroing (dropping) up to zeros of them while the rest stay
// connected.
func reweighted(t testing.TB, support *wgraph.Graph, rng *rand.Rand, zeros int) *wgraph.Graph {
	es := support.Edges()
	w := make([]float64, len(es))
	for i := range w {
		w[i] = math.Exp(rng.NormFloat64())
	}
	build := func() *wgraph.Graph {
		var kept []wgraph.Edge
		for i, e := range es {
			if w[i] > 0 {
				kept = append(kept, wgraph.Edge{U: e.U, V: e.V, W: w[i]})
			}
		}
		return graphtest.Must(wgraph.FromEdges(support.Order(), kept))
	}
	for done, tries := 0, 0; done < zeros && tries < 10*zeros; tries++ {
		i := rng.IntN(len(es))
		old := w[i]
		w[i] = 0
		if wgraph.IsConnected(build()) {
			done++
		} else {
			w[i] = old
		}
	}
	return build()
}

// TestResistanceAnalysis factors a sequence of weightings of one support
// (the power grid and a 40×40 grid), some links dropped, on one kept
// analysis. The support itself gives NewResistance's values bit for bit
// (the same ground, ordering and matrix); a weighting gives, bit for
// bit, what a fresh AnalyzeResistance of the support gives (nothing is
// carried from one factorisation to the next), and NewResistance's
// values — from its own ground and ordering — to 1e-9 relative:
// both are exact to κ·ε with κ ≤ 10⁶ on these graphs (weights within
// e^{±4}, diameters below 100).
func TestResistanceAnalysis(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *wgraph.Graph
	}{
		{"power grid", datasets.PowerGrid().Graph},
		{"grid 40×40", graphtest.Must(gen.Grid(40, 40))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ra, err := AnalyzeResistance(tc.g)
			require.NoError(t, err)
			require.Equal(t, Sparse, ra.Path())
			fresh, err := NewResistance(tc.g)
			require.NoError(t, err)
			require.Equal(t, fresh.Report(), ra.Report())
			kept, err := ra.Factor(tc.g)
			require.NoError(t, err)
			require.Equal(t, fresh.Kirchhoff(), kept.Kirchhoff(), "the support itself")
			require.Equal(t, fresh.EdgeResistances(nil), kept.EdgeResistances(nil), "the support itself")
			rng := rand.New(rand.NewPCG(11, 12))
			for trial := range 3 {
				g := reweighted(t, tc.g, rng, 10*trial)
				kept, err := ra.Factor(g)
				require.NoError(t, err, "trial %d", trial)
				again, err := graphtest.Must(AnalyzeResistance(tc.g)).Factor(g)
				require.NoError(t, err)
				require.Equal(t, again.Kirchhoff(), kept.Kirchhoff(), "trial %d", trial)
				fresh, err := NewResistance(g)
				require.NoError(t, err)
				want := fresh.Kirchhoff()
				require.InDelta(t, want, kept.Kirchhoff(), 1e-9*want, "trial %d", trial)
				got, wantR := kept.EdgeResistances(nil), fresh.EdgeResistances(nil)
				for i := range got {
					require.InDelta(t, wantR[i], got[i], 1e-9*wantR[i], "trial %d, edge %d", trial, i)
				}
				n := g.Order()
				b := make([]float64, n)
				b[0], b[n-1] = 1, -1
				x, y := kept.Apply(nil, b), fresh.Apply(nil, b)
				scale := math.Sqrt(dotSelf(y))
				for u := range x {
					require.InDelta(t, y[u], x[u], 1e-9*scale, "trial %d, Apply at %d", trial, u)
				}
			}
		})
	}
}

func dotSelf(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

// TestShiftedFactorGraph checks ShiftedLaplacian.FactorGraph on a 40×40
// grid: on the graph it was made from it is Factor bit for bit; on a
// reweighting with links dropped, tr (2I − γL)⁻¹ matches a fresh
// analysis's to 1e-12 relative. With γ = 1/(2 d_max), γλ_n ≤ 1, so
// 2I − γL has eigenvalues in [1, 2] and condition ≤ 2: both traces are
// exact to a few ulps of their n terms.
func TestShiftedFactorGraph(t *testing.T) {
	support := graphtest.Must(gen.Grid(40, 40))
	sl, err := NewShiftedLaplacian(support, nil)
	require.NoError(t, err)
	f1, err := sl.Factor(2, -0.1)
	require.NoError(t, err)
	f2, err := sl.FactorGraph(support, 2, -0.1)
	require.NoError(t, err)
	require.Equal(t, f1.Inverse().Diag(nil), f2.Inverse().Diag(nil))
	g := reweighted(t, support, rand.New(rand.NewPCG(13, 14)), 30)
	var dmax float64
	for u := range g.Order() {
		dmax = max(dmax, g.WeightedDegree(u))
	}
	s := -1 / (2 * dmax)
	kept, err := sl.FactorGraph(g, 2, s)
	require.NoError(t, err)
	fresh, err := graphtest.Must(NewShiftedLaplacian(g, nil)).Factor(2, s)
	require.NoError(t, err)
	want := fresh.Inverse().Trace()
	require.InDelta(t, want, kept.Inverse().Trace(), 1e-12*want)
}

// supportCases probes AnalyzeResistance, ResistanceAnalysis.Factor and
// ShiftedLaplacian.FactorGraph: nil graphs panic; a disconnected or
// empty support, a sparse factor over the limits, another order, an edge
// outside the support (a pattern change) and a disconnected weighting
// are errors.
func supportCases() []badarg.Case {
	an := func(g *wgraph.Graph) error { _, err := AnalyzeResistance(g); return err }
	p := badarg.Probe{Func: "AnalyzeResistance"}
	grid := graphtest.Must(gen.Grid(30, 30))
	ra := graphtest.Must(AnalyzeResistance(grid))
	sl := graphtest.Must(NewShiftedLaplacian(grid, nil))
	dense := graphtest.Must(NewShiftedLaplacian(graphtest.Must(gen.Complete(10)), nil))
	// The grid with one diagonal added: an edge outside the support.
	extra := graphtest.Must(wgraph.FromEdges(900, append(grid.Edges(), wgraph.Edge{U: 0, V: 31, W: 1})))
	// The grid without the links of node 0: disconnected.
	var cut []wgraph.Edge
	for _, e := range grid.Edges() {
		if e.U != 0 {
			cut = append(cut, e)
		}
	}
	isolated := graphtest.Must(wgraph.FromEdges(900, cut))
	fa := func(g *wgraph.Graph) error { _, err := ra.Factor(g); return err }
	// A dense support (the dense path, no analysis kept) checks its links
	// too: K₁₂ without the link {0, 1}, and K₁₂ itself.
	var k12 []wgraph.Edge
	for _, e := range graphtest.Must(gen.Complete(12)).Edges() {
		if e.U != 0 || e.V != 1 {
			k12 = append(k12, e)
		}
	}
	denseRA := graphtest.Must(AnalyzeResistance(graphtest.Must(wgraph.FromEdges(12, k12))))
	fg := func(g *wgraph.Graph) error { _, err := sl.FactorGraph(g, 2, -0.1); return err }
	pf, pg := badarg.Probe{Func: "ResistanceAnalysis.Factor"}, badarg.Probe{Func: "ShiftedLaplacian.FactorGraph"}
	return []badarg.Case{
		p.Panics("support = nil", "nil graph", func() { _ = an(nil) }),
		badarg.Probe{Func: "AnalyzeResistance", Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return an(twoComponents()) }),
		badarg.Probe{Func: "AnalyzeResistance", Err: inv}.Fails("no nodes", "no nodes", func() error { return an(&wgraph.Graph{}) }),
		badarg.Probe{Func: "AnalyzeResistance", Err: tooLarge}.Fails("400×400 grid, sparse factor over the flops limit", "Settings.MaxFlops", func() error {
			sparseSettings = &cholesky.Settings{MaxFlops: 1e3}
			defer func() { sparseSettings = nil }()
			return an(graphtest.Must(gen.Grid(400, 400)))
		}),
		pf.Panics("g = nil", "spectral: ResistanceAnalysis.Factor: nil graph g", func() { _ = fa(nil) }),
		badarg.Probe{Func: "ResistanceAnalysis.Factor", Err: inv}.Fails("order 899", "the graph has 899 nodes, the analysed support 900", func() error { return fa(graphtest.Must(gen.Grid(29, 31))) }),
		badarg.Probe{Func: "ResistanceAnalysis.Factor", Err: inv}.Fails("edge outside the support", "edge {0, 31} is not a link of the analysed support", func() error { return fa(extra) }),
		badarg.Probe{Func: "ResistanceAnalysis.Factor", Err: inv}.Fails("dense path, edge outside the support", "edge {0, 1} is not a link of the analysed support", func() error {
			_, err := denseRA.Factor(graphtest.Must(gen.Complete(12)))
			return err
		}),
		badarg.Probe{Func: "ResistanceAnalysis.Factor", Err: loadlab.ErrDisconnected}.Fails("node 0 cut off", "not reachable", func() error { return fa(isolated) }),
		pg.Panics("g = nil", "spectral: ShiftedLaplacian.FactorGraph: nil graph g", func() { _ = fg(nil) }),
		pg.Panics("dense graph", "the graph is dense", func() { _, _ = dense.FactorGraph(graphtest.Must(gen.Complete(10)), 2, -0.1) }),
		badarg.Probe{Func: "ShiftedLaplacian.FactorGraph", Err: inv}.Fails("order 899", "the graph has 899 nodes, the analysed one 900", func() error { return fg(graphtest.Must(gen.Grid(29, 31))) }),
		badarg.Probe{Func: "ShiftedLaplacian.FactorGraph", Err: inv}.Fails("edge outside the graph", "edge {0, 31} is not a link of the analysed support", func() error { return fg(extra) }),
		badarg.Probe{Func: "ShiftedLaplacian.FactorGraph", Err: loadlab.ErrIllConditioned}.Fails("2I − L, unstable", "not numerically positive definite", func() error {
			_, err := sl.FactorGraph(grid, 2, -1)
			return err
		}),
	}
}

// TestResistanceAnalysisDense checks the dense path: a dense support
// keeps no analysis (Path is Dense, the Report zero), and Factor of a
// reweighting is NewResistance's, bit for bit.
func TestResistanceAnalysisDense(t *testing.T) {
	support := graphtest.Must(gen.Complete(30))
	ra, err := AnalyzeResistance(support)
	require.NoError(t, err)
	require.Equal(t, Dense, ra.Path())
	require.Equal(t, cholesky.Report{}, ra.Report())
	g := reweighted(t, support, rand.New(rand.NewPCG(15, 16)), 20)
	got, err := ra.Factor(g)
	require.NoError(t, err)
	want, err := NewResistance(g)
	require.NoError(t, err)
	require.Equal(t, want.Path(), got.Path())
	require.Equal(t, want.Kirchhoff(), got.Kirchhoff())
}
