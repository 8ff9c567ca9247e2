package consensus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// path5 is the unit path on 5 nodes: λ_n = 4 sin²(2π/5) ≈ 3.618, so
// γ = 0.2 is stable (γλ_n ≈ 0.72) and γ = 0.6 is not (≈ 2.17).
func path5() *wgraph.Graph { return mustGraph(gen.Path(5)) }

// twoComponents is the graph 0–1, 2–3–4 on 5 nodes.
func twoComponents() *wgraph.Graph {
	return mustGraph(wgraph.FromEdges(5, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 4, W: 1}}))
}

// throttlerFuncs are the entry points that take a *Throttler, each
// called with good other arguments on a 5-node graph.
var throttlerFuncs = map[string]func(th *Throttler) error{
	"Rho":        func(th *Throttler) error { _, err := Rho(th, Case2, 1); return err },
	"NodalRho":   func(th *Throttler) error { _, err := NodalRho(nil, th, Case2, 1); return err },
	"Covariance": func(th *Throttler) error { _, err := Covariance(th, Case2, 1); return err },
	"EstimateRho": func(th *Throttler) error {
		_, err := EstimateRho(th, Case2, 1, MonteCarlo{Runs: 2, Steps: 5})
		return err
	},
	"SimulateRho": func(th *Throttler) error {
		_, err := SimulateRho(th, Case2, 1, 5, 0, rand.NewPCG(1, 1))
		return err
	},
	"GreedyLinks":     func(th *Throttler) error { _, err := GreedyLinks(th, nil, 1); return err },
	"EstimateH2":      func(th *Throttler) error { _, err := EstimateH2(th, 1, nil, rand.NewPCG(1, 1)); return err },
	"EstimateNodalH2": func(th *Throttler) error { _, err := EstimateNodalH2(th, 1, nil, rand.NewPCG(1, 1)); return err },
	"Simulate": func(th *Throttler) error {
		x0 := make([]float64, 5)
		_, err := Simulate(th, TraceDemand{x0, x0}, x0, 2, nil)
		return err
	},
	"Throttler.Step":     func(th *Throttler) error { return th.Step(make([]float64, 5), make([]float64, 5), make([]float64, 5)) },
	"Throttler.Validate": func(th *Throttler) error { return th.Validate() },
	"ReweightLinks":      func(th *Throttler) error { _, err := ReweightLinks(th, 1, 10, nil); return err },
}

// linear are the entry points whose closed forms need Measure = Amount;
// stable those that refuse an unstable γ.
var (
	linear = []string{"Rho", "NodalRho", "Covariance", "EstimateRho", "SimulateRho", "GreedyLinks", "EstimateH2", "EstimateNodalH2", "ReweightLinks"}
	stable = append(slices.Clone(linear), "Simulate")
)

// throttlerCases probes every function of a throttler with each field
// out of its domain: a nil, empty or disconnected Graph, γ not finite
// and positive, unknown Measure and Orientation, a nonlinear measure
// where the closed forms need Amount, an unstable γ, and a nil
// *Throttler (a documented panic).
func throttlerCases() []badarg.Case {
	var cs []badarg.Case
	for _, name := range sortedKeys(throttlerFuncs) {
		f := throttlerFuncs[name]
		with := func(change func(th *Throttler)) func() error {
			return func() error {
				th := &Throttler{Graph: path5(), Gamma: 0.2}
				change(th)
				return f(th)
			}
		}
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs,
			p.Fails("Graph = nil", "Throttler.Graph is nil", with(func(th *Throttler) { th.Graph = nil })),
			p.Fails("Graph without nodes", "Throttler.Graph has no nodes", with(func(th *Throttler) { th.Graph = &wgraph.Graph{} })),
			p.Fails("Measure = 9", "Throttler.Measure = 9", with(func(th *Throttler) { th.Measure = 9 })),
			p.Fails("Orientation = 5", "Throttler.Orientation = 5", with(func(th *Throttler) { th.Orientation = 5 })),
			p.Panics("th = nil", "nil", func() { _ = f(nil) }),
		)
		for _, g := range badarg.Positive.Floats() {
			label := fmt.Sprintf("Gamma = %v", g)
			cs = append(cs, p.Fails(label, label, with(func(th *Throttler) { th.Gamma = g })))
		}
		if name != "Simulate" { // Simulate runs each component on its own
			cs = append(cs, badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("disconnected Graph", "disconnected", with(func(th *Throttler) { th.Graph = twoComponents() })))
		}
		if slices.Contains(linear, name) {
			// The error names the function called (guards: Rho's naming NodalRho).
			cs = append(cs, p.Fails("Measure = Ratio", name+": Throttler.Measure = ratio: the H2 measures are defined for Amount", with(func(th *Throttler) { th.Measure = Ratio })))
		}
		if slices.Contains(stable, name) {
			// Guards: an unstable γ simulated and averaged (EstimateRho).
			cs = append(cs, badarg.Probe{Func: name, Err: ErrUnstable}.Fails("Gamma = 0.6 (γλ_n ≈ 2.17)", "", with(func(th *Throttler) { th.Gamma = 0.6 })))
		}
	}
	return cs
}

