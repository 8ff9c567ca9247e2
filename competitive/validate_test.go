package competitive

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

// algorithms are the online algorithms of the package, each made anew
// with valid fields, by the name of its type.
func algorithms(in *Instance) map[string]func() Online {
	return map[string]func() Online{
		"DTrack":       func() Online { return NewDTrack(Backward) },
		"CTrack":       func() Online { return NewCTrack() },
		"WFA":          func() Online { return &WFA{} },
		"Marking":      func() Online { return &Marking{Src: newRand(9)} },
		"Lookahead":    func() Online { return &Lookahead{Window: 2, Forecaster: Oracle{in}} },
		"NeverMigrate": func() Online { return &NeverMigrate{} },
		"Guarded": func() Online {
			return &Guarded{Predicted: &Lookahead{Window: 2, Forecaster: Oracle{in}}, Fallback: &WFA{}}
		},
	}
}

// onlineCases probes Reset and Step of every online algorithm: k and C
// in Reset; a bad entry, a wrong length or nil in Step (after a good
// Reset); Step before Reset is the documented panic.
func onlineCases(in *Instance) []badarg.Case {
	var cs []badarg.Case
	for _, name := range sortedKeys(algorithms(in)) {
		mk := algorithms(in)[name]
		p := badarg.Probe{Func: name + ".Reset", Err: inv}
		cs = append(cs, p.Int("k", badarg.Positive, func(k int) error { return mk().Reset(k, 1) })...)
		cs = append(cs, p.Scalar("C", badarg.NonNegative, func(C float64) error { return mk().Reset(3, C) })...)
		cs = append(cs, badarg.Probe{Func: name + ".Reset", Err: tooLarge}.Fails("k = 2^60", "", func() error { return mk().Reset(1<<60, 1) }))
		p = badarg.Probe{Func: name + ".Step", Err: inv}
		step := func(hold []float64) error {
			alg := mk()
			if err := alg.Reset(3, 1); err != nil {
				return err
			}
			_, err := alg.Step(hold)
			return err
		}
		cs = append(cs, p.Slice("hold", []float64{1, 2, 3}, 1, badarg.NonNegative, step)...)
		for _, row := range [][]float64{nil, {1, 2}} {
			cs = append(cs, p.Panics("Step before Reset", "competitive: "+name+".Step before Reset", func() { _, _ = mk().Step(row) }))
		}
	}
	return cs
}

// fieldCases probes the exported fields of the algorithms through their
// Validate and Reset, and the Oracle's instance.
func fieldCases(in *Instance) []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	for _, fn := range []string{"DTrack.Validate", "DTrack.Reset"} {
		call := func(d *DTrack) error {
			if fn == "DTrack.Validate" {
				return d.Validate()
			}
			return d.Reset(2, 1)
		}
		p := badarg.Probe{Func: fn, Err: inv}
		add(badarg.Fields(p, *NewDTrack(Backward), badarg.NonNegative, call, "Alpha")...)
		// β may be −∞ (every server eligible), not NaN, +∞ or above α.
		for _, b := range []float64{nan, inf, 2} {
			d := NewDTrack(Backward)
			d.Beta = b
			label := fmt.Sprintf("DTrack.Beta = %v", b)
			add(p.Fails(label, label, func() error { return call(d) }))
		}
		add(p.Fails("DTrack.Policy = 7", "DTrack.Policy = 7", func() error { return call(&DTrack{Alpha: 1, Policy: 7}) }))
	}
	add(badarg.Probe{Func: "NewDTrack", Err: inv}.Fails("p = 9", "DTrack.Policy = 9", func() error { return NewDTrack(Policy(9)).Reset(2, 1) }))
	for _, fn := range []string{"CTrack.Validate", "CTrack.Reset"} {
		add(badarg.Fields(badarg.Probe{Func: fn, Err: inv}, *NewCTrack(), badarg.NonNegative, func(c *CTrack) error {
			if fn == "CTrack.Validate" {
				return c.Validate()
			}
			return c.Reset(2, 1)
		}, "Alpha")...)
	}
	// Nil required fields are data: errors naming them.
	for _, fn := range []string{"Lookahead.Validate", "Lookahead.Reset"} {
		call := func(a *Lookahead) error {
			if fn == "Lookahead.Validate" {
				return a.Validate()
			}
			return a.Reset(2, 1)
		}
		p := badarg.Probe{Func: fn, Err: inv}
		add(badarg.Fields(p, Lookahead{Window: 2}, badarg.NonNegative, call, "Window")...)
		add(p.Fails("Oracle.In = nil", "Oracle.In is nil", func() error { return call(&Lookahead{Window: 2, Forecaster: Oracle{}}) }))
	}
	for _, w := range []int{1 << 40, math.MaxInt} {
		add(badarg.Probe{Func: "Lookahead.Reset", Err: tooLarge}.Fails("Window beyond memory", "", func() error { return (&Lookahead{Window: w}).Reset(4, 1) }))
	}
	add(badarg.Probe{Func: "Oracle.Validate", Err: inv}.Fails("In = nil", "Oracle.In is nil", func() error { return Oracle{}.Validate() }))
	for _, fn := range []string{"Marking.Validate", "Marking.Reset"} {
		add(badarg.Probe{Func: fn, Err: inv}.Fails("Src = nil", "Marking.Src is nil", func() error {
			if fn == "Marking.Validate" {
				return new(Marking).Validate()
			}
			return new(Marking).Reset(2, 1)
		}))
	}
	// Oracle.Forecast has no error result: a nil In, a negative slot and
	// a short dst are documented panics.
	p := badarg.Probe{Func: "Oracle.Forecast"}
	add(p.Panics("In = nil", "Oracle.In is nil", func() { Oracle{}.Forecast(make([]float64, 4), 0, 2) }))
	add(p.Panics("t = -1", "t = -1", func() { Oracle{in}.Forecast(make([]float64, 6), -1, 2) }))
	add(p.Panics("len(dst) = 1", "len(dst) = 1", func() { Oracle{in}.Forecast(make([]float64, 1), 0, 2) }))
	return cs
}

