package dual

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/internal/solve"
	"gonum.org/v1/gonum/floats"
)

// Rule is the step rule of Solve.
type Rule int

const (
	// Auto, the zero value, picks Accelerated when the dual is smooth
	// (every cost has a known Lipschitz bound of its sub-problem solution,
	// SmoothBound) and β is exact, and Constant otherwise: with
	// FastControl, with Settings.Step or Settings.Eps set, or with a cost
	// such as LinearX, Overload or Func.
	Auto Rule = iota
	// Constant is the projected super-gradient step (17) with a constant
	// α: Settings.Step, or the Theorem III.3 step ε/G² (spec §4.6). It is
	// Algorithm 1 of the paper, the rule FastControl runs. Guarantee:
	// Theorem III.3, D* − Best ≤ R²/(2αK) + αG²/2 (Result.Bound).
	Constant
	// Accelerated is FISTA (Beck and Teboulle 2009) on the concave dual
	// with μ ≥ 0 as its proximal term: the gradient at the extrapolated
	// point comes from the continuation of D to μ < 0 described at relax,
	// the Lipschitz constant L of ∇D is found by backtracking (started
	// from SmoothBound/8), and the momentum restarts whenever D decreases
	// (O'Donoghue and Candès 2015), which starts a new epoch. It needs
	// exact dual values, so it cannot run with FastControl. Guarantee, on
	// a smooth dual (Beck and Teboulle, Theorem 4.4, per epoch r):
	// D* − Best ≤ 2 L (‖μ(r)‖₂ + MuBound(Best))²/(k − r + 1)² (the
	// smallest value met is Result.Bound; +Inf on a non-smooth dual). On
	// random smooth instances with N = 5 to 50 it certifies the default
	// relative gap 10⁻⁶ in 10 to 1000 steps (TestDefaultCertifiesRandom),
	// where the theorem step of Constant stops at relative gaps of 3e-4 to
	// 3e-3 after 20 000.
	Accelerated
)

var ruleNames = [...]string{"Auto", "Constant", "Accelerated"}

// String returns the name of the rule.
func (r Rule) String() string {
	if r < 0 || int(r) >= len(ruleNames) {
		return "Rule(?)"
	}
	return ruleNames[r]
}

// Settings control Solve. A nil *Settings means all defaults; a zero
// field means its default; a negative, NaN or infinite field is an error
// naming it (docs/conventions.md §3).
type Settings struct {
	// Mu0 is the starting point μ(0) ≥ 0 (a warm start); nil means 0.
	Mu0 []float64

	// Rule is the step rule; zero means Auto.
	Rule Rule
	// Step is the constant step α of (17) (rule Constant). Zero means
	// the Theorem III.3 step α = Eps/G² (spec §4.6).
	Step float64
	// Eps is the accuracy the Theorem III.3 step is chosen for. Zero
	// means 10⁻³ times the a-priori gap P(0, Ŝ) − D(μ(0)) at the Slater
	// point x = 0, Ŝ_i = min(S̄_i, T_i).
	Eps float64

	// MaxIter is the number of dual steps at most; zero means 100000.
	MaxIter int
	// Tol stops the iteration once the certified gap Upper − Best is at
	// most Tol·max(|Upper|, |Best|). Zero means 10⁻⁶.
	Tol float64
	// Fixed runs exactly MaxIter steps, without the certificate stop (a
	// tracking controller or a convergence plot runs a fixed budget). The
	// run is then not "stopped short": Solve returns no ErrNotConverged,
	// and Status says whether the certificate closed by the end.
	Fixed bool

	// RecordDual stores D(μ(k)) for every k in Result.Dual.
	RecordDual bool
	// Record, when positive, stores a Snapshot every Record iterations
	// (and at iteration MaxIter−1) in Result.Trace. Zero records none.
	Record int

	// FastControl, when non-nil, makes the nodes learn β only through
	// FastControl receptions (spec §4.7–4.8, Algorithm 1). Nil means β is
	// computed exactly as C μ.
	FastControl *FastControl
}