// argumentCases probes σ, the traffic case, dst and the Monte Carlo
// settings of the H2 functions, and the dense work beyond the memory
// budget.
func argumentCases() []badarg.Case {
	th := func() *Throttler { return &Throttler{Graph: path5(), Gamma: 0.2} }
	mcs := MonteCarlo{Runs: 2, Steps: 5}
	h2 := map[string]func(t Traffic, sigma float64) error{
		"Rho":         func(t Traffic, s float64) error { _, err := Rho(th(), t, s); return err },
		"NodalRho":    func(t Traffic, s float64) error { _, err := NodalRho(nil, th(), t, s); return err },
		"Covariance":  func(t Traffic, s float64) error { _, err := Covariance(th(), t, s); return err },
		"EstimateRho": func(t Traffic, s float64) error { _, err := EstimateRho(th(), t, s, mcs); return err },
		"SimulateRho": func(t Traffic, s float64) error {
			_, err := SimulateRho(th(), t, s, 5, 0, rand.NewPCG(1, 1))
			return err
		},
		"EstimateH2": func(_ Traffic, s float64) error { _, err := EstimateH2(th(), s, nil, rand.NewPCG(1, 1)); return err },
		"EstimateNodalH2": func(_ Traffic, s float64) error {
			_, err := EstimateNodalH2(th(), s, nil, rand.NewPCG(1, 1))
			return err
		},
		"EstimateGammaH2": func(_ Traffic, s float64) error {
			_, err := EstimateGammaH2(path5(), s, nil, rand.NewPCG(1, 1))
			return err
		},
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(h2) {
		f := h2[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Scalar("sigma", badarg.NonNegative, func(s float64) error { return f(Case2, s) })...)
		if name != "EstimateH2" && name != "EstimateNodalH2" && name != "EstimateGammaH2" {
			cs = append(cs, p.Fails("Traffic(7)", "Traffic = 7", func() error { return f(Traffic(7), 1) }))
		}
	}
	cs = append(cs,
		badarg.Probe{Func: "NodalRho", Panic: true}.Panics("len(dst) = 4", "NodalRho: len(dst) = 4, want 5", func() { _, _ = NodalRho(make([]float64, 4), th(), Case2, 1) }),
		badarg.Probe{Func: "SimulateRho", Panic: true}.Panics("src = nil", "nil rand.Source src", func() { _, _ = SimulateRho(th(), Case2, 1, 5, 0, nil) }),
		badarg.Probe{Func: "SimulateRho", Err: loadlab.ErrTooLarge}.Fails("burn + steps overflows", "overflows", func() error {
			_, err := SimulateRho(th(), Case2, 1, math.MaxInt, 1, rand.NewPCG(1, 1))
			return err
		}),
	)
	sim := badarg.Probe{Func: "SimulateRho", Err: inv}
	cs = append(cs, sim.Int("steps", badarg.Positive, func(n int) error { _, err := SimulateRho(th(), Case2, 1, n, 0, rand.NewPCG(1, 1)); return err })...)
	cs = append(cs, sim.Int("burn", badarg.NonNegative, func(n int) error { _, err := SimulateRho(th(), Case2, 1, 5, n, rand.NewPCG(1, 1)); return err })...)
	for name, f := range map[string]func(m MonteCarlo) error{
		"MonteCarlo.Validate": func(m MonteCarlo) error { return m.Validate() },
		"EstimateRho":         func(m MonteCarlo) error { _, err := EstimateRho(th(), Case2, 1, m); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, badarg.Fields(p, mcs, badarg.Positive, func(m *MonteCarlo) error { return f(*m) }, "Runs", "Steps")...)
		cs = append(cs, badarg.Fields(p, mcs, badarg.NonNegative, func(m *MonteCarlo) error { return f(*m) }, "Burn")...)
		cs = append(cs,
			p.Fails("Runs = 1", "MonteCarlo.Runs = 1", func() error { return f(MonteCarlo{Runs: 1, Steps: 5}) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("Burn + Steps overflows", "MonteCarlo.Burn + Steps", func() error { return f(MonteCarlo{Runs: 2, Steps: 5, Burn: math.MaxInt - 1}) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("Runs = 2^40", "MonteCarlo.Runs", func() error { return f(MonteCarlo{Runs: 1 << 40, Steps: 1}) }),
		)
		// Precision: each field named; the pilot Runs above the cap; a
		// cap beyond the memory budget.
		withPrec := func(q *loadlab.Precision) error { m := mcs; m.Precision = *q; return f(m) }
		cs = append(cs, badarg.Fields(p, loadlab.Precision{Rel: 0.1}, badarg.NonNegative, withPrec, "Rel", "Abs", "MaxRuns", "Batch")...)
		cs = append(cs,
			p.Fails("Runs above MaxRuns", "MonteCarlo.Runs = 30 (the pilot), above Precision.MaxRuns = 20", func() error {
				return f(MonteCarlo{Runs: 30, Steps: 5, Precision: loadlab.Precision{Rel: 0.1, MaxRuns: 20}})
			}),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("MaxRuns = 2^40", "MonteCarlo.Precision.MaxRuns", func() error {
				return f(MonteCarlo{Runs: 2, Steps: 1, Precision: loadlab.Precision{Rel: 0.1, MaxRuns: 1 << 40}})
			}),
		)
	}
	return append(cs, denseTooLargeCases()...)
}

// denseTooLargeCases: the dense methods on a graph far too large for
// them, and a Lyapunov system beyond the memory budget, are ErrTooLarge
// before anything is allocated (guards: out-of-memory crashes).
func denseTooLargeCases() []badarg.Case {
	big := mustGraph(gen.Path(1 << 17)) // n² doubles: 128 GiB per matrix
	th := &Throttler{Graph: big, Gamma: 0.1}
	tl := func(name string, f func() error) badarg.Case {
		return badarg.Probe{Func: name, Err: tooLarge}.Fails("n = 2^17", "", f)
	}
	return []badarg.Case{
		// A path factors without fill at any size: the sparse path's
		// refusal is reached by lowering its flops limit.
		tl("Rho", func() error { return withSparseLimit(func() error { _, err := Rho(th, Case2, 1); return err }) }),
		tl("NodalRho", func() error {
			return withSparseLimit(func() error { _, err := NodalRho(nil, th, Case1, 1); return err })
		}),
		tl("GammaH2", func() error { return withSparseLimit(func() error { _, _, err := GammaH2(big, 1); return err }) }),
		tl("NewSpectral", func() error { _, err := NewSpectral(big); return err }),
		tl("GreedyLinks", func() error { _, err := GreedyLinks(th, nil, 1); return err }),
		// The system is 300²×300²: 65 GB.
		tl("Lyapunov", func() error { _, err := Lyapunov(mat.NewDense(300, 300, nil), mat.NewSymDense(300, nil)); return err }),
	}
}

// estimatorCases probes the settings, sources and graphs of the H2
// estimators.
func estimatorCases() []badarg.Case {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	var cs []badarg.Case
	for name, f := range map[string]func(g *wgraph.Graph, set *estimate.TraceSettings, src rand.Source) error{
		"EstimateH2": func(g *wgraph.Graph, set *estimate.TraceSettings, src rand.Source) error {
			_, err := EstimateH2(&Throttler{Graph: g, Gamma: 0.2}, 1, set, src)
			return err
		},
		"EstimateNodalH2": func(g *wgraph.Graph, set *estimate.TraceSettings, src rand.Source) error {
			_, err := EstimateNodalH2(&Throttler{Graph: g, Gamma: 0.2}, 1, set, src)
			return err
		},
		"EstimateGammaH2": func(g *wgraph.Graph, set *estimate.TraceSettings, src rand.Source) error {
			_, err := EstimateGammaH2(g, 1, set, src)
			return err
		},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		call := func(s *estimate.TraceSettings) error { return f(th.Graph, s, rand.NewPCG(1, 1)) }
		cs = append(cs, badarg.Fields(p, estimate.TraceSettings{}, badarg.NonNegative, call, "RelAcc", "MinProbes", "MaxProbes")...)
		cs = append(cs,
			p.Fails("MinProbes = 20 > MaxProbes = 10", "TraceSettings.MaxProbes = 10", func() error { return call(&estimate.TraceSettings{MinProbes: 20, MaxProbes: 10}) }),
			p.Fails("Solver.Tol = NaN", "Settings.Tol = NaN", func() error { return call(&estimate.TraceSettings{Solver: &laplacian.Settings{Tol: nan}}) }),
			p.Panics("src = nil", "nil", func() { _ = f(th.Graph, nil, nil) }),
		)
	}
	p := badarg.Probe{Func: "EstimateGammaH2", Err: inv}
	gh := func(g *wgraph.Graph) error { _, err := EstimateGammaH2(g, 1, nil, rand.NewPCG(1, 1)); return err }
	return append(cs,
		p.Panics("g = nil", "consensus: EstimateGammaH2: nil graph", func() { _ = gh(nil) }),
		p.Fails("one node", "graph has 1 nodes, want ≥ 2", func() error { return gh(mustGraph(gen.Path(1))) }),
		badarg.Probe{Func: "EstimateGammaH2", Err: loadlab.ErrDisconnected}.Fails("two components", "", func() error { return gh(twoComponents()) }),
		badarg.Probe{Func: "H2Estimate.Of"}.Panics("Traffic(7)", "H2Estimate.Of: unknown Traffic(7)", func() { H2Estimate{}.Of(Traffic(7)) }),
		badarg.Probe{Func: "NodalH2Estimate.Of"}.Panics("Traffic(7)", "NodalH2Estimate.Of: unknown Traffic(7)", func() { NodalH2Estimate{}.Of(Traffic(7)) }),
	)
}

// TestValidate drives every exported entry point of consensus with bad
// throttlers, graphs, spectra, demands, settings, vectors and nil
// arguments: each gives the documented error, naming the input, or the
// documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(throttlerCases(), argumentCases(), estimatorCases(), spectralCases(), simulateCases(), demandCases(), designCases(), perServerCases(), decisionCases(), centralCases(), delayCases(), clientsCases(), networkCases(), exactSparseCases(), scaleDesignCases(), rho2DesignCases(), linkCases())
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Spectral.Factor":   "returns NaN for γ not finite and positive, as documented (no error result)",
		"Spectral.G":        "returns NaN for γ not finite and positive, as documented (no error result)",
		"LinkEffect.String": "no inputs to refuse",
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

// spectralCases probes NewSpectral, SpectralFrom and the methods of
// Spectral.
func spectralCases() []badarg.Case {
	s, err := NewSpectral(path5())
	must(err)
	p := badarg.Probe{Func: "NewSpectral", Err: inv}
	cs := []badarg.Case{
		p.Panics("g = nil", "consensus: NewSpectral: nil graph g", func() { _, _ = NewSpectral(nil) }),
		p.Fails("no nodes", "has no nodes", func() error { _, err := NewSpectral(&wgraph.Graph{}); return err }),
		badarg.Probe{Func: "NewSpectral", Err: loadlab.ErrDisconnected}.Fails("two components", "disconnected", func() error { _, err := NewSpectral(twoComponents()); return err }),
		// A 1e-20 bridge leaves λ₂ without a correct digit.
		badarg.Probe{Func: "NewSpectral", Err: ErrIllConditioned}.Fails("1e-20 bridge", "λ₂", func() error { _, err := NewSpectral(twoCliques(1e-20)); return err }),
	}
	from := func(l []float64) error { _, err := SpectralFrom(l); return err }
	p = badarg.Probe{Func: "SpectralFrom", Err: inv, Text: "eigenvalue 1 = %v"}
	cs = append(cs, p.Entries("lambda", []float64{0, 1, 2}, 1, badarg.Finite, from)...)
	cs = append(cs,
		p.Fails("lambda = nil", "empty spectrum", func() error { return from(nil) }),
		p.Fails("smallest 1", "smallest eigenvalue 1 is not 0", func() error { return from([]float64{1, 2}) }),
		badarg.Probe{Func: "SpectralFrom", Err: loadlab.ErrDisconnected}.Fails("λ₂ = 0", "λ₂ = 0", func() error { return from([]float64{0, 0, 1}) }),
		badarg.Probe{Func: "SpectralFrom", Err: ErrIllConditioned}.Fails("λ₂ = 1e-13 λ_n", "λ₂ = 1e-13", func() error { return from([]float64{0, 1e-13, 1}) }),
	)
	for name, f := range map[string]func(t Traffic, gamma, sigma float64) error{
		"Spectral.Rho":      func(t Traffic, g, sg float64) error { _, err := s.Rho(t, g, sg); return err },
		"Spectral.NodalRho": func(t Traffic, g, sg float64) error { _, err := s.NodalRho(nil, t, g, sg); return err },
		"Spectral.Bounds":   func(_ Traffic, g, sg float64) error { _, _, err := s.Bounds(g, sg); return err },
		"Spectral.Curve":    func(t Traffic, _, sg float64) error { _, _, err := s.Curve(t, sg, 3); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Scalar("sigma", badarg.NonNegative, func(sg float64) error { return f(Case2, 0.2, sg) })...)
		if name != "Spectral.Curve" {
			cs = append(cs, badarg.Probe{Func: name, Err: inv, Text: "Gamma = %v"}.Scalar("gamma", badarg.Positive, func(g float64) error { return f(Case2, g, 1) })...)
		}
		if name != "Spectral.Bounds" {
			cs = append(cs, p.Fails("Traffic(7)", "Traffic = 7", func() error { return f(Traffic(7), 0.2, 1) }))
		}
		if name == "Spectral.Rho" || name == "Spectral.NodalRho" {
			cs = append(cs, badarg.Probe{Func: name, Err: ErrUnstable}.Fails("γ = 0.6", "2/λ_n", func() error { return f(Case2, 0.6, 1) }))
		}
	}
	sf, err := SpectralFrom(s.Values())
	must(err)
	cs = append(cs,
		badarg.Probe{Func: "Spectral.NodalRho", Err: inv}.Fails("from SpectralFrom", "has no eigenvectors", func() error { _, err := sf.NodalRho(nil, Case2, 0.2, 1); return err }),
		badarg.Probe{Func: "Spectral.NodalRho"}.Panics("len(dst) = 4", "Spectral.NodalRho: len(dst) = 4, want 5", func() { _, _ = s.NodalRho(make([]float64, 4), Case2, 0.2, 1) }),
	)
	cs = append(cs, badarg.Probe{Func: "Spectral.Curve", Err: inv, Text: "Curve: points = %v"}.Int("points", badarg.Positive, func(k int) error { _, _, err := s.Curve(Case2, 1, k); return err })...)
	cs = append(cs, badarg.Probe{Func: "Spectral.Curve", Err: tooLarge}.Fails("points = 2^40", "Curve: points", func() error { _, _, err := s.Curve(Case2, 1, 1<<40); return err }))
	cs = append(cs, badarg.Probe{Func: "Spectral.GammaH2", Err: inv, Text: "GammaH2: sigma = %v"}.Scalar("sigma", badarg.NonNegative, func(sg float64) error { _, _, err := s.GammaH2(sg); return err })...)
	p = badarg.Probe{Func: "Spectral.GammaTradeoff", Err: inv}
	cs = append(cs, badarg.Probe{Func: "Spectral.GammaTradeoff", Err: inv, Text: "cost c = %v"}.Scalar("c", badarg.Positive, func(c float64) error { _, err := s.GammaTradeoff(c, 1); return err })...)
	return append(cs, p.Scalar("sigma", badarg.Positive, func(sg float64) error { _, err := s.GammaTradeoff(1, sg); return err })...)
}

// simulateCases probes Simulate, Throttler.Step, Measure.Nodal,
// Equilibrium and Settings beyond the throttler's fields.
func simulateCases() []badarg.Case {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	x0 := []float64{1, 2, 3, 4, 5}
	sim := func(x0 []float64, steps int, s *Settings) error {
		_, err := Simulate(th, constant(make([]float64, 5), 3), x0, steps, s)
		return err
	}
	p := badarg.Probe{Func: "Simulate", Err: inv}
	cs := p.Slice("x0", x0, 1, badarg.Finite, func(x []float64) error { return sim(x, 3, nil) })
	cs = append(cs, p.Int("steps", badarg.NonNegative, func(k int) error { return sim(x0, k, nil) })...)
	for name, f := range map[string]func(s *Settings) error{
		"Simulate":          func(s *Settings) error { return sim(x0, 3, s) },
		"Settings.Validate": func(s *Settings) error { return s.Validate() },
	} {
		cs = append(cs, badarg.Fields(badarg.Probe{Func: name, Err: inv}, Settings{}, badarg.NonNegative, f, "Workers")...)
	}
	cs = append(cs,
		p.Panics("d = nil", "consensus: Simulate: demand d is nil", func() { _, _ = Simulate(th, nil, x0, 3, nil) }),
		// A demand that fails at step 1 ends the run with its error.
		p.Fails("a trace of one row", "TraceDemand: step 1 beyond the trace of 1 rows", func() error {
			_, err := Simulate(th, TraceDemand{x0}, x0, 3, nil)
			return err
		}),
		badarg.Probe{Func: "Simulate", Err: tooLarge}.Fails("2^40 steps", "", func() error { return sim(x0, 1<<40, nil) }),
	)
	step := func(dst, x, r []float64) error { return th.Step(dst, x, r) }
	sp := badarg.Probe{Func: "Throttler.Step", Panic: true, Text: "consensus: Step: len(dst)"}
	cs = append(cs, sp.Lengths("dst", x0, func(d []float64) error { return step(d, x0, x0) })...)
	cs = append(cs, sp.Lengths("x", x0, func(x []float64) error { return step(make([]float64, 5), x, x0) })...)
	cs = append(cs, sp.Lengths("r", x0, func(r []float64) error { return step(make([]float64, 5), x0, r) })...)
	cs = append(cs, badarg.Probe{Func: "Throttler.Step", Err: inv, Text: "demand r[1] = %v"}.Entries("r", x0, 1, badarg.Finite, func(r []float64) error { return step(make([]float64, 5), x0, r) })...)
	cs = append(cs, badarg.Probe{Func: "Throttler.Step", Err: inv, Text: "limit x[3] = %v"}.Entries("x", x0, 3, badarg.Finite, func(x []float64) error { return step(make([]float64, 5), x, x0) })...)
	cs = append(cs,
		badarg.Probe{Func: "Throttler.Step", Err: inv}.Fails("Ratio, r[2] = 0", "demand r[2] = 0", func() error {
			return (&Throttler{Graph: path5(), Gamma: 0.2, Measure: Ratio}).Step(make([]float64, 5), x0, []float64{1, 1, 0, 1, 1})
		}),
	)
	return append(cs, measureCases()...)
}

// measureCases probes Measure.Nodal and Equilibrium.
func measureCases() []badarg.Case {
	r, x := []float64{1, 2, 3}, []float64{1, 1, 1}
	nodal := func(m Measure, dst, r, x []float64) error { return m.Nodal(dst, r, x) }
	np := badarg.Probe{Func: "Measure.Nodal", Panic: true, Text: "consensus: Nodal: len(dst)"}
	cs := np.Lengths("dst", r, func(d []float64) error { return nodal(Amount, d, r, x) })
	cs = append(cs, np.Lengths("x", x, func(v []float64) error { return nodal(Amount, make([]float64, 3), r, v) })...)
	cs = append(cs, badarg.Probe{Func: "Measure.Nodal", Err: inv, Text: "demand r[1] = %v"}.Entries("r", r, 1, badarg.Finite, func(v []float64) error { return nodal(Clipped, make([]float64, 3), v, x) })...)
	cs = append(cs, badarg.Probe{Func: "Measure.Nodal", Err: inv, Text: "limit x[2] = %v"}.Entries("x", x, 2, badarg.Finite, func(v []float64) error { return nodal(Amount, make([]float64, 3), r, v) })...)
	p := badarg.Probe{Func: "Measure.Nodal", Err: inv}
	cs = append(cs,
		p.Fails("Ratio, r[1] = -1", "demand r[1] = -1", func() error { return nodal(Ratio, make([]float64, 3), []float64{1, -1, 1}, x) }),
		p.Fails("LogRatio, r[0] = 0", "demand r[0] = 0", func() error { return nodal(LogRatio, make([]float64, 3), []float64{0, 1, 1}, x) }),
		p.Fails("LogRatio, x[2] = 0", "limit x[2] = 0", func() error { return nodal(LogRatio, make([]float64, 3), r, []float64{1, 1, 0}) }),
		// Guards: an undocumented panic on an unknown measure.
		p.Fails("Measure(9)", "Measure = 9", func() error { return nodal(Measure(9), make([]float64, 3), r, x) }),
	)
	eq := func(m Measure, r []float64, l float64) error { _, err := Equilibrium(m, r, l); return err }
	p = badarg.Probe{Func: "Equilibrium", Err: inv}
	cs = append(cs, badarg.Probe{Func: "Equilibrium", Err: inv, Text: "Equilibrium: r[1] = %v"}.Entries("r", r, 1, badarg.Finite, func(v []float64) error { return eq(Amount, v, 3) })...)
	cs = append(cs, badarg.Probe{Func: "Equilibrium", Err: inv, Text: "Equilibrium: ltotal = %v"}.Scalar("ltotal", badarg.Finite, func(l float64) error { return eq(Amount, r, l) })...)
	return append(cs,
		p.Fails("r = nil", "no demand values", func() error { return eq(Amount, nil, 3) }),
		p.Fails("Measure(9)", "Measure = 9", func() error { return eq(Measure(9), r, 3) }),
		p.Fails("Ratio, r[1] = 0", "r[1] = 0", func() error { return eq(Ratio, []float64{1, 0, 1}, 3) }),
		p.Fails("Clipped with spare limit", "clipped measure", func() error { return eq(Clipped, r, 10) }),
		p.Fails("LogRatio, ltotal = 0", "ltotal = 0", func() error { return eq(LogRatio, r, 0) }),
	)
}

// demandCases probes the demand models: lengths, noise levels, a nil
// Src where noise is drawn, and steps out of order or beyond a trace.
func demandCases() []badarg.Case {
	r := make([]float64, 2)
	sd := StationaryDemand{Mean: []float64{1, 2}, Sigma: 1, Src: rand.NewPCG(1, 1)}
	rw := RandomWalkDemand{Start: []float64{1, 2}, Sigma: 1, Src: rand.NewPCG(1, 1)}
	ps := badarg.Probe{Func: "StationaryDemand.Next", Err: inv}
	pw := badarg.Probe{Func: "RandomWalkDemand.Next", Err: inv}
	cs := badarg.Fields(ps, sd, badarg.NonNegative, func(d *StationaryDemand) error { return d.Next(0, r) }, "Sigma")
	cs = append(cs, badarg.Fields(pw, rw, badarg.NonNegative, func(d *RandomWalkDemand) error { return d.Next(0, r) }, "Sigma", "Dt")...)
	cs = append(cs,
		ps.Fails("len(Mean) = 3", "len(Mean) = 3, want 2", func() error { return (&StationaryDemand{Mean: []float64{1, 2, 3}}).Next(0, r) }),
		pw.Fails("len(Start) = 1", "len(Start) = 1, want 2", func() error { return (&RandomWalkDemand{Start: []float64{1}}).Next(0, r) }),
		// A nil Src is a missing required field where noise is drawn: an
		// error naming Type.Field (docs/conventions.md §2).
		ps.Fails("Src = nil, Sigma = 1", "StationaryDemand.Src is nil", func() error { return (&StationaryDemand{Mean: []float64{1, 2}, Sigma: 1}).Next(0, r) }),
		pw.Fails("Src = nil, Sigma = 1", "RandomWalkDemand.Src is nil", func() error { return (&RandomWalkDemand{Start: []float64{1, 2}, Sigma: 1}).Next(0, r) }),
		pw.Fails("first k = 1", "Next must start at k = 0", func() error { return (&RandomWalkDemand{Start: []float64{1, 2}}).Next(1, r) }),
	)
	td := TraceDemand{{1, 2}, {3}}
	pt := badarg.Probe{Func: "TraceDemand.Next", Err: inv}
	return append(cs,
		pt.Fails("k = 2", "step 2 beyond the trace of 2 rows", func() error { return td.Next(2, r) }),
		pt.Fails("k = -1", "step -1 beyond", func() error { return td.Next(-1, r) }),
		pt.Fails("row 1 of 1 value", "row 1 has 1 values, want 2", func() error { return td.Next(1, r) }),
	)
}

// designCases probes WeightProblem, DesignWeights, DesignSettings,
// GreedyLinks and Lyapunov.
func designCases() []badarg.Case {
	base := WeightProblem{Nodes: 4, Links: []Link{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}}, Gamma: 0.1, Budget: 4}
	var cs []badarg.Case
	for name, f := range map[string]func(p *WeightProblem) error{
		"WeightProblem.Validate": func(p *WeightProblem) error { return p.Validate() },
		"DesignWeights":          func(p *WeightProblem) error { _, err := DesignWeights(*p, nil); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, badarg.Fields(p, base, badarg.Positive, f, "Nodes", "Gamma", "Budget")...)
		cs = append(cs, badarg.Fields(p, base, badarg.NonNegative, f, "Floor")...)
		with := func(links ...Link) func() error {
			return func() error { q := base; q.Links = links; return f(&q) }
		}
		cs = append(cs,
			p.Fails("Nodes = 1", "WeightProblem.Nodes = 1", func() error { q := base; q.Nodes = 1; return f(&q) }),
			p.Fails("link out of range", "WeightProblem.Links[1] = {1, 4}", with(Link{0, 1, 1}, Link{1, 4, 1})),
			p.Fails("self-loop", "WeightProblem.Links[0] is a self-loop at node 2", with(Link{2, 2, 1})),
			p.Fails("repeated link", "WeightProblem.Links[1] repeats Links[0]", with(Link{0, 1, 1}, Link{1, 0, 1})),
			badarg.Probe{Func: name, Err: loadlab.ErrDisconnected}.Fails("links that do not connect", "do not connect", with(Link{0, 1, 1}, Link{2, 3, 1})),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("Nodes = 2^20", "WeightProblem.Nodes", func() error { q := base; q.Nodes = 1 << 20; return f(&q) }),
		)
		for _, c := range badarg.Positive.Floats() {
			label := fmt.Sprintf("WeightProblem.Links[0].Cost = %v", c)
			cs = append(cs, p.Fails(label, label, with(Link{0, 1, c}, Link{1, 2, 1}, Link{2, 3, 1})))
		}
	}
	for name, f := range map[string]func(s *DesignSettings) error{
		"DesignSettings.Validate": func(s *DesignSettings) error { return s.Validate() },
		"DesignWeights":           func(s *DesignSettings) error { _, err := DesignWeights(base, s); return err },
	} {
		cs = append(cs, badarg.Fields(badarg.Probe{Func: name, Err: inv}, DesignSettings{}, badarg.NonNegative, f, "Tol", "MaxIter")...)
	}
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	gl := func(c []wgraph.Edge, k int) error { _, err := GreedyLinks(th, c, k); return err }
	p := badarg.Probe{Func: "GreedyLinks", Err: inv}
	cs = append(cs, badarg.Probe{Func: "GreedyLinks", Err: inv, Text: "GreedyLinks: k = %v"}.Int("k", badarg.NonNegative, func(k int) error { return gl(nil, k) })...)
	cs = append(cs,
		p.Fails("candidate out of range", "candidates[0] = {0, 5}", func() error { return gl([]wgraph.Edge{{U: 0, V: 5, W: 1}}, 1) }),
		p.Fails("self-loop", "candidates[0] = {3, 3}", func() error { return gl([]wgraph.Edge{{U: 3, V: 3, W: 1}}, 1) }),
	)
	for _, w := range badarg.Positive.Floats() {
		label := fmt.Sprintf("candidates[0].W = %v", w)
		cs = append(cs, p.Fails(label, label, func() error { return gl([]wgraph.Edge{{U: 0, V: 2, W: w}}, 1) }))
	}
	return append(cs, lyapunovCases()...)
}

// lyapunovCases probes Lyapunov: NaN and infinite entries, a singular
// system, and mismatched or nil matrices (documented panics).
func lyapunovCases() []badarg.Case {
	q := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	a := mat.NewDense(2, 2, []float64{0.5, 0, 0, 0.5})
	p := badarg.Probe{Func: "Lyapunov", Err: inv}
	cs := []badarg.Case{
		// Guards: a NaN in A passed on to the solver.
		p.Fails("A[1][0] = NaN", "Lyapunov: A[1][0] = NaN", func() error {
			_, err := Lyapunov(mat.NewDense(2, 2, []float64{0.5, 0, nan, 0.5}), q)
			return err
		}),
		p.Fails("Q[0][1] = +Inf", "Lyapunov: Q[0][1] = +Inf", func() error {
			_, err := Lyapunov(a, mat.NewSymDense(2, []float64{1, inf, inf, 1}))
			return err
		}),
		// μν = 1: I − A⊗A is singular.
		badarg.Probe{Func: "Lyapunov", Err: ErrIllConditioned}.Fails("A = [1]", "singular", func() error {
			_, err := Lyapunov(mat.NewDense(1, 1, []float64{1}), mat.NewSymDense(1, []float64{1}))
			return err
		}),
		p.Panics("A 2×3", "Lyapunov: A is 2×3", func() { _, _ = Lyapunov(mat.NewDense(2, 3, nil), q) }),
		p.Panics("Q 3×3", "Lyapunov: A is 2×2, Q is 3×3", func() { _, _ = Lyapunov(a, mat.NewSymDense(3, nil)) }),
		p.Panics("a = nil", "consensus: Lyapunov: nil matrix", func() { _, _ = Lyapunov(nil, q) }),
		p.Panics("q = nil", "consensus: Lyapunov: nil matrix", func() { _, _ = Lyapunov(a, nil) }),
	}
	return cs
}

// perServerCases probes UniformRatio and WaterFill: negative, NaN and
// infinite requests and limits, and a dst of the wrong length.
func perServerCases() []badarg.Case {
	req := []float64{1, 2, 3}
	var cs []badarg.Case
	for name, f := range map[string]func(dst, r []float64, l float64) error{
		"UniformRatio": func(dst, r []float64, l float64) error { _, err := UniformRatio(dst, r, l); return err },
		"WaterFill":    func(dst, r []float64, l float64) error { _, _, err := WaterFill(dst, r, l); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Entries("requests", req, 1, badarg.NonNegative, func(r []float64) error { return f(nil, r, 4) })...)
		cs = append(cs, p.Scalar("limit", badarg.NonNegative, func(l float64) error { return f(nil, req, l) })...)
		lp := badarg.Probe{Func: name, Panic: true, Text: "consensus: " + name + ": len(dst)"}
		cs = append(cs, lp.Lengths("dst", req, func(dst []float64) error {
			if dst == nil {
				dst = []float64{} // nil dst is allocated: probe an empty one
			}
			return f(dst, req, 4)
		})...)
	}
	return cs
}

// decisionCases probes the decision helpers: GammaMargin and
// EstimateGammaMargin (the margin, σ, the settings, a single node, nil
// arguments), GammaWorstServer (σ, no eigenvectors, one node, n above
// spectral.DenseMaxNodes) and ReweightLinks beyond the throttler's
// fields (k, the budget, the settings, n above DenseMaxNodes).
func decisionCases() []badarg.Case {
	s, err := NewSpectral(path5())
	must(err)
	one, err := SpectralFrom([]float64{0})
	must(err)
	margins := []float64{nan, inf, -inf, -1, 0, 1, 1.5}
	var cs []badarg.Case
	pm := badarg.Probe{Func: "Spectral.GammaMargin", Err: inv}
	pe := badarg.Probe{Func: "EstimateGammaMargin", Err: inv}
	em := func(g *wgraph.Graph, m, sg float64, set *estimate.TraceSettings) error {
		_, err := EstimateGammaMargin(g, m, sg, set, rand.NewPCG(1, 1))
		return err
	}
	for _, m := range margins {
		label := fmt.Sprintf("margin m = %v", m)
		cs = append(cs,
			pm.Fails(label, label, func() error { _, err := s.GammaMargin(m, 1); return err }),
			pe.Fails(label, label, func() error { return em(path5(), m, 1, nil) }))
	}
	cs = append(cs, pm.Scalar("sigma", badarg.NonNegative, func(sg float64) error { _, err := s.GammaMargin(0.1, sg); return err })...)
	cs = append(cs, pe.Scalar("sigma", badarg.NonNegative, func(sg float64) error { return em(path5(), 0.1, sg, nil) })...)
	cs = append(cs, badarg.Fields(pe, estimate.TraceSettings{}, badarg.NonNegative, func(set *estimate.TraceSettings) error { return em(path5(), 0.1, 1, set) }, "RelAcc", "MinProbes", "MaxProbes")...)
	cs = append(cs,
		pm.Fails("one node", "single node", func() error { _, err := one.GammaMargin(0.1, 1); return err }),
		pe.Fails("one node", "graph has 1 nodes", func() error { return em(mustGraph(gen.Path(1)), 0.1, 1, nil) }),
		badarg.Probe{Func: "EstimateGammaMargin", Err: loadlab.ErrDisconnected}.Fails("two components", "", func() error { return em(twoComponents(), 0.1, 1, nil) }),
		pe.Panics("g = nil", "consensus: EstimateGammaMargin: nil graph", func() { _ = em(nil, 0.1, 1, nil) }),
		pe.Panics("src = nil", "consensus: EstimateGammaMargin: nil graph or rand.Source", func() { _, _ = EstimateGammaMargin(path5(), 0.1, 1, nil, nil) }),
	)
	return append(cs, worstAndReweightCases(s)...)
}

// worstAndReweightCases probes GammaWorstServer and ReweightLinks.
func worstAndReweightCases(s *Spectral) []badarg.Case {
	pw := badarg.Probe{Func: "Spectral.GammaWorstServer", Err: inv}
	cs := pw.Scalar("sigma", badarg.NonNegative, func(sg float64) error { _, err := s.GammaWorstServer(sg); return err })
	sf, err := SpectralFrom(s.Values())
	must(err)
	big := make([]float64, spectral.DenseMaxNodes+1)
	for i := 1; i < len(big); i++ {
		big[i] = 1
	}
	sb, err := SpectralFrom(big)
	must(err)
	one1, err := NewSpectral(mustGraph(gen.Path(1)))
	must(err)
	cs = append(cs,
		pw.Fails("from SpectralFrom", "has no eigenvectors", func() error { _, err := sf.GammaWorstServer(1); return err }),
		pw.Fails("one node", "single node", func() error { _, err := one1.GammaWorstServer(1); return err }),
		badarg.Probe{Func: "Spectral.GammaWorstServer", Err: tooLarge}.Fails("n = DenseMaxNodes + 1", "EstimateNodalH2", func() error { _, err := sb.GammaWorstServer(1); return err }),
	)
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	rw := func(k int, budget float64, set *DesignSettings) error {
		_, err := ReweightLinks(th, k, budget, set)
		return err
	}
	pr := badarg.Probe{Func: "ReweightLinks", Err: inv}
	cs = append(cs, badarg.Probe{Func: "ReweightLinks", Err: inv, Text: "ReweightLinks: k = %v"}.Int("k", badarg.NonNegative, func(k int) error { return rw(k, 10, nil) })...)
	cs = append(cs, badarg.Probe{Func: "ReweightLinks", Err: inv, Text: "ReweightLinks: budget = %v"}.Scalar("budget", badarg.Positive, func(b float64) error { return rw(1, b, nil) })...)
	cs = append(cs, badarg.Fields(pr, DesignSettings{}, badarg.NonNegative, func(set *DesignSettings) error { return rw(1, 10, set) }, "Tol", "MaxIter")...)
	return append(cs,
		// The path's four unit links weigh 4 in all.
		pr.Fails("budget below the total weight", "budget = 3, want finite and ≥ the current total weight 4", func() error { return rw(1, 3, nil) }),
		badarg.Probe{Func: "ReweightLinks", Err: tooLarge}.Fails("n = 3000", "ReweightLinks: n = 3000", func() error {
			_, err := ReweightLinks(&Throttler{Graph: mustGraph(gen.Path(3000)), Gamma: 0.1}, 1, 1e4, nil)
			return err
		}),
	)
}

// withSparseLimit runs f with the sparse path's flops limit at 10³.
func withSparseLimit(f func() error) error {
	sparseSettings = &cholesky.Settings{MaxFlops: 1e3}
	defer func() { sparseSettings = nil }()
	return f()
}
