package dual

import (
	"cmp"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/solve"
)

// PrimalSettings control Primal. A nil *PrimalSettings means defaults; a
// zero field means its default; a negative, NaN or infinite field is an
// error naming it.
type PrimalSettings struct {
	// MaxIter bounds the Newton iterations; zero means 500.
	MaxIter int
	// GradTol stops once the projected gradient ‖x − P(x − ∇P)‖_∞ is at
	// most GradTol; zero means 1e-10. The iteration also stops when the
	// objective has not decreased for 5 iterations (rounding level).
	GradTol float64
	// Tol is the certificate tolerance: Status is Success only when
	// Value − Lower ≤ Tol·max(1, |Value|). Zero means 1e-9.
	Tol float64
}

// Validate checks the fields. A nil s is valid.
func (s *PrimalSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.MaxIter < 0 {
		return loadlab.Invalid("dual", "PrimalSettings.MaxIter = %d, want ≥ 0 (0 = default)", s.MaxIter)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"GradTol", s.GradTol}, {"Tol", s.Tol}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return loadlab.Invalid("dual", "PrimalSettings.%s = %v, want a finite value ≥ 0 (0 = default)", f.name, f.v)
		}
	}
	return nil
}

// PrimalResult is the reference optimum of P1 found in the primal.
type PrimalResult struct {
	X     []float64 // optimal DNS answer probabilities x*
	S     []float64 // S* = S^obs(x*), the optimal provisioned loads
	Value float64   // P(x*, S*), an upper bound on P* (the point is feasible)

	// Mu are multipliers of (9): on the Newton path μ_i = h_i'(S_i*),
	// read from the stationarity of S_i; on the LP path the solution of
	// the dual LP. Lower = D(Mu) ≤ P* is the dual value there, evaluated
	// by Eval: P* lies in [Lower, Value], a certificate that does not
	// trust the solver.
	Mu    []float64
	Lower float64

	// Status is Success when the certificate closed:
	// Value − Lower ≤ Tol·max(1, |Value|). It is never set from the
	// stopping rule of the iteration alone.
	Status loadlab.Status
	// LP reports that the problem was recognised as a linear program
	// (every f_i LinearX, every h_i Overload) and solved by simplex.
	LP bool

	Iter     int     // projected-Newton iterations (0 on the LP path)
	CGIter   int     // conjugate-gradient iterations over all Newton steps (sparse C; 0 otherwise)
	ProjGrad float64 // final ‖x − P(x − ∇P)‖_∞ (0 on the LP path)
}

