package dual

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/internal/solve"

	"github.com/loadlab/loadlab"
)

// Cost is a convex function φ of one variable, the building block of the
// objective of P1 (spec §3): f_i(x_i) on [0, 1] and h_i(S_i) on [0, S̄_i].
//
// Tilt solves the one-dimensional sub-problems (13): it returns a
// minimiser of φ(z) − λ·z over [lo, hi]. The x sub-problem of node i is
// Tilt(−A_i β_i, 0, 1); the S sub-problem is Tilt(μ_i, 0, S̄_i).
// Implementations must not allocate.
type Cost interface {
	// Value returns φ(z), or +Inf outside the domain.
	Value(z float64) float64
	// Deriv returns φ'(z) (a sub-gradient where φ has a kink), +Inf at or
	// beyond a barrier.
	Deriv(z float64) float64
	// Tilt returns a minimiser of φ(z) − λ z over lo ≤ z ≤ hi.
	Tilt(lambda, lo, hi float64) float64
}

// Bounded is implemented by costs whose domain ends below +Inf, such as
// the barrier Delay. Sup is the (excluded or included) end of the
// domain; it caps S̄_i in the super-gradient bound (18).
type Bounded interface {
	Cost
	Sup() float64
}

// Curver is implemented by costs that know their second derivative; the
// reference primal solver uses it for Newton steps and falls back on a
// difference of Deriv otherwise.
type Curver interface {
	Curv(z float64) float64
}

func clip(z, lo, hi float64) float64 {
	if z < lo {
		return lo
	}
	if z > hi {
		return hi
	}
	return z
}

// linearTilt minimises a − s·z over [lo, hi]: the upper end when the
// slope s is positive, the lower end when it is negative; at s = 0 every
// point is optimal and the upper end is returned.
func linearTilt(s, lo, hi float64) float64 {
	if s >= 0 {
		return hi
	}
	return lo
}

// LinearX is f(x) = W·A·(1 − x), the linear second-layer latency cost of
// spec §7 row 1 (W > 0 is the latency price per request sent to L2).
// Its x sub-problem is bang-bang: x* = 1 if β < W, 0 if β > W, and 1 at a
// tie (any x is optimal there; choosing 1 is a convention).
type LinearX struct{ W, A float64 }

// Value implements Cost.
func (c LinearX) Value(x float64) float64 { return c.W * c.A * (1 - x) }

// Deriv implements Cost.
func (c LinearX) Deriv(float64) float64 { return -c.W * c.A }

// Curv implements Curver.
func (c LinearX) Curv(float64) float64 { return 0 }

// Tilt minimises W A (1−x) − λ x: the slope of −(φ − λx) is W A + λ.
func (c LinearX) Tilt(lambda, lo, hi float64) float64 {
	return linearTilt(c.W*c.A+lambda, lo, hi)
}

// QuadraticX is f(x) = (W/2)·A·(1 − x)², spec §7 row 2, whose x
// sub-problem is x* = clip(1 − β/W, 0, 1).
type QuadraticX struct{ W, A float64 }

// Value implements Cost.
func (c QuadraticX) Value(x float64) float64 { return 0.5 * c.W * c.A * (1 - x) * (1 - x) }

// Deriv implements Cost.
func (c QuadraticX) Deriv(x float64) float64 { return -c.W * c.A * (1 - x) }

// Curv implements Curver.
func (c QuadraticX) Curv(float64) float64 { return c.W * c.A }

// Tilt solves −W A (1 − x) = λ, x = 1 + λ/(W A); with λ = −A β this is
// spec §7's x* = 1 − β/W. When W A = 0 the cost is flat and the
// sub-problem is linear.
func (c QuadraticX) Tilt(lambda, lo, hi float64) float64 {
	wa := c.W * c.A
	if wa == 0 {
		return linearTilt(lambda, lo, hi)
	}
	return clip(1+lambda/wa, lo, hi)
}

// Hinge is h(S) = (C/2)·(S − T)₊², spec §7 row 3: no cost below the
// capacity T, quadratic overload cost above it. Its S sub-problem is
// S* = T + μ/C for μ > 0. At μ = 0 every S ≤ T is optimal; Tilt returns
// T (clipped to [lo, hi]), so that the super-gradient S^obs − T prices
// overload only, as spec §7 suggests.
type Hinge struct{ C, T float64 }

// Value implements Cost.
func (c Hinge) Value(s float64) float64 {
	if s <= c.T {
		return 0
	}
	return 0.5 * c.C * (s - c.T) * (s - c.T)
}

// Deriv implements Cost.
func (c Hinge) Deriv(s float64) float64 {
	if s <= c.T {
		return 0
	}
	return c.C * (s - c.T)
}

// Curv implements Curver.
func (c Hinge) Curv(s float64) float64 {
	if s <= c.T {
		return 0
	}
	return c.C
}