// instanceCases probes the constructors and accessors of Instance.
func instanceCases(in *Instance) []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	big := math.MaxFloat64 / 1.5 // 2·big overflows

	p := badarg.Probe{Func: "NewInstance", Err: inv}
	add(p.Scalar("C", badarg.NonNegative, func(C float64) error { _, err := NewInstance([][]float64{{1, 2}}, C); return err })...)
	p.Text = "h(slot 1, server 0) = "
	add(p.Entries("hold[1]", []float64{1, 2}, 0, badarg.NonNegative, func(row []float64) error {
		_, err := NewInstance([][]float64{{1, 2}, row}, 1)
		return err
	})...)
	p.Text = ""
	add(p.Fails("hold = nil", "T = 0 slots", func() error { _, err := NewInstance(nil, 1); return err }))
	add(p.Fails("rows of unequal length", "slot 1 has 1 hold costs", func() error { _, err := NewInstance([][]float64{{1, 2}, {1}}, 1); return err }))
	add(p.Fails("rows of no server", "k = 0 servers", func() error { _, err := NewInstance([][]float64{{}, {}}, 1); return err }))
	// The rule is conservative: a schedule on server 0 costs +Inf.
	add(p.Fails("schedule cost overflows", "overflows float64", func() error { _, err := NewInstance([][]float64{{big, 1}, {big, 1}}, 1); return err }))
	// Rows that share storage: T·k values need not exist, so the copy is
	// checked too (2⁴¹ values, 16 TiB).
	add(badarg.Probe{Func: "NewInstance", Err: tooLarge}.Fails("T·k beyond memory", "", func() error {
		row := make([]float64, 1<<20)
		rows := make([][]float64, 1<<21)
		for i := range rows {
			rows[i] = row
		}
		_, err := NewInstance(rows, 1)
		return err
	}))

	p = badarg.Probe{Func: "NewInstanceFlat", Err: inv}
	add(p.Int("T", badarg.Positive, func(T int) error { _, err := NewInstanceFlat(T, 2, []float64{1, 2}, 1); return err })...)
	add(p.Int("k", badarg.Positive, func(k int) error { _, err := NewInstanceFlat(1, k, []float64{1, 2}, 1); return err })...)
	add(p.Scalar("C", badarg.NonNegative, func(C float64) error { _, err := NewInstanceFlat(1, 2, []float64{1, 2}, C); return err })...)
	p.Text = "h(slot 1, server 1) = "
	add(p.Entries("hold", []float64{1, 2, 3, 4}, 3, badarg.NonNegative, func(h []float64) error { _, err := NewInstanceFlat(2, 2, h, 1); return err })...)
	p.Text = "hold costs for T = 2 slots and k = 2 servers, want 4"
	add(p.Lengths("hold", []float64{1, 2, 3, 4}, func(h []float64) error { _, err := NewInstanceFlat(2, 2, h, 1); return err })...)
	add(badarg.Probe{Func: "NewInstanceFlat", Err: tooLarge}.Fails("T·k overflows int", "T·k = 4611686018427387904·4", func() error {
		_, err := NewInstanceFlat(1<<62, 4, nil, 1)
		return err
	}))

	p = badarg.Probe{Func: "Instance.WithSetup", Err: inv}
	add(p.Scalar("C", badarg.NonNegative, func(C float64) error { _, err := in.WithSetup(C); return err })...)
	add(p.Fails("C = big", "overflows float64", func() error { _, err := in.WithSetup(big); return err }))

	// Schedules and indices are programmer errors: documented panics.
	p = badarg.Probe{Func: "Instance.Cost"}
	add(p.Panics("len(sched) = 1", "schedule of length 1", func() { in.Cost([]int{0}) }))
	add(p.Panics("server 2 of 2", "uses server 2 of 2", func() { in.Cost(append(make([]int, in.Slots()-1), 2)) }))
	add(p.Panics("server -1", "server -1", func() { in.Cost(append(make([]int, in.Slots()-1), -1)) }))
	p = badarg.Probe{Func: "Setups"}
	add(p.Panics("sched[0] = -1", "server -1", func() { Setups([]int{-1, 2}) }))
	add(p.Panics("sched[1] = -3", "server -3", func() { Setups([]int{0, -3}) }))
	p = badarg.Probe{Func: "Instance.Hold"}
	for _, ts := range [][2]int{{-1, 0}, {in.Slots(), 0}, {0, -1}, {0, in.Servers()}} {
		add(p.Panics("index out of range", "Instance.Hold", func() { in.Hold(ts[0], ts[1]) }))
	}
	p = badarg.Probe{Func: "Instance.Row"}
	add(p.Panics("t = -1", "", func() { in.Row(-1) }), p.Panics("t = T", "", func() { in.Row(in.Slots()) }))
	return cs
}

