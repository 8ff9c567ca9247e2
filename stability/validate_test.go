package stability

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/gonum/mat"
)

var (
	inv      = loadlab.ErrInvalid
	nan, inf = math.NaN(), math.Inf(1)
	half     = []float64{0.5, 0.5}
)

func src1() rand.Source { return rand.NewPCG(1, 1) }

// changed returns the seed network with one exported field changed after
// construction, as a caller may.
func changed(edit func(*anycast.Network)) *anycast.Network {
	nw := seedNet(0.3)
	edit(nw)
	return nw
}

// netCases probes the functions of a network: a nil network is a
// programmer error (a panic naming nw), and a network whose fields were
// changed after construction is validated again on each call.
func netCases() []badarg.Case {
	grid := [][]float64{{1, 1}, {1, 1}}
	funcs := map[string]func(*anycast.Network) error{
		"NewLaw":          func(nw *anycast.Network) error { _, err := NewLaw(nw, 1); return err },
		"PolytopeSlack":   func(nw *anycast.Network) error { _, err := PolytopeSlack(nw); return err },
		"InPolytope":      func(nw *anycast.Network) error { _, err := InPolytope(nw); return err },
		"ExtendedSlack":   func(nw *anycast.Network) error { _, err := ExtendedSlack(nw); return err },
		"InExtended":      func(nw *anycast.Network) error { _, err := InExtended(nw); return err },
		"Favorable":       func(nw *anycast.Network) error { _, err := Favorable(nw); return err },
		"TwoNodeInterior": func(nw *anycast.Network) error { _, _, err := TwoNodeInterior(nw); return err },
		"Uncontrollable":  func(nw *anycast.Network) error { _, err := Uncontrollable(nw, half, 0); return err },
		"TwoNodeMap":      func(nw *anycast.Network) error { _, err := TwoNodeMap(nw, []float64{1}, []float64{1}, nil); return err },
		"Compare":         func(nw *anycast.Network) error { _, err := Compare(nw, []float64{0, 1}, grid, nil); return err },
	}
	// Functions that replace the demand or read only C and T still
	// validate the whole network.
	var cs []badarg.Case
	for _, name := range sortedKeys(funcs) {
		f := funcs[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs,
			p.Panics("nw = nil", "stability: "+strings.TrimSuffix(name, "Cell")+": nw is nil", func() { _ = f(nil) }),
			p.Fails("nw.A[1] = -1", "A[1] = -1", func() error { return f(changed(func(nw *anycast.Network) { nw.A[1] = -1 })) }),
			p.Fails("nw.C[0][0] = NaN", "C[0][0] = NaN", func() error { return f(changed(func(nw *anycast.Network) { nw.C.Set(0, 0, nan) })) }),
			p.Fails("nw.T[1] = +Inf", "T[1] = +Inf", func() error { return f(changed(func(nw *anycast.Network) { nw.T[1] = inf })) }),
		)
	}
	// A row of C that no longer sums to 1 after a change.
	p := badarg.Probe{Func: "TwoNodeMap", Err: inv}
	cs = append(cs, p.Fails("C row 0 sums to 1.05", "row 0", func() error {
		_, err := TwoNodeMap(changed(func(nw *anycast.Network) { nw.C.Set(0, 1, 0.95) }), []float64{1}, []float64{1}, nil)
		return err
	}))
	// The two-node functions refuse another N.
	three := must(anycast.NewNetwork([]float64{1, 1, 1}, mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}), []float64{1, 1, 1}))
	for name, f := range map[string]func(*anycast.Network) error{"Favorable": funcs["Favorable"], "TwoNodeInterior": funcs["TwoNodeInterior"], "TwoNodeMap": funcs["TwoNodeMap"]} {
		cs = append(cs, badarg.Probe{Func: name, Err: inv}.Fails("N = 3", "N = 3", func() error { return f(three) }))
	}
	return cs
}

