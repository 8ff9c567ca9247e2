package stability

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/ode"
)

// Trajectory is a solution of (24) or of Algorithm 2 sampled at times T.
type Trajectory struct {
	T        []float64   // times
	X        [][]float64 // X[k][i] = x_i(T[k]) ∈ [0, 1]
	S        [][]float64 // S[k][i] = S_i(T[k]), the load at proxy i (21)
	Overload [][]float64 // Overload[k][i] = max(S_i − T_i, 0)
	// Second[k] = Σ_j A_j (1 − x_j) is the DNS demand answered with the
	// second layer's address, the traffic sent to L2 (§1.1).
	Second []float64
	// Excess[k] = Σ_i max(S_i − T_i, 0) is the total overload.
	Excess []float64
	Stats  ode.Stats // work of the integrator (zero for Iterate)

	nw *anycast.Network
}

func newTrajectory(nw *anycast.Network, capacity int) *Trajectory {
	return &Trajectory{
		T: make([]float64, 0, capacity), X: make([][]float64, 0, capacity),
		S: make([][]float64, 0, capacity), Overload: make([][]float64, 0, capacity),
		Second: make([]float64, 0, capacity), Excess: make([]float64, 0, capacity),
		nw: nw,
	}
}

// add appends the state x at time t, copying it.
func (tr *Trajectory) add(t float64, x []float64) {
	nw := tr.nw
	n := nw.N()
	buf := make([]float64, 3*n)
	xs, s, ov := buf[:n:n], buf[n:2*n:2*n], buf[2*n:]
	copy(xs, x)
	nw.Loads(s, xs) // spec §1.3 eq. (21)
	var second, excess float64
	for i := range xs {
		second += nw.A[i] * (1 - xs[i])
		ov[i] = math.Max(s[i]-nw.T[i], 0)
		excess += ov[i]
	}
	tr.T = append(tr.T, t)
	tr.X = append(tr.X, xs)
	tr.S = append(tr.S, s)
	tr.Overload = append(tr.Overload, ov)
	tr.Second = append(tr.Second, second)
	tr.Excess = append(tr.Excess, excess)
}

// Len returns the number of samples.
func (tr *Trajectory) Len() int { return len(tr.T) }

// Final returns the last state (not a copy).
func (tr *Trajectory) Final() []float64 { return tr.X[len(tr.X)-1] }

// Settings tunes Law.Integrate. A nil *Settings means the defaults.
type Settings struct {
	// AbsTol and RelTol are the local error tolerances of the adaptive
	// Dormand–Prince integrator, applied to the integrated coordinates
	// (logits unless Direct). Zero means the default 1e-8 (gonum's
	// convention for settings); negative, NaN or infinite values are
	// errors. They are ignored when Step selects RK4.
	AbsTol, RelTol float64
	// Times, if not nil, are the output times: strictly increasing, in
	// [0, t1]. Otherwise every accepted step is recorded (every step of
	// size Step for RK4), starting with t = 0 and ending with t1.
	Times []float64
	// Direct integrates (24) in the coordinates x themselves, evaluating
	// the right-hand side at the clamped state clamp(x, 0, 1) and
	// reporting clamped states; the default integrates the logits
	// z_i = log(x_i/(1 − x_i)). See the package documentation.
	Direct bool
	// Step > 0 selects fixed-step RK4 with this step instead of the
	// adaptive method.
	Step float64
	// MaxSteps bounds the adaptive integrator's steps (default 10⁶).
	MaxSteps int
}

