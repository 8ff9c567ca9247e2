package dual

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
)

// named reports whether err wraps one of the contract's named errors.
func named(err error) bool {
	return errors.Is(err, loadlab.ErrInvalid) || errors.Is(err, loadlab.ErrTooLarge) || errors.Is(err, loadlab.ErrNotConverged)
}

// FuzzEval feeds arbitrary multipliers to Eval: it must either reject
// them with a named error or return a finite D obeying weak duality
// against the feasible point x = 0, S = S^obs(0) = 0 and the
// super-gradient inequality (spec §8 item 19) against μ = 0.
func FuzzEval(f *testing.F) {
	f.Add(0.5, 0.2, 0.4)
	f.Add(-1.0, 0.0, 0.0)
	f.Add(math.NaN(), 1.0, 1e300)
	p, err := Quadratic(item13(), 1, 4)
	if err != nil {
		f.Fatal(err)
	}
	zero := make([]float64, 3)
	pz, _ := objective(p, zero, zero)
	p0, err := p.Eval(zero)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, a, b, c float64) {
		pt, err := p.Eval([]float64{a, b, c})
		if err != nil {
			require.ErrorIsf(t, err, loadlab.ErrInvalid, "Eval(%v, %v, %v): %v is not ErrInvalid", a, b, c, err)
			return
		}
		require.Falsef(t, math.IsNaN(pt.D) || math.IsInf(pt.D, 0), "D(%v) = %v", pt.Mu, pt.D)
		// Slack: rounding of a few order-|D| terms; μ up to 1e300 makes
		// the linear terms of that size.
		slack := 1e-9 * (1 + math.Abs(pt.D) + floats.Norm(pt.Mu, 1))
		require.Falsef(t, pt.D > pz+slack, "weak duality: D = %v > P(0, 0) = %v", pt.D, pz)
		require.Falsef(t, pt.D > p0.D+floats.Dot(p0.G, pt.Mu)+slack, "super-gradient inequality: D(μ) = %v > D(0) + g(0)·μ = %v", pt.D, p0.D+floats.Dot(p0.G, pt.Mu))
	})
}

// FuzzSolveSettings feeds arbitrary settings to Solve: bad values must
// come back as named errors; accepted runs return a result whose interval
// [Best, Upper] holds the reference optimum P*, whose Status is Success
// exactly when the certificate closed, and which took at most MaxIter
// steps. MaxIter is kept small for run time, except in the range where
// RecordDual must be refused as too large.
func FuzzSolveSettings(f *testing.F) {
	f.Add(0.05, 1e-3, 10, 0.0, 0.0, 10.0, 0.0, uint8(0), false)
	f.Add(-1.0, 0.0, 0, 1e-6, 1.0, -1.0, 2.0, uint8(2), true)
	f.Add(0.0, 0.0, 1<<40, 0.0, 0.0, 0.0, 0.0, uint8(0), true)
	p, err := Quadratic(item13(), 1, 4)
	if err != nil {
		f.Fatal(err)
	}
	ref, err := Primal(p, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, step, eps float64, iters int, tol, mu0, gamma, loss float64, rule uint8, record bool) {
		if iters > 300 && (!record || iters < 1<<32) {
			iters = 300
		}
		s := &Settings{Step: step, Eps: eps, MaxIter: iters, Tol: tol, Mu0: []float64{mu0, 0, mu0}, Rule: Rule(rule), RecordDual: record}
		if gamma != 0 {
			s.FastControl = &FastControl{Gamma: gamma, Loss: loss}
		}
		res, err := Solve(p, s)
		require.Falsef(t, err != nil && !named(err), "error %v is not a named error", err)
		if res == nil {
			return
		}
		slack := 1e-9 * (1 + math.Abs(ref.Value)) // the reference's certificate
		require.Falsef(t, res.Best > ref.Value+slack || res.Upper < ref.Value-slack, "[Best, Upper] = [%v, %v] misses P* = %v", res.Best, res.Upper, ref.Value)
		tolUsed := tol
		if tolUsed == 0 {
			tolUsed = 1e-6
		}
		require.Falsef(t, (res.Status == loadlab.Success) != certified(res.Upper, res.Best, tolUsed), "Status %v with gap %v, tol %v", res.Status, res.Gap(), tolUsed)
		require.Falsef(t, (err == nil) != (res.Status == loadlab.Success), "Status %v with error %v", res.Status, err)
		require.Falsef(t, iters > 0 && res.Iter > iters, "%d steps > MaxIter = %d", res.Iter, iters)
	})
}

