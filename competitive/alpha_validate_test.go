package competitive

import (
	"github.com/loadlab/loadlab/internal/badarg"
)

// alphaCases probes the bounds of spec §15 and the α/β study: the
// arguments of DTrackBound, DTrackCruelLimit and BestAlpha, every field
// of AlphaPoint through each method and AlphaStudy, the run count, and
// the nil sources (documented panics).
func alphaCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	for name, f := range map[string]func(int, float64) (float64, error){"DTrackBound": DTrackBound, "DTrackCruelLimit": DTrackCruelLimit} {
		p := badarg.Probe{Func: name, Err: inv}
		add(p.Int("k", badarg.Positive, func(k int) error { _, err := f(k, 1); return err })...)
		add(p.Fails("k = 1", "k = 1", func() error { _, err := f(1, 1); return err }))
		add(p.Scalar("alpha", badarg.Positive, func(a float64) error { _, err := f(2, a); return err })...)
	}
	p := badarg.Probe{Func: "BestAlpha", Err: inv}
	add(p.Int("k", badarg.Positive, func(k int) error { _, _, err := BestAlpha(k); return err })...)
	add(p.Fails("k = 1", "k = 1", func() error { _, _, err := BestAlpha(1); return err }))

	methods := map[string]func(AlphaPoint) error{
		"AlphaPoint.Validate":  AlphaPoint.Validate,
		"AlphaPoint.DTrack":    func(q AlphaPoint) error { _, err := q.DTrack(); return err },
		"AlphaPoint.Instance":  func(q AlphaPoint) error { _, err := q.Instance(newRand(1)); return err },
		"AlphaPoint.Run":       func(q AlphaPoint) error { _, err := q.Run(newRand(1)); return err },
		"AlphaPoint.Adversary": func(q AlphaPoint) error { _, err := q.Adversary(); return err },
		"AlphaPoint.Bounds":    func(q AlphaPoint) error { _, _, _, err := q.Bounds(); return err },
		"AlphaStudy":           func(q AlphaPoint) error { _, err := AlphaStudy([]AlphaPoint{q}, 2, 1); return err },
	}
	base := AlphaPoint{Servers: 2, Slots: 3, AdversarySlots: 5}
	for _, fn := range sortedKeys(methods) {
		call := func(q *AlphaPoint) error { return methods[fn](*q) }
		p := badarg.Probe{Func: fn, Err: inv}
		add(badarg.Fields(p, base, badarg.NonNegative, call, "Alpha", "Setup", "Slots", "Spread", "Persist", "Eps", "AdversarySlots")...)
		add(badarg.Fields(p, base, badarg.Positive, call, "Servers")...)
		fail := func(pr badarg.Probe, label, text string, q AlphaPoint) {
			add(pr.Fails(label, text, func() error { return call(&q) }))
		}
		with := func(f func(*AlphaPoint)) AlphaPoint { q := base; f(&q); return q }
		fail(p, "Servers = 1", "AlphaPoint.Servers = 1", with(func(q *AlphaPoint) { q.Servers = 1 }))
		fail(p, "Persist = 0.5", "AlphaPoint.Persist = 0.5", with(func(q *AlphaPoint) { q.Persist = 0.5 }))
		fail(p, "Eps = 1.5", "AlphaPoint.Eps = 1.5", with(func(q *AlphaPoint) { q.Eps = 1.5 }))
		fail(p, "Policy = 7", "AlphaPoint.Policy = 7", with(func(q *AlphaPoint) { q.Policy = 7 }))
		fail(p, "Workload = 4", "AlphaPoint.Workload = 4", with(func(q *AlphaPoint) { q.Workload = 4 }))
		for _, b := range []float64{nan, inf, 2} {
			fail(p, "Beta bad", "AlphaPoint.Beta = ", with(func(q *AlphaPoint) { q.Policy, q.Beta = Backward, b }))
		}
		tl := badarg.Probe{Func: fn, Err: tooLarge}
		fail(tl, "default adversary horizon", "set AdversarySlots", with(func(q *AlphaPoint) { q.AdversarySlots, q.Alpha = 0, 1e9 }))
		fail(tl, "Slots beyond memory", "Slots·Servers", with(func(q *AlphaPoint) { q.Slots = 1 << 40 }))
		fail(tl, "AdversarySlots beyond memory", "", with(func(q *AlphaPoint) { q.AdversarySlots = 1 << 40 }))
	}
	p = badarg.Probe{Func: "AlphaStudy", Err: inv}
	add(p.Int("runs", badarg.Positive, func(n int) error { _, err := AlphaStudy([]AlphaPoint{base}, n, 1); return err })...)
	add(p.Fails("runs = 1", "runs = 1", func() error { _, err := AlphaStudy([]AlphaPoint{base}, 1, 1); return err }))
	add(p.Fails("points[1] bad", "points[1]", func() error { _, err := AlphaStudy([]AlphaPoint{base, {}}, 2, 1); return err }))
	add(badarg.Probe{Func: "AlphaPoint.Run"}.Panics("src = nil", "src is nil", func() { _, _ = base.Run(nil) }))
	add(badarg.Probe{Func: "AlphaPoint.Instance"}.Panics("src = nil", "src is nil", func() { _, _ = base.Instance(nil) }))
	add(badarg.Probe{Func: "SummarizeAlpha"}.Panics("a bad point", "AlphaPoint.Servers = 0", func() { SummarizeAlpha(AlphaPoint{}, 1, nil) }))
	return cs
}

