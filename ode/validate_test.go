package ode

import (
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	inv      = loadlab.ErrInvalid
	tooLarge = loadlab.ErrTooLarge
	nan, inf = math.NaN(), math.Inf(1)
)

func zeroRate(dy []float64, _ float64, _ []float64) { dy[0] = 0 }

func noEmit(float64, []float64) error { return nil }

// solvers are the entry points that start an integration from (t0, y0)
// with settings s, called with f = unitLogistic and a good end.
var solvers = map[string]func(t0 float64, y0 []float64, s *Settings) error{
	"NewDormandPrince": func(t0 float64, y0 []float64, s *Settings) error {
		_, err := NewDormandPrince(unitLogistic, t0, y0, s)
		return err
	},
	"Solve": func(t0 float64, y0 []float64, s *Settings) error {
		_, err := Solve(unitLogistic, t0, y0, []float64{t0 + 1}, s)
		return err
	},
	"SolveSteps": func(t0 float64, y0 []float64, s *Settings) error {
		_, err := SolveSteps(unitLogistic, t0, y0, t0+1, s)
		return err
	},
	"SolveStepsFunc": func(t0 float64, y0 []float64, s *Settings) error {
		_, err := SolveStepsFunc(unitLogistic, t0, y0, t0+1, s, noEmit)
		return err
	},
	"SolveRK4": func(t0 float64, y0 []float64, s *Settings) error {
		_, err := SolveRK4(unitLogistic, t0, y0, []float64{t0 + 1}, 0.1, s)
		return err
	},
	"NewRK4": func(t0 float64, y0 []float64, s *Settings) error {
		_, err := NewRK4(unitLogistic, t0, y0)
		return err
	},
}

// startCases probes the start and the settings of every solver: t0 and
// y0 not finite, an empty y0, every settings field (NewRK4 takes none;
// SolveRK4 reads only MaxSteps but validates them all).
func startCases() []badarg.Case {
	var cs []badarg.Case
	for _, name := range sortedKeys(solvers) {
		f := solvers[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Scalar("t0", badarg.Finite, func(t0 float64) error { return f(t0, []float64{0.1}, nil) })...)
		cs = append(cs, p.Entries("y0", []float64{0.1, 0.2}, 1, badarg.Finite, func(y0 []float64) error { return f(0, y0, nil) })...)
		cs = append(cs, p.Fails("y0 = nil", "len(y0) = 0", func() error { return f(0, nil, nil) }))
		if name != "NewRK4" {
			cs = append(cs, settingsCases(name, func(s *Settings) error { return f(0, []float64{0.1}, s) })...)
		}
	}
	// The workspace of a solver is 15 vectors of len(y0): a y0 whose
	// copies exceed the memory budget is refused before anything is
	// allocated (guards: an out-of-memory crash). The slice is never
	// written, so it costs address space, not memory.
	big := make([]float64, (16<<30)/(8*workCopies)+1)
	for _, name := range []string{"NewDormandPrince", "NewRK4"} {
		cs = append(cs, badarg.Probe{Func: name, Err: tooLarge}.Fails("len(y0) beyond memory", "len(y0)", func() error { return solvers[name](0, big, nil) }))
	}
	for name, f := range map[string]func(){
		"NewDormandPrince": func() { _, _ = NewDormandPrince(nil, 0, []float64{1}, nil) },
		"NewRK4":           func() { _, _ = NewRK4(nil, 0, []float64{1}) },
		"Solve":            func() { _, _ = Solve(nil, 0, []float64{1}, []float64{1}, nil) },
		"SolveSteps":       func() { _, _ = SolveSteps(nil, 0, []float64{1}, 1, nil) },
		"SolveStepsFunc":   func() { _, _ = SolveStepsFunc(nil, 0, []float64{1}, 1, nil, noEmit) },
		"SolveRK4":         func() { _, _ = SolveRK4(nil, 0, []float64{1}, []float64{1}, 0.1, nil) },
	} {
		cs = append(cs, badarg.Probe{Func: name}.Panics("f = nil", "ode: "+name+": f is nil", f))
	}
	return append(cs, badarg.Probe{Func: "SolveStepsFunc"}.Panics("emit = nil", "emit is nil", func() {
		_, _ = SolveStepsFunc(unitLogistic, 0, []float64{1}, 1, nil, nil)
	}))
}