// lawMethods are the methods of Law with an error result, each called
// with good arguments.
var lawMethods = map[string]func(*Law) error{
	"Law.Validate":        func(l *Law) error { return l.Validate() },
	"Law.Linearize":       func(l *Law) error { _, err := l.Linearize([]float64{1, 0}); return err },
	"Law.Corner":          func(l *Law) error { _, err := l.Corner([]float64{1, 0}); return err },
	"Law.ClassifyCorners": func(l *Law) error { _, err := l.ClassifyCorners(); return err },
	"Law.SearchCorners":   func(l *Law) error { _, err := l.SearchCorners(2, src1()); return err },
	"Law.Equilibria":      func(l *Law) error { _, err := l.Equilibria(); return err },
	"Law.Snap":            func(l *Law) error { _, err := l.Snap([]float64{1, 0}, 1e-6); return err },
	"Law.Attractors":      func(l *Law) error { _, _, err := l.Attractors(2, 1, 1, nil); return err },
	"Law.Attract":         func(l *Law) error { _, err := l.Attract(1, src1(), nil); return err },
	"Law.EulerStep":       func(l *Law) error { _, err := l.EulerStep(nil, half, 0.1); return err },
	"Law.Iterate":         func(l *Law) error { _, err := l.Iterate(half, 0.1, 2); return err },
	"Law.Integrate":       func(l *Law) error { _, err := l.Integrate(half, 1, nil); return err },
	"Law.IntegrateLogit":  func(l *Law) error { _, err := l.IntegrateLogit([]float64{0, 0}, 1, nil); return err },
}

// lawCases probes the law's own fields in every method: a nil Net is a
// bad field (an error naming Law.Net, or a documented panic in the
// hot-loop methods without an error result), and so is a Sensitivity
// outside (0, ∞); methods other than EulerStep revalidate the network.
func lawCases() []badarg.Case {
	var cs []badarg.Case
	for _, name := range sortedKeys(lawMethods) {
		f := lawMethods[name]
		p := badarg.Probe{Func: name, Err: inv}
		// Guards: a zero Law never reaches a nil dereference.
		cs = append(cs, p.Fails("zero Law", "Law.Net is nil", func() error { return f(&Law{}) }))
		cs = append(cs, badarg.Fields(p, Law{Net: seedNet(0.3), Sensitivity: 1}, badarg.Positive, f, "Sensitivity")...)
		if name != "Law.EulerStep" {
			cs = append(cs, p.Fails("Net.A[1] = -1", "A[1] = -1", func() error {
				return f(&Law{Net: changed(func(nw *anycast.Network) { nw.A[1] = -1 }), Sensitivity: 1})
			}))
		}
	}
	for name, f := range map[string]func(){
		"Law.Rate":       func() { (&Law{}).Rate(nil, half) },
		"Law.Jacobian":   func() { (&Law{}).Jacobian(nil, half) },
		"Law.JacobianOp": func() { (&Law{}).JacobianOp(half) },
	} {
		cs = append(cs, badarg.Probe{Func: name}.Panics("zero Law", "Law.Net is nil", f))
	}
	return cs
}

// hotLoopCases probes the methods that panic on a slice of the wrong
// length, as documented.
func hotLoopCases() []badarg.Case {
	l := mustLaw(seedNet(0.3), 1)
	op := l.JacobianOp(half)
	var cs []badarg.Case
	add := func(name string, c ...badarg.Case) {
		for i := range c {
			c[i].Func = name
		}
		cs = append(cs, c...)
	}
	p := badarg.Probe{Panic: true}
	add("Law.Rate", p.Lengths("x", half, func(x []float64) error { l.Rate(nil, x); return nil })...)
	add("Law.Rate", p.Lengths("dst", half, func(dst []float64) error {
		if dst == nil {
			dst = make([]float64, 3) // nil dst is allowed: probe another wrong length
		}
		l.Rate(dst, half)
		return nil
	})...)
	add("Law.Jacobian", p.Lengths("x", half, func(x []float64) error { l.Jacobian(nil, x); return nil })...)
	add("Law.Jacobian", p.Panics("dst 3×2", "dst is 3×2", func() { l.Jacobian(mat.NewDense(3, 2, nil), half) }))
	add("Law.JacobianOp", p.Lengths("x", half, func(x []float64) error { l.JacobianOp(x); return nil })...)
	add("JacobianOp.MulVec", p.Lengths("v", half, func(v []float64) error { op.MulVec(nil, v); return nil })...)
	add("JacobianOp.MulVec", p.Panics("len(dst) = 3", "", func() { op.MulVec(make([]float64, 3), half) }))
	add("JacobianOp.At", p.Panics("i = 2", "", func() { op.At(2, 0) }), p.Panics("k = -1", "", func() { op.At(0, -1) }))
	// EulerStep: the lengths of x and of a non-nil dst are shapes (a
	// panic), and a nil dst is a new slice.
	add("Law.EulerStep", p.Lengths("x", half, func(x []float64) error { _, err := l.EulerStep(nil, x, 0.1); return err })...)
	add("Law.EulerStep", p.Panics("len(dst) = 1", "", func() { _, _ = l.EulerStep(make([]float64, 1), half, 0.1) }))
	add("CornerSummary.Count", p.Panics("c = -1", "", func() { (&CornerSummary{}).Count(-1) }))
	return cs
}

