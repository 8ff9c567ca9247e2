package solve

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
)

// quadRay is f(x) = ½x² searched along d = −f'(x0) from x0: the Armijo
// test f(x0 + t·d) ≤ f(x0) − c·t·f'(x0)² holds exactly for
// t ≤ 2(1 − c) (closed form: ½(x0 − t·x0)² ≤ ½x0² − c·t·x0²).
func quadRay(x0 float64, calls *[]float64) Trial {
	return func(t float64) (float64, float64, bool) {
		*calls = append(*calls, t)
		x := x0 - t*x0
		return 0.5 * x * x, t * x0 * x0, true
	}
}

func TestArmijoAcceptsFirstSufficientStep(t *testing.T) {
	// From Init = 8 the halvings are 8, 4, 2, 1; with c = 1e-4 the
	// largest accepted step is 2(1 − c) < 2, so t = 1 is the first
	// accepted one (the closed form of quadRay), after 4 trials.
	var calls []float64
	st := Armijo{Init: 8}.Search(0.5*9, quadRay(3, &calls))
	if st.Status != loadlab.Success || st.T != 1 || st.Trials != 4 {
		t.Fatalf("got %+v, want T = 1 after 4 trials with Success", st)
	}
	if st.F != 0 { // x0 − 1·x0 = 0 exactly
		t.Errorf("F = %v, want 0", st.F)
	}
	if calls[len(calls)-1] != st.T {
		t.Errorf("last trial at %v, accepted %v: the caller's buffer would hold the wrong point", calls[len(calls)-1], st.T)
	}
	// The Armijo condition holds at the accepted step and failed at every
	// earlier one.
	for _, tt := range calls {
		x := 3 - tt*3
		ok := 0.5*x*x <= 4.5-1e-4*tt*9
		if ok != (tt == st.T) {
			t.Errorf("trial t = %v: Armijo condition %v", tt, ok)
		}
	}
}

func TestArmijoShrinkAndC(t *testing.T) {
	// c = 0.9 accepts t ≤ 2(1 − 0.9) = 0.2; with Shrink = 0.1 from 1 the
	// trials are 1, 0.1: 0.1 is the first one accepted.
	var calls []float64
	st := Armijo{C: 0.9, Shrink: 0.1}.Search(0.5, quadRay(1, &calls))
	if st.Status != loadlab.Success || math.Abs(st.T-0.1) > 1e-15 || st.Trials != 2 {
		t.Fatalf("got %+v, want T = 0.1 after 2 trials", st)
	}
}

func TestArmijoStepLimit(t *testing.T) {
	// An ascent direction never satisfies the test: the search halves
	// MaxTrial times and reports StepLimit with the last step tried.
	n := 0
	st := Armijo{MaxTrial: 10}.Search(0, func(t float64) (float64, float64, bool) {
		n++
		return t, t, true // f rises with t
	})
	if st.Status != loadlab.StepLimit || st.Trials != 10 || n != 10 {
		t.Fatalf("got %+v after %d calls, want StepLimit after 10", st, n)
	}
	if st.T != math.Ldexp(1, -9) {
		t.Errorf("last step %v, want 2⁻⁹", st.T)
	}
	// The default floor is 60 trials: the last step is 2⁻⁵⁹.
	st = Armijo{}.Search(0, func(t float64) (float64, float64, bool) { return 1, 0, true })
	if st.Status != loadlab.StepLimit || st.Trials != 60 || st.T != math.Ldexp(1, -59) {
		t.Fatalf("default floor: got %+v", st)
	}
}