// settingsCases probes every field of Settings through call.
func settingsCases(fn string, call func(*Settings) error) []badarg.Case {
	return badarg.Fields(badarg.Probe{Func: fn, Err: inv}, Settings{}, badarg.NonNegative, call, "AbsTol", "RelTol", "InitialStep", "MaxStep", "MaxSteps")
}

// endCases probes the output times, the end t1 and the RK4 step.
func endCases() []badarg.Case {
	y0 := []float64{0.1}
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	for _, name := range []string{"Solve", "SolveRK4"} {
		call := func(times []float64) error {
			if name == "Solve" {
				_, err := Solve(zeroRate, 0, y0, times, nil)
				return err
			}
			_, err := SolveRK4(zeroRate, 0, y0, times, 0.1, nil)
			return err
		}
		p := badarg.Probe{Func: name, Err: inv}
		add(p.Entries("times", []float64{0.5, 1}, 1, badarg.Finite, call)...)
		add(
			p.Fails("times = nil", "len(times) = 0", func() error { return call(nil) }),
			p.Fails("times not monotone", "strictly monotone", func() error { return call([]float64{1, 0.5}) }),
			p.Fails("times[1] = times[0]", "times[1] = 1", func() error { return call([]float64{1, 1}) }),
		)
	}
	for name, f := range map[string]func(t1 float64) error{
		"SolveSteps":     func(t1 float64) error { _, err := SolveSteps(unitLogistic, 0, y0, t1, nil); return err },
		"SolveStepsFunc": func(t1 float64) error { _, err := SolveStepsFunc(unitLogistic, 0, y0, t1, nil, noEmit); return err },
	} {
		p := badarg.Probe{Func: name, Err: inv}
		add(p.Scalar("t1", badarg.Finite, f)...)
		add(p.Fails("t1 = t0", "t1 = 0", func() error { return f(0) }))
	}
	p := badarg.Probe{Func: "SolveRK4", Err: inv}
	add(p.Scalar("h", badarg.Positive, func(h float64) error { _, err := SolveRK4(zeroRate, 0, y0, []float64{1}, h, nil); return err })...)
	// A step so small that the count overflows, or exceeds the step
	// budget, is refused before any work, naming h.
	tl := badarg.Probe{Func: "SolveRK4", Err: tooLarge}
	for _, tc := range []struct {
		h float64
		s *Settings
	}{
		{1e-300, nil},                      // 1e300 steps: overflows an int
		{1e-9, nil},                        // 1e9 steps > DefaultMaxSteps
		{1e-3, &Settings{MaxSteps: 999}},   // 1000 steps > 999
		{math.SmallestNonzeroFloat64, nil}, // span/h = +Inf
		{0.25, &Settings{MaxSteps: 3}},     // 4 steps > 3
		{1e-200, &Settings{MaxSteps: math.MaxInt}},
	} {
		add(tl.Fails("steps beyond the budget", "h = ", func() error {
			res, err := SolveRK4(unitLogistic, 0, y0, []float64{1}, tc.h, tc.s)
			if res != nil {
				return nil // a refusal returns no result: fail as a silent success
			}
			return err
		}))
	}
	return cs
}

// stepperCases probes the methods of the steppers.
func stepperCases(t *testing.T) []badarg.Case {
	d, err := NewDormandPrince(zeroRate, 0, []float64{1}, nil)
	require.NoError(t, err)
	require.NoError(t, d.Step(1))
	r, err := NewRK4(unitLogistic, 0, []float64{0.1})
	require.NoError(t, err)
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "DormandPrince.Step", Err: inv}
	add(p.Scalar("tEnd", badarg.Finite, d.Step)...)
	add(p.Fails("tEnd behind", "behind", func() error { return d.Step(-1) }))
	p = badarg.Probe{Func: "DormandPrince.Reset", Err: inv}
	add(p.Scalar("t", badarg.Finite, func(t float64) error { return d.Reset(t, []float64{1}) })...)
	add(p.Entries("y", []float64{1}, 0, badarg.Finite, func(y []float64) error { return d.Reset(0, y) })...)
	add(badarg.Probe{Func: "DormandPrince.Reset", Panic: true, Text: "len(y)"}.Lengths("y", []float64{1}, func(y []float64) error { return d.Reset(0, y) })...)
	p = badarg.Probe{Func: "DormandPrince.Interpolate"}
	add(
		p.Panics("t after the last step", "outside the last step", func() { d.Interpolate(nil, 5) }),
		p.Panics("t = NaN", "outside the last step", func() { d.Interpolate(nil, nan) }),
		p.Panics("len(dst) = 2", "len(dst) = 2", func() { d.Interpolate(make([]float64, 2), d.Time()) }),
	)
	p = badarg.Probe{Func: "RK4.Step", Err: inv}
	add(p.Scalar("h", badarg.Finite, r.Step)...)
	// A step whose end overflows is refused (guards: t = +Inf returned
	// with a nil error).
	add(p.Fails("t + h = +Inf", "", func() error {
		big, err := NewRK4(unitLogistic, 1e308, []float64{0.5})
		require.NoError(t, err)
		return big.Step(1e308)
	}))
	return cs
}

