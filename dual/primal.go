package dual

import (
	"cmp"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
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
// and an Armijo search along the projection arc. The Hessian
// diag(f”) + Bᵀ diag(h”) B is factorised by Cholesky with a small
// ridge, so costs with zero curvature (LinearX, Hinge below T) are
// handled when the other cost of the node is curved. Each iteration
// costs O(N³).
//
// Projected Newton needs curvature: on a piecewise linear problem it can
// stall far from the optimum (excesses up to 0.2 on P* ≈ 3.7 were seen
// with LinearX and Overload). When every f_i is LinearX and every h_i is
// Overload, P1 is a linear program and Primal solves it exactly with
// gonum's lp.Simplex instead (LP is set); the multipliers come from a
// second simplex solve of the dual LP. Mixed problems with some linear
// nodes still go through projected Newton. gonum's simplex is dense and
// grows like N³ here: about 0.2 s at N = 50 and 1.6 s at N = 100 on two
// loaded cores (BenchmarkPrimal_LP_N50).
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
// infeasible (a barrier cost infinite at S = 0), and an error if the
// simplex fails on the LP path. It panics if p is nil.
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
	set := PrimalSettings{MaxIter: 500, GradTol: 1e-10, Tol: 1e-9}
	if s != nil {
		set.MaxIter = cmp.Or(s.MaxIter, set.MaxIter)
		set.GradTol = cmp.Or(s.GradTol, set.GradTol)
		set.Tol = cmp.Or(s.Tol, set.Tol)
	}
	p = densified(p) // the Newton systems and the LP read C densely
	var res *PrimalResult
	stop := loadlab.Success
	if k, price, cap, ok := linearCosts(p); ok {
		var err error
		if res, err = primalLP(p, k, price, cap); err != nil {
			return nil, err
		}
	} else {
		nt, err := newNewton(p)
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
	free           []int
	hbuf, rbuf     []float64
	chol           mat.Cholesky
	sol            mat.VecDense
	fx, pg         float64
	iter           int
}

func newNewton(p *Problem) (*newton, error) {
	n := p.N()
	mk := func() []float64 { return make([]float64, n) }
	nt := &newton{p: p, x: mk(), obs: mk(), xt: mk(), ot: mk(), g: mk(), hp: mk(), hc: mk(), d: mk(),
		free: make([]int, 0, n), hbuf: make([]float64, n*n), rbuf: mk()}
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

// gradient computes ∇F_j = f_j'(x_j) + A_j Σ_i C_ji h_i'(S_i), the
// curvatures h_i” and the projected gradient norm.
func (nt *newton) gradient() {
	p, nw := nt.p, nt.p.Net
	for i := range nt.hp {
		nt.hp[i] = p.H[i].Deriv(nt.obs[i])
		nt.hc[i] = curv(p.H[i], nt.obs[i])
	}
	nt.pg = 0
	for j := range nt.x {
		var s float64
		for i, c := range nw.C.RawRowView(j) {
			s += c * nt.hp[i]
		}
		nt.g[j] = p.F[j].Deriv(nt.x[j]) + nw.A[j]*s
		nt.pg = math.Max(nt.pg, math.Abs(nt.x[j]-clip(nt.x[j]-nt.g[j], 0, 1)))
	}
}

// direction sets d: gradient steps on the coordinates held at a bound
// (Bertsekas' ε-rule), a Newton step on the free ones.
func (nt *newton) direction() {
	eps := math.Min(1e-3, nt.pg)
	nt.free = nt.free[:0]
	for j, xj := range nt.x {
		if (xj <= eps && nt.g[j] > 0) || (xj >= 1-eps && nt.g[j] < 0) {
			nt.d[j] = -nt.g[j]
			continue
		}
		nt.free = append(nt.free, j)
	}
	if len(nt.free) > 0 {
		nt.newtonStep()
	}
}

// newtonStep solves the reduced Newton system H_FF d_F = −g_F with
// H_FF = diag(f”) + (B_F)ᵀ diag(h”) B_F, falling back on the diagonal
// when the factorisation fails.
func (nt *newton) newtonStep() {
	p, nw, m := nt.p, nt.p.Net, len(nt.free)
	hess := mat.NewDense(m, m, nt.hbuf[:m*m])
	var maxd float64
	for a, j := range nt.free {
		rj := nw.C.RawRowView(j)
		for b := a; b < m; b++ {
			k := nt.free[b]
			rk := nw.C.RawRowView(k)
			var s float64
			for i := range rj {
				s += rj[i] * rk[i] * nt.hc[i]
			}
			v := nw.A[j] * nw.A[k] * s
			if a == b {
				v += curv(p.F[j], nt.x[j])
				maxd = math.Max(maxd, v)
			}
			hess.Set(a, b, v)
			hess.Set(b, a, v)
		}
		nt.rbuf[a] = -nt.g[j]
	}
	// The ridge keeps the factorisation defined where a cost is flat;
	// 1e-10 relative moves the Newton step by a similar relative amount.
	ridge := 1e-10*maxd + 1e-14
	for a := 0; a < m; a++ {
		hess.Set(a, a, hess.At(a, a)+ridge)
	}
	if nt.chol.Factorize(mat.NewSymDense(m, nt.hbuf[:m*m])) {
		nt.sol.Reset()
		if nt.chol.SolveVecTo(&nt.sol, mat.NewVecDense(m, nt.rbuf[:m])) == nil {
			for a, j := range nt.free {
				nt.d[j] = nt.sol.AtVec(a)
			}
			return
		}
	}
	for a, j := range nt.free {
		nt.d[j] = -nt.g[j] / hess.At(a, a)
	}
}

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
	res := &PrimalResult{X: nt.x, S: nt.obs, Value: nt.fx, Iter: nt.iter, ProjGrad: nt.pg, Mu: make([]float64, p.N())}
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

// densified returns p itself for a dense network, and a shallow copy
// whose network holds a dense copy of a sparse C otherwise (O(N²)
// memory): the paths that read C densely (Primal, the LP, FastControl)
// run on sparse input with the same numbers, but not at O(nnz).
func densified(p *Problem) *Problem {
	if p == nil || p.Net == nil || p.Net.Sparse == nil {
		return p
	}
	q := *p
	q.Net = denseNet(p.Net)
	return &q
}

// denseNet returns nw, or a copy with a sparse C stored densely.
func denseNet(nw *anycast.Network) *anycast.Network {
	if nw == nil || nw.Sparse == nil {
		return nw
	}
	return &anycast.Network{A: nw.A, C: mat.DenseCopyOf(nw.Sparse), T: nw.T}
}