// stateCases probes the states, times, steps and tolerances the law's
// methods take.
func stateCases() []badarg.Case {
	l := mustLaw(seedNet(0.3), 1)
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "Law.EulerStep", Err: inv}
	add(p.Entries("x", half, 0, badarg.Unit, func(x []float64) error { _, err := l.EulerStep(nil, x, 0.1); return err })...)
	add(p.Scalar("dt", badarg.Positive, func(dt float64) error { _, err := l.EulerStep(nil, half, dt); return err })...)
	add(p.Fails("dt = 100", "too large", func() error { _, err := l.EulerStep(nil, half, 100); return err }))

	p = badarg.Probe{Func: "Law.Iterate", Err: inv}
	add(p.Slice("x0", half, 1, badarg.Unit, func(x []float64) error { _, err := l.Iterate(x, 0.1, 3); return err })...)
	add(p.Scalar("dt", badarg.Positive, func(dt float64) error { _, err := l.Iterate(half, dt, 3); return err })...)
	add(p.Int("steps", badarg.NonNegative, func(n int) error { _, err := l.Iterate(half, 0.1, n); return err })...)
	add(p.Fails("dt = 100", "too large", func() error { _, err := l.Iterate(half, 100, 3); return err }))
	tooLarge := badarg.Probe{Func: "Law.Iterate", Err: loadlab.ErrTooLarge}
	for _, steps := range []int{1 << 40, math.MaxInt} {
		add(tooLarge.Fails("steps beyond memory", "steps = ", func() error { _, err := l.Iterate(half, 1e-3, steps); return err }))
	}

	p = badarg.Probe{Func: "Law.Integrate", Err: inv}
	add(p.Slice("x0", half, 0, badarg.Unit, func(x []float64) error { _, err := l.Integrate(x, 1, nil); return err })...)
	add(p.Scalar("t1", badarg.Positive, func(t1 float64) error { _, err := l.Integrate(half, t1, nil); return err })...)
	add(settingsCases("Law.Integrate", func(s *Settings) error { _, err := l.Integrate(half, 1, s); return err })...)
	add(p.Fails("Times[1] = 0.2 after 0.5", "Times[1] = 0.2", func() error {
		_, err := l.Integrate(half, 1, &Settings{Times: []float64{0.5, 0.2}})
		return err
	}))
	add(p.Fails("Times[0] = 2 > t1", "Times[0] = 2", func() error {
		_, err := l.Integrate(half, 1, &Settings{Times: []float64{2}})
		return err
	}))
	// Requests too large for memory are errors before allocating: the
	// samples of every step, even with a large step budget, and the steps
	// alone with output times.
	tooLarge = badarg.Probe{Func: "Law.Integrate", Err: loadlab.ErrTooLarge}
	for _, tc := range []struct {
		s    Settings
		text string
	}{
		{Settings{Step: 1e-9}, "Settings.Step = 1e-09"},
		{Settings{Step: 1e-9, MaxSteps: math.MaxInt}, "RK4 steps = "},
		{Settings{Step: 1e-9, Times: []float64{1e3}}, "h = 1e-09"},
	} {
		add(tooLarge.Fails("RK4 steps beyond memory", tc.text, func() error { _, err := l.Integrate(half, 1e3, &tc.s); return err }))
	}

	p = badarg.Probe{Func: "Law.IntegrateLogit", Err: inv}
	// ±Inf are the faces of the cube in logit coordinates: only NaN is bad.
	add(p.Fails("z0[0] = NaN", "z0[0] = NaN", func() error { _, err := l.IntegrateLogit([]float64{nan, 0}, 1, nil); return err }))
	add(p.Lengths("z0", []float64{0, 0}, func(z []float64) error { _, err := l.IntegrateLogit(z, 1, nil); return err })...)
	add(p.Scalar("t1", badarg.Positive, func(t1 float64) error { _, err := l.IntegrateLogit([]float64{0, 0}, t1, nil); return err })...)

	p = badarg.Probe{Func: "Law.Linearize", Err: inv}
	add(p.Slice("x", []float64{1, 0}, 1, badarg.Unit, func(x []float64) error { _, err := l.Linearize(x); return err })...)
	add(p.Fails("x not an equilibrium", "not an equilibrium", func() error { _, err := l.Linearize(half); return err }))

	p = badarg.Probe{Func: "Law.Corner", Err: inv}
	add(p.Slice("x", []float64{1, 0}, 0, badarg.Unit, func(x []float64) error { _, err := l.Corner(x); return err })...)
	add(p.Fails("x[0] = 0.5", "x[0] = 0.5", func() error { _, err := l.Corner([]float64{0.5, 1}); return err }))

	p = badarg.Probe{Func: "Law.Snap", Err: inv}
	add(p.Slice("x", []float64{1, 0}, 1, badarg.Unit, func(x []float64) error { _, err := l.Snap(x, 1e-6); return err })...)
	add(p.Scalar("tol", badarg.NonNegative, func(tol float64) error { _, err := l.Snap([]float64{1, 0}, tol); return err })...)
	add(p.Fails("tol = 0.5", "tol = 0.5", func() error { _, err := l.Snap([]float64{1, 0}, 0.5); return err }))
	return cs
}

