package spectral

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// twoComponents is the graph 0–1, 2–3.
func twoComponents() *wgraph.Graph {
	return graphtest.Must(wgraph.FromEdges(4, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}}))
}

// graphFuncs are the functions that take a graph and need it connected
// (or, for Spectrum and AlgebraicConnectivity, non-empty), each called
// with good other arguments.
var graphFuncs = map[string]func(g *wgraph.Graph) error{
	"Spectrum":              func(g *wgraph.Graph) error { _, err := Spectrum(g); return err },
	"AlgebraicConnectivity": func(g *wgraph.Graph) error { _, _, err := AlgebraicConnectivity(g); return err },
	"KirchhoffIndex":        func(g *wgraph.Graph) error { _, err := KirchhoffIndex(g); return err },
	"NewResistance":         func(g *wgraph.Graph) error { _, err := NewResistance(g); return err },
	"NewResistanceWith":     func(g *wgraph.Graph) error { _, err := NewResistanceWith(g, nil); return err },
	"PseudoInverse":         func(g *wgraph.Graph) error { _, err := PseudoInverse(g); return err },
	"ResistanceMatrix":      func(g *wgraph.Graph) error { _, err := ResistanceMatrix(g); return err },
	"EffectiveResistance":   func(g *wgraph.Graph) error { _, err := EffectiveResistance(g, 0, 1); return err },
	"LiftedLaplacian":       func(g *wgraph.Graph) error { _, _, err := LiftedLaplacian(g); return err },
	"LambdaMaxBracket":      func(g *wgraph.Graph) error { _, err := LambdaMaxBracket(g, nil); return err },
	"Lambda2Bracket":        func(g *wgraph.Graph) error { _, err := Lambda2Bracket(g, nil); return err },
	"LambdaMaxBounds":       func(g *wgraph.Graph) error { _, err := LambdaMaxBounds(g); return err },
	"TopResistances":        func(g *wgraph.Graph) error { _, err := TopResistances(g, 3); return err },
}

// graphCases probes the functions that take a graph: a nil graph panics
// naming it; an empty or disconnected graph where L† is needed, and
// dense work above the memory budget, are errors.
func graphCases() []badarg.Case {
	var cs []badarg.Case
	// Dense work on 2^17 nodes: 128 GiB per matrix.
	big := graphtest.Must(wgraph.FromEdges(1<<17, nil))
	for _, name := range sortedKeys(graphFuncs) {
		f := graphFuncs[name]
		p := badarg.Probe{Func: name}
		cs = append(cs, p.Panics("g = nil", nilGraphPanic(name), func() { _ = f(nil) }))
		switch name {
		case "LambdaMaxBracket", "Lambda2Bracket", "LambdaMaxBounds", "AlgebraicConnectivity":
			// A disconnected graph has λ₂ = 0 and a λ_max: no error.
		case "EffectiveResistance", "Spectrum", "LiftedLaplacian":
		case "KirchhoffIndex", "NewResistance":
			// A path factors without fill at any size: the sparse path's
			// refusal is reached by lowering its flops limit.
			cs = append(cs,
				badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return f(twoComponents()) }),
				badarg.Probe{Func: name, Err: inv}.Fails("no nodes", "no nodes", func() error { return f(&wgraph.Graph{}) }),
				badarg.Probe{Func: name, Err: tooLarge}.Fails("400×400 grid, sparse factor over the flops limit", "Settings.MaxFlops", func() error {
					sparseSettings = &cholesky.Settings{MaxFlops: 1e3}
					defer func() { sparseSettings = nil }()
					return f(graphtest.Must(gen.Grid(400, 400)))
				}),
			)
		case "NewResistanceWith":
			with := func(set *cholesky.Settings) error {
				_, err := NewResistanceWith(graphtest.Must(gen.Grid(400, 400)), set)
				return err
			}
			cs = append(cs,
				badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return f(twoComponents()) }),
				badarg.Probe{Func: name, Err: inv}.Fails("no nodes", "no nodes", func() error { return f(&wgraph.Graph{}) }),
				badarg.Probe{Func: name, Err: tooLarge}.Fails("400×400 grid, MaxFlops = 1e3", "Settings.MaxFlops", func() error { return with(&cholesky.Settings{MaxFlops: 1e3}) }),
				badarg.Probe{Func: name, Err: inv}.Fails("MaxFlops = -1", "Settings.MaxFlops = -1", func() error { return with(&cholesky.Settings{MaxFlops: -1}) }),
			)
		case "TopResistances": // no dense work above DenseMaxNodes: topResistanceCases
			cs = append(cs,
				badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return f(twoComponents()) }),
				badarg.Probe{Func: name, Err: inv}.Fails("no nodes", "no nodes", func() error { return f(&wgraph.Graph{}) }),
			)
		default:
			cs = append(cs,
				badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return f(twoComponents()) }),
				badarg.Probe{Func: name, Err: inv}.Fails("no nodes", "no nodes", func() error { return f(&wgraph.Graph{}) }),
				badarg.Probe{Func: name, Err: tooLarge}.Fails("n = 2^17", "131072", func() error { return f(connectedPath(1 << 17)) }),
			)
		}
		if name == "Spectrum" || name == "LiftedLaplacian" {
			cs = append(cs, badarg.Probe{Func: name, Err: tooLarge}.Fails("n = 2^17", "131072", func() error { return f(big) }))
		}
	}
	p := badarg.Probe{Func: "Spectrum", Err: inv}
	cs = append(cs, p.Fails("no nodes", "no nodes", func() error { return graphFuncs["Spectrum"](&wgraph.Graph{}) }))
	p = badarg.Probe{Func: "AlgebraicConnectivity", Err: inv}
	cs = append(cs, p.Fails("one node", "at least 2 nodes, graph has 1", func() error { return graphFuncs["AlgebraicConnectivity"](graphtest.Must(gen.Path(1))) }))
	er := func(g *wgraph.Graph, u, v int) error { _, err := EffectiveResistance(g, u, v); return err }
	p = badarg.Probe{Func: "EffectiveResistance", Err: inv}
	cs = append(cs,
		p.Fails("u = -1", "node u = -1 out of range [0, 4)", func() error { return er(graphtest.Must(gen.Path(4)), -1, 1) }),
		p.Fails("v = 4", "node v = 4 out of range [0, 4)", func() error { return er(graphtest.Must(gen.Path(4)), 0, 4) }),
		badarg.Probe{Func: "EffectiveResistance", Err: loadlab.ErrDisconnected}.Fails("two components", "not reachable", func() error { return er(twoComponents(), 0, 2) }),
	)
	return cs
}