// solverCases probes the offline optimum, its streaming solver and the
// functions that run an algorithm on an instance.
func solverCases(in *Instance) []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "Optimal.Reset", Err: inv}
	add(p.Int("k", badarg.Positive, func(k int) error { return new(Optimal).Reset(k, 1, NoServer, true) })...)
	add(p.Scalar("C", badarg.NonNegative, func(C float64) error { return new(Optimal).Reset(2, C, NoServer, true) })...)
	for _, start := range []int{-2, 2} {
		add(p.Fails("start out of range", "start = ", func() error { return new(Optimal).Reset(2, 1, start, true) }))
	}
	add(badarg.Probe{Func: "Optimal.Reset", Err: tooLarge}.Fails("k = 2^60", "", func() error { return new(Optimal).Reset(1<<60, 1, NoServer, true) }))
	for _, T := range []int{1 << 62, math.MaxInt} {
		add(badarg.Probe{Func: "Optimal.Grow", Err: tooLarge}.Fails("T beyond memory", "back-pointers", func() error {
			var o Optimal
			if err := o.Reset(3, 1, NoServer, true); err != nil {
				return err
			}
			return o.Grow(T)
		}))
	}
	for _, trace := range []bool{false, true} {
		p = badarg.Probe{Func: "Optimal.Push", Err: inv}
		push := func(row []float64) error {
			var o Optimal
			if err := o.Reset(2, 1, NoServer, trace); err != nil {
				return err
			}
			return o.Push(row)
		}
		p.Text = "at slot 0"
		add(p.Slice("row", []float64{1, 2}, 1, badarg.NonNegative, push)...)
	}
	add(badarg.Probe{Func: "Optimal.Push"}.Panics("Push before Reset", "competitive: Optimal.Push before Reset", func() { _ = new(Optimal).Push([]float64{1}) }))
	add(badarg.Probe{Func: "Optimal.Schedule"}.Panics("without trace", "Optimal.Schedule without trace", func() {
		var o Optimal
		_ = o.Reset(2, 1, NoServer, false)
		o.Schedule(nil)
	}))

	// Nil instances and algorithms are programmer errors: panics naming
	// them.
	for name, f := range map[string]func(*Instance){
		"Optimum":      func(x *Instance) { _, _, _ = Optimum(x) },
		"OptimumCost":  func(x *Instance) { OptimumCost(x) },
		"CountOptimal": func(x *Instance) { CountOptimal(x) },
		"StaticBest":   func(x *Instance) { StaticBest(x) },
		"Run":          func(x *Instance) { _, _ = Run(&WFA{}, x) },
		"RunCost":      func(x *Instance) { _, _ = RunCost(&WFA{}, x) },
		"Ratio":        func(x *Instance) { _, _ = Ratio(&WFA{}, x) },
	} {
		add(badarg.Probe{Func: name}.Panics("in = nil", "nil instance", func() { f(nil) }))
	}
	for name, f := range map[string]func(Online){
		"Run":        func(a Online) { _, _ = Run(a, in) },
		"RunCost":    func(a Online) { _, _ = RunCost(a, in) },
		"Ratio":      func(a Online) { _, _ = Ratio(a, in) },
		"Cruel":      func(a Online) { _, _, _ = Cruel(a, 2, 3, 1, 1) },
		"CruelRatio": func(a Online) { _, _ = CruelRatio(a, 2, 3, 1, 1) },
	} {
		add(badarg.Probe{Func: name}.Panics("alg = nil", "nil Online", func() { f(nil) }))
	}
	// An algorithm that picks a server out of range, or refuses the
	// instance, is an error of the run.
	for name, f := range map[string]func(Online) error{
		"Run":     func(a Online) error { _, err := Run(a, in); return err },
		"RunCost": func(a Online) error { _, err := RunCost(a, in); return err },
		"Ratio":   func(a Online) error { _, err := Ratio(a, in); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		add(p.Fails("server out of range", "server 2 of 2", func() error { return f(&wild{}) }))
		add(p.Fails("a bad field", "DTrack.Alpha = NaN", func() error { return f(&DTrack{Alpha: nan}) }))
	}
	p = badarg.Probe{Func: "PerformanceRatio", Err: inv}
	add(p.Scalar("cost", badarg.NonNegative, func(x float64) error { _, err := PerformanceRatio(x, 1); return err })...)
	add(p.Scalar("opt", badarg.NonNegative, func(x float64) error { _, err := PerformanceRatio(1, x); return err })...)
	return cs
}