// settingsCases probes every field of Settings through call.
func settingsCases(fn string, call func(*Settings) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	cs := badarg.Fields(p, Settings{}, badarg.NonNegative, call, "AbsTol", "RelTol", "Step", "MaxSteps")
	cs = append(cs, p.Entries("Settings.Times", []float64{0.5, 1}, 0, badarg.NonNegative, func(x []float64) error { return call(&Settings{Times: x}) })...)
	return append(cs, p.Fails("Times not increasing", "Settings.Times[1] = 0.5", func() error { return call(&Settings{Times: []float64{0.5, 0.5}}) }))
}

// searchCases probes the corner searches and the attractors.
func searchCases() []badarg.Case {
	l := mustLaw(seedNet(0.3), 1)
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "Law.SearchCorners", Err: inv}
	add(p.Int("starts", badarg.NonNegative, func(n int) error { _, err := l.SearchCorners(n, src1()); return err })...)
	add(p.Panics("src = nil", "stability: SearchCorners: src is nil", func() { _, _ = l.SearchCorners(3, nil) }))
	add(badarg.Probe{Func: "Law.SearchCorners", Err: loadlab.ErrTooLarge}.Fails("starts = 2^60", "", func() error {
		_, err := l.SearchCorners(1<<60, src1())
		return err
	}))

	p = badarg.Probe{Func: "Law.Attractors", Err: inv}
	add(p.Int("starts", badarg.NonNegative, func(n int) error { _, _, err := l.Attractors(n, 1, 1, nil); return err })...)
	// t1 is checked even when there is nothing to integrate.
	add(p.Scalar("t1", badarg.Positive, func(t1 float64) error { _, _, err := l.Attractors(0, t1, 1, nil); return err })...)
	add(settingsCases("Law.Attractors", func(s *Settings) error { _, _, err := l.Attractors(1, 1, 1, s); return err })...)
	add(badarg.Probe{Func: "Law.Attractors", Err: loadlab.ErrTooLarge}.Fails("starts = 2^40", "", func() error {
		_, _, err := l.Attractors(1<<40, 1, 1, nil)
		return err
	}))

	p = badarg.Probe{Func: "Law.Attract", Err: inv}
	add(p.Scalar("t1", badarg.Positive, func(t1 float64) error { _, err := l.Attract(t1, src1(), nil); return err })...)
	add(settingsCases("Law.Attract", func(s *Settings) error { _, err := l.Attract(1, src1(), s); return err })...)
	add(p.Panics("src = nil", "stability: Attract: src is nil", func() { _, _ = l.Attract(10, nil, nil) }))
	return cs
}