// Primal solves P1 in the primal, independently of the dual method, as a
// reference. With h non-decreasing, S_i = S_i^obs(x) is optimal for a
// given x, so P1 reduces to the box-constrained convex problem
//
//	minimise F(x) = Σ_j f_j(x_j) + Σ_i h_i((B x)_i) over 0 ≤ x ≤ 1,
//
// B = Cᵀ diag(A) (spec §1.3 eq. (22)). Primal minimises F by Bertsekas'
// projected Newton method: Newton steps on the coordinates off the
// active bounds, gradient steps on the others, projection onto the box
// and an Armijo search along the projection arc. The reduced Newton
// system on the free coordinates, with the Hessian
// diag(f”) + Bᵀ diag(h”) B plus a small ridge (so costs with zero
// curvature, LinearX or Hinge below T, are handled when the other cost of
// the node is curved), is solved matrix-free by Jacobi-preconditioned
// conjugate gradients to an inexact-Newton tolerance: each product with
// the Hessian is two products with C, so an iteration costs O(nnz(C))
// per CG step and no N × N matrix is formed for a sparse C (N = 10⁴ with
// 10⁵ nonzeros: docs/benchmarks.md). The choice over a dense Cholesky
// factorisation is justified in spec §12.4.
//
// Projected Newton needs curvature: on a piecewise linear problem it can
// stall far from the optimum (excesses up to 0.2 on P* ≈ 3.7 were seen
// with LinearX and Overload). When every f_i is LinearX and every h_i is
// Overload, P1 is a linear program and Primal solves it exactly with
// gonum's lp.Simplex instead (LP is set); the multipliers come from a
// second simplex solve of the dual LP. Mixed problems with some linear
// nodes still go through projected Newton. gonum's simplex is dense and
// its time grows like N³ here (BenchmarkPrimal_LP_N50).
//
// On either path the result is certified, not trusted: Value is P1 at a
// feasible point and Lower is D(μ) at some μ ≥ 0, so P* ∈ [Lower, Value]
// always, and Status is Success only when that interval is shorter than
// Tol·max(1, |Value|). A run that stops on GradTol, MaxIter or a stall
// without closing the certificate returns the partial result, a Status
// saying why (IterationLimit, StepLimit when the line search found no
// decrease, Stagnated when the objective stopped decreasing) and an error
// wrapping loadlab.ErrNotConverged.
//
// Primal validates p (its network included) and s and returns an error
// wrapping loadlab.ErrInvalid if either is invalid or the start x = 0 is
// infeasible (a barrier cost infinite at S = 0), one wrapping
// loadlab.ErrTooLarge when the LP path's dense tableau (15 N² values)
// exceeds the memory budget, and an error if the simplex fails on the LP
// path. It panics if p is nil.
func Primal(p *Problem, s *PrimalSettings) (*PrimalResult, error) {
	if p == nil {
		panic("dual: Primal with a nil *Problem")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return primal(p, s, newPCG(p.N()))
}

// primal is Primal on a validated p and s with the Newton systems solved
// by sys (the tests also run a dense Cholesky solver on the same instance).
func primal(p *Problem, s *PrimalSettings, sys newtonSystem) (*PrimalResult, error) {
	set := PrimalSettings{MaxIter: 500, GradTol: 1e-10, Tol: 1e-9}
	if s != nil {
		set.MaxIter = cmp.Or(s.MaxIter, set.MaxIter)
		set.GradTol = cmp.Or(s.GradTol, set.GradTol)
		set.Tol = cmp.Or(s.Tol, set.Tol)
	}
	var res *PrimalResult
	stop := loadlab.Success
	if k, price, cap, ok := linearCosts(p); ok {
		var err error
		if res, err = primalLP(p, k, price, cap); err != nil {
			return nil, err
		}
	} else {
		nt, err := newNewton(p, sys)
		if err != nil {
			return nil, err
		}
		stop = nt.run(&set)
		if res, err = nt.certify(); err != nil {
			return nil, err
		}
	}
	switch {
	case closed(res.Value, res.Lower, set.Tol):
		res.Status = loadlab.Success
	case stop == loadlab.Success:
		res.Status = loadlab.Stagnated // GradTol met, yet the certificate is open
	default:
		res.Status = stop
	}
	if res.Status != loadlab.Success {
		rec := solve.Record{Status: res.Status, Iter: res.Iter}
		return res, rec.Err("dual: Primal", "certificate Value − Lower = %.3g, want ≤ %g·max(1, |Value|)", res.Value-res.Lower, set.Tol)
	}
	return res, nil
}

// newton is the state of Bertsekas' projected Newton method on the
// reduced objective F(x) = Σ f_j(x_j) + Σ h_i((B x)_i).
type newton struct {
	p              *Problem
	x, obs, xt, ot []float64 // iterate, its loads, trial point and loads
	g, hp, hc, d   []float64 // ∇F, h_i'(S_i), h_i''(S_i), direction
	fc             []float64 // f_j''(x_j)
	free           []int
	isFree         []bool
	sys            newtonSystem // solver of the reduced Newton system
	fx, pg         float64
	iter           int
	cgIter         int // total conjugate-gradient iterations (PCG systems)
}

// newtonSystem solves H_FF d_F = −g_F for the free set of nt and writes
// d_F into nt.d.
type newtonSystem interface {
	solve(nt *newton)
}

func newNewton(p *Problem, sys newtonSystem) (*newton, error) {
	n := p.N()
	mk := func() []float64 { return make([]float64, n) }
	nt := &newton{p: p, x: mk(), obs: mk(), xt: mk(), ot: mk(), g: mk(), hp: mk(), hc: mk(), d: mk(), fc: mk(),
		free: make([]int, 0, n), isFree: make([]bool, n), sys: sys}
	nt.fx = p.reduced(nt.x, p.Net.Loads(nt.obs, nt.x))
	if math.IsInf(nt.fx, 1) || math.IsNaN(nt.fx) {
		return nil, loadlab.Invalid("dual", "Primal: the start x = 0 has value %v, want a finite value (a barrier cost infinite at S = 0?)", nt.fx)
	}
	return nt, nil
}

// run iterates until the projected gradient is below GradTol (Success),
// MaxIter (IterationLimit), no Armijo step (StepLimit) or 5 iterations
// without decrease (Stagnated).
func (nt *newton) run(set *PrimalSettings) loadlab.Status {
	stall := 0
	for ; ; nt.iter++ {
		nt.gradient()
		switch {
		case nt.pg <= set.GradTol:
			return loadlab.Success
		case nt.iter >= set.MaxIter:
			return loadlab.IterationLimit
		}
		nt.direction()
		if !nt.search() {
			return loadlab.StepLimit // no further decrease representable
		}
		fn := nt.p.reduced(nt.x, nt.obs)
		if fn < nt.fx {
			stall = 0
		} else if stall++; stall >= 5 {
			nt.fx = fn
			return loadlab.Stagnated
		}
		nt.fx = fn
	}
}

// gradient computes ∇F_j = f_j'(x_j) + A_j Σ_i C_ji h_i'(S_i) (that is
// ∇F = f' + diag(A) C h', O(nnz)), the curvatures h_i” and f_j” and the
// projected gradient norm.
func (nt *newton) gradient() {
	p, nw := nt.p, nt.p.Net
	for i := range nt.hp {
		nt.hp[i] = p.H[i].Deriv(nt.obs[i])
		nt.hc[i] = curv(p.H[i], nt.obs[i])
	}
	nw.MulC(nt.g, nt.hp) // (C h')_j = Σ_i C_ji h_i'
	nt.pg = 0
	for j := range nt.x {
		nt.g[j] = p.F[j].Deriv(nt.x[j]) + nw.A[j]*nt.g[j]
		nt.fc[j] = curv(p.F[j], nt.x[j])
		nt.pg = math.Max(nt.pg, math.Abs(nt.x[j]-clip(nt.x[j]-nt.g[j], 0, 1)))
	}
}

// direction sets d: gradient steps on the coordinates held at a bound
// (Bertsekas' ε-rule), a Newton step on the free ones.
func (nt *newton) direction() {
	eps := math.Min(1e-3, nt.pg)
	nt.free = nt.free[:0]
	for j, xj := range nt.x {
		nt.isFree[j] = false
		if (xj <= eps && nt.g[j] > 0) || (xj >= 1-eps && nt.g[j] < 0) {
			nt.d[j] = -nt.g[j]
			continue
		}
		nt.free = append(nt.free, j)
		nt.isFree[j] = true
	}
	if len(nt.free) > 0 {
		nt.sys.solve(nt)
	}
}

// ridge returns the diagonal shift that keeps the reduced Newton matrix
// positive definite where a cost is flat: 1e-10 relative to its largest
// diagonal entry maxd moves the Newton step by a similar relative amount.
func ridge(maxd float64) float64 { return 1e-10*maxd + 1e-14 }

// search is the Armijo search along the projection arc P(x + t·d): the
// predicted decrease ∇F·(x − P(x + t·d)) depends on t. On success the
// trial point becomes the iterate.
func (nt *newton) search() bool {
	p := nt.p
	ls := solve.Armijo{}.Search(nt.fx, func(t float64) (float64, float64, bool) {
		var dec float64
		for j, xj := range nt.x {
			nt.xt[j] = clip(xj+t*nt.d[j], 0, 1)
			dec += nt.g[j] * (xj - nt.xt[j])
		}
		return p.reduced(nt.xt, p.Net.Loads(nt.ot, nt.xt)), dec, true
	})
	if ls.Status != loadlab.Success {
		return false
	}
	nt.x, nt.xt = nt.xt, nt.x
	nt.obs, nt.ot = nt.ot, nt.obs
	return true
}

// certify returns the result at the final iterate with the dual value at
// μ_i = h_i'(S_i) (clipped to ≥ 0, and 0 at a barrier) as the lower end
// of the certificate.
func (nt *newton) certify() (*PrimalResult, error) {
	p := nt.p
	res := &PrimalResult{X: nt.x, S: nt.obs, Value: nt.fx, Iter: nt.iter, CGIter: nt.cgIter, ProjGrad: nt.pg, Mu: make([]float64, p.N())}
	for i := range res.Mu {
		res.Mu[i] = math.Max(0, p.H[i].Deriv(nt.obs[i]))
		if math.IsInf(res.Mu[i], 1) {
			res.Mu[i] = 0
		}
	}
	pt, err := p.Eval(res.Mu)
	if err != nil {
		return nil, err
	}
	res.Lower = pt.D
	return res, nil
}

// closed reports whether the certificate [lower, value] ∋ P* is shorter
// than tol·max(1, |value|).
func closed(value, lower, tol float64) bool {
	return value-lower <= tol*math.Max(1, math.Abs(value))
}

// curv returns φ”(z), from Curver if available and by a central
// difference of the derivative otherwise.
func curv(c Cost, z float64) float64 {
	if cv, ok := c.(Curver); ok {
		return cv.Curv(z)
	}
	h := 1e-6 * math.Max(1, math.Abs(z))
	v := (c.Deriv(z+h) - c.Deriv(z-h)) / (2 * h)
	if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