// nilGraphPanic is the panic of name on a nil graph.
func nilGraphPanic(name string) string {
	switch name {
	case "NewResistance":
		return "nil graph g" // from wgraph.CheckConnected
	case "LambdaMaxBracket", "LambdaMaxBounds":
		return "spectral: LambdaMaxBracket: g is nil"
	case "Lambda2Bracket":
		return "spectral: Lambda2Bracket: g is nil"
	}
	return "spectral: " + name + ": nil graph g"
}

// connectedPath returns the path on n nodes.
func connectedPath(n int) *wgraph.Graph { return graphtest.Must(gen.Path(n)) }

// settingsCases probes every field of EigenSettings, through Validate
// and through both brackets.
func settingsCases() []badarg.Case {
	g := graphtest.Must(gen.Path(3))
	var cs []badarg.Case
	for name, f := range map[string]func(s *EigenSettings) error{
		"EigenSettings.Validate": func(s *EigenSettings) error { return s.Validate(3) },
		"LambdaMaxBracket":       func(s *EigenSettings) error { _, err := LambdaMaxBracket(g, s); return err },
		"Lambda2Bracket":         func(s *EigenSettings) error { _, err := Lambda2Bracket(g, s); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, badarg.Fields(p, EigenSettings{}, badarg.NonNegative, f, "Threshold", "RelWidth", "Delta", "MaxSteps")...)
		cs = append(cs,
			p.Fails("Delta = 1", "EigenSettings.Delta = 1", func() error { return f(&EigenSettings{Delta: 1}) }),
			p.Fails("len(Scale) = 2", "EigenSettings.Scale has length 2, want 3", func() error { return f(&EigenSettings{Scale: []float64{1, 1}}) }),
		)
		for _, q := range badarg.Positive.Floats() {
			text := fmt.Sprintf("EigenSettings.Scale[1] = %v", q)
			cs = append(cs, p.Fails(text, text, func() error { return f(&EigenSettings{Scale: []float64{1, q, 1}}) }))
		}
	}
	return cs
}