// polytopeCases probes the state and tolerance of Uncontrollable and the
// grids and settings of the two-node map.
func polytopeCases() []badarg.Case {
	nw := seedNet(0.3)
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "Uncontrollable", Err: inv}
	add(p.Slice("x", []float64{1, 0}, 0, badarg.Unit, func(x []float64) error { _, err := Uncontrollable(nw, x, 0); return err })...)
	// Guards: a NaN tol must not give an empty list.
	add(p.Scalar("tol", badarg.NonNegative, func(tol float64) error { _, err := Uncontrollable(nw, []float64{1, 0}, tol); return err })...)

	call := func(aa, ab []float64, s *MapSettings) error {
		_, err := TwoNodeMap(nw, aa, ab, s)
		return err
	}
	p = badarg.Probe{Func: "TwoNodeMap", Err: inv, Text: "A[0] = "}
	add(p.Entries("aa", []float64{1}, 0, badarg.NonNegative, func(aa []float64) error { return call(aa, []float64{1}, nil) })...)
	p.Text = "A[1] = "
	add(p.Entries("ab", []float64{1}, 0, badarg.NonNegative, func(ab []float64) error { return call([]float64{1}, ab, nil) })...)
	add(mapSettingsCases("TwoNodeMap", func(s *MapSettings) error { return call([]float64{1}, []float64{1}, s) })...)
	return cs
}

// mapSettingsCases probes every field of MapSettings through call.
func mapSettingsCases(fn string, call func(*MapSettings) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	cs := badarg.Fields(p, MapSettings{}, badarg.NonNegative, call, "Sensitivity", "Horizon", "Workers")
	for _, v := range badarg.Unit.Floats() {
		for i := range 2 {
			var s MapSettings
			s.Start[i] = v
			label := "MapSettings.Start[" + string(rune('0'+i)) + "] = "
			cs = append(cs, p.Fails(label, label, func() error { return call(&s) }))
		}
	}
	return cs
}

