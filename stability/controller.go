package stability

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/stat/distuv"
)

// Controller is the greedy heuristic as a deployment runs it (spec §13.8):
// Algorithm 2 (§5.2) as a discrete controller. Every Period each node
// counts the HTTP requests its proxy served during the period, turns the
// count into a load, takes one Euler step of (24) with that measured
// load and clamps the result into [Guard, 1 − Guard]. Nothing is refused:
// a step that would leave [0, 1], which Law.Iterate rejects, is clamped
// as a deployment clamps it, and the run counts the clamps.
//
// A Controller is its fields; validate with Validate (Run does).
type Controller struct {
	// Law holds the network (C, T, and the demand A used when Run gets
	// no trace), the sensitivity β and the Normalized switch.
	Law *Law
	// Period is the measurement and update period Δt > 0, in the time
	// unit of the law's Sensitivity (hours if β is in 1/(hour·load)).
	Period float64
	// Rate is the number of HTTP requests per unit of load per unit of
	// time: the load of proxy i over a period is measured as N_i/(Rate·Δt)
	// with N_i ~ Poisson(Rate·Δt·S_i) (§13.8). Zero means the loads are
	// measured exactly (the noise-free controller).
	Rate float64
	// Guard g ∈ (0, ½) keeps x in [g, 1 − g] after every update (default
	// 1e-3, as CompareSettings.Guard): exactly 0 and 1 are absorbing
	// (§5.1), so a node clamped onto a face could never react again.
	// NoGuard clamps to [0, 1] instead, faces absorbing.
	Guard   float64
	NoGuard bool
	// Threshold: a node counts as overloaded when S_i > (1 + Threshold)·T_i
	// (default 0.01, as CompareSettings.Threshold), and as uncontrollable
	// when its load from other regions exceeds (1 + Threshold)·T_i; the
	// total overload Σ (S_i − T_i)₊ counts every excess.
	Threshold float64
	// Every > 0 records the state every Every periods in the result's
	// Trajectory (zero: no trajectory, only the per-period summaries and
	// the final state).
	Every int
}

// Trace is a demand trace: A[m] is the DNS demand vector from Times[m]
// until Times[m+1] (the last one from Times[len−1] on). Times are
// strictly increasing and finite.
type Trace struct {
	Times []float64
	A     [][]float64
}

// ControllerRun is what a Controller did over a run. Per-period slices
// are indexed by period k, over [T[k], T[k] + Period), with the state
// x held during the period and the true (not measured) loads.
type ControllerRun struct {
	T          []float64 // start time of each period
	Second     []float64 // Σ_j A_j (1 − x_j): demand answered with L2
	Excess     []float64 // Σ_i (S_i − T_i)₊: total overload
	Overloaded []int     // nodes with S_i > (1 + Threshold)·T_i
	// Uncontrollable counts the nodes whose load from other regions alone
	// exceeds capacity, Σ_{j≠i} C_ji A_j x_j > (1 + Threshold)·T_i (spec
	// §5.3 eq. (27)).
	Uncontrollable []int

	// Integrals over the run (load·time, time).
	SecondTotal, ExcessTotal       float64
	OverloadTime, NodeOverloadTime float64
	UncontrolledTime               float64

	// Clamped counts node updates moved by the clamp (a node held at the
	// guard counts every period); Overshoot those whose Euler step left
	// [0, 1] itself, the steps Law.Iterate refuses; Steps the periods.
	Clamped, Overshoot, Steps int
	// Final is the state after the last update.
	Final []float64
	// Trajectory holds the state every Controller.Every periods (with
	// its loads under the demand of that period) and the final state; nil
	// when Every is zero.
	Trajectory *Trajectory
}

// defaultGuard is Controller.Guard's default.
const defaultGuard = 1e-3

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field, for a nil or invalid Law, a Period not finite and positive, a
// Rate or Threshold negative or not finite, a Guard outside [0, ½) or a
// negative Every.
func (c *Controller) Validate() error {
	switch {
	case c.Law == nil:
		return loadlab.Invalid("stability", "Controller.Law is nil, want a law")
	case !(c.Period > 0) || math.IsInf(c.Period, 1):
		return loadlab.Invalid("stability", "Controller.Period = %v, want a finite value > 0", c.Period)
	case !(c.Rate >= 0) || math.IsInf(c.Rate, 1):
		return loadlab.Invalid("stability", "Controller.Rate = %v, want a finite value ≥ 0 (0: exact loads)", c.Rate)
	case !(c.Guard >= 0 && c.Guard < 0.5):
		return loadlab.Invalid("stability", "Controller.Guard = %v, want a value in [0, 0.5) (0 for the default)", c.Guard)
	case !(c.Threshold >= 0) || math.IsInf(c.Threshold, 1):
		return loadlab.Invalid("stability", "Controller.Threshold = %v, want a finite value ≥ 0 (0 for the default)", c.Threshold)
	case c.Every < 0:
		return loadlab.Invalid("stability", "Controller.Every = %d, want ≥ 0", c.Every)
	}
	return c.Law.Validate()
}

