package ode

import (
	"errors"
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Func evaluates the right-hand side dy = f(t, y). It must write all of dy
// and must not retain or modify y.
type Func func(dy []float64, t float64, y []float64)

// Defaults of Settings, the one set used by every solver of this package
// and by its callers (stability.Law.Integrate passes its settings through).
const (
	// DefaultTol is the default of AbsTol and of RelTol.
	DefaultTol = 1e-8
	// DefaultMaxSteps is the default step budget.
	DefaultMaxSteps = 1_000_000
)

// Settings tunes the solvers. A nil *Settings or a zero field means the
// default given with each field; a negative, NaN or infinite field is an
// error wrapping loadlab.ErrInvalid that names the field.
type Settings struct {
	// AbsTol and RelTol are the absolute and relative local error
	// tolerances of DormandPrince (default DefaultTol = 1e-8 each). For
	// essentially pure relative control, set AbsTol far below the
	// smallest |y_i| of interest (for example 1e-300). RK4 ignores them.
	AbsTol, RelTol float64
	// InitialStep is the size of the first trial step of DormandPrince
	// (default: chosen by Hairer–Nørsett–Wanner's starting step
	// algorithm). A step longer than the interval is clipped to it.
	InitialStep float64
	// MaxStep bounds |h| of DormandPrince (default: unbounded).
	MaxStep float64
	// MaxSteps bounds the number of steps, accepted plus rejected, over
	// the life of a DormandPrince stepper, and the number of RK4 steps of
	// SolveRK4 (default DefaultMaxSteps = 10⁶).
	MaxSteps int
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the field,
// for a negative, NaN or infinite field. A nil *Settings is valid.
func (s *Settings) Validate() error {
	if s == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"AbsTol", s.AbsTol}, {"RelTol", s.RelTol}, {"InitialStep", s.InitialStep}, {"MaxStep", s.MaxStep}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return loadlab.Invalid("ode", "Settings.%s = %v, want a finite value ≥ 0 (0 for the default)", f.name, f.v)
		}
	}
	if s.MaxSteps < 0 {
		return loadlab.Invalid("ode", "Settings.MaxSteps = %d, want ≥ 0 (0 for the default)", s.MaxSteps)
	}
	return nil
}

// withDefaults returns a copy of s (validated) with every zero field set
// to its default; MaxStep 0 becomes +Inf.
func (s *Settings) withDefaults() (Settings, error) {
	if err := s.Validate(); err != nil {
		return Settings{}, err
	}
	var set Settings
	if s != nil {
		set = *s
	}
	if set.AbsTol == 0 {
		set.AbsTol = DefaultTol
	}
	if set.RelTol == 0 {
		set.RelTol = DefaultTol
	}
	if set.MaxStep == 0 {
		set.MaxStep = math.Inf(1)
	}
	if set.MaxSteps == 0 {
		set.MaxSteps = DefaultMaxSteps
	}
	return set, nil
}

// Stats counts the work done by a stepper.
type Stats struct {
	Accepted, Rejected int // steps
	Evaluations        int // calls of f
}

// namedError is a package-level error value that also matches the shared
// conditions it is an instance of under errors.Is.
type namedError struct {
	msg string
	is  []error
}

func (e *namedError) Error() string   { return e.msg }
func (e *namedError) Unwrap() []error { return e.is }

// ErrMaxSteps is wrapped by the error a stepper returns when its step
// budget Settings.MaxSteps is spent before the target time. It is an
// instance of loadlab.ErrNotConverged: errors.Is matches both. The result
// computed so far comes with it, with Status loadlab.IterationLimit.
var ErrMaxSteps error = &namedError{"ode: step budget exhausted", []error{loadlab.ErrNotConverged}}

