package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// rho2DesignCases probes DesignRho2AtScale, DesignRho2CycleAtScale and
// Rho2WeightProblem: Gamma (≤ 0, NaN, ±Inf, and too long for the
// starting weights), the budget, NaN in the problem and the settings,
// and a nil source.
func rho2DesignCases() []badarg.Case {
	good := Rho2WeightProblem{TraceWeightProblem: traceProblem(mustGraph(gen.Cycle(5))), Gamma: 0.2}
	run := func(p Rho2WeightProblem, s *ScaleDesignSettings) error {
		_, err := DesignRho2AtScale(p, s, mc.Source(1))
		return err
	}
	with := func(f func(p *Rho2WeightProblem)) func() error {
		p := good
		p.Links = append([]Link(nil), good.Links...)
		f(&p)
		return func() error { return run(p, nil) }
	}
	pr := badarg.Probe{Func: "DesignRho2AtScale", Err: inv}
	cs := badarg.Probe{Func: "DesignRho2AtScale", Err: inv, Text: "Rho2WeightProblem.Gamma = %v"}.Scalar("Gamma", badarg.Positive, func(g float64) error {
		p := good
		p.Gamma = g
		return run(p, nil)
	})
	cs = append(cs, badarg.Probe{Func: "DesignRho2AtScale", Err: inv, Text: "TraceWeightProblem.Budget = %v"}.Scalar("Budget", badarg.Positive, func(b float64) error {
		p := good
		p.Budget = b
		return run(p, nil)
	})...)
	cycle := badarg.Probe{Func: "DesignRho2CycleAtScale", Err: inv}
	cs = append(cs,
		// The uniform start on C5 has weights 1 and λ_n = 2 + 2cos(π/5) ≈ 3.62:
		// γ = 0.6 gives γλ_n ≈ 2.17 ≥ 2.
		badarg.Probe{Func: "DesignRho2AtScale", Err: loadlab.ErrUnstable}.Fails("γ ≥ 2/λ_n at the start", "Rho2WeightProblem.Gamma = 0.6", with(func(p *Rho2WeightProblem) { p.Gamma = 0.6 })),
		badarg.Probe{Func: "DesignRho2AtScale", Err: loadlab.ErrUnstable}.Fails("sketched: γ ≥ 2/λ_n at the start", "Rho2WeightProblem.Gamma = 0.6", func() error {
			p := good
			p.Gamma = 0.6
			return run(p, &ScaleDesignSettings{Sketch: true})
		}),
		badarg.Probe{Func: "DesignRho2AtScale", Err: loadlab.ErrUnstable}.Fails("local: γ ≥ 2/λ_n at the start", "Rho2WeightProblem.Gamma = 0.6", func() error {
			p := good
			p.Gamma = 0.6
			return run(p, &ScaleDesignSettings{Local: true})
		}),
		pr.Fails("Local and Sketch", "Local and Sketch both set", func() error { return run(good, &ScaleDesignSettings{Local: true, Sketch: true}) }),
		pr.Fails("Depth out of range", "ScaleDesignSettings.Depth", func() error { return run(good, &ScaleDesignSettings{Local: true, Depth: 9}) }),
		pr.Fails("negative budget", "TraceWeightProblem.Budget = -1", with(func(p *Rho2WeightProblem) { p.Budget = -1 })),
		pr.Fails("cost NaN", "Links[2].Cost = NaN", with(func(p *Rho2WeightProblem) { p.Links[2].Cost = math.NaN() })),
		pr.Fails("Hi NaN", "TraceWeightProblem.Hi[0] = NaN", with(func(p *Rho2WeightProblem) { p.Hi = []float64{math.NaN(), 1, 1, 1, 1} })),
		pr.Fails("settings Tol NaN", "ScaleDesignSettings.Tol = NaN", func() error { return run(good, &ScaleDesignSettings{Tol: math.NaN()}) }),
		pr.Fails("Start NaN", "ScaleDesignSettings.Start[1] = NaN", func() error {
			return run(good, &ScaleDesignSettings{Start: []float64{1, math.NaN(), 1, 1, 1}})
		}),
		pr.Fails("Start short", "ScaleDesignSettings.Start has 2 entries", func() error { return run(good, &ScaleDesignSettings{Start: []float64{1, 1}}) }),
		badarg.Probe{Func: "Rho2WeightProblem.Validate", Err: inv}.Fails("Gamma = 0", "Rho2WeightProblem.Gamma = 0", func() error { return Rho2WeightProblem{}.Validate() }),
		cycle.Fails("negative budget", "TraceWeightProblem.Budget = -1", func() error {
			p := good.TraceWeightProblem
			p.Budget = -1
			_, err := DesignRho2CycleAtScale(p, nil, mc.Source(1))
			return err
		}),
		cycle.Fails("settings Eps", "ScaleDesignSettings.Eps = 3", func() error {
			_, err := DesignRho2CycleAtScale(good.TraceWeightProblem, &ScaleDesignSettings{Eps: 3}, mc.Source(1))
			return err
		}),
		badarg.Probe{Func: "DesignRho2AtScale", Panic: true}.Panics("src = nil", "nil rand.Source", func() { _, _ = DesignRho2AtScale(good, &ScaleDesignSettings{Sketch: true}, nil) }),
	)
	return cs
}