// compareCases probes Compare's trace and settings and Diurnal's inputs.
func compareCases() []badarg.Case {
	nw := seedNet(0.3)
	times := []float64{0, 1}
	dem := [][]float64{{1, 1}, {1, 1}}
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	p := badarg.Probe{Func: "Compare", Err: inv}
	add(p.Entries("times", times, 0, badarg.Finite, func(ts []float64) error { _, err := Compare(nw, ts, dem, nil); return err })...)
	add(p.Fails("len(times) = 1", "want equal counts ≥ 2", func() error { _, err := Compare(nw, times[:1], dem[:1], nil); return err }))
	add(p.Fails("len(times) ≠ len(demand)", "want equal counts", func() error { _, err := Compare(nw, times, dem[:1], nil); return err }))
	add(p.Fails("times not increasing", "strictly increasing", func() error {
		_, err := Compare(nw, []float64{0, 0, 1}, [][]float64{{1, 1}, {1, 1}, {1, 1}}, nil)
		return err
	}))
	p.Text = "A[1] = "
	add(p.Entries("demand[1]", []float64{1, 1}, 1, badarg.NonNegative, func(row []float64) error {
		_, err := Compare(nw, times, [][]float64{{1, 1}, row}, nil)
		return err
	})...)
	p.Text = ""
	add(p.Fails("len(demand[1]) = 1", "", func() error { _, err := Compare(nw, times, [][]float64{{1, 1}, {1}}, nil); return err }))
	add(compareSettingsCases("Compare", func(s *CompareSettings) error { _, err := Compare(nw, times, dem, s); return err })...)
	add(badarg.Probe{Func: "Compare", Err: loadlab.ErrTooLarge}.Fails("Sub = MaxInt", "", func() error {
		_, err := Compare(nw, times, dem, &CompareSettings{Sub: math.MaxInt})
		return err
	}))
	// A cost hook that returns neither a problem nor an error.
	add(p.Fails("Problem returns nil, nil", "CompareSettings.Problem returned a nil problem", func() error {
		_, err := Compare(nw, times, dem, &CompareSettings{Problem: func(*anycast.Network) (*dual.Problem, error) { return nil, nil }})
		return err
	}))

	p = badarg.Probe{Func: "Diurnal", Err: inv}
	base := []float64{1, 2}
	add(p.Entries("base", base, 1, badarg.NonNegative, func(b []float64) error { _, err := Diurnal(b, []float64{0}, nil, src1()); return err })...)
	add(p.Entries("times", []float64{0, 6}, 1, badarg.Finite, func(ts []float64) error { _, err := Diurnal(base, ts, nil, src1()); return err })...)
	add(diurnalSettingsCases("Diurnal", func(s *DiurnalSettings) error { _, err := Diurnal(base, []float64{0}, s, src1()); return err })...)
	for _, ph := range [][]float64{{0}, {0, 0, 0}} {
		label := "len(DiurnalSettings.Phase) = " + string(rune('0'+len(ph)))
		add(p.Fails(label, label, func() error { _, err := Diurnal(base, []float64{0}, &DiurnalSettings{Phase: ph}, src1()); return err }))
	}
	add(p.Panics("src = nil", "stability: Diurnal: src is nil", func() { _, _ = Diurnal([]float64{1}, []float64{0}, nil, nil) }))
	add(badarg.Probe{Func: "Diurnal", Err: loadlab.ErrTooLarge}.Fails("2^22 times of 2^10 nodes", "", func() error {
		_, err := Diurnal(make([]float64, 1<<10), make([]float64, 1<<22), nil, src1())
		return err
	}))
	return cs
}

// compareSettingsCases probes every field of CompareSettings.
func compareSettingsCases(fn string, call func(*CompareSettings) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	cs := badarg.Fields(p, CompareSettings{}, badarg.NonNegative, call, "Sensitivity", "Guard", "Sub", "W", "Penalty", "DualSteps", "DualStep", "Threshold")
	cs = append(cs, p.Fails("FastControl.Loss = 1", "FastControl.Loss = 1", func() error {
		return call(&CompareSettings{FastControl: &dual.FastControl{Gamma: 1, Loss: 1}})
	}))
	cs = append(cs, p.Fails("FastControl.Gamma = 0", "FastControl.Gamma = 0", func() error { return call(&CompareSettings{FastControl: &dual.FastControl{}}) }))
	return append(cs, p.Fails("Guard = 0.7", "CompareSettings.Guard = 0.7", func() error { return call(&CompareSettings{Guard: 0.7}) }))
}

// diurnalSettingsCases probes every field of DiurnalSettings.
func diurnalSettingsCases(fn string, call func(*DiurnalSettings) error) []badarg.Case {
	p := badarg.Probe{Func: fn, Err: inv}
	cs := badarg.Fields(p, DiurnalSettings{}, badarg.Unit, call, "Amplitude")
	cs = append(cs, badarg.Fields(p, DiurnalSettings{}, badarg.NonNegative, call, "Noise")...)
	cs = append(cs, badarg.Fields(p, DiurnalSettings{}, badarg.Unit, call, "Memory")...)
	cs = append(cs, p.Fails("Memory = 1", "DiurnalSettings.Memory = 1", func() error { return call(&DiurnalSettings{Memory: 1}) }))
	return append(cs, p.Entries("DiurnalSettings.Phase", []float64{0, 3}, 1, badarg.Finite, func(ph []float64) error {
		return call(&DiurnalSettings{Phase: ph})
	})...)
}