// ErrStepSize is wrapped by the error returned when the step size needed to
// meet the tolerance falls below the rounding level of t (a singularity,
// a blow-up or a tolerance too tight for float64). It is an instance of
// loadlab.ErrNotConverged (the integration stopped short; the partial
// result comes with it, with Status loadlab.StepLimit) and of
// loadlab.ErrIllConditioned (no further digits can be had in float64):
// errors.Is matches all three.
var ErrStepSize error = &namedError{"ode: step size underflow, tolerance cannot be met",
	[]error{loadlab.ErrNotConverged, loadlab.ErrIllConditioned}}

// status maps a stepper error to the Status of a result.
func status(err error) loadlab.Status {
	switch {
	case err == nil:
		return loadlab.Success
	case errors.Is(err, ErrStepSize):
		return loadlab.StepLimit
	case errors.Is(err, ErrMaxSteps):
		return loadlab.IterationLimit
	}
	return loadlab.Failure
}

// Dormand–Prince 5(4) coefficients (Hairer, Nørsett, Wanner, Table II.5.2).
const (
	c2, c3, c4, c5 = 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9

	a21                          = 1.0 / 5
	a31, a32                     = 3.0 / 40, 9.0 / 40
	a41, a42, a43                = 44.0 / 45, -56.0 / 15, 32.0 / 9
	a51, a52, a53, a54           = 19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729
	a61, a62, a63, a64, a65      = 9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656
	a71, a73, a74, a75, a76      = 35.0 / 384, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84
	e1, e3, e4, e5, e6, e7       = 71.0 / 57600, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40
	d1, d3, d4, d5, d6, d7       = -12715105075.0 / 11282082432, 87487479700.0 / 32700410799, -10690763975.0 / 1880347072, 701980252875.0 / 199316789632, -1453857185.0 / 822651844, 69997945.0 / 29380423
	safety, facMin, facMaxAccept = 0.9, 0.2, 10.0
)

// DormandPrince is an adaptive Dormand–Prince 5(4) stepper with dense
// output. Create it with NewDormandPrince.
type DormandPrince struct {
	f        Func
	abs, rel float64
	hMax     float64
	maxSteps int

	n           int
	t, tPrev, h float64
	dir         float64 // +1 or −1 once the direction is known, 0 before
	y, y1, tmp  []float64
	k           [7][]float64
	r           [5][]float64 // dense output coefficients of the last step
	split       *Split       // the right-hand side in passes over pieces (nil: f)
	rs          [5][]float64 // split: the coefficients of the trial step
	noDense     bool         // no Interpolate will follow (solveSteps): r is not kept
	partial     []float64    // squared scaled errors summed per block of normBlock
	haveK1      bool
	rejected    bool // the previous trial step was rejected
	nonFinite   bool // ... because a stage or the error estimate was not finite
	stats       Stats
}

// NewDormandPrince returns a stepper for dy/dt = f(t, y) starting at
// (t0, y0). It copies y0. It returns an error wrapping loadlab.ErrInvalid
// for an empty or non-finite y0, a non-finite t0 or invalid settings.
//
// NewDormandPrince panics if f is nil.
func NewDormandPrince(f Func, t0 float64, y0 []float64, s *Settings) (*DormandPrince, error) {
	if f == nil {
		panic("ode: NewDormandPrince: f is nil")
	}
	set, err := s.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkStart(t0, y0); err != nil {
		return nil, err
	}
	return newStepper(f, nil, t0, y0, &set), nil
}

// newStepper allocates the stepper for f or split (one of them nil), its
// workspace already checked against the memory budget.
func newStepper(f Func, split *Split, t0 float64, y0 []float64, set *Settings) *DormandPrince {
	n := len(y0)
	d := &DormandPrince{f: f, split: split, abs: set.AbsTol, rel: set.RelTol, hMax: set.MaxStep, maxSteps: set.MaxSteps,
		n: n, t: t0, tPrev: t0, h: set.InitialStep}
	vectors := workCopies - 1 // and partial
	if split != nil {
		vectors = splitCopies - 1
	}
	buf := make([]float64, vectors*n)
	next := func() []float64 { v := buf[:n:n]; buf = buf[n:]; return v }
	d.y, d.y1, d.tmp = next(), next(), next()
	for i := range d.k {
		d.k[i] = next()
	}
	for i := range d.r {
		d.r[i] = next()
	}
	if split != nil {
		for i := range d.rs {
			d.rs[i] = next()
		}
	}
	d.partial = make([]float64, (n+normBlock-1)/normBlock)
	copy(d.y, y0)
	copy(d.r[0], y0) // Interpolate(t0) before the first step returns y0
	return d
}