// sigmoid returns 1/(1 + e^{−z}) without overflow and with full relative
// precision for z < 0 (where x is small).
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// Integrate solves (24) from x0 over [0, t1] and returns the trajectory.
// Coordinates with x0_i ∈ {0, 1} stay there: faces of the hypercube are
// invariant (spec §5.1).
//
// It returns an error for a bad law, x0 outside [0, 1]^N or containing NaN,
// a wrong length of x0, t1 not finite and positive, bad settings, or when
// the integrator cannot meet its tolerance (then with the trajectory
// computed so far).
func (l *Law) Integrate(x0 []float64, t1 float64, s *Settings) (*Trajectory, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	if err := l.checkState("x0", x0); err != nil {
		return nil, err
	}
	if !(t1 > 0) || math.IsInf(t1, 1) {
		return nil, fmt.Errorf("stability: t1 = %v: want a finite value > 0", t1)
	}
	var set Settings
	if s != nil {
		set = *s
	}
	if !(set.AbsTol >= 0) || math.IsInf(set.AbsTol, 1) {
		return nil, fmt.Errorf("stability: AbsTol = %v: want a finite value > 0, or 0 for the default", set.AbsTol)
	}
	if !(set.RelTol >= 0) || math.IsInf(set.RelTol, 1) {
		return nil, fmt.Errorf("stability: RelTol = %v: want a finite value > 0, or 0 for the default", set.RelTol)
	}
	if set.AbsTol == 0 {
		set.AbsTol = 1e-8
	}
	if set.RelTol == 0 {
		set.RelTol = 1e-8
	}
	if !(set.Step >= 0) || math.IsInf(set.Step, 1) {
		return nil, fmt.Errorf("stability: Step = %v: want a finite value ≥ 0", set.Step)
	}
	if set.MaxSteps < 0 {
		return nil, fmt.Errorf("stability: MaxSteps = %d: want ≥ 0", set.MaxSteps)
	}
	if set.MaxSteps == 0 {
		set.MaxSteps = 1_000_000
	}
	for k, t := range set.Times {
		if !(t >= 0 && t <= t1) || (k > 0 && !(t > set.Times[k-1])) {
			return nil, fmt.Errorf("stability: Times[%d] = %v: want strictly increasing times in [0, %v]", k, t, t1)
		}
	}

	n := l.Net.N()
	sys := &system{law: l, x: append([]float64(nil), x0...), s: make([]float64, n), direct: set.Direct}
	var y0 []float64
	if set.Direct {
		y0 = append([]float64(nil), x0...)
		for i := range sys.x {
			sys.free = append(sys.free, i)
		}
	} else {
		for i, v := range x0 {
			if v > 0 && v < 1 {
				sys.free = append(sys.free, i)
				y0 = append(y0, math.Log(v/(1-v))) // logit, spec §5.2 item 1
			}
		}
	}
	capacity := len(set.Times)
	if capacity == 0 {
		capacity = 64
	}
	tr := newTrajectory(l.Net, capacity)
	if len(y0) == 0 {
		// Every coordinate is on an invariant face: x is constant.
		if set.Times == nil {
			tr.add(0, x0)
			tr.add(t1, x0)
		}
		for _, t := range set.Times {
			tr.add(t, x0)
		}
		return tr, nil
	}
	if set.Step > 0 {
		times := set.Times
		if times == nil {
			m := int(math.Ceil(t1/set.Step - 1e-9))
			times = make([]float64, m+1)
			for k := range times {
				times[k] = t1 * float64(k) / float64(m)
			}
		}
		res, err := ode.SolveRK4(sys.rhs, 0, y0, times, set.Step)
		if res != nil {
			for k, t := range res.T {
				tr.add(t, sys.state(res.Y[k]))
			}
			tr.Stats = res.Stats
		}
		return tr, err
	}
	d, err := ode.NewDormandPrince(sys.rhs, 0, y0, &ode.Settings{AbsTol: set.AbsTol, RelTol: set.RelTol, MaxSteps: set.MaxSteps})
	if err != nil {
		return nil, err
	}
	yi := make([]float64, len(y0))
	next := 0
	emit := func() {
		if set.Times == nil {
			tr.add(d.Time(), sys.state(d.State()))
			return
		}
		for next < len(set.Times) && set.Times[next] <= d.Time() {
			tr.add(set.Times[next], sys.state(d.Interpolate(yi, set.Times[next])))
			next++
		}
	}
	emit()
	for d.Time() < t1 {
		if err := d.Step(t1); err != nil {
			tr.Stats = d.Stats()
			return tr, err
		}
		emit()
	}
	tr.Stats = d.Stats()
	return tr, nil
}

// system is the right-hand side of (24) in integration coordinates.
type system struct {
	law    *Law
	free   []int     // integrated coordinates
	x, s   []float64 // workspaces: full state, loads
	direct bool
}

// state maps integration coordinates y to the full state x (in sys.x).
func (sys *system) state(y []float64) []float64 {
	for k, i := range sys.free {
		if sys.direct {
			sys.x[i] = math.Min(math.Max(y[k], 0), 1)
		} else {
			sys.x[i] = sigmoid(y[k])
		}
	}
	return sys.x
}

func (sys *system) rhs(dy []float64, _ float64, y []float64) {
	l := sys.law
	x := sys.state(y)
	s := l.Net.Loads(sys.s, x) // spec §1.3 eq. (21)
	for k, i := range sys.free {
		v := l.gain(i) * (l.Net.T[i] - s[i])
		if sys.direct {
			v *= x[i] * (1 - x[i]) // spec §5.1 eq. (24)
		}
		// In logit coordinates d/dt logit(x_i) = g_i (T_i − S_i)
		// (spec §5.2 item 1).
		dy[k] = v
	}
}