// predictionCases probes Guarded's fields, NoisyOracle and the
// prediction study (spec §16).
func predictionCases(in *Instance) []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	good := func() *Guarded {
		return &Guarded{Predicted: &Lookahead{Window: 2, Forecaster: Oracle{in}}, Fallback: &WFA{}}
	}
	for _, fn := range []string{"Guarded.Validate", "Guarded.Reset"} {
		call := func(g *Guarded) error {
			if fn == "Guarded.Validate" {
				return g.Validate()
			}
			return g.Reset(2, 1)
		}
		p := badarg.Probe{Func: fn, Err: inv}
		add(badarg.Fields(p, *good(), badarg.NonNegative, call, "Lambda")...)
		add(p.Fails("Predicted = nil", "Guarded.Predicted is nil", func() error { g := good(); g.Predicted = nil; return call(g) }))
		add(p.Fails("Fallback = nil", "Guarded.Fallback is nil", func() error { g := good(); g.Fallback = nil; return call(g) }))
		add(p.Fails("a bad inner field", "Guarded.Fallback: competitive: DTrack.Alpha = -1", func() error {
			g := good()
			g.Fallback = &DTrack{Alpha: -1}
			return call(g)
		}))
	}
	add(badarg.Probe{Func: "Guarded.Step", Err: inv}.Fails("an inner algorithm out of range", "chose server 2 of 2", func() error {
		g := &Guarded{Predicted: &wild{}, Fallback: &WFA{}}
		if err := g.Reset(2, 1); err != nil {
			return err
		}
		_, err := g.Step([]float64{1, 2})
		return err
	}))
	p := badarg.Probe{Func: "NoisyOracle.Validate", Err: inv}
	add(p.Fails("In = nil", "NoisyOracle.In is nil", func() error { return NoisyOracle{}.Validate() }))
	add(p.Scalar("Sigma", badarg.NonNegative, func(x float64) error { return NoisyOracle{In: in, Sigma: x, Src: newRand(1)}.Validate() })...)
	add(p.Fails("Src = nil", "NoisyOracle.Src is nil", func() error { return NoisyOracle{In: in, Sigma: 1}.Validate() }))
	add(badarg.Probe{Func: "Lookahead.Reset", Err: inv}.Fails("NoisyOracle.Src = nil", "NoisyOracle.Src is nil", func() error {
		return (&Lookahead{Window: 2, Forecaster: NoisyOracle{In: in, Sigma: 1}}).Reset(2, 1)
	}))
	p = badarg.Probe{Func: "NoisyOracle.Forecast"}
	add(p.Panics("Src = nil", "NoisyOracle.Src is nil", func() { NoisyOracle{In: in, Sigma: 1}.Forecast(make([]float64, 4), 0, 2) }))
	add(p.Panics("In = nil", "Oracle.In is nil", func() { NoisyOracle{}.Forecast(make([]float64, 4), 0, 2) }))

	methods := map[string]func(PredictionPoint) error{
		"PredictionPoint.Validate": PredictionPoint.Validate,
		"PredictionPoint.Run":      func(q PredictionPoint) error { _, err := q.Run(newRand(1)); return err },
		"PredictionStudy":          func(q PredictionPoint) error { _, err := PredictionStudy([]PredictionPoint{q}, 2, 1); return err },
	}
	base := PredictionPoint{Servers: 2, Slots: 3}
	for _, fn := range sortedKeys(methods) {
		call := func(q *PredictionPoint) error { return methods[fn](*q) }
		p := badarg.Probe{Func: fn, Err: inv}
		add(badarg.Fields(p, base, badarg.NonNegative, call, "Setup", "Slots", "Spread", "Persist", "Window", "Noise", "Lambda")...)
		add(badarg.Fields(p, base, badarg.Positive, call, "Servers")...)
		fail := func(pr badarg.Probe, label, text string, q PredictionPoint) {
			add(pr.Fails(label, text, func() error { return call(&q) }))
		}
		with := func(f func(*PredictionPoint)) PredictionPoint { q := base; f(&q); return q }
		fail(p, "Servers = 1", "PredictionPoint.Servers = 1", with(func(q *PredictionPoint) { q.Servers = 1 }))
		fail(p, "Persist = 0.5", "PredictionPoint.Persist = 0.5", with(func(q *PredictionPoint) { q.Persist = 0.5 }))
		fail(p, "Workload = 4", "PredictionPoint.Workload = 4", with(func(q *PredictionPoint) { q.Workload = 4 }))
		tl := badarg.Probe{Func: fn, Err: tooLarge}
		fail(tl, "Slots beyond memory", "", with(func(q *PredictionPoint) { q.Slots = 1 << 40 }))
		fail(tl, "Window beyond memory", "", with(func(q *PredictionPoint) { q.Window = 1 << 40 }))
	}
	p = badarg.Probe{Func: "PredictionStudy", Err: inv}
	add(p.Int("runs", badarg.Positive, func(n int) error { _, err := PredictionStudy([]PredictionPoint{base}, n, 1); return err })...)
	add(p.Fails("runs = 1", "runs = 1", func() error { _, err := PredictionStudy([]PredictionPoint{base}, 1, 1); return err }))
	add(p.Fails("points[1] bad", "points[1]", func() error { _, err := PredictionStudy([]PredictionPoint{base, {}}, 2, 1); return err }))
	add(badarg.Probe{Func: "PredictionPoint.Run"}.Panics("src = nil", "src is nil", func() { _, _ = base.Run(nil) }))
	add(badarg.Probe{Func: "SummarizePredictions"}.Panics("a bad point", "PredictionPoint.Servers = 0", func() { SummarizePredictions(PredictionPoint{}, nil) }))
	return cs
}