// workCopies is the number of vectors of len(y0) the largest workspace
// (DormandPrince's for a Func) holds: fifteen, and the error sums per
// block (fewer than len(y0)).
const workCopies = 16

// checkStart checks the initial point of every solver, and that the
// workspace of workCopies vectors of len(y0) fits in the memory budget
// (loadlab.ErrTooLarge): the caller holding y0 once does not imply
// that sixteen copies fit.
func checkStart(t0 float64, y0 []float64) error {
	if math.IsNaN(t0) || math.IsInf(t0, 0) {
		return loadlab.Invalid("ode", "t0 = %v, want a finite value", t0)
	}
	if len(y0) == 0 {
		return loadlab.Invalid("ode", "len(y0) = 0, want ≥ 1")
	}
	if err := size.Check("ode", "len(y0)", len(y0), workCopies*8); err != nil {
		return err
	}
	for i, v := range y0 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return loadlab.Invalid("ode", "y0[%d] = %v, want a finite value", i, v)
		}
	}
	return nil
}

// Reset restarts the integration at (t, y), keeping the settings, the
// statistics and the current step size. Use it after a discontinuity of f
// or an impulsive change of the state. It copies y.
//
// Reset panics if len(y) is wrong; it returns an error wrapping
// loadlab.ErrInvalid if t or some y_i is not finite.
func (d *DormandPrince) Reset(t float64, y []float64) error {
	if len(y) != d.n {
		panic(fmt.Sprintf("ode: Reset: len(y) = %d, want %d", len(y), d.n))
	}
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return loadlab.Invalid("ode", "Reset: t = %v, want a finite value", t)
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return loadlab.Invalid("ode", "Reset: y[%d] = %v, want a finite value", i, v)
		}
	}
	copy(d.y, y)
	copy(d.r[0], y)
	clear(d.r[1])
	clear(d.r[2])
	clear(d.r[3])
	clear(d.r[4])
	d.t, d.tPrev = t, t
	d.dir = 0
	d.haveK1 = false
	return nil
}

// Time returns the current time, the end of the last accepted step.
func (d *DormandPrince) Time() float64 { return d.t }

// PrevTime returns the start of the last accepted step (t0 before the
// first step).
func (d *DormandPrince) PrevTime() float64 { return d.tPrev }

// State returns the current state y(Time()). The slice is owned by the
// stepper and changes at the next step; do not modify it.
func (d *DormandPrince) State() []float64 { return d.y }

// Stats returns the work done so far.
func (d *DormandPrince) Stats() Stats { return d.stats }

// StepSize returns the size the next trial step will have (0 before the
// first step if it is chosen automatically).
func (d *DormandPrince) StepSize() float64 { return d.h }

// scale is the denominator of component i in the scaled RMS norm of the
// package documentation.
func (d *DormandPrince) scale(i int) float64 {
	return d.abs + d.rel*max(math.Abs(d.y[i]), math.Abs(d.y1[i])) // builtin max: math.Max's rules, inline
}