// Validate checks the fields of s that do not depend on the problem
// (Mu0's length is checked by Solve). A nil s is valid.
func (s *Settings) Validate() error {
	if s == nil {
		return nil
	}
	for i, v := range s.Mu0 {
		if !(v >= 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("dual", "Settings.Mu0[%d] = %v, want a finite value ≥ 0", i, v)
		}
	}
	if s.Rule < Auto || s.Rule > Accelerated {
		return loadlab.Invalid("dual", "Settings.Rule = %d, want Auto, Constant or Accelerated", int(s.Rule))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Step", s.Step}, {"Eps", s.Eps}, {"Tol", s.Tol}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return loadlab.Invalid("dual", "Settings.%s = %v, want a finite value ≥ 0 (0 = default)", f.name, f.v)
		}
	}
	if s.MaxIter < 0 {
		return loadlab.Invalid("dual", "Settings.MaxIter = %d, want ≥ 0 (0 = default)", s.MaxIter)
	}
	if s.Record < 0 {
		return loadlab.Invalid("dual", "Settings.Record = %d, want ≥ 0 (0 = no trace)", s.Record)
	}
	if s.Rule == Accelerated && s.FastControl != nil {
		return loadlab.Invalid("dual", "Settings.Rule = Accelerated with FastControl: the accelerated rule needs exact dual values")
	}
	if s.Rule == Accelerated && (s.Step > 0 || s.Eps > 0) {
		return loadlab.Invalid("dual", "Settings.Step = %v, Eps = %v with Rule = Accelerated: a constant step belongs to Rule Constant", s.Step, s.Eps)
	}
	if s.FastControl != nil {
		return s.FastControl.Validate()
	}
	return nil
}

// Snapshot is the state of the iteration at one step.
type Snapshot struct {
	Iter int
	D    float64   // D(μ(k))
	Mu   []float64 // μ(k)
	X    []float64 // x*(k), the DNS answer probabilities used
	S    []float64 // S*(k), the provisioned loads
	SObs []float64 // S^obs(k), the loads the proxies see
}

