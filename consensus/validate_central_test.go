package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/badarg"
)

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
	return cs
}