// closedFormCases probes the closed forms and the families: sizes below
// each family's smallest member, sizes beyond memory, bad spectra, and an
// unknown Family (a documented panic).
func closedFormCases() []badarg.Case {
	var cs []badarg.Case
	for name, c := range map[string]struct {
		f   func(n int) error
		min int
	}{
		"PathSpectrum":       {func(n int) error { _, err := PathSpectrum(n); return err }, 1},
		"CycleSpectrum":      {func(n int) error { _, err := CycleSpectrum(n); return err }, 3},
		"CompleteSpectrum":   {func(n int) error { _, err := CompleteSpectrum(n); return err }, 1},
		"StarSpectrum":       {func(n int) error { _, err := StarSpectrum(n); return err }, 1},
		"PathKirchhoff":      {func(n int) error { _, err := PathKirchhoff(n); return err }, 1},
		"CycleKirchhoff":     {func(n int) error { _, err := CycleKirchhoff(n); return err }, 3},
		"CompleteKirchhoff":  {func(n int) error { _, err := CompleteKirchhoff(n); return err }, 1},
		"StarKirchhoff":      {func(n int) error { _, err := StarKirchhoff(n); return err }, 1},
		"HypercubeSpectrum":  {func(n int) error { _, err := HypercubeSpectrum(n); return err }, 0},
		"HypercubeKirchhoff": {func(n int) error { _, err := HypercubeKirchhoff(n); return err }, 0},
	} {
		arg, d := "n", badarg.Positive
		if c.min == 0 {
			arg, d = "d", badarg.NonNegative
		}
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Int(arg, d, c.f)...)
		if c.min > 1 {
			label := fmt.Sprintf("%s = %d", arg, c.min-1)
			cs = append(cs, p.Fails(label, label, func() error { return c.f(c.min - 1) }))
		}
	}
	cs = append(cs,
		badarg.Probe{Func: "HypercubeSpectrum", Err: inv}.Fails("d = 31", "d = 31", func() error { _, err := HypercubeSpectrum(31); return err }),
		badarg.Probe{Func: "PathSpectrum", Err: tooLarge}.Fails("n = 2^40", "PathSpectrum: n", func() error { _, err := PathSpectrum(1 << 40); return err }),
	)
	for name, c := range map[string]struct {
		f   func(r, c int) error
		min int
	}{
		"GridSpectrum":   {func(r, c int) error { _, err := GridSpectrum(r, c); return err }, 1},
		"TorusSpectrum":  {func(r, c int) error { _, err := TorusSpectrum(r, c); return err }, 3},
		"GridKirchhoff":  {func(r, c int) error { _, err := GridKirchhoff(r, c); return err }, 1},
		"TorusKirchhoff": {func(r, c int) error { _, err := TorusKirchhoff(r, c); return err }, 3},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Int("rows", badarg.Positive, func(r int) error { return c.f(r, 4) })...)
		cs = append(cs, p.Int("cols", badarg.Positive, func(k int) error { return c.f(4, k) })...)
		if c.min > 1 {
			cs = append(cs, p.Fails("rows = 2", "rows = 2", func() error { return c.f(2, 4) }))
		}
	}
	return append(cs, spectrumCases()...)
}