// validateCases gathers the cases of every entry point.
func validateCases() []badarg.Case {
	cs := slices.Concat(netCases(), lawCases(), hotLoopCases(), stateCases(), searchCases(), polytopeCases(), compareCases(), controllerCases(), studyCases(), robustCases())
	// Each settings type's Validate sees the same fields.
	cs = append(cs, settingsCases("Settings.Validate", func(s *Settings) error { return s.Validate() })...)
	cs = append(cs, mapSettingsCases("MapSettings.Validate", func(s *MapSettings) error { return s.Validate() })...)
	cs = append(cs, compareSettingsCases("CompareSettings.Validate", func(s *CompareSettings) error { return s.Validate() })...)
	cs = append(cs, diurnalSettingsCases("DiurnalSettings.Validate", func(s *DiurnalSettings) error { return s.Validate() })...)
	p := badarg.Probe{Func: "NewLaw", Err: inv}
	return append(cs, p.Scalar("Law.Sensitivity", badarg.Positive, func(b float64) error { _, err := NewLaw(seedNet(0.3), b); return err })...)
}

// TestValidate drives every exported entry point of the package with
// NaN, ±Inf, negative, zero, wrong-length and nil inputs and bad
// settings fields: each gives the documented error, naming the input,
// or the documented panic.
func TestValidate(t *testing.T) {
	cs := validateCases()
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"GroupAttractors": "no invalid input: a nil entry is a start that reached no equilibrium",
		"Policy.Overhead": "no error result: a ratio of the policy's own totals (NaN when nothing was served)",
		"SummarizeGaps":   "no error result: the summary of runs that StudyPoint.Run returned",
	})
}

