package dual

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/solve"
)

// PrimalSettings control Primal. A nil *PrimalSettings means defaults.
type PrimalSettings struct {
	// MaxIter bounds the Newton iterations; zero means 500.
	MaxIter int
	// GradTol stops once the projected gradient ‖x − P(x − ∇P)‖_∞ is at
	// most GradTol; zero means 1e-10. The iteration also stops when the
	// objective has not decreased for 5 iterations (rounding level).
	GradTol float64
	// Tol is the certificate tolerance: Converged is set only when
	// Value − Lower ≤ Tol·max(1, |Value|). Zero means 1e-9.
	Tol float64
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

	// Converged reports that the certificate closed:
	// Value − Lower ≤ Tol·max(1, |Value|). It is never set from the
	// stopping rule of the iteration alone.
	Converged bool
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
// always, and Converged is set only when that interval is shorter than
// Tol·max(1, |Value|). A run that stops on GradTol, MaxIter or a stall
// without closing the certificate returns Converged = false and no
// error; callers that need the optimum must check Converged.
//
// Primal returns an error if the problem or the settings are invalid,
// the start x = 0 is infeasible (a barrier cost infinite at S = 0), or
// the simplex fails on the LP path.
func Primal(p *Problem, s *PrimalSettings) (*PrimalResult, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	var set PrimalSettings
	if s != nil {
		set = *s
	}
	if set.MaxIter < 0 {
		return nil, fmt.Errorf("dual: MaxIter = %d: want ≥ 0", set.MaxIter)
	}
	if set.GradTol < 0 || math.IsNaN(set.GradTol) {
		return nil, fmt.Errorf("dual: GradTol = %v: want ≥ 0", set.GradTol)
	}
	if set.Tol < 0 || math.IsNaN(set.Tol) {
		return nil, fmt.Errorf("dual: Tol = %v: want ≥ 0", set.Tol)
	}
	if set.MaxIter == 0 {
		set.MaxIter = 500
	}
	if set.GradTol == 0 {
		set.GradTol = 1e-10
	}
	if set.Tol == 0 {
		set.Tol = 1e-9
	}
	if k, price, cap, ok := linearCosts(p); ok {
		res, err := primalLP(p, k, price, cap)
		if err != nil {
			return nil, err
		}
		res.Converged = closed(res.Value, res.Lower, set.Tol)
		return res, nil
	}
	n := p.N()
	nw := p.Net
	x := make([]float64, n)
	obs := make([]float64, n)
	fx := p.reduced(x, nw.Loads(obs, x))
	if math.IsInf(fx, 1) || math.IsNaN(fx) {
		return nil, fmt.Errorf("dual: primal start x = 0 has value %v", fx)
	}
	g := make([]float64, n)
	hp := make([]float64, n) // h_i'(S_i)
	hc := make([]float64, n) // h_i''(S_i)
	d := make([]float64, n)
	xt := make([]float64, n)
	ot := make([]float64, n)
	free := make([]int, 0, n)
	hbuf := make([]float64, n*n)
	rbuf := make([]float64, n)
	var chol mat.Cholesky
	var sol mat.VecDense

	res := &PrimalResult{}
	stall := 0
	for it := 0; ; it++ {
		// Gradient ∇F_j = f_j'(x_j) + A_j Σ_i C_ji h_i'(S_i).
		for i := range hp {
			hp[i] = p.H[i].Deriv(obs[i])
			hc[i] = curv(p.H[i], obs[i])
		}
		pg := 0.0
		for j := 0; j < n; j++ {
			row := nw.C.RawRowView(j)
			var s float64
			for i, c := range row {
				s += c * hp[i]
			}
			g[j] = p.F[j].Deriv(x[j]) + nw.A[j]*s
			pg = math.Max(pg, math.Abs(x[j]-clip(x[j]-g[j], 0, 1)))
		}
		res.Iter, res.ProjGrad = it, pg
		if pg <= set.GradTol || it >= set.MaxIter {
			break
		}
		// Active set with Bertsekas' ε-rule.
		eps := math.Min(1e-3, pg)
		free = free[:0]
		for j := 0; j < n; j++ {
			if (x[j] <= eps && g[j] > 0) || (x[j] >= 1-eps && g[j] < 0) {
				d[j] = -g[j]
				continue
			}
			free = append(free, j)
		}
		if m := len(free); m > 0 {
			// Reduced Hessian H_FF = diag(f'') + (B_F)ᵀ diag(h'') B_F.
			hess := mat.NewDense(m, m, hbuf[:m*m])
			var maxd float64
			for a, j := range free {
				rj := nw.C.RawRowView(j)
				for b := a; b < m; b++ {
					k := free[b]
					rk := nw.C.RawRowView(k)
					var s float64
					for i := range rj {
						s += rj[i] * rk[i] * hc[i]
					}
					v := nw.A[j] * nw.A[k] * s
					if a == b {
						v += curv(p.F[j], x[j])
						maxd = math.Max(maxd, v)
					}
					hess.Set(a, b, v)
					hess.Set(b, a, v)
				}
				rbuf[a] = -g[j]
			}
			// The ridge keeps the factorisation defined where a cost is flat;
			// 1e-10 relative moves the Newton step by a similar relative amount.
			ridge := 1e-10*maxd + 1e-14
			for a := 0; a < m; a++ {
				hess.Set(a, a, hess.At(a, a)+ridge)
			}
			if ok := chol.Factorize(mat.NewSymDense(m, hbuf[:m*m])); !ok {
				for a, j := range free {
					d[j] = -g[j] / hess.At(a, a)
				}
			} else {
				sol.Reset()
				if err := chol.SolveVecTo(&sol, mat.NewVecDense(m, rbuf[:m])); err != nil {
					for a, j := range free {
						d[j] = -g[j] / hess.At(a, a)
					}
				} else {
					for a, j := range free {
						d[j] = sol.AtVec(a)
					}
				}
			}
		}
		// Armijo search along the projection arc: the predicted decrease
		// is ∇F·(x − P(x + t·d)), which depends on t.
		ls := solve.Armijo{}.Search(fx, func(t float64) (float64, float64, bool) {
			var dec float64
			for j := range x {
				xt[j] = clip(x[j]+t*d[j], 0, 1)
				dec += g[j] * (x[j] - xt[j])
			}
			return p.reduced(xt, nw.Loads(ot, xt)), dec, true
		})
		if ls.Status != loadlab.Success {
			break // no further decrease representable
		}
		x, xt = xt, x
		obs, ot = ot, obs
		fn := p.reduced(x, obs)
		if fn < fx {
			stall = 0
		} else if stall++; stall >= 5 {
			fx = fn
			break
		}
		fx = fn
	}
	res.X = x
	res.S = obs
	res.Value = fx
	res.Mu = make([]float64, n)
	for i := range res.Mu {
		res.Mu[i] = math.Max(0, p.H[i].Deriv(obs[i]))
		if math.IsInf(res.Mu[i], 1) {
			res.Mu[i] = 0
		}
	}
	pt, err := p.Eval(res.Mu)
	if err != nil {
		return nil, err
	}
	res.Lower = pt.D
	res.Converged = closed(res.Value, res.Lower, set.Tol)
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