// Tilt implements Cost.
func (c Hinge) Tilt(lambda, lo, hi float64) float64 {
	switch {
	case lambda < 0:
		return lo
	case lambda == 0:
		return clip(c.T, lo, hi)
	}
	return clip(c.T+lambda/c.C, lo, hi) // spec §7: C (S − T) = μ
}

// Overload is h(S) = C·(S − T)₊, a linear price per unit of overload.
// It is not one of spec §7's families; with LinearX it makes P1 a linear
// program, which the tests solve independently with gonum's simplex. Its
// S sub-problem is S* = lo for μ < 0, T for 0 ≤ μ ≤ C (every S ≤ T is
// optimal at μ = 0 and every S ≥ T at μ = C; T is the convention) and the
// upper end for μ > C.
type Overload struct{ C, T float64 }

// Value implements Cost.
func (c Overload) Value(s float64) float64 { return c.C * math.Max(0, s-c.T) }

// Deriv implements Cost.
func (c Overload) Deriv(s float64) float64 {
	if s <= c.T {
		return 0
	}
	return c.C
}

// Curv implements Curver.
func (c Overload) Curv(float64) float64 { return 0 }

// Tilt implements Cost.
func (c Overload) Tilt(lambda, lo, hi float64) float64 {
	switch {
	case lambda < 0:
		return lo
	case lambda <= c.C:
		return clip(c.T, lo, hi)
	}
	return hi
}

// Delay is the M/M/1-style delay h(S) = S/(T − S) on [0, T), +Inf for
// S ≥ T, spec §7 row 4: a barrier at the capacity. Its S sub-problem is
// S* = max(0, T − √(T/μ)) for μ > 0 (S* = 0 whenever μ ≤ 1/T).
type Delay struct{ T float64 }

// Value implements Cost.
func (c Delay) Value(s float64) float64 {
	if s >= c.T {
		return math.Inf(1)
	}
	return s / (c.T - s)
}

// Deriv implements Cost.
func (c Delay) Deriv(s float64) float64 {
	if s >= c.T {
		return math.Inf(1)
	}
	d := c.T - s
	return c.T / (d * d)
}

// Curv implements Curver.
func (c Delay) Curv(s float64) float64 {
	if s >= c.T {
		return math.Inf(1)
	}
	d := c.T - s
	return 2 * c.T / (d * d * d)
}

// Sup returns T: the delay is infinite at capacity, so S̄ ≤ T in (18).
func (c Delay) Sup() float64 { return c.T }

// Tilt implements Cost.
func (c Delay) Tilt(lambda, lo, hi float64) float64 {
	if lambda <= 0 {
		return lo
	}
	z := clip(c.T-math.Sqrt(c.T/lambda), lo, hi) // spec §7: T/(T−S)² = μ
	if z >= c.T {
		// √(T/μ) vanished below the spacing of floats near T: stay inside
		// the domain so that the value stays finite.
		z = math.Nextafter(c.T, 0)
	}
	return z
}

// Exp is h(S) = exp(κ (S − T)), spec §7 row 5, a smooth cost rising
// steeply past T. Its S sub-problem is S* = max(0, T + ln(μ/κ)/κ) for
// μ > 0 and 0 otherwise.
type Exp struct{ Kappa, T float64 }

// Value implements Cost.
func (c Exp) Value(s float64) float64 { return math.Exp(c.Kappa * (s - c.T)) }

// Deriv implements Cost.
func (c Exp) Deriv(s float64) float64 { return c.Kappa * math.Exp(c.Kappa*(s-c.T)) }

// Curv implements Curver.
func (c Exp) Curv(s float64) float64 { return c.Kappa * c.Kappa * math.Exp(c.Kappa*(s-c.T)) }

// Tilt implements Cost.
func (c Exp) Tilt(lambda, lo, hi float64) float64 {
	if lambda <= 0 {
		return lo
	}
	return clip(c.T+math.Log(lambda/c.Kappa)/c.Kappa, lo, hi) // spec §7: κ e^{κ(S−T)} = μ
}

// Func is a user-supplied convex cost. Tilt is solved numerically: by
// bisection on the derivative when DF is set (to the last representable
// digit of z), by golden-section search on F otherwise (to about
// 1e-9·(hi − lo) in z, so the objective is exact to rounding). Deriv
// without DF is a central difference and only approximate.
//
// F must be convex on [lo, hi] for every interval Tilt is asked about;
// an infinite hi requires DF, and F must grow faster than linearly so
// that the minimiser is finite. Value, Deriv and Tilt call F (a nil F is
// a nil-function panic; Validate, and so NewProblem, reports it first).
type Func struct {
	F  func(z float64) float64
	DF func(z float64) float64
}

// Value implements Cost.
func (c Func) Value(z float64) float64 { return c.F(z) }

// Deriv implements Cost.
func (c Func) Deriv(z float64) float64 {
	if c.DF != nil {
		return c.DF(z)
	}
	h := 1e-6 * math.Max(1, math.Abs(z))
	return (c.F(z+h) - c.F(z-h)) / (2 * h)
}