// Result is what Solve returns.
type Result struct {
	// Status is Success when the certified gap Upper − Best reached
	// Tol·max(|Upper|, |Best|), IterationLimit when MaxIter steps did not
	// get there, StepLimit when the accelerated rule's backtracking found
	// no step (a non-smooth dual). Rule is the step rule used (never Auto).
	Status loadlab.Status
	Rule   Rule
	Iter   int // dual steps K
	Evals  int // evaluations of D (one per step for Constant, about two for Accelerated)

	// X and S are the optimal point: the feasible point with the smallest
	// P1 value met, x and its loads S = S^obs(x), and Upper = P(X, S) ≥ P*.
	// With Best ≤ P* they certify P* ∈ [Best, Upper] (Gap).
	X, S  []float64
	Upper float64

	// Best = max_k D(μ(k)) over the dual values evaluated, a lower bound
	// on P*, met at BestMu in step BestIter.
	Best     float64
	BestMu   []float64
	BestIter int

	// Mu is the last iterate: μ(Iter) after the last step, or μ(Iter−1)
	// when the certified gap stopped the run before stepping again. It is
	// the natural warm start for the next Solve on drifted data.
	Mu []float64

	// AvgX and AvgS are the running averages of x*(k) and S*(k), the
	// classical primal estimate of a dual method, and AvgViolation is
	// max_i (S_i^obs(AvgX) − AvgS_i)₊, its violation of (9). For the
	// Constant rule, S^obs is linear, so AvgViolation is the largest mean
	// super-gradient and is at most (max_i (μ_i(last) − μ_i(0)) + Step·G)/
	// (Step·Iter) (DERIVED from (17)); its objective obeys the bounds for
	// averaged primal iterates of a dual subgradient method (Nedić and
	// Ozdaglar 2009; DERIVED for P1 from convexity of P and (17)):
	//
	//	P* − μ*ᵀ(S^obs(AvgX) − AvgS)₊ ≤ P(AvgX, AvgS) ≤ P* + ‖μ(0)‖²/(2·Step·Iter) + Step·G²/2.
	AvgX, AvgS   []float64
	AvgViolation float64

	// The a-priori guarantee of the rule (see Rule): Bound bounds
	// D* − Best. G bounds the super-gradients (18); R ≥ ‖μ(0) − μ*‖₂
	// (‖μ(0)‖₂ + MuBound). For Constant: Step is α, Eps and K the target
	// and the step count that guarantees it when the theorem step was
	// used (K = 0 otherwise); Bound = R²/(2·Step·Iter) + Step·G²/2. For
	// Accelerated: Bound is the FISTA bound of Rule, L the last Lipschitz
	// estimate accepted, LBound the a-priori bound on it (SmoothBound, +Inf on a
	// non-smooth dual) and Restarts the number of momentum restarts.
	// Theorem III.3 assumes exact β: with FastControl noise, loss or
	// delay, Bound is a reference only.
	Bound, G, R float64
	Step, Eps   float64
	K           int
	L, LBound   float64
	Restarts    int

	// Dual holds D(μ(k)) for k < Iter if Settings.RecordDual.
	Dual []float64
	// Trace holds snapshots if Settings.Record > 0.
	Trace []Snapshot

	// With FastControl: Packets is the mean number of FastControl packets
	// sent per iteration (W Σ r_ij, or the rate Σ r_ij when W = 0),
	// Direct the mean number of direct reports per iteration, and BetaErr
	// the root mean square of ‖β̂ − β‖₂/‖β‖₂ over the iterations with β ≠ 0.
	Packets, Direct, BetaErr float64

	measured bool // β came from FastControl
}

// Guarantee states in one sentence the step rule the run used and the
// guarantee it carries, with its value.
func (r *Result) Guarantee() string {
	if r.Rule == Accelerated {
		return fmt.Sprintf("Accelerated rule (FISTA, backtracking on L, restarts): Beck–Teboulle, D* − Best ≤ 2L(‖μ(r)‖ + MuBound)²/(k − r + 1)² = %.3g; certificate P* ∈ [Best, Upper] of width %.3g", r.Bound, r.Gap())
	}
	g := fmt.Sprintf("Constant rule, α = %.3g: Theorem III.3, D* − Best ≤ R²/(2αK) + αG²/2 = %.3g", r.Step, r.Bound)
	if r.measured {
		g += " (a reference only: β was measured by FastControl)"
	}
	return g
}

// Gap returns Upper − Best, the certified width of the interval that
// holds P*.
func (r *Result) Gap() float64 { return r.Upper - r.Best }

// Solve maximises the dual (15) of P1 (spec §4). With the Constant rule
// it is the projected super-gradient method (spec §4.4 eqs. (16)–(17)),
// Algorithm 1 of spec §4.8:
//
//	β(k) = C μ(k)                         (14), or measured by FastControl (20)
//	x*(k), S*(k) from the sub-problems    (13)
//	g(k) = S^obs(x*(k)) − S*(k)           (16)
//	μ(k+1) = [μ(k) + α g(k)]⁺              (17)
//
// With the Accelerated rule (the default on smooth duals, see Rule) the
// same super-gradient, which is then the gradient ∇D, drives an
// accelerated projected gradient method. Every evaluated point gives a
// lower bound D(μ) ≤ P* and a feasible point (x*(μ), S^obs(x*(μ))) whose
// value is an upper bound: the run stops when the two meet within Tol.
//
// The iteration allocates nothing unless Settings.Record asks for
// snapshots (RecordDual's storage is made up front), also when
// FastControl draws packet counts.
//
// Solve validates p (including its network, which may have been changed
// since NewProblem) and s, and returns an error wrapping
// loadlab.ErrInvalid for bad data or settings, loadlab.ErrTooLarge when
// RecordDual's or FastControl.Delay's storage would be too large, and an
// *UnreachableError for an undefined FastControl rate. When the run stops
// short of the certificate it returns the partial result and an error
// wrapping loadlab.ErrNotConverged (not with Settings.Fixed). It panics
// if p is nil (a nil FastControl.Src with Window > 0 is an error).
func Solve(p *Problem, s *Settings) (*Result, error) {
	sv, err := newSolver(p, s)
	if err != nil {
		return nil, err
	}
	if sv.res.Rule == Accelerated {
		sv.runAccelerated()
	} else {
		sv.runConstant()
	}
	return sv.finish()
}