// bounds returns the clamp interval.
func (c *Controller) bounds() (lo, hi float64) {
	if c.NoGuard {
		return 0, 1
	}
	g := c.Guard
	if g == 0 {
		g = defaultGuard
	}
	return g, 1 - g
}

// Run runs the controller from x0 for the given number of periods, at
// times t0 + k·Period with t0 = tr.Times[0] (0 without a trace), under
// the demand of tr (nil: the law's network demand A throughout), drawing
// the measurement noise from src.
//
// Run returns an error wrapping loadlab.ErrInvalid for an invalid
// controller, x0 outside [0, 1]^N or of the wrong length, steps < 0, or
// a bad trace (length, times, a negative or non-finite demand), and one
// wrapping loadlab.ErrTooLarge, before allocating, if the summaries or
// the recorded states would not fit in memory.
//
// Run panics if src is nil while Rate > 0 (src is not used otherwise and
// may then be nil).
func (c *Controller) Run(x0 []float64, steps int, tr *Trace, src rand.Source) (*ControllerRun, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.Rate > 0 && src == nil {
		panic("stability: Controller.Run: src is nil with Controller.Rate > 0")
	}
	if err := c.Law.checkState("x0", x0); err != nil {
		return nil, err
	}
	if err := c.checkRun(steps, tr); err != nil {
		return nil, err
	}
	r := newControllerRun(c, x0, steps, tr, src)
	for k := 0; k < steps; k++ {
		r.step(k)
	}
	if c.Every > 0 {
		t := r.t0 + float64(steps)*c.Period
		r.loads(t)
		r.record(t)
	}
	r.out.Final = r.x
	return r.out, nil
}

// checkRun checks steps, the trace and the memory of the run.
func (c *Controller) checkRun(steps int, tr *Trace) error {
	nw := c.Law.Net
	if steps < 0 {
		return loadlab.Invalid("stability", "steps = %d, want ≥ 0", steps)
	}
	if err := size.Check("stability", "steps", steps, 5*8); err != nil {
		return err
	}
	if c.Every > 0 {
		if err := checkSamples("steps/Controller.Every", steps/c.Every+1, nw.N(), false); err != nil {
			return err
		}
	}
	if tr == nil {
		return nil
	}
	if len(tr.Times) == 0 || len(tr.A) != len(tr.Times) {
		return loadlab.Invalid("stability", "Trace has %d times and %d demand vectors, want equal counts ≥ 1", len(tr.Times), len(tr.A))
	}
	for m, t := range tr.Times {
		if math.IsNaN(t) || math.IsInf(t, 0) || (m > 0 && !(t > tr.Times[m-1])) {
			return loadlab.Invalid("stability", "Trace.Times[%d] = %v, want strictly increasing finite times", m, t)
		}
	}
	for m, a := range tr.A {
		if len(a) != nw.N() {
			return loadlab.Invalid("stability", "len(Trace.A[%d]) = %d, want N = %d", m, len(a), nw.N())
		}
		for j, v := range a {
			if !(v >= 0) || math.IsInf(v, 1) {
				return loadlab.Invalid("stability", "Trace.A[%d][%d] = %v, want a finite value ≥ 0", m, j, v)
			}
		}
	}
	return nil
}

// controllerRun is the state of Controller.Run.
type controllerRun struct {
	c       *Controller
	nw      *anycast.Network
	tr      *Trace
	t0      float64
	lo, hi  float64
	thr     float64   // 1 + Threshold
	m       int       // index of the trace's demand in effect
	a       []float64 // demand in effect
	x, y, s []float64 // state, A∘x, true loads
	pois    distuv.Poisson
	out     *ControllerRun
}

func newControllerRun(c *Controller, x0 []float64, steps int, tr *Trace, src rand.Source) *controllerRun {
	nw := c.Law.Net
	n := nw.N()
	r := &controllerRun{c: c, nw: nw, tr: tr, a: nw.A, x: append([]float64(nil), x0...),
		y: make([]float64, n), s: make([]float64, n), pois: distuv.Poisson{Lambda: 1, Src: src}}
	r.lo, r.hi = c.bounds()
	r.thr = 1 + c.Threshold
	if c.Threshold == 0 {
		r.thr = 1.01
	}
	if tr != nil {
		r.t0, r.a = tr.Times[0], tr.A[0]
	}
	r.out = &ControllerRun{T: make([]float64, 0, steps), Second: make([]float64, 0, steps),
		Excess: make([]float64, 0, steps), Overloaded: make([]int, 0, steps),
		Uncontrollable: make([]int, 0, steps)}
	if c.Every > 0 {
		r.out.Trajectory = newTrajectory(nw, nil, steps/c.Every+2, false)
	}
	return r
}

