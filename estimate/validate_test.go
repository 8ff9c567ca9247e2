package estimate

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

var (
	inv      = loadlab.ErrInvalid
	nan, inf = math.NaN(), math.Inf(1)
)

// twoComponents is the graph 0–1, 2–3.
func twoComponents() *wgraph.Graph {
	return graphtest.Must(wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}}))
}

// traceFuncs are the entry points that take a *TraceSettings, each
// called on graph g (a solver of it for KirchhoffWithSolver, which takes
// no graph) with good other arguments.
var traceFuncs = map[string]func(g *wgraph.Graph, s *TraceSettings, src rand.Source) error{
	"Kirchhoff": func(g *wgraph.Graph, s *TraceSettings, src rand.Source) error {
		_, err := Kirchhoff(g, s, src)
		return err
	},
	"KirchhoffWithSolver": func(g *wgraph.Graph, s *TraceSettings, src rand.Source) error {
		sv, err := laplacian.NewSolver(g, nil, graphtest.PCG(3))
		if err != nil {
			return err
		}
		_, err = KirchhoffWithSolver(sv, s, src)
		return err
	},
	"PinvDiag": func(g *wgraph.Graph, s *TraceSettings, src rand.Source) error {
		_, err := PinvDiag(g, s, src)
		return err
	},
	"Diagonals": func(g *wgraph.Graph, s *TraceSettings, src rand.Source) error {
		_, err := Diagonals(g, 0, identityTerm(g), [][]float64{{1}}, s, src)
		return err
	},
	"Trace": func(g *wgraph.Graph, s *TraceSettings, src rand.Source) error {
		_, err := Trace(g.Order(), identityTerm(g)[0].Apply, s, src)
		return err
	},
	"TraceSettings.Validate": func(_ *wgraph.Graph, s *TraceSettings, _ rand.Source) error { return s.Validate() },
}

// identityTerm is the one-term list f(L) = I: Apply copies.
func identityTerm(*wgraph.Graph) []DiagTerm {
	return []DiagTerm{{
		F:     func(float64) float64 { return 1 },
		Apply: func(dst, x []float64) (int, error) { copy(dst, x); return 0, nil },
	}}
}

// traceSettingsCases probes every field of TraceSettings through call:
// RelAcc outside {0} ∪ (0, 1), MinProbes 1 or negative, MaxProbes
// negative or below MinProbes, an unknown Estimator and a bad
// Solver.
func traceSettingsCases(fn string, call func(s *TraceSettings) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	cs := badarg.Fields(p, TraceSettings{}, badarg.NonNegative, call, "RelAcc", "MinProbes", "MaxProbes")
	for _, c := range []struct {
		s    TraceSettings
		text string
	}{
		{TraceSettings{RelAcc: 1}, "TraceSettings.RelAcc = 1"},
		{TraceSettings{MinProbes: 1}, "TraceSettings.MinProbes = 1"},
		{TraceSettings{MaxProbes: 1}, "TraceSettings.MaxProbes = 1"},
		// MaxProbes below an explicit MinProbes: not silently raised.
		{TraceSettings{MinProbes: 20, MaxProbes: 10}, "TraceSettings.MaxProbes = 10"},
		{TraceSettings{Estimator: EstimatorLanczos + 1}, "TraceSettings.Estimator = 4"},
		{TraceSettings{Estimator: -1}, "TraceSettings.Estimator = -1"},
		{TraceSettings{Solver: &laplacian.Settings{Tol: nan}}, "Settings.Tol = NaN"},
		{TraceSettings{Solver: &laplacian.Settings{MaxIter: -1}}, "Settings.MaxIter = -1"},
	} {
		cs = append(cs, p.Fails(c.text, c.text, func() error { return call(&c.s) }))
	}
	return cs
}

// traceCases probes the trace and diagonal estimators: bad settings, a
// graph with no nodes or disconnected, nil arguments, and the arguments
// of Diagonals.
func traceCases() []badarg.Case {
	path := graphtest.Must(gen.Path(5))
	var cs []badarg.Case
	for _, name := range sortedKeys(traceFuncs) {
		f := traceFuncs[name]
		cs = append(cs, traceSettingsCases(name, func(s *TraceSettings) error { return f(path, s, graphtest.PCG(1)) })...)
		if name == "TraceSettings.Validate" || name == "Trace" {
			continue
		}
		src := graphtest.PCG(2)
		cs = append(cs, badarg.Probe{Func: name}.Panics("src = nil", "rand.Source", func() { _ = f(path, nil, nil) }))
		if name == "KirchhoffWithSolver" {
			cs = append(cs, badarg.Probe{Func: name}.Panics("s = nil", "estimate: KirchhoffWithSolver: nil solver", func() { _, _ = KirchhoffWithSolver(nil, nil, src) }))
			continue
		}
		cs = append(cs,
			badarg.Probe{Func: name}.Panics("g = nil", "estimate: "+name+": nil graph", func() { _ = f(nil, nil, src) }),
			badarg.Probe{Func: name, Err: inv}.Fails("no nodes", "no nodes", func() error { return f(&wgraph.Graph{}, nil, src) }),
			badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return f(twoComponents(), nil, src) }),
		)
	}
	cs = append(cs, genericTraceCases()...)
	return append(cs, diagonalsCases(path)...)
}