// solver is the state of one Solve run; every slice the loop touches is
// allocated in newSolver.
type solver struct {
	p    *Problem
	set  Settings
	res  *Result
	kern *kernel
	fc   *fcState

	mu, beta, x, st, obs []float64
	xe, se, be           []float64 // exact evaluation when β is measured
	betaErr2             float64
	betaErrN             int
}

// newSolver validates the problem and the settings, fills the defaults,
// chooses the rule and allocates the work space.
func newSolver(p *Problem, s *Settings) (*solver, error) {
	if p == nil {
		panic("dual: Solve with a nil *Problem")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	sv := &solver{p: p}
	if s != nil {
		sv.set = *s
	}
	n := p.N()
	if sv.set.Mu0 != nil && len(sv.set.Mu0) != n {
		return nil, loadlab.Invalid("dual", "len(Settings.Mu0) = %d, want N = %d", len(sv.set.Mu0), n)
	}
	if sv.set.MaxIter == 0 {
		sv.set.MaxIter = 100000
	}
	if sv.set.Tol == 0 {
		sv.set.Tol = 1e-6
	}
	if err := sv.checkSizes(); err != nil {
		return nil, err
	}
	sv.mu = make([]float64, n)
	copy(sv.mu, sv.set.Mu0)
	if sv.set.FastControl != nil {
		var err error
		if sv.fc, err = newFCState(p, sv.set.FastControl, sv.mu); err != nil {
			return nil, err
		}
	}
	if err := sv.guarantee(); err != nil {
		return nil, err
	}
	sv.allocate()
	return sv, nil
}

// checkSizes refuses storage sized by the settings that the machine
// cannot hold (docs/conventions.md §5), before anything is allocated.
func (sv *solver) checkSizes() error {
	if sv.set.RecordDual {
		if err := size.Check("dual", "Settings.MaxIter (RecordDual)", sv.set.MaxIter, 8); err != nil {
			return err
		}
	}
	if sv.set.Record > 0 {
		snaps := sv.set.MaxIter/sv.set.Record + 1
		per, ok := size.Mul(4, sv.p.N())
		if !ok {
			return loadlab.TooLarge("dual", "Settings.Record: N = %d", sv.p.N())
		}
		if tot, ok := size.Mul(snaps, per); !ok || size.Check("dual", "Settings.Record snapshots", tot, 8) != nil {
			return loadlab.TooLarge("dual", "Settings.Record = %d with MaxIter = %d keeps %d snapshots of %d values", sv.set.Record, sv.set.MaxIter, snaps, per)
		}
	}
	if fc := sv.set.FastControl; fc != nil {
		ring, ok := size.Mul(fc.Delay+1, sv.p.N())
		if !ok || size.Check("dual", "FastControl.Delay", ring, 8) != nil {
			return loadlab.TooLarge("dual", "FastControl.Delay = %d keeps %d past μ of %d values", fc.Delay, fc.Delay+1, sv.p.N())
		}
	}
	return nil
}

// guarantee picks the rule and fills the a-priori quantities of its
// guarantee: G, R, the step of the Constant rule, L of the accelerated one.
func (sv *solver) guarantee() error {
	p, set := sv.p, &sv.set
	res := &Result{G: p.gBound(), Best: math.Inf(-1), Upper: math.Inf(1), LBound: p.smoothBound()}
	sv.res = res
	d0, err := p.eval(sv.mu) // p was validated by newSolver
	if err != nil {
		return err
	}
	res.R = floats.Norm(sv.mu, 2) + p.muBound(d0.D)
	res.Rule = set.Rule
	if res.Rule == Auto {
		res.Rule = Constant
		if set.FastControl == nil && set.Step == 0 && set.Eps == 0 && !math.IsInf(res.LBound, 1) {
			res.Rule = Accelerated
		}
	}
	if res.Rule == Accelerated {
		return nil
	}
	res.Step = set.Step
	if res.Step == 0 {
		res.Eps = set.Eps
		if res.Eps == 0 {
			pv, _ := p.slater(0)
			res.Eps = 1e-3 * math.Max(pv-d0.D, math.SmallestNonzeroFloat64)
		}
		res.Step = res.Eps / (res.G * res.G)
		res.K = theoremIterations(res.Eps, res.G, res.R)
	}
	if !(res.Step > 0) || math.IsInf(res.Step, 1) {
		return loadlab.Invalid("dual", "the Theorem III.3 step Eps/G² = %v/%v² = %v is not a finite positive number", res.Eps, res.G, res.Step)
	}
	return nil
}

func (sv *solver) allocate() {
	n := sv.p.N()
	sv.kern = newKernel(sv.p.Net)
	sv.beta, sv.x, sv.st, sv.obs = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	res := sv.res
	res.X, res.S = make([]float64, n), make([]float64, n)
	res.AvgX, res.AvgS = make([]float64, n), make([]float64, n)
	res.BestMu = make([]float64, n)
	if sv.fc != nil {
		sv.xe, sv.se, sv.be = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	if sv.set.RecordDual {
		res.Dual = make([]float64, 0, sv.set.MaxIter)
	}
}

// eval computes D(mu) exactly and the sub-problem solutions the nodes
// use (x, st from β measured by FastControl in step k, or exact) with
// their loads obs. It records the bounds: Upper and the optimal point
// from the feasible (x, S^obs(x)), and Best from D when lower is set
// (mu ≥ 0; at an extrapolated point with negative entries D is the
// continuation of relax, not a bound).
func (sv *solver) eval(mu []float64, k int, lower bool) float64 {
	p, res := sv.p, sv.res
	var d float64
	if sv.fc == nil {
		sv.kern.coupling(sv.beta, mu)
		d = p.relax(sv.x, sv.st, sv.beta, mu)
	} else {
		sv.fc.measure(sv.beta, mu, k)
		p.relax(sv.x, sv.st, sv.beta, mu)
		sv.kern.coupling(sv.be, mu)
		d = p.relax(sv.xe, sv.se, sv.be, mu)
		if nb := floats.Norm(sv.be, 2); nb > 0 {
			e := floats.Distance(sv.beta, sv.be, 2) / nb
			sv.betaErr2 += e * e
			sv.betaErrN++
		}
	}
	sv.kern.loads(sv.obs, sv.x) // S^obs(k) (16)
	res.Evals++
	if lower && d > res.Best {
		res.Best, res.BestIter = d, k
		copy(res.BestMu, mu)
	}
	if up := p.reduced(sv.x, sv.obs); up < res.Upper {
		res.Upper = up
		copy(res.X, sv.x)
		copy(res.S, sv.obs)
	}
	return d
}

// record stores step k of the iterate mu with dual value d, whose
// sub-problem solutions eval left in x, st and obs.
func (sv *solver) record(k int, d float64, mu []float64) {
	res := sv.res
	if sv.set.RecordDual {
		res.Dual = append(res.Dual, d)
	}
	if r := sv.set.Record; r > 0 && (k%r == 0 || k == sv.set.MaxIter-1) {
		res.Trace = append(res.Trace, snapshot(k, d, mu, sv.x, sv.st, sv.obs))
	}
	inv := 1 / float64(k+1)
	for i := range sv.x {
		res.AvgX[i] += (sv.x[i] - res.AvgX[i]) * inv
		res.AvgS[i] += (sv.st[i] - res.AvgS[i]) * inv
	}
}

// done reports whether the certificate stops the run after k steps.
func (sv *solver) done() bool {
	return !sv.set.Fixed && certified(sv.res.Upper, sv.res.Best, sv.set.Tol)
}

// runConstant is the projected super-gradient method (17).
func (sv *solver) runConstant() {
	alpha, mu := sv.res.Step, sv.mu
	k := 0
	for k < sv.set.MaxIter {
		d := sv.eval(mu, k, true)
		if sv.fc != nil && sv.fc.overflow > 0 {
			return
		}
		sv.record(k, d, mu)
		k++
		if sv.done() {
			break
		}
		for i := range mu { // projected super-gradient step (17)
			mu[i] = math.Max(0, mu[i]+alpha*(sv.obs[i]-sv.st[i]))
		}
	}
	sv.res.Iter = k
}

// finish computes the running-average estimate, the status and the
// FastControl statistics, and returns the result with ErrNotConverged
// when the run stopped short.
func (sv *solver) finish() (*Result, error) {
	if fc := sv.fc; fc != nil && fc.overflow > 0 {
		return nil, loadlab.Invalid("dual", "FastControl: a packet rate or expected count γ μ_j C_ij/C_ji (×W) overflowed at step %d (Gamma = %v, Window = %v), want a smaller Gamma or Window",
			fc.overflow-1, fc.fc.Gamma, fc.fc.Window)
	}
	res, p := sv.res, sv.p
	res.Mu = sv.mu
	obs := sv.obs
	p.Net.Loads(obs, res.AvgX)
	for i := range obs {
		res.AvgViolation = math.Max(res.AvgViolation, obs[i]-res.AvgS[i])
	}
	if up := p.reduced(res.AvgX, obs); up < res.Upper {
		res.Upper = up
		copy(res.X, res.AvgX)
		copy(res.S, obs)
	}
	if res.Rule == Constant {
		res.Bound = res.R*res.R/(2*res.Step*float64(res.Iter)) + res.Step*res.G*res.G/2
	}
	if sv.fc != nil {
		res.measured = true
		k := float64(max(res.Iter, 1))
		res.Packets = sv.fc.packets / k
		res.Direct = sv.fc.direct / k
		if sv.betaErrN > 0 {
			res.BetaErr = math.Sqrt(sv.betaErr2 / float64(sv.betaErrN))
		}
	}
	switch {
	case certified(res.Upper, res.Best, sv.set.Tol):
		res.Status = loadlab.Success
	case res.Status == loadlab.NotTerminated:
		res.Status = loadlab.IterationLimit
	}
	if res.Status == loadlab.Success || sv.set.Fixed {
		return res, nil
	}
	rec := solve.Record{Status: res.Status, Iter: res.Iter, Evals: res.Evals}
	return res, rec.Err("dual: Solve", "%v rule, certified gap Upper − Best = %.3g, want ≤ %g·max(|Upper|, |Best|)",
		res.Rule, res.Upper-res.Best, sv.set.Tol)
}

func certified(upper, best, tol float64) bool {
	if math.IsInf(upper, 1) || math.IsInf(best, -1) {
		return false
	}
	return upper-best <= tol*math.Max(math.Abs(upper), math.Abs(best))
}

func snapshot(k int, d float64, mu, x, s, obs []float64) Snapshot {
	cp := func(v []float64) []float64 { return append([]float64(nil), v...) }
	return Snapshot{Iter: k, D: d, Mu: cp(mu), X: cp(x), S: cp(s), SObs: cp(obs)}
}