// initialStep is Hairer–Nørsett–Wanner's starting step heuristic
// (§II.4, "Starting step size"), with RMS norms; k[0] holds f(t, y).
func (d *DormandPrince) initialStep(tEnd float64) float64 {
	var dnf, dny float64
	for i := 0; i < d.n; i++ {
		sk := d.abs + d.rel*math.Abs(d.y[i])
		dnf += (d.k[0][i] / sk) * (d.k[0][i] / sk)
		dny += (d.y[i] / sk) * (d.y[i] / sk)
	}
	dnf, dny = math.Sqrt(dnf/float64(d.n)), math.Sqrt(dny/float64(d.n))
	h := 1e-6
	if dnf > 1e-5 && dny > 1e-5 {
		h = 0.01 * dny / dnf
	}
	h = math.Min(h, math.Min(d.hMax, math.Abs(tEnd-d.t)))
	for i := 0; i < d.n; i++ {
		d.tmp[i] = d.y[i] + d.dir*h*d.k[0][i]
	}
	d.eval(d.k[1], d.t+d.dir*h, d.tmp, 0)
	d.stats.Evaluations++
	var der2 float64
	for i := 0; i < d.n; i++ {
		sk := d.abs + d.rel*math.Abs(d.y[i])
		v := (d.k[1][i] - d.k[0][i]) / sk
		der2 += v * v
	}
	der2 = math.Sqrt(der2/float64(d.n)) / h
	der12 := math.Max(der2, dnf)
	var h1 float64
	if der12 <= 1e-15 || math.IsNaN(der12) {
		h1 = math.Max(1e-6, h*1e-3)
	} else {
		h1 = math.Pow(0.01/der12, 1.0/5)
	}
	return math.Min(math.Min(100*h, h1), d.hMax)
}

// Step advances by one accepted step towards tEnd, never past it; it
// returns nil without work if Time() == tEnd. A trial step longer than
// the remaining interval is clipped to it. Step returns an error wrapping
// ErrMaxSteps or ErrStepSize if the tolerance cannot be met, and one
// wrapping loadlab.ErrInvalid if tEnd is not finite or lies in the
// direction opposite to earlier steps.
func (d *DormandPrince) Step(tEnd float64) error {
	if done, err := d.begin(tEnd); done || err != nil {
		return err
	}
	for {
		h, last, err := d.trial(tEnd)
		if err != nil {
			return err
		}
		tNew := d.t + h
		if last {
			tNew = tEnd
		}
		d.stages(h, tNew)
		e, bad := d.errorNorm(h)
		d.nonFinite = bad
		if bad || math.IsInf(e, 1) {
			// A non-finite stage, or an error that the tolerances
			// cannot accept at y = 0: retreat sharply and try again.
			d.reject(h * facMin)
			continue
		}
		fac := facMaxAccept
		if e > 0 {
			fac = safety * math.Pow(e, -0.2)
		}
		if e > 1 {
			d.reject(h * math.Max(facMin, fac))
			continue
		}
		d.accept(h, tNew, fac)
		return nil
	}
}

// begin checks tEnd, fixes the direction and, before the first step,
// evaluates f(t0, y0) and chooses the initial step. done is true when
// there is nothing to do (tEnd = Time()).
func (d *DormandPrince) begin(tEnd float64) (done bool, err error) {
	if math.IsNaN(tEnd) || math.IsInf(tEnd, 0) {
		return true, loadlab.Invalid("ode", "tEnd = %v, want a finite value", tEnd)
	}
	if tEnd == d.t {
		return true, nil
	}
	dir := 1.0
	if tEnd < d.t {
		dir = -1
	}
	if d.dir == 0 {
		d.dir = dir
	} else if dir != d.dir {
		return true, loadlab.Invalid("ode", "tEnd = %v lies behind the current time %v", tEnd, d.t)
	}
	if !d.haveK1 {
		d.eval(d.k[0], d.t, d.y, 1)
		d.stats.Evaluations++
		d.haveK1 = true
		if d.h == 0 {
			d.h = d.initialStep(tEnd)
		}
	}
	return false, nil
}