func TestArmijoRejectsInfeasibleAndNonFinite(t *testing.T) {
	// Feasible only below t = 0.3, NaN at 0.5, +Inf at 1: the search must
	// step over all three and accept 0.25.
	st := Armijo{}.Search(1, func(t float64) (float64, float64, bool) {
		switch {
		case t >= 1:
			return math.Inf(1), 0, true
		case t >= 0.5:
			return math.NaN(), 0, true
		}
		return 0, 0, t < 0.3
	})
	if st.Status != loadlab.Success || st.T != 0.25 {
		t.Fatalf("got %+v, want Success at 0.25", st)
	}
	// Never feasible: F stays NaN.
	st = Armijo{MaxTrial: 3}.Search(1, func(float64) (float64, float64, bool) { return 0, 0, false })
	if st.Status != loadlab.StepLimit || !math.IsNaN(st.F) {
		t.Fatalf("got %+v, want StepLimit with NaN F", st)
	}
}

func TestArmijoNonMonotoneReference(t *testing.T) {
	// A value above f(x) is accepted when the reference (the maximum of
	// recent values) allows it: f(1) = 2 > f(x) = 1 but ≤ ref = 3 − c·pred.
	st := Armijo{}.Search(3, func(t float64) (float64, float64, bool) { return 2, 1, true })
	if st.Status != loadlab.Success || st.T != 1 {
		t.Fatalf("got %+v", st)
	}
}

func TestArmijoBadFieldsPanic(t *testing.T) {
	for _, a := range []Armijo{{C: 1}, {C: -1}, {Shrink: 1}, {Shrink: math.NaN()}, {Init: -1}, {Init: math.Inf(1)}, {MaxTrial: -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic", a)
				}
			}()
			a.Search(0, func(float64) (float64, float64, bool) { return 0, 0, true })
		}()
	}
}

func TestRecord(t *testing.T) {
	var r Record
	if err := r.Err("x", ""); !errors.Is(err, loadlab.ErrNotConverged) {
		t.Fatalf("NotTerminated: err = %v", err)
	}
	r.Iter = 7
	r.Stop(loadlab.StepLimit)
	r.Stop(loadlab.IterationLimit) // the first reason is kept
	if r.Status != loadlab.StepLimit {
		t.Fatalf("Status = %v, want StepLimit", r.Status)
	}
	err := r.Err("dual", "gap %g > %g", 1e-3, 1e-9)
	if !errors.Is(err, loadlab.ErrNotConverged) {
		t.Fatalf("err = %v does not wrap ErrNotConverged", err)
	}
	want := "dual: StepLimit after 7 iterations: gap 0.001 > 1e-09: not converged"
	if err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	ok := Record{Status: loadlab.Success}
	if err := ok.Err("x", "y"); err != nil {
		t.Errorf("Success: err = %v", err)
	}
	if !strings.HasPrefix(Record{Status: loadlab.Failure}.Err("p", "").Error(), "p: Failure after 0 iterations") {
		t.Error("Failure text")
	}
}

// TestGolden: golden-section search finds the minimiser of a convex
// function to its tolerance, stops at the last bit with tol = 0, and
// steps over +Inf outside the domain.
func TestGolden(t *testing.T) {
	f := func(x float64) float64 { return (x - 0.3) * (x - 0.3) }
	lo, hi, x, fx := Golden(f, -1, 2, 1e-8)
	assert.LessOrEqual(t, hi-lo, 1e-8)
	assert.True(t, lo <= 0.3 && 0.3 <= hi, "[%v, %v]", lo, hi)
	assert.InDelta(t, 0.3, x, 1e-8)
	assert.Equal(t, f(x), fx)
	_, _, x, _ = Golden(f, -1, 2, 0)
	assert.InDelta(t, 0.3, x, 1e-7) // √ε: the parabola's rounding hides the slope
	g := func(x float64) float64 {
		if x >= 1 {
			return math.Inf(1)
		}
		return 1/x + 1/(1-x)
	}
	_, _, x, _ = Golden(g, 0.01, 3, 1e-10)
	assert.InDelta(t, 0.5, x, 1e-6)
	lo, hi, _, _ = Golden(f, 0.5, 0.5, 0)
	assert.Equal(t, [2]float64{0.5, 0.5}, [2]float64{lo, hi})
}