// spectrumCases probes the functions that take a spectrum or a matrix,
// and the Family methods.
func spectrumCases() []badarg.Case {
	kfs := func(ev []float64) error { _, err := KirchhoffFromSpectrum(ev); return err }
	p := badarg.Probe{Func: "KirchhoffFromSpectrum", Err: inv}
	cs := p.Entries("ev", []float64{0, 1, 2}, 2, badarg.Finite, kfs)
	cs = append(cs,
		p.Fails("ev = nil", "empty spectrum", func() error { return kfs(nil) }),
		p.Fails("unsorted", "ev[2] = 1, want finite and ascending", func() error { return kfs([]float64{0, 2, 1}) }),
		badarg.Probe{Func: "KirchhoffFromSpectrum", Err: loadlab.ErrDisconnected}.Fails("ev[1] = 0", "ev[1] = 0", func() error { return kfs([]float64{0, 0, 1}) }),
	)
	// A NaN or infinite eigenvalue is named (guards: NaN sums returned).
	ps := badarg.Probe{Func: "ProductSpectrum", Err: inv}
	cs = append(cs, ps.Entries("a", []float64{0, 2}, 1, badarg.Finite, func(a []float64) error { _, err := ProductSpectrum(a, []float64{0, 1}); return err })...)
	cs = append(cs, ps.Entries("b", []float64{0, 2}, 1, badarg.Finite, func(b []float64) error { _, err := ProductSpectrum([]float64{0, 1}, b); return err })...)

	sym := func(v float64) *mat.SymDense { return mat.NewSymDense(2, []float64{1, v, v, 1}) }
	p = badarg.Probe{Func: "SymEigen", Err: inv, Text: "SymEigen: a[0][1] = %v"}
	cs = append(cs, p.Scalar("a[0][1]", badarg.Finite, func(v float64) error { _, _, err := SymEigen(sym(v), true); return err })...)
	cs = append(cs, p.Panics("a = nil", "spectral: SymEigen: nil matrix a", func() { _, _, _ = SymEigen(nil, false) }))

	for name, f := range map[string]func(f Family, k int) error{
		"Family.Order":     func(f Family, k int) error { _, err := f.Order(k); return err },
		"Family.Graph":     func(f Family, k int) error { _, err := f.Graph(k); return err },
		"Family.Spectrum":  func(f Family, k int) error { _, err := f.Spectrum(k); return err },
		"Family.Kirchhoff": func(f Family, k int) error { _, err := f.Kirchhoff(k); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		for _, fam := range AllFamilies() {
			bad := fam.MinSize() - 1
			cs = append(cs, p.Fails(fmt.Sprintf("%v, k = %d", fam, bad), fmt.Sprintf("= %d", bad), func() error { return f(fam, bad) }))
		}
		if name != "Family.Kirchhoff" { // HypercubeKirchhoff accepts every d ≥ 0
			cs = append(cs, p.Fails("hypercube, k = 31", "d = 31", func() error { return f(HypercubeFamily, 31) }))
		}
		cs = append(cs,
			p.Panics("Family(7)", "spectral: unknown Family(7)", func() { _ = f(Family(7), 3) }),
			p.Panics("Family(-1)", "spectral: unknown Family(-1)", func() { _ = f(Family(-1), 3) }),
		)
	}
	cs = append(cs, badarg.Probe{Func: "Family.Order", Err: tooLarge}.Fails("torus, k = 2^16", "k = 65536", func() error {
		_, err := TorusFamily.Order(1 << 16)
		return err
	}))
	return cs
}

// resistanceCases probes the methods of Resistance: nodes out of range,
// destinations of the wrong size and nil destinations are documented
// panics.
func resistanceCases() []badarg.Case {
	r := graphtest.Must(NewResistance(graphtest.Must(gen.Path(3))))
	p := badarg.Probe{Func: "Resistance.Between"}
	cs := []badarg.Case{
		p.Panics("u = -1", "node u = -1 out of range [0, 3)", func() { r.Between(-1, 0) }),
		p.Panics("v = 3", "node v = 3 out of range [0, 3)", func() { r.Between(0, 3) }),
	}
	cs = append(cs, badarg.Probe{Func: "Resistance.PseudoInverseDiag", Panic: true, Text: "spectral: len(dst)"}.Lengths("dst", []float64{1, 2, 3}, func(dst []float64) error {
		if dst == nil {
			dst = []float64{} // nil dst is allocated: probe an empty one
		}
		r.PseudoInverseDiag(dst)
		return nil
	})...)
	cs = append(cs, badarg.Probe{Func: "Resistance.EdgeResistances", Panic: true, Text: "EdgeResistances: len(dst)"}.Lengths("dst", []float64{1, 2}, func(dst []float64) error {
		if dst == nil {
			dst = []float64{}
		}
		r.EdgeResistances(dst)
		return nil
	})...)
	pa := badarg.Probe{Func: "Resistance.Apply"}
	pt := badarg.Probe{Func: "Resistance.ApplyTo"}
	cs = append(cs,
		pa.Panics("len(b) = 2", "Resistance.Apply: len(b) = 2, len(dst) = 0, want 3", func() { r.Apply(nil, []float64{1, -1}) }),
		pa.Panics("len(dst) = 2", "Resistance.Apply: len(b) = 3, len(dst) = 2, want 3", func() { r.Apply(make([]float64, 2), []float64{1, 0, -1}) }),
		pt.Panics("len(b) = 2", "Resistance.ApplyTo: len(b) = 2, len(dst) = 3, len(work) = 3", func() { r.ApplyTo(make([]float64, 3), []float64{1, -1}, make([]float64, 3)) }),
		pt.Panics("len(dst) = 2", "Resistance.ApplyTo: len(b) = 3, len(dst) = 2", func() { r.ApplyTo(make([]float64, 2), []float64{1, 0, -1}, make([]float64, 3)) }),
		pt.Panics("len(work) = 2", "len(work) = 2, want 3, 3 and ≥ 3", func() { r.ApplyTo(make([]float64, 3), []float64{1, 0, -1}, make([]float64, 2)) }),
	)
	for name, f := range map[string]func(dst *mat.SymDense){
		"Resistance.PseudoInverseTo": r.PseudoInverseTo,
		"Resistance.MatrixTo":        r.MatrixTo,
	} {
		p := badarg.Probe{Func: name}
		cs = append(cs,
			p.Panics("dst 2×2", "destination is 2×2, want 3×3", func() { f(mat.NewSymDense(2, nil)) }),
			p.Panics("dst 4×4", "destination is 4×4, want 3×3", func() { f(mat.NewSymDense(4, nil)) }),
			p.Panics("dst = nil", "spectral: nil destination dst", func() { f(nil) }),
		)
	}
	return cs
}

// TestValidate drives every exported entry point of spectral with nil,
// empty, disconnected and oversized graphs, bad settings, sizes, spectra,
// matrices, nodes and destinations: each gives the documented error,
// naming the input, or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(graphCases(), settingsCases(), closedFormCases(), resistanceCases(), topResistanceCases(), shiftedCases(), supportCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Bracket.Contains": "a query that accepts every float64: NaN lies in no bracket",
	})
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// topResistanceCases probes k of TopResistances: not positive, and so
// many pairs that the result would exceed the memory budget (a path of
// 2^21 nodes has 2^41 pairs; 2^40 of them need 24 TiB).
func topResistanceCases() []badarg.Case {
	top := func(g *wgraph.Graph, k int) error { _, err := TopResistances(g, k); return err }
	cs := badarg.Probe{Func: "TopResistances", Err: inv}.Int("k", badarg.Positive, func(k int) error { return top(connectedPath(4), k) })
	return append(cs, badarg.Probe{Func: "TopResistances", Err: tooLarge}.Fails("k = 2^40", "TopResistances: k", func() error { return top(connectedPath(1<<21), 1<<40) }))
}