// genericTraceCases probes Trace beyond its settings: the order, nil
// arguments, a failing or non-finite apply.
func genericTraceCases() []badarg.Case {
	id := func(dst, x []float64) (int, error) { copy(dst, x); return 0, nil }
	trace := func(n int, apply func(dst, x []float64) (int, error)) error {
		_, err := Trace(n, apply, nil, graphtest.PCG(6))
		return err
	}
	p := badarg.Probe{Func: "Trace", Err: inv}
	cs := badarg.Probe{Func: "Trace", Err: inv, Text: "Trace: n = %v"}.Int("n", badarg.Positive, func(n int) error { return trace(n, id) })
	errApply := errors.New("apply failed")
	for _, v := range []float64{nan, inf, -inf} {
		bad := func(dst, x []float64) (int, error) { copy(dst, x); dst[1] = v; return 0, nil }
		cs = append(cs, p.Fails(fmt.Sprintf("A x with an entry %v", v), "want finite", func() error { return trace(3, bad) }))
	}
	return append(cs,
		badarg.Probe{Func: "Trace", Err: errApply}.Fails("apply fails", "apply failed", func() error {
			return trace(3, func([]float64, []float64) (int, error) { return 0, errApply })
		}),
		badarg.Probe{Func: "Trace", Err: loadlab.ErrTooLarge}.Fails("n = 2^50", "probe entries", func() error { return trace(1<<50, id) }),
		p.Panics("apply = nil", "estimate: Trace: nil apply", func() { _ = trace(3, nil) }),
		p.Panics("src = nil", "nil apply or rand.Source", func() { _, _ = Trace(3, id, nil, nil) }),
	)
}

// diagonalsCases probes the arguments of Diagonals beyond its settings.
func diagonalsCases(g *wgraph.Graph) []badarg.Case {
	src := graphtest.PCG(4)
	terms := identityTerm(g)
	diag := func(lmax float64, terms []DiagTerm, coef [][]float64) error {
		_, err := Diagonals(g, lmax, terms, coef, nil, src)
		return err
	}
	p := badarg.Probe{Func: "Diagonals", Err: inv, Text: "Diagonals: lmaxHi = %v"}
	cs := p.Scalar("lmaxHi", badarg.NonNegative, func(x float64) error { return diag(x, terms, [][]float64{{1}}) })
	// A NaN or infinite coefficient is named (guards: reported as
	// ErrNotConverged with NaN half-widths after the probes).
	for _, v := range []float64{nan, inf, -inf} {
		text := fmt.Sprintf("coef[0][0] = %v", v)
		cs = append(cs, badarg.Probe{Func: "Diagonals", Err: inv}.Fails(text, text, func() error { return diag(0, terms, [][]float64{{v}}) }))
	}
	errApply := errors.New("apply failed")
	failing := []DiagTerm{{F: terms[0].F, Apply: func([]float64, []float64) (int, error) { return 0, errApply }}}
	return append(cs,
		badarg.Probe{Func: "Diagonals", Err: errApply}.Fails("Apply fails", "apply failed", func() error { return diag(0, failing, [][]float64{{1}}) }),
		p.Panics("terms = nil", "estimate: Diagonals: no terms", func() { _ = diag(0, nil, [][]float64{{1}}) }),
		p.Panics("terms[0].F = nil", "terms[0] has a nil F or Apply", func() { _ = diag(0, []DiagTerm{{Apply: terms[0].Apply}}, [][]float64{{1}}) }),
		p.Panics("terms[0].Apply = nil", "terms[0] has a nil F or Apply", func() { _ = diag(0, []DiagTerm{{F: terms[0].F}}, [][]float64{{1}}) }),
		p.Panics("len(coef[0]) = 2", "len(coef[0]) = 2, want len(terms) = 1", func() { _ = diag(0, terms, [][]float64{{1, 1}}) }),
	)
}

