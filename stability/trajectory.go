package stability

import (
	"errors"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/asm"
	"github.com/loadlab/loadlab/internal/mc"
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
	// Z[k][i] = log(x_i/(1 − x_i)) at T[k], the logit state, recorded when
	// Settings.Logits is set (nil otherwise). It carries the digits that
	// X loses: x rounds to exactly 1 once z > 37, while z stays exact. In
	// the default logit integration Z is the integrated state itself; on
	// a face it is −Inf (x_i = 0) or +Inf (x_i = 1). With Direct it is
	// computed from X.
	Z     [][]float64
	Stats ode.Stats // work of the integrator (zero for Iterate)
	// Status is loadlab.Success when the whole span was integrated, and
	// otherwise the ode status of the stop (with an error).
	Status loadlab.Status

	nw *anycast.Network
	op *anycast.LoadOp // computes S if not nil; nw.Loads otherwise
}

func newTrajectory(nw *anycast.Network, op *anycast.LoadOp, capacity int, logits bool) *Trajectory {
	tr := &Trajectory{
		T: make([]float64, 0, capacity), X: make([][]float64, 0, capacity),
		S: make([][]float64, 0, capacity), Overload: make([][]float64, 0, capacity),
		Second: make([]float64, 0, capacity), Excess: make([]float64, 0, capacity),
		nw: nw, op: op,
	}
	if logits {
		tr.Z = make([][]float64, 0, capacity)
	}
	return tr
}

// add appends the state x at time t, copying it, and the logits z if the
// trajectory records them; it computes the loads.
func (tr *Trajectory) add(t float64, x, z []float64) {
	tr.addLoads(t, x, nil, z)
}

// addLoads is add with the loads s = S(x) already computed (s nil: compute
// them).
func (tr *Trajectory) addLoads(t float64, x, s, z []float64) {
	nw := tr.nw
	n := nw.N()
	buf := make([]float64, 3*n)
	xs, ss, ov := buf[:n:n], buf[n:2*n:2*n], buf[2*n:]
	copy(xs, x)
	switch {
	case s != nil:
		copy(ss, s)
	case tr.op != nil:
		tr.op.Mul(ss, xs) // spec §1.3 eqs. (21)–(23)
	default:
		nw.Loads(ss, xs) // spec §1.3 eq. (21)
	}
	var second, excess float64
	for i := range xs {
		second += nw.A[i] * (1 - xs[i])
		ov[i] = max(ss[i]-nw.T[i], 0) // builtin max: math.Max's rules, inline
		excess += ov[i]
	}
	tr.T = append(tr.T, t)
	tr.X = append(tr.X, xs)
	tr.S = append(tr.S, ss)
	tr.Overload = append(tr.Overload, ov)
	tr.Second = append(tr.Second, second)
	tr.Excess = append(tr.Excess, excess)
	if tr.Z != nil {
		tr.Z = append(tr.Z, append([]float64(nil), z...))
	}
}

// Len returns the number of samples.
func (tr *Trajectory) Len() int { return len(tr.T) }

// Final returns the last state (not a copy).
func (tr *Trajectory) Final() []float64 { return tr.X[len(tr.X)-1] }

