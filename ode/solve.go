package ode

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Result is a solution sampled at output times.
type Result struct {
	T     []float64   // output times
	Y     [][]float64 // Y[k] = y(T[k])
	Stats Stats
	// Status says why the solver stopped: loadlab.Success once every
	// output time is reached; otherwise (with an error and the samples
	// computed so far) IterationLimit for a spent step budget
	// (ErrMaxSteps), StepLimit for a step size underflow (ErrStepSize)
	// and Failure for a non-finite RK4 state or an output too large to
	// store.
	Status loadlab.Status
}

// add appends a copy of y at time t, checking the memory of the output
// before it grows.
func (res *Result) add(t float64, y []float64) error {
	if len(res.T) == cap(res.T) {
		c := max(2*cap(res.T), 16)
		if err := size.Check("ode", "output samples", c, 8*(len(y)+1)); err != nil {
			return err
		}
		res.T = append(make([]float64, 0, c), res.T...)
		res.Y = append(make([][]float64, 0, c), res.Y...)
	}
	res.T = append(res.T, t)
	res.Y = append(res.Y, append([]float64(nil), y...))
	return nil
}

// newResult returns a result with room for m samples of dimension n, or
// an error wrapping loadlab.ErrTooLarge if they would not fit in memory.
func newResult(m, n int) (*Result, error) {
	if err := size.Check("ode", "len(times)", m, 8*(n+1)); err != nil {
		return nil, err
	}
	return &Result{T: make([]float64, 0, m), Y: make([][]float64, 0, m)}, nil
}

// checkTimes verifies that times is non-empty, finite and strictly
// monotone away from t0 (the first entry may equal t0).
func checkTimes(t0 float64, times []float64) error {
	if len(times) == 0 {
		return loadlab.Invalid("ode", "len(times) = 0, want ≥ 1")
	}
	dir := 0.0
	prev := t0
	for k, t := range times {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return loadlab.Invalid("ode", "times[%d] = %v, want a finite value", k, t)
		}
		if t == prev && k == 0 {
			continue
		}
		s := math.Copysign(1, t-prev)
		if t == prev || (dir != 0 && s != dir) {
			return loadlab.Invalid("ode", "times[%d] = %v, want output times strictly monotone from t0 = %v", k, t, t0)
		}
		dir, prev = s, t
	}
	return nil
}

// Solve integrates dy/dt = f(t, y), y(t0) = y0 with DormandPrince and
// returns the solution at the given output times, which must be strictly
// monotone (increasing or decreasing) starting from t0; the first may equal
// t0. Output between steps comes from the dense output, so the output times
// do not constrain the step size.
//
// Solve returns an error wrapping loadlab.ErrInvalid for bad input and
// loadlab.ErrTooLarge if the output would not fit in memory. If the
// integration stops short it returns the samples computed so far, with
// their Status, and the stepper's error (ErrMaxSteps or ErrStepSize, both
// instances of loadlab.ErrNotConverged).
//
// Solve panics if f is nil.
func Solve(f Func, t0 float64, y0 []float64, times []float64, s *Settings) (*Result, error) {
	checkFunc("Solve", f)
	d, err := NewDormandPrince(f, t0, y0, s)
	if err != nil {
		return nil, err
	}
	if err := checkTimes(t0, times); err != nil {
		return nil, err
	}
	res, err := newResult(len(times), len(y0))
	if err != nil {
		return nil, err
	}
	k := 0
	err = d.run(times[len(times)-1], func() (bool, error) {
		for k < len(times) && between(times[k], d.PrevTime(), d.Time()) {
			res.T = append(res.T, times[k])
			res.Y = append(res.Y, d.Interpolate(nil, times[k]))
			k++
		}
		return k == len(times), nil
	})
	return res.finish(d.Stats(), err)
}

// checkFunc panics, naming the caller fn, if f is nil.
func checkFunc(fn string, f Func) {
	if f == nil {
		panic("ode: " + fn + ": f is nil")
	}
}