// trial returns the signed size of the next trial step, clipped to the
// remaining interval (last reports the clip), or an error if the step
// budget is spent or a step short of tEnd has underflowed.
func (d *DormandPrince) trial(tEnd float64) (h float64, last bool, err error) {
	if d.stats.Accepted+d.stats.Rejected >= d.maxSteps {
		return 0, false, fmt.Errorf("%w: Settings.MaxSteps = %d steps reached at t = %v before %v", ErrMaxSteps, d.maxSteps, d.t, tEnd)
	}
	h = math.Min(math.Abs(d.h), d.hMax)
	if rem := math.Abs(tEnd - d.t); h >= rem*(1-1e-12) {
		h, last = rem, true
	}
	// A step that reaches tEnd is always tried, however short: a tiny
	// but valid interval (a few ulps of t, or a remainder left by
	// rounding) integrates in one step. Only a step that must stop short
	// of tEnd can underflow.
	if !last && (h <= 16*eps*math.Abs(d.t) || h < math.SmallestNonzeroFloat64*1e10) {
		if d.nonFinite {
			return 0, false, fmt.Errorf("%w: h = %v at t = %v: f is not finite just past t", ErrStepSize, h, d.t)
		}
		return 0, false, fmt.Errorf("%w: h = %v at t = %v", ErrStepSize, h, d.t)
	}
	return h * d.dir, last, nil
}

// stages evaluates the six new stages of a step of size h from (t, y)
// into k[1..6] and the fifth-order solution into y1 (FSAL: k[6] =
// f(tNew, y1)), and for a Split the error sums of the step and its dense
// output coefficients (in rs).
func (d *DormandPrince) stages(h, tNew float64) {
	d.stats.Evaluations += 6
	if d.split != nil {
		d.splitStages(h, tNew)
		return
	}
	for j := 2; j <= 7; j++ {
		d.combine(j, h, 0, d.n)
		d.f(d.k[j-1], d.stageTime(j, h, tNew), d.stageArg(j))
	}
}

// stageTime returns the time of stage j (2..7) of the step of size h
// from t to tNew.
func (d *DormandPrince) stageTime(j int, h, tNew float64) float64 {
	switch j {
	case 2:
		return d.t + c2*h
	case 3:
		return d.t + c3*h
	case 4:
		return d.t + c4*h
	case 5:
		return d.t + c5*h
	}
	return tNew
}

// stageArg returns the slice that holds the argument of stage j (2..7):
// tmp, and y1 for the last.
func (d *DormandPrince) stageArg(j int) []float64 {
	if j == 7 {
		return d.y1
	}
	return d.tmp
}

// combine sets the argument of stage j (2..7) of the step of size h,
// y + h Σ_l a_jl k_l, for the components [lo, hi): tmp, or y1 for the
// last stage (the fifth-order solution). The second stage is y + (h a21)
// k_1, rounded so (h a21 once) as the textbook expression is.
func (d *DormandPrince) combine(j int, h float64, lo, hi int) {
	dst := d.tmp
	if j == 7 {
		dst = d.y1
	}
	if j == 2 {
		s := stageSum{m: 1, c: [6]float64{h * a21}}
		d.sum(dst, d.y, 1, &s, lo, hi)
		return
	}
	d.sum(dst, d.y, h, &stageArgs[j], lo, hi)
}

// normBlock is the number of components whose squared scaled errors are
// summed together before the block sums are added in order: the error
// norm has the same bits whether the step is computed serially or split
// over the cores in pieces (which are made of whole blocks).
const normBlock = 16

// blockErrors sets partial[b] to the sum of the squared scaled error
// estimates of block b of the step of size h just staged, for the
// blocks of [lo, hi) (lo a multiple of normBlock), NaN if a component is
// not finite. A zero component is exact, whatever its scale, and adds
// nothing; one whose scale underflows adds +Inf (the step is rejected).
func (d *DormandPrince) blockErrors(h float64, lo, hi int) {
	// The estimates go to tmp: it holds the argument of stage 6, which
	// was evaluated (mapped, for a Split) before the last stage.
	est := d.tmp
	d.sum(est, nil, h, &errorSum, lo, hi)
	for b := lo; b < hi; b += normBlock {
		var sum float64
		for i := b; i < min(b+normBlock, hi); i++ {
			ei := est[i]
			if math.IsNaN(ei) || math.IsInf(ei, 0) {
				sum = math.NaN()
				break
			}
			if ei != 0 {
				v := ei / d.scale(i)
				sum += v * v
			}
		}
		d.partial[b/normBlock] = sum
	}
}