// sketchCases probes the resistance sketches: every field of
// SketchSettings, sizes and accuracies outside their domains, nodes out
// of range and nil arguments.
func sketchCases() []badarg.Case {
	path := graphtest.Must(gen.Path(5))
	var cs []badarg.Case
	for name, f := range map[string]func(g *wgraph.Graph, s *SketchSettings, src rand.Source) error{
		"EdgeResistances": func(g *wgraph.Graph, s *SketchSettings, src rand.Source) error {
			_, err := EdgeResistances(g, s, src)
			return err
		},
		"NewResistanceSketch": func(g *wgraph.Graph, s *SketchSettings, src rand.Source) error {
			_, err := NewResistanceSketch(g, s, src)
			return err
		},
		"SketchProjections": func(g *wgraph.Graph, s *SketchSettings, _ rand.Source) error {
			_, err := SketchProjections(g.Order(), s)
			return err
		},
		"SketchSettings.Validate": func(_ *wgraph.Graph, s *SketchSettings, _ rand.Source) error { return s.Validate() },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		call := func(s *SketchSettings) error { return f(path, s, graphtest.PCG(1)) }
		cs = append(cs, badarg.Fields(p, SketchSettings{}, badarg.NonNegative, call, "Eps", "Miss")...)
		cs = append(cs,
			p.Fails("Eps = 1", "SketchSettings.Eps = 1", func() error { return call(&SketchSettings{Eps: 1}) }),
			p.Fails("Miss = 1", "SketchSettings.Miss = 1", func() error { return call(&SketchSettings{Miss: 1}) }),
			p.Fails("Solver.Tol = -1", "Settings.Tol = -1", func() error { return call(&SketchSettings{Solver: &laplacian.Settings{Tol: -1}}) }),
		)
		switch name {
		case "EdgeResistances", "NewResistanceSketch":
			cs = append(cs,
				p.Panics("g = nil", "estimate: "+name+": nil graph", func() { _ = f(nil, nil, graphtest.PCG(1)) }),
				p.Panics("src = nil", "nil graph or rand.Source", func() { _ = f(path, nil, nil) }),
				badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return f(twoComponents(), nil, graphtest.PCG(1)) }),
			)
		}
	}
	proj := func(n int) error { _, err := SketchProjections(n, nil); return err }
	cs = append(cs, badarg.Probe{Func: "SketchProjections", Err: inv, Text: "SketchProjections: n = %v"}.Int("n", badarg.Positive, proj)...)
	cs = append(cs, badarg.Probe{Func: "SketchProjections", Err: loadlab.ErrTooLarge}.Fails("Eps = 1e-6", "projections for ε = 1e-06", func() error {
		_, err := SketchProjections(10, &SketchSettings{Eps: 1e-6})
		return err
	}))
	miss := badarg.Probe{Func: "SketchMiss", Err: inv}
	cs = append(cs, badarg.Probe{Func: "SketchMiss", Err: inv, Text: "SketchMiss: k = %v"}.Int("k", badarg.Positive, func(k int) error { _, err := SketchMiss(k, 0.3); return err })...)
	cs = append(cs, badarg.Probe{Func: "SketchMiss", Err: inv, Text: "SketchMiss: eps = %v"}.Scalar("eps", badarg.Positive, func(e float64) error { _, err := SketchMiss(10, e); return err })...)
	cs = append(cs, miss.Fails("eps = 1", "eps = 1", func() error { _, err := SketchMiss(10, 1); return err }))

	rs := graphtest.Must(NewResistanceSketch(path, nil, graphtest.PCG(5)))
	p := badarg.Probe{Func: "ResistanceSketch.Between"}
	for _, uv := range [][2]int{{-1, 0}, {0, 5}} {
		cs = append(cs, p.Panics(fmt.Sprintf("(u, v) = %v", uv), fmt.Sprintf("nodes (%d, %d) out of range [0, 5)", uv[0], uv[1]), func() { rs.Between(uv[0], uv[1]) }))
	}
	return cs
}

// TestValidate drives every exported entry point of estimate with bad
// settings, graphs, sizes, accuracies, coefficients, nodes and nil
// arguments: each gives the documented error, naming the input, or the
// documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(traceCases(), sketchCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}

// TestMaxProbesBelowDefaultMinProbes: MaxProbes = 5 alone means
// MinProbes = 5 (the field's documented default), so the estimate runs
// exactly 5 probes rather than the default 10 (nor is MaxProbes raised
// to 10); no estimate reaches RelAcc = 1e-6 in 5 probes on these tori,
// so each stops at the fifth, short of it.
func TestMaxProbesBelowDefaultMinProbes(t *testing.T) {
	set := &TraceSettings{MaxProbes: 5}
	if r, _ := set.Resolved(); r.MinProbes != 5 || r.MaxProbes != 5 {
		t.Errorf("Resolved: MinProbes = %d, MaxProbes = %d, want 5 and 5", r.MinProbes, r.MaxProbes)
	}
	g := graphtest.Must(gen.Torus(3, 5))
	for _, est := range []TraceEstimator{EstimatorNone, EstimatorHutchinson} {
		res, err := Kirchhoff(g, &TraceSettings{MaxProbes: 5, RelAcc: 1e-6, Estimator: est}, graphtest.PCG(6))
		if !errors.Is(err, loadlab.ErrNotConverged) || res.Probes != 5 || res.Estimate.N != 5 {
			t.Errorf("%v: %d probes (N = %d), err %v: want 5 and ErrNotConverged", est, res.Probes, res.Estimate.N, err)
		}
	}
	// On 15 nodes the Chebyshev control variate fits 1/λ exactly: the
	// diagonal needs a graph with more distinct eigenvalues.
	d, err := PinvDiag(graphtest.Must(gen.Torus(10, 10)), &TraceSettings{MaxProbes: 5, RelAcc: 1e-6}, graphtest.PCG(7))
	if !errors.Is(err, loadlab.ErrNotConverged) || d.Probes != 5 {
		t.Errorf("PinvDiag: %d probes, err %v: want 5 and ErrNotConverged", d.Probes, err)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