// sessionsCases probes the multi-session model (spec §17.4).
func sessionsCases(in *Instance) []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	other, _ := NewInstance([][]float64{{1, 2, 3}}, 1)
	good := func() *Sessions { return &Sessions{In: []*Instance{in, in}, Capacity: []int{1, 1}} }
	calls := map[string]func(*Sessions) error{
		"Sessions.Validate": func(s *Sessions) error { return s.Validate() },
		"Sessions.Cost": func(s *Sessions) error {
			_, err := s.Cost([][]int{make([]int, in.Slots()), make([]int, in.Slots())})
			return err
		},
		"SessionsOptimum":    func(s *Sessions) error { _, _, err := SessionsOptimum(s); return err },
		"SessionsSequential": func(s *Sessions) error { _, _, err := SessionsSequential(s); return err },
	}
	for _, fn := range sortedKeys(calls) {
		call := calls[fn]
		p := badarg.Probe{Func: fn, Err: inv}
		for _, c := range []struct {
			name, want string
			mod        func(*Sessions)
		}{
			{"no session", "Sessions.In is empty", func(s *Sessions) { s.In = nil }},
			{"a nil session", "Sessions.In[1] is nil", func(s *Sessions) { s.In[1] = nil }},
			{"another shape", "Sessions.In[1] has T = 1, k = 3", func(s *Sessions) { s.In[1] = other }},
			{"capacity of the wrong length", "Sessions.Capacity has 1 entries", func(s *Sessions) { s.Capacity = []int{2} }},
			{"negative capacity", "Sessions.Capacity[0] = -1", func(s *Sessions) { s.Capacity = []int{-1, 3} }},
			{"too little capacity", "Sessions.Capacity sums to 1", func(s *Sessions) { s.Capacity = []int{1, 0} }},
		} {
			add(p.Fails(c.name, c.want, func() error { s := good(); c.mod(s); return call(s) }))
		}
	}
	add(badarg.Probe{Func: "Sessions.Cost", Err: inv}.Fails("over capacity", "server 0 holds more than its capacity 1", func() error {
		_, err := good().Cost([][]int{make([]int, in.Slots()), make([]int, in.Slots())})
		return err
	}))
	p := badarg.Probe{Func: "Sessions.Cost"}
	add(p.Panics("one schedule for two sessions", "1 schedules for 2 sessions", func() { _, _ = (&Sessions{In: []*Instance{in, in}, Capacity: []int{2, 2}}).Cost([][]int{{0}}) }))
	big := &Sessions{Capacity: make([]int, 40)}
	for range 5 {
		row := make([]float64, 40)
		b, _ := NewInstance([][]float64{row}, 1)
		big.In = append(big.In, b)
	}
	for s := range big.Capacity {
		big.Capacity[s] = 5
	}
	add(badarg.Probe{Func: "SessionsOptimum", Err: tooLarge}.Fails("k^m beyond 10⁶", "use SessionsSequential", func() error { _, _, err := SessionsOptimum(big); return err }))
	return cs
}