// FuzzNewProblem feeds arbitrary cost parameters, caps and multipliers:
// NewProblem must reject bad parameters with ErrInvalid, never panic, and
// an accepted problem must evaluate at μ > 0 to a finite D that obeys
// weak duality (D(μ) ≤ P(0, 0), x = 0 with S = 0 is feasible) and the
// super-gradient inequality between two multipliers (spec §8 item 19).
func FuzzNewProblem(f *testing.F) {
	f.Add(1.0, 4.0, 1.0, 2.0, 0.3, 0.5, 1.0, 0.7, 0.1)
	f.Add(0.0, -1.0, math.NaN(), -3.0, 1.0, 1.0, 1.0, 0.0, 0.0)
	f.Add(1.0, 1e300, 1.0, 1.0, 1e5, 1e-5, 500.0, 0.2, 7.0)
	nw := item13()
	f.Fuzz(func(t *testing.T, w, c, s0, s1, m0, m1, kappa, tExp, tDelay float64) {
		fs := []Cost{QuadraticX{w, 2}, QuadraticX{1, 1.5}, QuadraticX{1, 1}}
		hs := []Cost{Hinge{c, 0.8}, Exp{Kappa: kappa, T: tExp}, Delay{T: tDelay}}
		p, err := NewProblem(nw, fs, hs, []float64{s0, s1, 1})
		if err != nil {
			require.ErrorIsf(t, err, loadlab.ErrInvalid, "error %v is not ErrInvalid", err)
			return
		}
		for _, v := range []float64{w, c, kappa, tDelay} {
			require.Falsef(t, !(v > 0) || math.IsInf(v, 0), "accepted a parameter %v, want finite > 0 (w, c, κ, T)", v)
		}
		require.Falsef(t, !(s0 >= 0 && s1 >= 0), "accepted SMax (%v, %v)", s0, s1)
		pz, _ := objective(p, make([]float64, 3), make([]float64, 3))
		var pts [2]*Point
		for k, mu := range [][]float64{{m0, m1, 0.3}, {m1, 0.2, m0}} {
			pt, err := p.Eval(mu)
			if err != nil {
				require.Falsef(t, !errors.Is(err, loadlab.ErrInvalid) || (mu[0] >= 0 && mu[1] >= 0 && !math.IsInf(mu[0], 0) && !math.IsInf(mu[1], 0)), "Eval(%v): %v", mu, err)
				return
			}
			require.Falsef(t, math.IsNaN(pt.D) || math.IsInf(pt.D, 0), "D(%v) = %v", mu, pt.D)
			// Slack: rounding of terms of size up to |μ|·S̄ and |D|.
			require.Falsef(t, pt.D > pz+1e-9*(1+math.Abs(pz)+math.Abs(pt.D)), "weak duality: D(%v) = %v > P(0, 0) = %v", mu, pt.D, pz)
			pts[k] = pt
		}
		a, b := pts[0], pts[1]
		diff := make([]float64, 3)
		floats.SubTo(diff, b.Mu, a.Mu)
		lin := a.D + floats.Dot(a.G, diff)
		// Slack as above, plus the rounding of g·Δμ, bounded by G‖Δμ‖₁.
		require.Falsef(t, b.D > lin+1e-9*(1+math.Abs(a.D)+math.Abs(b.D)+floats.Norm(diff, 1)*must(p.GBound())), "super-gradient inequality: D(μ') = %v > %v", b.D, lin)
	})
}

// FuzzRates feeds arbitrary multipliers and γ to Rates: bad ones must be
// named errors; accepted ones give rates whose receptions are γβ(μ)
// (spec §4.7 eq. (20)) and whose total is Overhead.
func FuzzRates(f *testing.F) {
	f.Add(1.0, 2.0, 10.0)
	f.Add(math.NaN(), 1.0, -1.0)
	nw := twoNode()
	f.Fuzz(func(t *testing.T, m0, m1, gamma float64) {
		mu := []float64{m0, m1}
		r, err := Rates(nil, nw, mu, gamma)
		if err != nil {
			require.ErrorIsf(t, err, loadlab.ErrInvalid, "error %v is not ErrInvalid", err)
			return
		}
		rec, err := Receptions(nil, nw, r)
		if err != nil {
			// γμ overflowed to +Inf in a rate: refused, not a wrong number.
			require.ErrorIs(t, err, loadlab.ErrInvalid)
			return
		}
		beta := must(Coupling(nil, nw, mu))
		for i := range rec {
			// R_i sums two products γ μ_j C_ij/C_ji·C_ji of O(1) factors:
			// a few roundings, far below 1e-12 relative.
			require.InDeltaf(t, gamma*beta[i], rec[i], 1e-12*(1+gamma*beta[i]), "R_%d against γβ_%d", i, i)
		}
	})
}