// adversaryCases probes Cruel, CruelRatio, CruelBound and Trap.
func adversaryCases() []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	for name, f := range map[string]func(k, T int, C, eps float64) error{
		"Cruel": func(k, T int, C, eps float64) error {
			_, _, err := Cruel(NewDTrack(RoundRobin), k, T, C, eps)
			return err
		},
		"CruelRatio": func(k, T int, C, eps float64) error { _, err := CruelRatio(&WFA{}, k, T, C, eps); return err },
		"CruelBound": func(k, T int, C, eps float64) error { _, err := CruelBound(k, T, C, eps); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		add(p.Int("k", badarg.Positive, func(k int) error { return f(k, 3, 1, 1) })...)
		add(p.Int("T", badarg.Positive, func(T int) error { return f(2, T, 1, 1) })...)
		add(p.Scalar("C", badarg.NonNegative, func(C float64) error { return f(2, 3, C, 1) })...)
		add(p.Scalar("eps", badarg.NonNegative, func(eps float64) error { return f(2, 3, 1, eps) })...)
		add(p.Fails("costs overflow", "overflows float64", func() error { return f(2, 10, 1, math.MaxFloat64/1.5) }))
		for _, kT := range [][2]int{{3, 1 << 62}, {1 << 40, 1 << 40}, {2, 1 << 40}} {
			add(badarg.Probe{Func: name, Err: tooLarge}.Fails("T·(k+1) beyond memory", "", func() error { return f(kT[0], kT[1], 1, 1) }))
		}
	}
	// An algorithm's own refusal is Cruel's error.
	add(badarg.Probe{Func: "Cruel", Err: inv}.Fails("a bad field", "CTrack.Alpha = -1", func() error {
		_, _, err := Cruel(&CTrack{Alpha: -1}, 2, 3, 1, 1)
		return err
	}))
	p := badarg.Probe{Func: "Trap", Err: inv}
	add(p.Int("C", badarg.Positive, func(C int) error { _, err := Trap(C, 1); return err })...)
	add(p.Int("n", badarg.Positive, func(n int) error { _, err := Trap(2, n); return err })...)
	for _, c := range [][2]int{{1 << 40, 1 << 40}, {math.MaxInt, 1}, {1 << 31, 1 << 10}, {1, math.MaxInt / 2}} {
		add(badarg.Probe{Func: "Trap", Err: tooLarge}.Fails("3T beyond memory", "", func() error { _, err := Trap(c[0], c[1]); return err }))
	}
	return cs
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative, zero, wrong-length and nil inputs and bad fields:
// each gives the documented error, naming the input, or the documented
// panic.
func TestValidate(t *testing.T) {
	in := fixtureByName(t, "A")
	cs := slices.Concat(onlineCases(in), fieldCases(in), instanceCases(in), solverCases(in), adversaryCases(), metricCases(in), treeCases(), alphaCases(), predictionCases(in), sessionsCases(in))
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}

// TestValidFields: the parameter structs with their documented values
// validate on their own, and β = −∞ is a valid DTrack-B threshold.
func TestValidFields(t *testing.T) {
	assert.NoError(t, NewDTrack(Backward).Validate())
	assert.NoError(t, (&DTrack{Alpha: 1, Beta: math.Inf(-1)}).Validate())
	assert.NoError(t, NewCTrack().Validate())
	assert.NoError(t, (&Lookahead{Window: 3}).Validate())
	assert.NoError(t, (&Marking{Src: newRand(1)}).Validate())
	assert.NoError(t, Oracle{fixtureByName(t, "A")}.Validate())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