// errorNorm returns the scaled RMS norm of the embedded error estimate of
// the step just staged; bad reports a non-finite component. A Split
// evaluation has summed the blocks already.
func (d *DormandPrince) errorNorm(h float64) (e float64, bad bool) {
	if d.split == nil {
		d.blockErrors(h, 0, d.n)
	}
	var sum float64
	for _, p := range d.partial {
		if math.IsNaN(p) {
			return math.NaN(), true
		}
		sum += p
	}
	return math.Sqrt(sum / float64(d.n)), false
}

// reject records a rejected trial step and sets the next trial size.
func (d *DormandPrince) reject(hNext float64) {
	d.stats.Rejected++
	d.rejected = true
	d.h = hNext
}

// denseCoefficients sets r to the dense output coefficients of the step
// of size h from y to y1 for the components [lo, hi).
func (d *DormandPrince) denseCoefficients(r *[5][]float64, h float64, lo, hi int) {
	y, y1, k := d.y, d.y1, &d.k
	for i := lo; i < hi; i++ {
		ydiff := y1[i] - y[i]
		bspl := h*k[0][i] - ydiff
		r[0][i] = y[i]
		r[1][i] = ydiff
		r[2][i] = bspl
		r[3][i] = ydiff - h*k[6][i] - bspl
	}
	d.sum(r[4], nil, h, &denseSum, lo, hi)
}

// accept stores the dense output coefficients of the step (Hairer–
// Nørsett–Wanner §II.6, the continuous extension of DOPRI5) unless no
// Interpolate will follow (noDense), advances the state (FSAL) and sets
// the next trial size from the factor fac.
func (d *DormandPrince) accept(h, tNew, fac float64) {
	switch {
	case d.noDense:
	case d.split != nil:
		d.r, d.rs = d.rs, d.r // computed with the last stage
	default:
		d.denseCoefficients(&d.r, h, 0, d.n)
	}
	d.y, d.y1 = d.y1, d.y
	d.k[0], d.k[6] = d.k[6], d.k[0]
	d.tPrev, d.t = d.t, tNew
	fmax := facMaxAccept
	if d.rejected {
		fmax = 1
	}
	d.h = h * math.Min(fmax, math.Max(facMin, fac))
	d.rejected = false
	d.stats.Accepted++
}

const eps = 0x1p-52

// Interpolate writes the dense-output approximation of y(t) into dst and
// returns it; dst may be nil. The approximation is of fourth order and
// continuous across steps. t must lie in the last step [PrevTime(), Time()].
//
// Interpolate panics if t is outside the last step or if len(dst) is wrong.
func (d *DormandPrince) Interpolate(dst []float64, t float64) []float64 {
	if dst == nil {
		dst = make([]float64, d.n)
	}
	if len(dst) != d.n {
		panic(fmt.Sprintf("ode: len(dst) = %d, want %d", len(dst), d.n))
	}
	if t == d.t {
		copy(dst, d.y)
		return dst
	}
	lo, hi := math.Min(d.tPrev, d.t), math.Max(d.tPrev, d.t)
	slack := 64 * eps * math.Max(math.Abs(lo), math.Abs(hi))
	if !(t >= lo-slack && t <= hi+slack) {
		panic(fmt.Sprintf("ode: Interpolate at t = %v outside the last step [%v, %v]", t, lo, hi))
	}
	th := (t - d.tPrev) / (d.t - d.tPrev)
	th1 := 1 - th
	r := &d.r
	for i := range dst {
		dst[i] = r[0][i] + th*(r[1][i]+th1*(r[2][i]+th*(r[3][i]+th1*r[4][i])))
	}
	return dst
}
