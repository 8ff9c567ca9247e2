package solve

import (
	"math"

	"github.com/loadlab/loadlab"
)

// Armijo is a backtracking line search. From the step Init it tries
// t, Shrink·t, Shrink²·t, … and accepts the first t at which the trial
// point is feasible and
//
//	f(t) ≤ Ref − C·pred(t),
//
// where pred(t) ≥ 0 is the decrease the first-order model predicts:
// −t·∇f·d along a ray x + t·d, or ∇f·(x − P(x + t·d)) along the
// projection arc P(x + t·d) of projected Newton (Bertsekas 1982). Ref is
// f(x) for a monotone search or the largest of the last few values for a
// non-monotone one (Grippo–Lampariello–Lucidi). The zero value is the
// textbook search: C = 1e-4, Shrink = ½, Init = 1, at most 60 trials
// (down to a step of 2⁻⁵⁹, below which a double step adds nothing to a
// unit-scaled point).
type Armijo struct {
	C        float64 // sufficient-decrease constant in (0, 1); zero means 1e-4
	Shrink   float64 // step factor in (0, 1); zero means ½
	Init     float64 // first step > 0; zero means 1
	MaxTrial int     // most trials; zero means 60
}

// Trial builds the point at step t, evaluates it and returns its value,
// the predicted decrease pred(t) ≥ 0, and ok = false if the point is
// infeasible (outside the domain of f). Search calls it with decreasing
// t; on success its last call was at the accepted step, so a point the
// caller built in a buffer inside Trial is the accepted one.
type Trial func(t float64) (f, pred float64, ok bool)

// Step is the outcome of a line search.
type Step struct {
	T      float64        // accepted step (the last step tried on StepLimit)
	F      float64        // f(T) (NaN if no feasible trial point)
	Trials int            // evaluations of Trial
	Status loadlab.Status // Success, or StepLimit when no step was accepted
}

// Search runs the line search from the reference value ref. A step is
// accepted only with a finite value. It panics if a field of a is
// outside its domain (a programmer error: the fields are set by the
// calling solver, not by users).
func (a Armijo) Search(ref float64, trial Trial) Step {
	c, shrink, t, most := a.C, a.Shrink, a.Init, a.MaxTrial
	if c == 0 {
		c = 1e-4
	}
	if shrink == 0 {
		shrink = 0.5
	}
	if t == 0 {
		t = 1
	}
	if most == 0 {
		most = 60
	}
	if !(c > 0 && c < 1) || !(shrink > 0 && shrink < 1) || !(t > 0) || math.IsInf(t, 1) || most < 0 {
		panic("solve: Armijo fields out of range")
	}
	st := Step{F: math.NaN(), Status: loadlab.StepLimit}
	for k := 0; k < most; k++ {
		f, pred, ok := trial(t)
		st.T, st.Trials = t, k+1
		if ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
			st.F = f
			if f <= ref-c*pred {
				st.Status = loadlab.Success
				return st
			}
		}
		t *= shrink
	}
	return st
}