// Settings tunes Law.Integrate. A nil *Settings or a zero field means the
// default; a negative, NaN or infinite field is an error wrapping
// loadlab.ErrInvalid that names it.
type Settings struct {
	// AbsTol, RelTol and MaxSteps are those of package ode (ode.Settings),
	// with its defaults: tolerances ode.DefaultTol = 1e-8 and a budget
	// of ode.DefaultMaxSteps = 10⁶ steps. The tolerances apply to the
	// integrated coordinates (logits unless Direct) and are ignored by
	// RK4; MaxSteps bounds the steps of either integrator.
	AbsTol, RelTol float64
	MaxSteps       int
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
	// Logits records the logit state in Trajectory.Z.
	Logits bool
	// Workspace, if not nil, keeps the matrices of an integration on a
	// dense network for the next integration that uses it (see
	// Workspace); nil forms them in new memory at every call.
	Workspace *Workspace
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the field,
// for a negative, NaN or infinite field or Times not finite, non-negative
// and strictly increasing. (Integrate also checks Times against t1.) A nil
// *Settings is valid.
func (s *Settings) Validate() error {
	if s == nil {
		return nil
	}
	if err := s.ode().Validate(); err != nil {
		return err // AbsTol, RelTol, MaxSteps: ode's fields, named as there
	}
	if !(s.Step >= 0) || math.IsInf(s.Step, 1) {
		return loadlab.Invalid("stability", "Settings.Step = %v, want a finite value ≥ 0 (0 for the default)", s.Step)
	}
	for k, t := range s.Times {
		if !(t >= 0) || math.IsInf(t, 1) || (k > 0 && !(t > s.Times[k-1])) {
			return loadlab.Invalid("stability", "Settings.Times[%d] = %v, want strictly increasing finite times ≥ 0", k, t)
		}
	}
	return nil
}

// ode returns the settings passed to package ode.
func (s *Settings) ode() *ode.Settings {
	return &ode.Settings{AbsTol: s.AbsTol, RelTol: s.RelTol, MaxSteps: s.MaxSteps}
}

// logit returns log(x/(1 − x)), −Inf at 0 and +Inf at 1 (spec §5.2 item 1).
func logit(x float64) float64 { return math.Log(x / (1 - x)) }

// Integrate solves (24) from x0 over [0, t1] and returns the trajectory.
// Coordinates with x0_i ∈ {0, 1} stay there: faces of the hypercube are
// invariant (spec §5.1).
//
// It returns an error wrapping loadlab.ErrInvalid for a bad law, x0
// outside [0, 1]^N or containing NaN, a wrong length of x0, t1 not finite
// and positive, or bad settings; one wrapping loadlab.ErrTooLarge, before
// allocating, if the requested samples would not fit in memory or the RK4
// steps exceed Settings.MaxSteps; and, when the integrator stops short,
// the trajectory computed so far with its Status and the ode error (an
// instance of loadlab.ErrNotConverged).
func (l *Law) Integrate(x0 []float64, t1 float64, s *Settings) (*Trajectory, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if err := l.checkState("x0", x0); err != nil {
		return nil, err
	}
	direct := s != nil && s.Direct
	z0 := make([]float64, len(x0))
	for i, v := range x0 {
		z0[i] = logit(v)
	}
	return l.integrate(newSystem(l, x0, z0, direct), t1, s)
}

// IntegrateLogit is Integrate from the logit state z0 (z0_i = log(x_i/(1 −
// x_i)); −Inf and +Inf are the faces x_i = 0 and 1), for starts closer to
// a face than float64 resolves in x: x0 = 1 − 1e-20 is z0 = 46.05. In the
// default logit integration a finite z0_i is integrated as given; with
// Direct the start is σ(z0). It returns an error wrapping
// loadlab.ErrInvalid for a NaN in z0 or a wrong length, and otherwise
// errors as Integrate.
func (l *Law) IntegrateLogit(z0 []float64, t1 float64, s *Settings) (*Trajectory, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if len(z0) != l.Net.N() {
		return nil, loadlab.Invalid("stability", "len(z0) = %d, want N = %d", len(z0), l.Net.N())
	}
	x0 := make([]float64, len(z0))
	for i, z := range z0 {
		if math.IsNaN(z) {
			return nil, loadlab.Invalid("stability", "z0[%d] = NaN, want a logit in [−Inf, +Inf]", i)
		}
		x0[i] = asm.Sigmoid(z)
	}
	return l.integrate(newSystem(l, x0, z0, s != nil && s.Direct), t1, s)
}

// integrate checks t1 and the settings, integrates sys with the method
// the settings select and converts the result into a trajectory.
func (l *Law) integrate(sys *system, t1 float64, s *Settings) (*Trajectory, error) {
	if !(t1 > 0) || math.IsInf(t1, 1) {
		return nil, loadlab.Invalid("stability", "t1 = %v, want a finite value > 0", t1)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var set Settings
	if s != nil {
		set = *s
	}
	if n := len(set.Times); n > 0 && set.Times[n-1] > t1 {
		return nil, loadlab.Invalid("stability", "Settings.Times[%d] = %v, want times in [0, t1 = %v]", n-1, set.Times[n-1], t1)
	}
	if len(sys.y0) == 0 {
		return sys.constant(t1, &set)
	}
	if err := sys.setup(set.Workspace); err != nil {
		return nil, err
	}
	tr, err := sys.run(t1, &set)
	sys.release(tr)
	return tr, err
}

// run integrates the set-up system over [0, t1] with the settings.
func (sys *system) run(t1 float64, set *Settings) (*Trajectory, error) {
	if set.Step == 0 && set.Times == nil {
		return sys.solveSteps(t1, set)
	}
	res, err := sys.solve(t1, set)
	if res == nil {
		return nil, err
	}
	n := sys.law.Net.N()
	if cErr := checkSamples("trajectory samples", len(res.T), n, set.Logits); cErr != nil {
		return nil, cErr
	}
	tr := newTrajectory(sys.law.Net, sys.op, len(res.T), set.Logits)
	for k, t := range res.T {
		x := sys.state(res.Y[k])
		tr.add(t, x, sys.logits(res.Y[k], x))
	}
	tr.Stats, tr.Status = res.Stats, res.Status
	return tr, err
}

// solveSteps integrates adaptively and records every accepted step as it
// is taken (ode.SolveStepsFunc), reusing the state and loads of the
// right-hand side's last evaluation, which DormandPrince makes at the end
// of each accepted step (FSAL): recording costs copies, not products.
func (sys *system) solveSteps(t1 float64, set *Settings) (*Trajectory, error) {
	n := sys.law.Net.N()
	tr := newTrajectory(sys.law.Net, sys.op, 0, set.Logits)
	emit := func(t float64, y []float64) error {
		if err := checkSamples("trajectory samples", len(tr.T)+1, n, set.Logits); err != nil {
			return err
		}
		x, s := sys.loadsAt(y)
		tr.addLoads(t, x, s, sys.logits(y, x))
		sys.reduce(x)
		return nil
	}
	var res *ode.Result
	var err error
	if split := sys.split(); split != nil {
		res, err = ode.SolveStepsSplit(split, 0, sys.y0, t1, set.ode(), sys.splitEmit(emit))
	} else {
		res, err = ode.SolveStepsFunc(sys.rhs, 0, sys.y0, t1, set.ode(), emit)
	}
	if res == nil {
		return nil, err
	}
	if errors.Is(err, loadlab.ErrTooLarge) {
		return nil, err
	}
	tr.Stats, tr.Status = res.Stats, res.Status
	return tr, err
}

// splitWork is the number of entries of the load matrix from which the
// passes of the split right-hand side run on all cores: as for
// anycast.LoadOp.Mul, a product of ≥ 2¹⁵ multiply-adds (≥ 30 µs) pays
// for a pass over the helpers (≈ 1 µs).
const splitWork = 1 << 15

// split returns the right-hand side of (24) as two passes over pieces of
// the nodes for ode.NewDormandPrinceSplit, or nil unless every node is
// integrated (a node frozen on a face would map the integrated
// coordinates onto the nodes out of order): Map sets x = σ(z) (or
// clamp(x) for Direct) of a piece of the nodes into workspace buf, Rows
// the loads S_i = (B x)_i of a piece (anycast.LoadOp.MulRows) and the
// rates. Each piece of a stage then computes its loads, rates, the
// Runge–Kutta combination and the sigmoids of the next stage at once on
// one core, and the work between the products is split over the cores
// with them. Every number has the bits of rhs.
func (sys *system) split() *ode.Split {
	n := len(sys.x)
	if len(sys.free) != n {
		return nil
	}
	// Workspace 1 is the recorded state; 2..6 are the stages of a lagging
	// step (ode.LagBuf), which only a dense network takes.
	bufs := 2
	if !sys.noReduce {
		bufs = len(sys.xs)
	}
	for b := range bufs {
		sys.xs[b] = make([]float64, n)
	}
	sys.xs[1] = sys.x
	workers := 1
	if sys.op.NNZ() >= splitWork {
		workers = 0 // GOMAXPROCS
	}
	// Pieces of ≥ 16 nodes (128 KB of dense B at N = 1000, ≈ 2.5 µs: the
	// cores finish within about that of each other, par.Loop handing
	// out shorter runs of pieces as fewer are left), ≈ 64 of them at
	// large N.
	grain := max(1, (n+64*16-1)/(64*16)) * 16
	sys.grain = grain
	split := &ode.Split{Map: sys.mapRange, Rows: sys.rowsRange, Grain: grain, Workers: workers}
	if !sys.noReduce {
		split.Lag = sys // lag.go
	}
	return split
}

// mapRange sets workspace buf to the state x of the integration
// coordinates y for the nodes [lo, hi) (every node integrated); in a
// lagging step the settled nodes are held at x = 1 (lag.go).
func (sys *system) mapRange(buf int, y []float64, lo, hi int) {
	x := sys.xs[buf]
	if sys.direct {
		for i := lo; i < hi; i++ {
			x[i] = min(max(y[i], 0), 1)
		}
	} else {
		asm.Sigmoids(x[lo:hi], y[lo:hi])
	}
	if sys.red != nil {
		if sys.lagging {
			sys.holdSettled(x, lo, hi)
		}
		sys.gather(buf, lo, hi)
	}
}

// rowsRange sets the loads sys.s and the rates dy of the nodes [lo, hi)
// from the state in workspace buf, as rhs does; in a lagging step those
// of the free nodes only.
func (sys *system) rowsRange(buf int, dy []float64, _ float64, lo, hi int) {
	x, s := sys.xs[buf], sys.s
	if sys.lagging {
		sys.freeRowsRange(buf, dy, lo, hi)
		return
	}
	if sys.red != nil && !slices.Contains(sys.held[buf], false) {
		sys.red.MulRows(s[lo:hi], sys.xf[buf], lo, hi)
	} else {
		sys.op.MulRows(s[lo:hi], x, lo, hi) // spec §1.3 eqs. (21)–(23)
	}
	sys.rates(dy, x, s, lo, hi)
}

// rates sets dy[i] = rate(i, x[i], s[i]) for the nodes i ∈ [lo, hi) of
// the split right-hand side (every node integrated), in a loop the
// compiler keeps free of bounds checks and of the test for Direct.
func (sys *system) rates(dy, x, s []float64, lo, hi int) {
	if sys.direct {
		for i := lo; i < hi; i++ {
			dy[i] = sys.rate(i, x[i], s[i])
		}
		return
	}
	g, t, s := sys.g[lo:hi], sys.law.Net.T[lo:hi], s[lo:hi]
	dy = dy[lo:hi]
	for k := range dy {
		dy[k] = g[k] * (t[k] - s[k])
	}
}

// ratesAt is rates for the listed nodes.
func (sys *system) ratesAt(dy, x, s []float64, nodes []int) {
	if sys.direct {
		for _, i := range nodes {
			dy[i] = sys.rate(i, x[i], s[i])
		}
		return
	}
	g, t := sys.g, sys.law.Net.T
	for _, i := range nodes {
		dy[i] = g[i] * (t[i] - s[i])
	}
}

// rate returns the right-hand side of node i at state x_i with load s:
// g_i (T_i − S_i) in logit coordinates (spec §5.2 item 1), times
// x_i(1 − x_i) for Direct (spec §5.1 eq. (24)).
func (sys *system) rate(i int, x, s float64) float64 {
	v := sys.g[i] * (sys.law.Net.T[i] - s)
	if sys.direct {
		v *= x * (1 - x)
	}
	return v
}

// splitEmit wraps the emit of solveSteps for the split right-hand side:
// after each step the last evaluation was at the new state, whose x is
// in workspace 1 (sys.x) and loads in sys.s (ode.Split), which record
// reuses; at t = 0, before any evaluation, they are computed.
func (sys *system) splitEmit(emit func(t float64, y []float64) error) func(float64, []float64) error {
	first := true
	return func(t float64, y []float64) error {
		if first {
			first = false
			sys.last = nil // loadsAt computes them
		} else {
			sys.last = y // loadsAt reuses sys.x and sys.s
		}
		return emit(t, y)
	}
}

// system is the right-hand side of (24) in integration coordinates.
type system struct {
	law    *Law
	op     *anycast.LoadOp // B = Cᵀ diag(A), formed by setup (in scr)
	scr    *scratch        // the matrices (scratch.go)
	ws     *Workspace      // where scr goes back, nil if nowhere
	free   []int           // integrated coordinates
	g      []float64       // gains g_i of the free nodes
	y0     []float64       // their start values
	x, s   []float64       // workspaces: full state, loads
	xs     [7][]float64    // the split right-hand side's workspaces (xs[1] = x)
	z      []float64       // workspace: full logit state
	last   []float64       // the argument of the last rhs call (a stepper's slice)
	direct bool

	// Settled nodes (reduce.go): the operator with the columns of the
	// nodes at x = 1 summed once (red, nil if none; one of scr.reds), and the
	// free columns' states gathered for it.
	red        *anycast.Reduced
	noReduce   bool         // B is sparse: never reduce
	reductions int          // builds of red, for the tests
	grain      int          // the split's piece size (0: serial)
	xf         [7][]float64 // split: the free columns' states in each workspace
	held       [7][]bool    // split, per piece: its settled nodes are at x = 1 in the workspace
	xfull      []float64    // serial: the free columns' states

	// Lagging steps (lag.go): the settled and free nodes of each piece,
	// the loads and states of the stages for Late, and the counts of
	// lagging steps and of those computed again, for the tests.
	lagging     bool
	settledRows [][]int
	freeRows    [][]int
	lateS       [6][]float64
	lateXf      [6][]float64
	lagSteps    int
	lagRedos    int
}

// newSystem sets up the integration from the state x0 with logits z0: in
// logit coordinates the nodes with finite z0 are integrated from z0, the
// others are frozen on their face; Direct integrates every x_i from x0.
func newSystem(l *Law, x0, z0 []float64, direct bool) *system {
	n := len(x0)
	sys := &system{law: l, x: append([]float64(nil), x0...), s: make([]float64, n), z: append([]float64(nil), z0...), direct: direct}
	for i := range x0 {
		switch {
		case direct:
			sys.y0 = append(sys.y0, x0[i])
		case !math.IsInf(z0[i], 0):
			sys.y0 = append(sys.y0, z0[i]) // logit, spec §5.2 item 1
		default:
			continue
		}
		sys.free = append(sys.free, i)
	}
	return sys
}

// setup forms the load matrix (formScratch, in ws if not nil) and the
// gains of the free nodes, the work done once per integration; release
// ends it.
func (sys *system) setup(ws *Workspace) error {
	if err := sys.formScratch(ws); err != nil {
		return err
	}
	sys.noReduce = sys.law.Net.Sparse != nil // its products cost O(nnz) already
	sys.g = make([]float64, len(sys.free))
	for k, i := range sys.free {
		sys.g[k] = sys.law.gain(i)
	}
	return nil
}

// constant is the trajectory when every coordinate is on an invariant
// face: x is constant.
func (sys *system) constant(t1 float64, set *Settings) (*Trajectory, error) {
	times := set.Times
	if times == nil {
		times = []float64{0, t1}
	}
	if err := checkSamples("len(Times)", len(times), len(sys.x), set.Logits); err != nil {
		return nil, err
	}
	tr := newTrajectory(sys.law.Net, nil, len(times), set.Logits)
	for _, t := range times {
		tr.add(t, sys.x, sys.z)
	}
	tr.Status = loadlab.Success
	return tr, nil
}

// solve runs the integrator of the settings: ode.SolveRK4 for Step > 0,
// otherwise ode.Solve at Times or ode.SolveSteps at every step.
func (sys *system) solve(t1 float64, set *Settings) (*ode.Result, error) {
	if set.Step == 0 {
		if set.Times == nil {
			return ode.SolveSteps(sys.rhs, 0, sys.y0, t1, set.ode())
		}
		return ode.Solve(sys.rhs, 0, sys.y0, set.Times, set.ode())
	}
	times := set.Times
	if times == nil {
		// Every step of size ≤ Step: the grid of ode.SolveRK4 for [0, t1],
		// built only once its size is known to be within the budget.
		budget := set.MaxSteps
		if budget == 0 {
			budget = ode.DefaultMaxSteps
		}
		m := math.Max(1, math.Ceil(t1/set.Step*(1-1e-12)))
		if m > float64(budget) {
			return nil, loadlab.TooLarge("stability", "Settings.Step = %v needs %.4g RK4 steps over [0, %v], more than Settings.MaxSteps = %d",
				set.Step, m, t1, budget)
		}
		if err := checkSamples("RK4 steps", int(m), len(sys.x), set.Logits); err != nil {
			return nil, err
		}
		times = make([]float64, int(m)+1)
		for k := range times {
			times[k] = t1 * float64(k) / m
		}
		times[len(times)-1] = t1 // t1·m/m may differ from t1 in the last bit
	}
	return ode.SolveRK4(sys.rhs, 0, sys.y0, times, set.Step, set.ode())
}

// statePiece is the number of free nodes of a piece of state's parallel
// loop (≈ 20 µs of sigmoids): from two pieces on, the sigmoids outweigh
// the hand-off to the pool's helpers many times.
const statePiece = 2048

// state maps integration coordinates y to the full state x (in sys.x).
func (sys *system) state(y []float64) []float64 {
	n := len(sys.free)
	if n < 2*statePiece {
		sys.stateRange(y, 0, n)
		return sys.x
	}
	mc.For((n+statePiece-1)/statePiece, 0, func(c int) {
		sys.stateRange(y, c*statePiece, min((c+1)*statePiece, n))
	})
	return sys.x
}

// stateRange maps the free coordinates k ∈ [lo, hi) of y into sys.x.
func (sys *system) stateRange(y []float64, lo, hi int) {
	free, x := sys.free[lo:hi], sys.x
	if sys.direct {
		for k, i := range free {
			x[i] = min(max(y[lo+k], 0), 1)
		}
		return
	}
	for k, i := range free {
		x[i] = asm.Sigmoid(y[lo+k])
	}
}

// loadsAt returns the state and loads at integration coordinates y,
// reusing those of the last right-hand side evaluation when it was at the
// same y (the end of a DormandPrince step), computing them otherwise.
func (sys *system) loadsAt(y []float64) (x, s []float64) {
	if sys.last != nil && slices.Equal(sys.last, y) {
		return sys.x, sys.s
	}
	x = sys.state(y)
	return x, sys.op.Mul(sys.s, x)
}

// logits returns the full logit state for integration coordinates y and
// the state x = state(y) (in sys.z).
func (sys *system) logits(y, x []float64) []float64 {
	for k, i := range sys.free {
		if sys.direct {
			sys.z[i] = logit(x[i])
		} else {
			sys.z[i] = y[k]
		}
	}
	return sys.z
}

func (sys *system) rhs(dy []float64, _ float64, y []float64) {
	t := sys.law.Net.T
	x := sys.state(y)
	var s []float64
	if sys.red != nil && sys.gatherAll(x) {
		s = sys.s
		sys.red.MulRows(s, sys.xfull, 0, len(s))
	} else {
		s = sys.op.Mul(sys.s, x) // spec §1.3 eqs. (21)–(23)
	}
	for k, i := range sys.free {
		v := sys.g[k] * (t[i] - s[i])
		if sys.direct {
			v *= x[i] * (1 - x[i]) // spec §5.1 eq. (24)
		}
		// In logit coordinates d/dt logit(x_i) = g_i (T_i − S_i)
		// (spec §5.2 item 1).
		dy[k] = v
	}
	sys.last = y
}