// SolveSteps is Solve with the solution recorded at every accepted step
// instead of at given times: T[0] = t0, the ends of the steps in order,
// and T[len(T)−1] = t1. Use it to draw a trajectory with the resolution
// the tolerance needs. It returns an error wrapping loadlab.ErrInvalid if
// t1 is not finite or equals t0, and otherwise errors as Solve; the memory
// of the output is checked as it grows (loadlab.ErrTooLarge).
//
// SolveSteps panics if f is nil.
func SolveSteps(f Func, t0 float64, y0 []float64, t1 float64, s *Settings) (*Result, error) {
	checkFunc("SolveSteps", f)
	res := &Result{}
	out, err := SolveStepsFunc(f, t0, y0, t1, s, res.add)
	if out == nil {
		return nil, err
	}
	return res.finish(out.Stats, err)
}

// SolveStepsFunc is SolveSteps without storing the solution: it calls
// emit(t, y) at t0 and after every accepted step, in order, ending with
// t1, and returns a Result holding only Stats and Status (T and Y nil).
// y is the stepper's state, valid during the call only: emit must not
// modify or retain it. An error from emit stops the integration and is
// returned, with Status loadlab.Failure. Use it to convert or reduce a
// long trajectory of a large system as it is computed, without holding
// every state twice. Errors are those of SolveSteps.
//
// SolveStepsFunc panics if f or emit is nil.
func SolveStepsFunc(f Func, t0 float64, y0 []float64, t1 float64, s *Settings, emit func(t float64, y []float64) error) (*Result, error) {
	checkFunc("SolveStepsFunc", f)
	if emit == nil {
		panic("ode: SolveStepsFunc: emit is nil")
	}
	d, err := NewDormandPrince(f, t0, y0, s)
	if err != nil {
		return nil, err
	}
	return d.solveSteps(t1, emit)
}

// run is the one output loop of the adaptive solver: it calls emit after
// every accepted step (and once before the first) until emit reports that
// it is done, emit fails, or a step fails.
func (d *DormandPrince) run(tEnd float64, emit func() (done bool, err error)) error {
	for {
		done, err := emit()
		if done || err != nil {
			return err
		}
		if err := d.Step(tEnd); err != nil {
			return err
		}
	}
}

// finish stores the work and the status of a solve.
func (res *Result) finish(st Stats, err error) (*Result, error) {
	res.Stats = st
	res.Status = status(err)
	return res, err
}

// between reports whether t lies in the closed interval spanned by a and b.
func between(t, a, b float64) bool {
	return (t >= a && t <= b) || (t <= a && t >= b)
}

// RK4 is the classical fixed-step fourth-order Runge–Kutta method. Create it
// with NewRK4.
type RK4 struct {
	f                  Func
	t                  float64
	y, tmp, k1, k2, k3 []float64
	k4                 []float64
	stats              Stats
}

// NewRK4 returns an RK4 stepper for dy/dt = f(t, y) starting at (t0, y0).
// It copies y0 and returns an error wrapping loadlab.ErrInvalid for an
// empty or non-finite y0 or t0.
//
// NewRK4 panics if f is nil.
func NewRK4(f Func, t0 float64, y0 []float64) (*RK4, error) {
	if f == nil {
		panic("ode: NewRK4: f is nil")
	}
	if err := checkStart(t0, y0); err != nil {
		return nil, err
	}
	n := len(y0)
	buf := make([]float64, 6*n)
	r := &RK4{f: f, t: t0}
	r.y, r.tmp, r.k1, r.k2, r.k3, r.k4 = buf[:n:n], buf[n:2*n:2*n], buf[2*n:3*n:3*n], buf[3*n:4*n:4*n], buf[4*n:5*n:5*n], buf[5*n:]
	copy(r.y, y0)
	return r, nil
}

// Time returns the current time.
func (r *RK4) Time() float64 { return r.t }

// State returns the current state, owned by the stepper; do not modify it.
func (r *RK4) State() []float64 { return r.y }

// Stats returns the work done so far.
func (r *RK4) Stats() Stats { return r.stats }