// Tilt minimises F(z) − λ z over [lo, hi].
func (c Func) Tilt(lambda, lo, hi float64) float64 {
	if c.DF != nil {
		return c.bisect(lambda, lo, hi)
	}
	if math.IsInf(hi, 1) {
		panic("dual: Func.Tilt with infinite upper end needs DF")
	}
	return c.golden(lambda, lo, hi)
}

// bisect finds the point where DF(z) − λ changes sign. DF − λ is
// non-decreasing because F is convex.
func (c Func) bisect(lambda, lo, hi float64) float64 {
	d := func(z float64) float64 { return c.DF(z) - lambda }
	if d(lo) >= 0 {
		return lo
	}
	if math.IsInf(hi, 1) {
		// Expand until the derivative turns non-negative.
		step := math.Max(1, math.Abs(lo))
		for {
			next := lo + step
			if d(next) >= 0 {
				hi = next
				break
			}
			lo = next
			step *= 2
			if math.IsInf(step, 1) {
				return math.Inf(1)
			}
		}
	} else if d(hi) <= 0 {
		return hi
	}
	for {
		m := lo + 0.5*(hi-lo)
		if m <= lo || m >= hi {
			return m
		}
		v := d(m)
		if math.IsNaN(v) {
			panic(fmt.Sprintf("dual: Func derivative is NaN at %v", m))
		}
		if v < 0 {
			lo = m
		} else {
			hi = m
		}
	}
}

// golden is golden-section search on the unimodal F(z) − λ z.
func (c Func) golden(lambda, lo, hi float64) float64 {
	obj := func(z float64) float64 { return c.F(z) - lambda*z }
	a, b, _, _ := solve.Golden(obj, lo, hi, 1e-9*(hi-lo))
	z := a + 0.5*(b-a)
	// The ends are candidates too: a convex function may be minimised there.
	best, fb := z, obj(z)
	if v := obj(lo); v < fb {
		best, fb = lo, v
	}
	if v := obj(hi); v < fb {
		best = hi
	}
	return best
}

// Domains of cost parameters, for param.
const (
	anyFinite = iota
	positiveFinite
	nonNegativeFinite
)

// paramError is the error of a cost's Validate: it names the parameter
// and its value and wraps loadlab.ErrInvalid; Problem.Validate adds the
// cost's position to msg.
type paramError struct{ msg string }

func (e *paramError) Error() string { return "dual: " + e.msg + ": " + loadlab.ErrInvalid.Error() }
func (e *paramError) Unwrap() error { return loadlab.ErrInvalid }

// param checks one cost parameter against its domain; it is the Validate
// of the closed-form costs (typed, so that validation does not allocate).
func param(kind, name string, v float64, domain int) error {
	ok := !math.IsNaN(v) && !math.IsInf(v, 0)
	switch domain {
	case positiveFinite:
		ok = ok && v > 0
	case nonNegativeFinite:
		ok = ok && v >= 0
	}
	if ok {
		return nil // the hot path of every Problem.Validate: no string work
	}
	want := "a finite value"
	switch domain {
	case positiveFinite:
		want += " > 0"
	case nonNegativeFinite:
		want += " ≥ 0"
	}
	return &paramError{fmt.Sprintf("%s.%s = %v, want %s", kind, name, v, want)}
}

// params returns the first error of param over the pairs.
func params(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// parameter, for one outside the family's domain: W > 0 and
// A ≥ 0, finite.
func (c LinearX) Validate() error {
	return params(param("LinearX", "W", c.W, positiveFinite), param("LinearX", "A", c.A, nonNegativeFinite))
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// parameter, for one outside the family's domain: W > 0 and
// A ≥ 0, finite.
func (c QuadraticX) Validate() error {
	return params(param("QuadraticX", "W", c.W, positiveFinite), param("QuadraticX", "A", c.A, nonNegativeFinite))
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// parameter, for one outside the family's domain: C > 0 and
// T ≥ 0, finite.
func (c Hinge) Validate() error {
	return params(param("Hinge", "C", c.C, positiveFinite), param("Hinge", "T", c.T, nonNegativeFinite))
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// parameter, for one outside the family's domain: C > 0 and
// T ≥ 0, finite.
func (c Overload) Validate() error {
	return params(param("Overload", "C", c.C, positiveFinite), param("Overload", "T", c.T, nonNegativeFinite))
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// parameter, for one outside the family's domain: T > 0,
// finite.
func (c Delay) Validate() error { return param("Delay", "T", c.T, positiveFinite) }

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// parameter, for one outside the family's domain: κ > 0 and T,
// finite.
func (c Exp) Validate() error {
	return params(param("Exp", "Kappa", c.Kappa, positiveFinite), param("Exp", "T", c.T, anyFinite))
}

// Validate returns an error wrapping loadlab.ErrInvalid for a Func
// without F.
func (c Func) Validate() error {
	if c.F == nil {
		return &paramError{"Func.F is nil"}
	}
	return nil
}
