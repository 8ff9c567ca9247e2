package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// overRegime is a valid regime of the 5-node probes.
func overRegime() Regime { return Regime{Mean: []float64{1, 2, 3, 4, 5}, Sigma: 1, LTotal: 14} }

// The over-throttling entry points that take a *Throttler get the
// throttler probes of throttlerCases.
func init() {
	throttlerFuncs["ExpectedOver"] = func(th *Throttler) error { _, err := ExpectedOver(th, Case1, 1, 0.5); return err }
	throttlerFuncs["EstimateOver"] = func(th *Throttler) error {
		_, err := EstimateOver(th, overRegime(), MonteCarlo{Runs: 2, Steps: 5})
		return err
	}
	throttlerFuncs["SimulateOver"] = func(th *Throttler) error {
		_, _, err := SimulateOver(th, overRegime(), 5, 0, rand.NewPCG(1, 1))
		return err
	}
	linear = append(linear, "ExpectedOver")
	stable = append(stable, "ExpectedOver", "EstimateOver", "SimulateOver")
}

// centralCases probes the centralized throttler (spec deployed §3) and
// the over-throttling functions (spec deployed §4): each field and
// argument out of its domain, nil arguments, and sizes beyond the
// memory budget.
func centralCases() []badarg.Case {
	x0 := []float64{1, 2, 3, 4, 5}
	trace := TraceDemand{x0, x0}
	calls := map[string]func(c *Central) error{
		"Central.Validate": func(c *Central) error { return c.Validate() },
		"Central.Limits":   func(c *Central) error { _, err := c.Limits(nil, x0, 3); return err },
		"SimulateCentral": func(c *Central) error {
			_, err := SimulateCentral(c, trace, x0, 2, nil)
			return err
		},
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(calls) {
		f := calls[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs,
			p.Fails("Rule = 9", "Central.Rule = 9", func() error { return f(&Central{Rule: 9}) }),
			p.Fails("Floor with Proportional", "Central.Floor = 0.5 with Rule = proportional", func() error { return f(&Central{Floor: 0.5}) }),
			p.Panics("c = nil", "Central is nil", func() { _ = f(nil) }),
		)
		cs = append(cs, p.Int("Central.Delay", badarg.NonNegative, func(d int) error { return f(&Central{Delay: d}) })...)
		cs = append(cs, badarg.Fields(p, Central{Rule: ProportionalFloor}, badarg.Unit, f, "Floor")...)
	}
	c := &Central{}
	lim := badarg.Probe{Func: "Central.Limits", Err: inv}
	cs = append(cs, badarg.Probe{Func: "Central.Limits", Err: inv, Text: "demand r[2] = %v"}.Entries("r", x0, 2, badarg.Finite, func(r []float64) error { _, err := c.Limits(nil, r, 3); return err })...)
	cs = append(cs, badarg.Probe{Func: "Central.Limits", Err: inv, Text: "l_total = %v"}.Scalar("ltotal", badarg.NonNegative, func(l float64) error { _, err := c.Limits(nil, x0, l); return err })...)
	cs = append(cs,
		lim.Fails("r = nil", "no demand values", func() error { _, err := c.Limits(nil, nil, 3); return err }),
		badarg.Probe{Func: "Central.Limits", Panic: true}.Panics("len(dst) = 4", "Central.Limits: len(dst) = 4, want 5", func() { _, _ = c.Limits(make([]float64, 4), x0, 3) }),
	)
	sim := func(x []float64, steps int, s *Settings) error {
		_, err := SimulateCentral(c, trace, x, steps, s)
		return err
	}
	sp := badarg.Probe{Func: "SimulateCentral", Err: inv}
	cs = append(cs, badarg.Probe{Func: "SimulateCentral", Err: inv, Text: "x0[1] = %v"}.Entries("x0", x0, 1, badarg.Finite, func(x []float64) error { return sim(x, 2, nil) })...)
	cs = append(cs, sp.Int("steps", badarg.NonNegative, func(k int) error { return sim(x0, k, nil) })...)
	cs = append(cs, badarg.Fields(sp, Settings{}, badarg.NonNegative, func(s *Settings) error { return sim(x0, 2, s) }, "Workers")...)
	cs = append(cs,
		sp.Fails("x0 = nil", "len(x0) = 0", func() error { return sim(nil, 2, nil) }),
		sp.Fails("Σ x0 < 0", "l_total = Σ x0 = -1", func() error { return sim([]float64{1, -2}, 2, nil) }),
		sp.Fails("demand of the wrong length", "TraceDemand: row 0 has 5 values, want 2", func() error { return sim([]float64{1, 2}, 2, nil) }),
		sp.Panics("d = nil", "demand d is nil", func() { _, _ = SimulateCentral(c, nil, x0, 2, nil) }),
		badarg.Probe{Func: "SimulateCentral", Err: tooLarge}.Fails("Delay = MaxInt", "Central.Delay", func() error {
			_, err := SimulateCentral(&Central{Delay: math.MaxInt}, trace, x0, 2, nil)
			return err
		}),
		badarg.Probe{Func: "SimulateCentral", Err: tooLarge}.Fails("Delay = 2^40", "Central.Delay + 1", func() error {
			_, err := SimulateCentral(&Central{Delay: 1 << 40}, trace, x0, 2, nil)
			return err
		}),
		badarg.Probe{Func: "SimulateCentral", Err: tooLarge}.Fails("steps = 2^50", "steps", func() error { return sim(x0, 1<<50, nil) }),
	)
	return append(cs, overCases()...)
}

// overCases probes the arguments of the over-throttling functions other
// than the throttler: the regime, σ, the excess, the traffic case, the
// Monte Carlo settings, steps and burn, nil sources, the memory budget.
func overCases() []badarg.Case {
	th := func() *Throttler { return &Throttler{Graph: path5(), Gamma: 0.2} }
	mcs := MonteCarlo{Runs: 2, Steps: 5}
	src := func() rand.Source { return rand.NewPCG(1, 1) }
	regimeFuncs := map[string]func(g Regime) error{
		"Regime.Validate": func(g Regime) error { return g.Validate() },
		"EstimateOver":    func(g Regime) error { _, err := EstimateOver(th(), g, mcs); return err },
		"SimulateOver":    func(g Regime) error { _, _, err := SimulateOver(th(), g, 5, 0, src()); return err },
		"EstimateCentralOver": func(g Regime) error {
			_, err := EstimateCentralOver(&Central{}, g, mcs)
			return err
		},
		"SimulateCentralOver": func(g Regime) error {
			_, _, err := SimulateCentralOver(&Central{}, g, 5, 0, src())
			return err
		},
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(regimeFuncs) {
		f := regimeFuncs[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, badarg.Probe{Func: name, Err: inv, Text: "Regime.Mean[2] = %v"}.Entries("Mean", overRegime().Mean, 2, badarg.Finite, func(m []float64) error {
			g := overRegime()
			g.Mean = m
			return f(g)
		})...)
		cs = append(cs, badarg.Fields(p, overRegime(), badarg.NonNegative, func(g *Regime) error { return f(*g) }, "Sigma", "LTotal")...)
		cs = append(cs, p.Fails("Mean = nil", "Regime.Mean is empty", func() error { return f(Regime{Sigma: 1}) }))
		if name == "EstimateOver" || name == "SimulateOver" {
			cs = append(cs, p.Fails("len(Mean) = 3", "len(Regime.Mean) = 3, want 5", func() error { return f(Regime{Mean: []float64{1, 2, 3}, Sigma: 1}) }))
		}
	}
	cs = append(cs, overCentralCases()...)
	cs = append(cs, overRunCases()...)
	cs = append(cs, overMCCases()...)
	return append(cs, overClosedCases()...)
}

// overCentralCases: the CST of EstimateCentralOver and
// SimulateCentralOver validated like SimulateCentral's.
func overCentralCases() []badarg.Case {
	g := overRegime()
	calls := map[string]func(c *Central) error{
		"EstimateCentralOver": func(c *Central) error {
			_, err := EstimateCentralOver(c, g, MonteCarlo{Runs: 2, Steps: 5})
			return err
		},
		"SimulateCentralOver": func(c *Central) error {
			_, _, err := SimulateCentralOver(c, g, 5, 0, rand.NewPCG(1, 1))
			return err
		},
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(calls) {
		f := calls[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs,
			p.Fails("Rule = 9", "Central.Rule = 9", func() error { return f(&Central{Rule: 9}) }),
			p.Panics("c = nil", "Central is nil", func() { _ = f(nil) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("Delay = 2^40", "Central.Delay + 1", func() error { return f(&Central{Delay: 1 << 40}) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("Delay = MaxInt", "Central.Delay", func() error { return f(&Central{Delay: math.MaxInt}) }),
		)
		cs = append(cs, p.Int("Central.Delay", badarg.NonNegative, func(d int) error { return f(&Central{Delay: d}) })...)
	}
	return cs
}

// overRunCases: steps, burn and the source of the per-run functions.
func overRunCases() []badarg.Case {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	g := overRegime()
	runs := map[string]func(steps, burn int, src rand.Source) error{
		"SimulateOver": func(steps, burn int, src rand.Source) error {
			_, _, err := SimulateOver(th, g, steps, burn, src)
			return err
		},
		"SimulateCentralOver": func(steps, burn int, src rand.Source) error {
			_, _, err := SimulateCentralOver(&Central{}, g, steps, burn, src)
			return err
		},
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(runs) {
		f := runs[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Int("steps", badarg.Positive, func(n int) error { return f(n, 0, rand.NewPCG(1, 1)) })...)
		cs = append(cs, p.Int("burn", badarg.NonNegative, func(n int) error { return f(5, n, rand.NewPCG(1, 1)) })...)
		cs = append(cs,
			p.Panics("src = nil", "nil rand.Source src", func() { _ = f(5, 0, nil) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("burn + steps overflows", "overflows", func() error { return f(math.MaxInt, 1, rand.NewPCG(1, 1)) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("steps = 2^50", "steps", func() error { return f(1<<50, 0, rand.NewPCG(1, 1)) }),
		)
	}
	return cs
}

// overMCCases: the Monte Carlo settings of the two estimates.
func overMCCases() []badarg.Case {
	g := overRegime()
	mcs := MonteCarlo{Runs: 2, Steps: 5}
	var cs []badarg.Case
	for name, f := range map[string]func(m MonteCarlo) error{
		"EstimateOver": func(m MonteCarlo) error {
			_, err := EstimateOver(&Throttler{Graph: path5(), Gamma: 0.2}, g, m)
			return err
		},
		"EstimateCentralOver": func(m MonteCarlo) error { _, err := EstimateCentralOver(&Central{}, g, m); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, badarg.Fields(p, mcs, badarg.Positive, func(m *MonteCarlo) error { return f(*m) }, "Runs", "Steps")...)
		cs = append(cs, badarg.Fields(p, mcs, badarg.NonNegative, func(m *MonteCarlo) error { return f(*m) }, "Burn")...)
		withPrec := func(q *loadlab.Precision) error { m := mcs; m.Precision = *q; return f(m) }
		cs = append(cs, badarg.Fields(p, loadlab.Precision{Rel: 0.1}, badarg.NonNegative, withPrec, "Rel", "Abs", "MaxRuns", "Batch")...)
		cs = append(cs,
			p.Fails("Runs = 1", "MonteCarlo.Runs = 1", func() error { return f(MonteCarlo{Runs: 1, Steps: 5}) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("Runs = 2^40", "MonteCarlo.Runs", func() error { return f(MonteCarlo{Runs: 1 << 40, Steps: 1}) }),
			badarg.Probe{Func: name, Err: tooLarge}.Fails("Burn + Steps overflows", "MonteCarlo.Burn + Steps", func() error { return f(MonteCarlo{Runs: 2, Steps: 5, Burn: math.MaxInt - 1}) }),
		)
	}
	return cs
}

// overClosedCases: σ, the excess, the traffic case and γ of the closed
// forms, the dense size limit, a Spectral without eigenvectors.
func overClosedCases() []badarg.Case {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	s, err := NewSpectral(path5())
	must(err)
	sf, err := SpectralFrom(s.Values())
	must(err)
	closed := map[string]func(t Traffic, gamma, sigma, excess float64) error{
		"ExpectedOver": func(t Traffic, _, sg, e float64) error { _, err := ExpectedOver(th, t, sg, e); return err },
		"Spectral.Over": func(t Traffic, g, sg, e float64) error {
			_, err := s.Over(t, g, sg, e)
			return err
		},
		"Spectral.OverDelay": func(t Traffic, g, sg, e float64) error {
			_, err := s.OverDelay(t, 1, g, sg, e)
			return err
		},
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(closed) {
		f := closed[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Scalar("sigma", badarg.NonNegative, func(sg float64) error { return f(Case1, 0.2, sg, 0) })...)
		cs = append(cs, p.Scalar("excess", badarg.Finite, func(e float64) error { return f(Case1, 0.2, 1, e) })...)
		cs = append(cs, p.Fails("Traffic(7)", "Traffic = 7", func() error { return f(Traffic(7), 0.2, 1, 0) }))
	}
	sp := badarg.Probe{Func: "Spectral.Over", Err: inv}
	cs = append(cs, badarg.Probe{Func: "Spectral.Over", Err: inv, Text: "Gamma = %v"}.Scalar("gamma", badarg.Positive, func(g float64) error { _, err := s.Over(Case2, g, 1, 0); return err })...)
	cs = append(cs,
		badarg.Probe{Func: "Spectral.Over", Err: ErrUnstable}.Fails("γ = 0.6", "2/λ_n", func() error { _, err := s.Over(Case2, 0.6, 1, 0); return err }),
		sp.Fails("from SpectralFrom", "no eigenvectors", func() error { _, err := sf.Over(Case2, 0.2, 1, 0); return err }),
		badarg.Probe{Func: "Spectral.OverDelay", Err: ErrUnstable}.Fails("γ = 0.2 at τ = 4", "unstable", func() error { _, err := s.OverDelay(Case2, 4, 0.2, 1, 0); return err }),
		badarg.Probe{Func: "Spectral.OverDelay", Err: inv}.Fails("τ = -1", "-1", func() error { _, err := s.OverDelay(Case2, -1, 0.05, 1, 0); return err }),
		badarg.Probe{Func: "ExpectedOver", Err: tooLarge}.Fails("n = 2^17", "EstimateOver", func() error {
			big := &Throttler{Graph: mustGraph(gen.Path(1 << 17)), Gamma: 0.1}
			_, err := ExpectedOver(big, Case1, 1, 0)
			return err
		}),
	)
	gp := badarg.Probe{Func: "Spectral.GammaOver", Err: inv}
	cs = append(cs, badarg.Probe{Func: "Spectral.GammaOver", Err: inv, Text: "GammaOver: sigma = %v"}.Scalar("sigma", badarg.Positive, func(sg float64) error { _, _, err := s.GammaOver(sg, 0); return err })...)
	cs = append(cs, gp.Scalar("excess", badarg.Finite, func(e float64) error { _, _, err := s.GammaOver(1, e); return err })...)
	cs = append(cs, gp.Fails("from SpectralFrom", "no eigenvectors", func() error { _, _, err := sf.GammaOver(1, 0); return err }))
	return append(cs, designOverCases()...)
}

// designOverCases probes DesignOverWeights: its own arguments, and the
// problem and settings checks it shares with DesignWeights.
func designOverCases() []badarg.Case {
	base := WeightProblem{Nodes: 4, Links: []Link{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}}, Gamma: 0.1, Budget: 4}
	p := badarg.Probe{Func: "DesignOverWeights", Err: inv}
	cs := p.Scalar("sigma", badarg.Positive, func(sg float64) error { _, err := DesignOverWeights(base, sg, 0, nil); return err })
	cs = append(cs, p.Scalar("excess", badarg.Finite, func(e float64) error { _, err := DesignOverWeights(base, 1, e, nil); return err })...)
	cs = append(cs, badarg.Fields(p, base, badarg.Positive, func(q *WeightProblem) error { _, err := DesignOverWeights(*q, 1, 0, nil); return err }, "Nodes", "Gamma", "Budget")...)
	cs = append(cs, badarg.Fields(p, DesignSettings{}, badarg.NonNegative, func(s *DesignSettings) error { _, err := DesignOverWeights(base, 1, 0, s); return err }, "Tol", "MaxIter")...)
	return append(cs,
		p.Fails("Floor = 0.5", "WeightProblem.Floor = 0.5, want 0", func() error { q := base; q.Floor = 0.5; _, err := DesignOverWeights(q, 1, 0, nil); return err }),
		badarg.Probe{Func: "DesignOverWeights", Err: loadlab.ErrDisconnected}.Fails("links that do not connect", "do not connect", func() error {
			q := base
			q.Links = []Link{{0, 1, 1}, {2, 3, 1}}
			_, err := DesignOverWeights(q, 1, 0, nil)
			return err
		}),
	)
}