// Step advances by one step of size h (negative h integrates backwards).
// It does not allocate. It returns an error wrapping loadlab.ErrInvalid,
// without stepping, if h or the new time t + h is not finite, and one
// wrapping loadlab.ErrNotConverged, after the step, if the new state is
// not finite (the state is then not a solution; restart with NewRK4).
func (r *RK4) Step(h float64) error {
	if math.IsNaN(h) || math.IsInf(h, 0) {
		return loadlab.Invalid("ode", "h = %v, want a finite value", h)
	}
	if t := r.t + h; math.IsInf(t, 0) {
		return loadlab.Invalid("ode", "h = %v at t = %v: t + h overflows", h, r.t)
	}
	t, y, tmp := r.t, r.y, r.tmp
	r.f(r.k1, t, y)
	for i := range y {
		tmp[i] = y[i] + h/2*r.k1[i]
	}
	r.f(r.k2, t+h/2, tmp)
	for i := range y {
		tmp[i] = y[i] + h/2*r.k2[i]
	}
	r.f(r.k3, t+h/2, tmp)
	for i := range y {
		tmp[i] = y[i] + h*r.k3[i]
	}
	r.f(r.k4, t+h, tmp)
	for i := range y {
		y[i] += h / 6 * (r.k1[i] + 2*r.k2[i] + 2*r.k3[i] + r.k4[i])
	}
	r.t = t + h
	r.stats.Accepted++
	r.stats.Evaluations += 4
	return r.checkFinite()
}

// checkFinite returns an error wrapping loadlab.ErrNotConverged naming
// the first non-finite component of the state.
func (r *RK4) checkFinite() error {
	for i, v := range r.y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("ode: y[%d] = %v at t = %v: RK4 solution not finite: %w", i, v, r.t, loadlab.ErrNotConverged)
		}
	}
	return nil
}

// rk4Steps returns the number of equal steps of size at most h for each
// output interval, at least one for a non-empty interval. Ratios within
// a relative 1e-12 of an integer m (rounding in span/h) take m steps. It
// returns an error wrapping loadlab.ErrTooLarge, naming h, if the total
// exceeds maxSteps (this includes a count too large for an int).
func rk4Steps(t0 float64, times []float64, h float64, maxSteps int) ([]int, error) {
	steps := make([]int, len(times))
	prev, total := t0, 0.0
	for k, tk := range times {
		if r := math.Abs(tk-prev) / h; r > 0 {
			m := math.Max(1, math.Ceil(r*(1-1e-12)))
			total += m
			steps[k] = int(math.Min(m, float64(maxSteps)+1))
		}
		prev = tk
	}
	if total > float64(maxSteps) {
		return nil, loadlab.TooLarge("ode", "h = %v needs %.4g RK4 steps from %v to %v, more than Settings.MaxSteps = %d",
			h, total, t0, times[len(times)-1], maxSteps)
	}
	return steps, nil
}

// SolveRK4 integrates with RK4 and returns the solution at the given output
// times (strictly monotone from t0, as for Solve). Between consecutive
// output times it takes the smallest number of equal steps of size at most
// h, so every output time is hit exactly; an interval shorter than h takes
// one step of the interval's length. Only Settings.MaxSteps applies (nil
// means the defaults): the total number of steps is computed before the
// first and may not exceed it.
//
// SolveRK4 returns an error wrapping loadlab.ErrInvalid for h not finite
// and positive or other bad input, one wrapping loadlab.ErrTooLarge
// (naming h) if the steps exceed MaxSteps or the output would not fit in
// memory, and, if the state becomes non-finite, the samples so far with
// Status Failure and an error wrapping loadlab.ErrNotConverged.
//
// SolveRK4 panics if f is nil.
func SolveRK4(f Func, t0 float64, y0 []float64, times []float64, h float64, s *Settings) (*Result, error) {
	checkFunc("SolveRK4", f)
	if !(h > 0) || math.IsInf(h, 1) {
		return nil, loadlab.Invalid("ode", "h = %v, want a finite value > 0", h)
	}
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	r, err := NewRK4(f, t0, y0)
	if err != nil {
		return nil, err
	}
	if err := checkTimes(t0, times); err != nil {
		return nil, err
	}
	steps, err := rk4Steps(t0, times, h, set.MaxSteps)
	if err != nil {
		return nil, err
	}
	res, err := newResult(len(times), len(y0))
	if err != nil {
		return nil, err
	}
	prev := t0
	for k, tk := range times {
		span, m := tk-prev, steps[k]
		var err error
		for j := 1; j <= m && err == nil; j++ {
			// Step to prev + span·j/m so rounding does not accumulate
			// (both ends are finite, so the step and its end are).
			err = r.Step(prev + span*float64(j)/float64(m) - r.t)
		}
		if err != nil {
			return res.finish(r.stats, fmt.Errorf("%w (h = %v)", err, h))
		}
		r.t = tk
		res.T = append(res.T, tk)
		res.Y = append(res.Y, append([]float64(nil), r.y...))
		prev = tk
	}
	return res.finish(r.stats, nil)
}