// demandAt moves the trace's index to the demand in effect at t.
func (r *controllerRun) demandAt(t float64) {
	if r.tr == nil {
		return
	}
	for r.m+1 < len(r.tr.Times) && r.tr.Times[r.m+1] <= t {
		r.m++
	}
	r.a = r.tr.A[r.m]
}

// step runs period k: the true loads, the period's summaries, the
// measurement and the clamped update (spec §13.8).
func (r *controllerRun) step(k int) {
	c, nw := r.c, r.nw
	dt := c.Period
	t := r.t0 + float64(k)*dt
	r.loads(t)
	if c.Every > 0 && k%c.Every == 0 {
		r.record(t)
	}
	r.summarise(t, dt)
	for i := range r.x {
		sm := r.measure(r.s[i], dt)
		xi := r.x[i]
		v := xi + dt*c.Law.gain(i)*xi*(1-xi)*(nw.T[i]-sm) // spec §5.2 Algorithm 2
		if v < 0 || v > 1 {
			r.out.Overshoot++
		}
		if w := min(max(v, r.lo), r.hi); w != v {
			v = w
			r.out.Clamped++
		}
		r.x[i] = v
	}
	r.out.Steps++
}

// measure returns the load measured over a period from its Poisson count
// (spec §13.8), or s itself without noise.
func (r *controllerRun) measure(s, dt float64) float64 {
	if r.c.Rate == 0 || s <= 0 {
		return s
	}
	mean := r.c.Rate * dt * s
	r.pois.Lambda = mean
	return r.pois.Rand() / (r.c.Rate * dt)
}

// summarise records period k's summaries from the true loads r.s.
func (r *controllerRun) summarise(t, dt float64) {
	o := r.out
	sc := scoreLoads(r.nw, r.a, r.x, r.s, r.thr)
	second, excess, over, unc := sc.second, sc.excess, sc.over, sc.unc
	o.T = append(o.T, t)
	o.Second = append(o.Second, second)
	o.Excess = append(o.Excess, excess)
	o.Overloaded = append(o.Overloaded, over)
	o.Uncontrollable = append(o.Uncontrollable, unc)
	o.SecondTotal += second * dt
	o.ExcessTotal += excess * dt
	o.NodeOverloadTime += float64(over) * dt
	if over > 0 {
		o.OverloadTime += dt
	}
	if unc > 0 {
		o.UncontrolledTime += dt
	}
}

// loads sets the demand in effect at t and the true loads of the state,
// S = Cᵀ (A∘x) (spec §1.3 eq. (21)), into r.a, r.y and r.s.
func (r *controllerRun) loads(t float64) {
	r.demandAt(t)
	for j := range r.y {
		r.y[j] = r.a[j] * r.x[j]
	}
	r.nw.MulCT(r.s, r.y)
}

// record appends the state at time t to the trajectory with the loads
// r.s that loads computed for it.
func (r *controllerRun) record(t float64) {
	tr := r.out.Trajectory
	tr.addLoads(t, r.x, r.s, nil)
	// addLoads scores the L2 demand with the network's A; use the
	// period's demand instead.
	var second float64
	for j, a := range r.a {
		second += a * (1 - r.x[j])
	}
	tr.Second[len(tr.Second)-1] = second
}

// PeriodLimit returns the longest period Δt for which the noise-free
// controller, linearised at the equilibrium e, is stable (spec §13.8):
// the Euler map has Jacobian I + Δt·J, stable iff |1 + Δt·λ| < 1 for
// every eigenvalue λ of J, that is, for Δt < min_λ −2 Re λ/|λ|². It is 0
// when some eigenvalue has a real part ≥ −ZeroTol·scale (the equilibrium
// is not stable for the ODE either, or linearisation decides nothing),
// and +Inf when J = 0. The clamp is inactive near an interior
// equilibrium; at a vertex the guard, not the map, decides.
//
// PeriodLimit panics if e is nil.
func (l *Law) PeriodLimit(e *Equilibrium) (float64, error) {
	if e == nil {
		panic("stability: PeriodLimit: e is nil")
	}
	if err := l.Validate(); err != nil {
		return 0, err
	}
	if len(e.X) != l.Net.N() {
		return 0, loadlab.Invalid("stability", "len(e.X) = %d, want N = %d", len(e.X), l.Net.N())
	}
	zt := ZeroTol * l.scale()
	limit := math.Inf(1)
	for _, v := range e.Eigenvalues {
		re, mod2 := real(v), real(v)*real(v)+imag(v)*imag(v)
		if mod2 == 0 {
			continue
		}
		if re >= -zt {
			return 0, nil
		}
		limit = min(limit, -2*re/mod2)
	}
	return limit, nil
}

// String summarises a run.
func (o *ControllerRun) String() string {
	return fmt.Sprintf("%d periods, L2 %.4g, overload %.4g, overloaded time %.4g, uncontrolled time %.4g, %d clamps (%d overshoots)",
		o.Steps, o.SecondTotal, o.ExcessTotal, o.OverloadTime, o.UncontrolledTime, o.Clamped, o.Overshoot)
}