// TestValidateNilSettings: a nil settings pointer is valid everywhere.
func TestValidateNilSettings(t *testing.T) {
	var (
		s *Settings
		m *MapSettings
		c *CompareSettings
		d *DiurnalSettings
	)
	for _, err := range []error{s.Validate(), m.Validate(), c.Validate(), d.Validate()} {
		assert.NoError(t, err)
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// controllerCases probes Controller's fields, Run's arguments and
// Law.PeriodLimit.
func controllerCases() []badarg.Case {
	l := mustLaw(seedNet(0.3), 1)
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	for _, fn := range []string{"Controller.Validate", "Controller.Run"} {
		p := badarg.Probe{Func: fn, Err: inv}
		call := func(c *Controller) error {
			if fn == "Controller.Validate" {
				return c.Validate()
			}
			_, err := c.Run(half, 2, nil, src1())
			return err
		}
		base := Controller{Law: l, Period: 0.1}
		add(badarg.Fields(p, base, badarg.Positive, call, "Period")...)
		add(badarg.Fields(p, base, badarg.NonNegative, call, "Rate", "Threshold", "Every")...)
		add(p.Fails("Guard = 0.5", "Controller.Guard = 0.5", func() error { return call(&Controller{Law: l, Period: 0.1, Guard: 0.5}) }))
		add(p.Fails("Law = nil", "Controller.Law is nil", func() error { return call(&Controller{Period: 0.1}) }))
	}
	c := &Controller{Law: l, Period: 0.1}
	p := badarg.Probe{Func: "Controller.Run", Err: inv}
	add(p.Slice("x0", half, 1, badarg.Unit, func(x []float64) error { _, err := c.Run(x, 2, nil, nil); return err })...)
	add(p.Int("steps", badarg.NonNegative, func(n int) error { _, err := c.Run(half, n, nil, nil); return err })...)
	tr := func(times []float64, a [][]float64) error {
		_, err := c.Run(half, 2, &Trace{Times: times, A: a}, nil)
		return err
	}
	add(p.Entries("Trace.Times", []float64{0, 1}, 1, badarg.Finite, func(ts []float64) error { return tr(ts, [][]float64{half, half}) })...)
	add(p.Entries("Trace.A[1]", []float64{1, 1}, 0, badarg.NonNegative, func(a []float64) error { return tr([]float64{0, 1}, [][]float64{half, a}) })...)
	add(p.Fails("Trace.Times not increasing", "strictly increasing", func() error { return tr([]float64{1, 1}, [][]float64{half, half}) }))
	add(p.Fails("len(Trace.A) = 1", "want equal counts", func() error { return tr([]float64{0, 1}, [][]float64{half}) }))
	add(p.Fails("len(Trace.A[0]) = 1", "len(Trace.A[0]) = 1", func() error { return tr([]float64{0}, [][]float64{{1}}) }))
	add(p.Panics("src = nil with Rate > 0", "stability: Controller.Run: src is nil", func() {
		_, _ = (&Controller{Law: l, Period: 0.1, Rate: 1}).Run(half, 2, nil, nil)
	}))
	add(badarg.Probe{Func: "Controller.Run", Err: loadlab.ErrTooLarge}.Fails("steps = MaxInt", "steps", func() error {
		_, err := c.Run(half, math.MaxInt, nil, nil)
		return err
	}))
	pl := badarg.Probe{Func: "Law.PeriodLimit", Err: inv}
	add(pl.Panics("e = nil", "stability: PeriodLimit: e is nil", func() { _, _ = l.PeriodLimit(nil) }))
	add(pl.Fails("len(e.X) = 1", "len(e.X) = 1", func() error { _, err := l.PeriodLimit(&Equilibrium{X: []float64{0}}); return err }))
	add(pl.Fails("Law.Sensitivity = 0", "Law.Sensitivity = 0", func() error {
		_, err := (&Law{Net: l.Net}).PeriodLimit(&Equilibrium{X: half})
		return err
	}))
	return cs
}

// studyCases probes StudyPoint's fields through Run, Network and Study,
// and Study's run count.
func studyCases() []badarg.Case {
	var cs []badarg.Case
	for _, fn := range []string{"StudyPoint.Run", "StudyPoint.Network", "StudyPoint.Validate", "Study"} {
		p := badarg.Probe{Func: fn, Err: inv}
		call := func(sp *StudyPoint) error {
			var err error
			switch fn {
			case "StudyPoint.Run":
				_, err = sp.Run(src1())
			case "StudyPoint.Network":
				_, err = sp.Network(src1())
			case "StudyPoint.Validate":
				err = sp.Validate()
			default:
				_, err = Study([]StudyPoint{*sp}, 2, 1)
			}
			return err
		}
		base := StudyPoint{N: 20}
		cs = append(cs, badarg.Fields(p, base, badarg.NonNegative, call, "Load", "Sensitivity", "T1", "W", "Penalty", "K")...)
		cs = append(cs, p.Fails("N = -1", "StudyPoint.N = -1", func() error { return call(&StudyPoint{N: -1}) }))
		cs = append(cs, badarg.Fields(p, base, badarg.Unit, call, "SelfCorr")...)
		cs = append(cs, p.Fails("SelfCorr = 1", "StudyPoint.SelfCorr = 1", func() error { return call(&StudyPoint{N: 20, SelfCorr: 1}) }))
	}
	p := badarg.Probe{Func: "Study", Err: inv}
	cs = append(cs, p.Int("runs", badarg.Positive, func(r int) error {
		if r == 1 {
			r = 1 // one instance gives no interval: refused like 0
		}
		_, err := Study([]StudyPoint{{N: 20}}, r, 1)
		return err
	})...)
	cs = append(cs, p.Fails("runs = 1", "runs = 1", func() error { _, err := Study([]StudyPoint{{N: 20}}, 1, 1); return err }))
	cs = append(cs, badarg.Probe{Func: "StudyPoint.Run"}.Panics("src = nil", "stability: StudyPoint.Run: src is nil", func() { _, _ = StudyPoint{}.Run(nil) }))
	cs = append(cs, badarg.Probe{Func: "StudyPoint.Network"}.Panics("src = nil", "stability: StudyPoint.Network: src is nil", func() { _, _ = StudyPoint{}.Network(nil) }))
	return cs
}
