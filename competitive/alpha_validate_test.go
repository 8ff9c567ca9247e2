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
