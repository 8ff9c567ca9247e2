package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// scaleDesignCases probes DesignWeightsAtScale, TraceWeightProblem and
// ScaleDesignSettings: every field of the problem and the settings.
func scaleDesignCases() []badarg.Case {
	good := traceProblem(mustGraph(gen.Cycle(5)))
	run := func(p TraceWeightProblem, s *ScaleDesignSettings) error {
		_, err := DesignWeightsAtScale(p, s, mc.Source(1))
		return err
	}
	with := func(f func(p *TraceWeightProblem)) func() error {
		p := good
		p.Links = append([]Link(nil), good.Links...)
		f(&p)
		return func() error { return run(p, nil) }
	}
	set := func(f func(s *ScaleDesignSettings)) func() error {
		var s ScaleDesignSettings
		f(&s)
		return func() error { return run(good, &s) }
	}
	pr := badarg.Probe{Func: "DesignWeightsAtScale", Err: inv}
	cs := badarg.Probe{Func: "DesignWeightsAtScale", Err: inv, Text: "TraceWeightProblem.Budget = %v"}.Scalar("Budget", badarg.Positive, func(b float64) error {
		p := good
		p.Budget = b
		return run(p, nil)
	})
	ones := make([]float64, len(good.Links))
	for i := range ones {
		ones[i] = 0.1
	}
	cs = append(cs, badarg.Probe{Func: "DesignWeightsAtScale", Err: inv, Text: "TraceWeightProblem.Lo[1] = %v"}.Entries("Lo", ones, 1, badarg.NonNegative, func(lo []float64) error {
		p := good
		p.Lo = lo
		return run(p, nil)
	})...)
	cs = append(cs,
		pr.Fails("Nodes = 1", "TraceWeightProblem.Nodes = 1", with(func(p *TraceWeightProblem) { p.Nodes = 1 })),
		pr.Fails("negative budget", "TraceWeightProblem.Budget = -2", with(func(p *TraceWeightProblem) { p.Budget = -2 })),
		pr.Fails("cost NaN", "Links[0].Cost = NaN", with(func(p *TraceWeightProblem) { p.Links[0].Cost = math.NaN() })),
		pr.Fails("self-loop", "TraceWeightProblem.Links", with(func(p *TraceWeightProblem) { p.Links[0].V = p.Links[0].U })),
		pr.Fails("node out of range", "TraceWeightProblem.Links", with(func(p *TraceWeightProblem) { p.Links[0].V = 9 })),
		pr.Fails("repeated link", "TraceWeightProblem.Links", with(func(p *TraceWeightProblem) { p.Links[1] = p.Links[0] })),
		pr.Fails("Lo > Hi", "TraceWeightProblem.Hi[2] = 0.5, want ≥ Lo[2] = 1", with(func(p *TraceWeightProblem) {
			p.Lo, p.Hi = make([]float64, 5), []float64{2, 2, 0.5, 2, 2}
			p.Lo[2] = 1
		})),
		pr.Fails("Hi NaN", "TraceWeightProblem.Hi[0] = NaN", with(func(p *TraceWeightProblem) { p.Hi = []float64{math.NaN(), 1, 1, 1, 1} })),
		pr.Fails("Lo short", "TraceWeightProblem.Lo has 2 entries", with(func(p *TraceWeightProblem) { p.Lo = []float64{0, 0} })),
		pr.Fails("Hi short", "TraceWeightProblem.Hi has 1 entries", with(func(p *TraceWeightProblem) { p.Hi = []float64{1} })),
		pr.Fails("Lo over budget", "the lower bounds cost", with(func(p *TraceWeightProblem) { p.Lo = []float64{2, 2, 2, 2, 2} })),
		badarg.Probe{Func: "DesignWeightsAtScale", Err: loadlab.ErrDisconnected}.Fails("links disconnected", "do not connect", with(func(p *TraceWeightProblem) { p.Links = p.Links[:3] })),
		badarg.Probe{Func: "DesignWeightsAtScale", Err: loadlab.ErrDisconnected}.Fails("start disconnected", "starting weights", with(func(p *TraceWeightProblem) { p.Hi = []float64{0, 0, 1, 1, 1} })),
		pr.Fails("Tol = 1", "ScaleDesignSettings.Tol = 1", set(func(s *ScaleDesignSettings) { s.Tol = 1 })),
		pr.Fails("Tol NaN", "ScaleDesignSettings.Tol = NaN", set(func(s *ScaleDesignSettings) { s.Tol = math.NaN() })),
		pr.Fails("MaxIter", "ScaleDesignSettings.MaxIter = -1", set(func(s *ScaleDesignSettings) { s.MaxIter = -1 })),
		pr.Fails("DenseMax", "ScaleDesignSettings.DenseMax = -1", set(func(s *ScaleDesignSettings) { s.DenseMax = -1 })),
		pr.Fails("Probes", "ScaleDesignSettings.Probes = 1", set(func(s *ScaleDesignSettings) { s.Probes = 1 })),
		pr.Fails("Depth negative", "ScaleDesignSettings.Depth = -1", set(func(s *ScaleDesignSettings) { s.Depth = -1 })),
		pr.Fails("Depth too deep", "ScaleDesignSettings.Depth = 9", set(func(s *ScaleDesignSettings) { s.Depth = 9 })),
		pr.Fails("Local and Sketch", "Local and Sketch both set", set(func(s *ScaleDesignSettings) { s.Local, s.Sketch = true, true })),
		pr.Fails("Refine", "ScaleDesignSettings.Refine = -3", set(func(s *ScaleDesignSettings) { s.Refine = -3 })),
		pr.Fails("Patience", "ScaleDesignSettings.Patience = -2", set(func(s *ScaleDesignSettings) { s.Patience = -2 })),
		pr.Fails("Eps", "ScaleDesignSettings.Eps = 1", set(func(s *ScaleDesignSettings) { s.Eps = 1 })),
		pr.Fails("Miss", "ScaleDesignSettings.Miss = -0.1", set(func(s *ScaleDesignSettings) { s.Miss = -0.1 })),
		pr.Fails("Start NaN", "ScaleDesignSettings.Start[0] = NaN", set(func(s *ScaleDesignSettings) { s.Start = []float64{math.NaN()} })),
		pr.Fails("Start short", "ScaleDesignSettings.Start has 1 entries", set(func(s *ScaleDesignSettings) { s.Start = []float64{1} })),
		badarg.Probe{Func: "DesignWeightsAtScale", Err: inv}.Fails("solver Tol", "Settings.Tol", set(func(s *ScaleDesignSettings) { s.Solver = &laplacian.Settings{Tol: 2} })),
		badarg.Probe{Func: "TraceWeightProblem.Validate", Err: inv}.Fails("Nodes = 0", "TraceWeightProblem.Nodes = 0", func() error { return TraceWeightProblem{}.Validate() }),
		badarg.Probe{Func: "ScaleDesignSettings.Validate", Err: inv}.Fails("Eps = 2", "ScaleDesignSettings.Eps = 2", func() error { return (&ScaleDesignSettings{Eps: 2}).Validate() }),
		badarg.Probe{Func: "DesignWeightsAtScale", Panic: true}.Panics("src = nil", "nil rand.Source", func() { _, _ = DesignWeightsAtScale(good, &ScaleDesignSettings{Sketch: true}, nil) }),
		badarg.Probe{Func: "DesignWeightsAtScale", Panic: true}.Panics("src = nil, local", "nil rand.Source", func() { _, _ = DesignWeightsAtScale(good, &ScaleDesignSettings{Local: true}, nil) }),
	)
	return cs
}
