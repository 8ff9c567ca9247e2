package ode

import (
	"errors"
	"fmt"
	"math"
)

// Result is a solution sampled at output times.
type Result struct {
	T     []float64   // output times
	Y     [][]float64 // Y[k] = y(T[k])
	Stats Stats
}

// checkTimes verifies that times is non-empty, finite and strictly
// monotone away from t0 (the first entry may equal t0).
func checkTimes(t0 float64, times []float64) error {
	if len(times) == 0 {
		return errors.New("ode: no output times")
	}
	dir := 0.0
	prev := t0
	for k, t := range times {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("ode: times[%d] = %v: want a finite value", k, t)
		}
		if t == prev && k == 0 {
			continue
		}
		s := math.Copysign(1, t-prev)
		if t == prev || (dir != 0 && s != dir) {
			return fmt.Errorf("ode: times[%d] = %v: output times must be strictly monotone starting from t0 = %v", k, t, t0)
		}
		dir, prev = s, t
	}
	return nil
}

// Solve integrates dy/dt = f(t, y), y(t0) = y0 with DormandPrince and
// returns the solution at the given output times, which must be strictly
// monotone (increasing or decreasing) starting from t0; the first may equal
// t0. Output between steps comes from the dense output, so the output times
// do not constrain the step size. Solve returns the error of the stepper if
// the tolerance cannot be met, together with the part of the solution
// computed so far.
func Solve(f Func, t0 float64, y0 []float64, times []float64, s *Settings) (*Result, error) {
	d, err := NewDormandPrince(f, t0, y0, s)
	if err != nil {
		return nil, err
	}
	if err := checkTimes(t0, times); err != nil {
		return nil, err
	}
	res := &Result{}
	tEnd := times[len(times)-1]
	k := 0
	for {
		for k < len(times) && between(times[k], d.PrevTime(), d.Time()) {
			res.T = append(res.T, times[k])
			res.Y = append(res.Y, d.Interpolate(nil, times[k]))
			k++
		}
		if k == len(times) {
			break
		}
		if err := d.Step(tEnd); err != nil {
			res.Stats = d.Stats()
			return res, err
		}
	}
	res.Stats = d.Stats()
	return res, nil
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
// It copies y0 and returns an error for an empty or non-finite y0 or t0.
func NewRK4(f Func, t0 float64, y0 []float64) (*RK4, error) {
	if f == nil {
		return nil, errors.New("ode: f is nil")
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
// It does not allocate.
func (r *RK4) Step(h float64) {
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
}

// SolveRK4 integrates with RK4 and returns the solution at the given output
// times (strictly monotone from t0, as for Solve). Between consecutive
// output times it takes the smallest number of equal steps of size at most
// |h|, so every output time is hit exactly. It returns an error for h not
// finite and positive, and if the state becomes non-finite.
func SolveRK4(f Func, t0 float64, y0 []float64, times []float64, h float64) (*Result, error) {
	if !(h > 0) || math.IsInf(h, 1) {
		return nil, fmt.Errorf("ode: h = %v: want a finite value > 0", h)
	}
	r, err := NewRK4(f, t0, y0)
	if err != nil {
		return nil, err
	}
	if err := checkTimes(t0, times); err != nil {
		return nil, err
	}
	res := &Result{}
	prev := t0
	for _, tk := range times {
		span := tk - prev
		m := int(math.Ceil(math.Abs(span)/h - 1e-9))
		for j := 1; j <= m; j++ {
			// Step to prev + span·j/m so rounding does not accumulate.
			r.Step(prev + span*float64(j)/float64(m) - r.t)
		}
		r.t = tk
		for i, v := range r.y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				res.Stats = r.stats
				return res, fmt.Errorf("ode: y[%d] = %v at t = %v: solution not finite", i, v, tk)
			}
		}
		res.T = append(res.T, tk)
		res.Y = append(res.Y, append([]float64(nil), r.y...))
		prev = tk
	}
	res.Stats = r.stats
	return res, nil
}