// splitCases probes NewDormandPrinceSplit and SolveStepsSplit: the
// fields of Split, nil passes and the errors of the plain solvers.
func splitCases() []badarg.Case {
	s := newCoupled(10, 1)
	y0 := make([]float64, 10)
	var cs []badarg.Case
	for name, f := range map[string]func(sp *Split, t0 float64, y0 []float64, st *Settings) error{
		"NewDormandPrinceSplit": func(sp *Split, t0 float64, y0 []float64, st *Settings) error {
			_, err := NewDormandPrinceSplit(sp, t0, y0, st)
			return err
		},
		"SolveStepsSplit": func(sp *Split, t0 float64, y0 []float64, st *Settings) error {
			_, err := SolveStepsSplit(sp, t0, y0, t0+1, st, noEmit)
			return err
		},
	} {
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, badarg.Fields(p, *s.split(0, 0), badarg.NonNegative, func(sp *Split) error { return f(sp, 0, y0, nil) }, "Grain", "Workers")...)
		cs = append(cs, p.Fails("Grain = 24", "Split.Grain = 24", func() error { return f(s.split(24, 0), 0, y0, nil) }))
		cs = append(cs, p.Scalar("t0", badarg.Finite, func(t0 float64) error { return f(s.split(0, 0), t0, y0, nil) })...)
		cs = append(cs, p.Entries("y0", y0, 3, badarg.Finite, func(y []float64) error { return f(s.split(0, 0), 0, y, nil) })...)
		cs = append(cs, settingsCases(name, func(st *Settings) error { return f(s.split(0, 0), 0, y0, st) })...)
		cs = append(cs,
			p.Panics("f = nil", "", func() { _ = f(nil, 0, y0, nil) }),
			p.Panics("f.Rows = nil", "", func() { _ = f(&Split{Map: s.mapRange}, 0, y0, nil) }),
			p.Panics("f.Map = nil", "", func() { _ = f(&Split{Rows: s.rowsRange}, 0, y0, nil) }),
		)
	}
	p := badarg.Probe{Func: "SolveStepsSplit", Err: inv}
	return append(cs,
		p.Fails("t1 = t0", "t1 = 0", func() error { _, err := SolveStepsSplit(s.split(0, 0), 0, y0, 0, nil, noEmit); return err }),
		p.Panics("emit = nil", "emit", func() { _, _ = SolveStepsSplit(s.split(0, 0), 0, y0, 1, nil, nil) }),
	)
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative, zero, wrong-length and nil inputs and bad
// settings fields: each gives the documented error, naming the input,
// or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(startCases(), endCases(), stepperCases(t), splitCases())
	cs = append(cs, settingsCases("Settings.Validate", func(s *Settings) error { return s.Validate() })...)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"LagBuf": "a table of workspaces for Lagger implementations, defined for the stage numbers 2..7 that the stepper passes",
	})
}

// TestValidateNil: nil settings are valid; a refused RK4 step leaves the
// stepper where it was.
func TestValidateNil(t *testing.T) {
	var s *Settings
	assert.NoError(t, s.Validate())
	r, err := NewRK4(unitLogistic, 0, []float64{0.1})
	require.NoError(t, err)
	require.ErrorIs(t, r.Step(nan), loadlab.ErrInvalid)
	assert.Equal(t, 0.1, r.State()[0])
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