// shiftedCases probes NewShiftedLaplacian and its Factor.
func shiftedCases() []badarg.Case {
	p := badarg.Probe{Func: "NewShiftedLaplacian"}
	sl := graphtest.Must(NewShiftedLaplacian(graphtest.Must(gen.Grid(60, 60)), nil))
	dense := graphtest.Must(NewShiftedLaplacian(graphtest.Must(gen.Complete(10)), nil))
	cs := []badarg.Case{
		p.Panics("g = nil", "spectral: NewShiftedLaplacian: nil graph g", func() { _, _ = NewShiftedLaplacian(nil, nil) }),
		badarg.Probe{Func: "NewShiftedLaplacian", Err: inv}.Fails("no nodes", "no nodes", func() error { _, err := NewShiftedLaplacian(&wgraph.Graph{}, nil); return err }),
		badarg.Probe{Func: "NewShiftedLaplacian", Err: inv}.Fails("Ordering = 9", "Settings.Ordering = 9", func() error {
			_, err := NewShiftedLaplacian(graphtest.Must(gen.Grid(60, 60)), &cholesky.Settings{Ordering: 9})
			return err
		}),
		badarg.Probe{Func: "NewShiftedLaplacian", Err: tooLarge}.Fails("MaxFlops = 10", "Settings.MaxFlops", func() error {
			_, err := NewShiftedLaplacian(graphtest.Must(gen.Grid(60, 60)), &cholesky.Settings{MaxFlops: 10})
			return err
		}),
		badarg.Probe{Func: "ShiftedLaplacian.Factor"}.Panics("dense graph", "the graph is dense", func() { _, _ = dense.Factor(2, -0.1) }),
		badarg.Probe{Func: "ShiftedLaplacian.Factor", Err: loadlab.ErrIllConditioned}.Fails("2I − L, unstable", "not numerically positive definite", func() error { _, err := sl.Factor(2, -1); return err }),
	}
	return append(cs, badarg.Probe{Func: "ShiftedLaplacian.Factor", Err: inv, Text: "= %v"}.Scalar("c", badarg.Finite, func(c float64) error { _, err := sl.Factor(c, -0.1); return err })...)
}
