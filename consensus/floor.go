package consensus

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// floorSolve solves the Case 1 variant of Problem A,
//
//	min ρ₁(w) = 2 tr (2I − γL(w))⁻¹ − 1   s.t.  B(w) = L(w) − s M_n + J/n ⪰ 0,  w ≥ 0,  cᵀw ≤ B,
//
// by a primal barrier method: Newton steps on
//
//	φ_μ(w) = ρ₁(w) − μ [log det B(w) + Σ_e log w_e + log(B − cᵀw)]
//
// with μ divided by 10 after each centring. Derivatives (b_e = e_u − e_v,
// Q = (2I − γL)⁻¹, P = B(w)⁻¹):
//
//	∂ρ₁/∂w_e = 2γ b_eᵀQ²b_e,   ∂²ρ₁/∂w_e∂w_f = 4γ² (b_eᵀQb_f)(b_eᵀQ²b_f),
//	∂ log det B/∂w_e = b_eᵀPb_e,   ∂² log det B/∂w_e∂w_f = −(b_eᵀPb_f)².
//
// The certificate is the one documented on DesignWeights, with
// multiplier Z = μP for the matrix constraint and the polyhedral
// constraints handled by the linearisation over S.
func (e *evaluator) floorSolve(w []float64, set DesignSettings, d *WeightDesign) (int, error) {
	p := e.p
	n, m := e.n, len(w)
	gamma := p.Gamma
	var costSum float64
	for _, l := range p.Links {
		costSum += l.Cost
	}
	for i := range w {
		w[i] = 0.9 * p.Budget / costSum // strictly inside the budget
	}
	type point struct {
		f, phi float64
		grad   []float64 // of φ_μ
		lgrad  []float64 // of the Lagrangian f − ⟨μP, B(w)⟩
	}
	qb := mat.NewDense(n, m, nil) // columns Q b_e
	var gram mat.Dense
	hess := mat.NewSymDense(m, nil)
	eval := func(w []float64, mu float64, withHess bool) *point {
		slack := p.Budget
		for i, l := range p.Links {
			if !(w[i] > 0) {
				return nil
			}
			slack -= l.Cost * w[i]
		}
		if !(slack > 0) {
			return nil
		}
		r := e.value(w) // f and ∂f, Q in e.qinv
		if r == nil || !e.barrier() {
			return nil
		}
		pt := &point{f: r.f, grad: make([]float64, m), lgrad: make([]float64, m)}
		logs := math.Log(slack)
		for i, l := range p.Links {
			logs += math.Log(w[i])
			pt.lgrad[i] = r.grad[i] - mu*e.bgrad[i]
			pt.grad[i] = pt.lgrad[i] - mu*(1/w[i]-l.Cost/slack)
		}
		pt.phi = r.f - mu*(e.logdet+logs)
		if !withHess {
			return pt
		}
		q := e.qinv.RawSymmetric()
		pr := e.binv.RawSymmetric()
		at := func(raw blas64.Symmetric, i, j int) float64 {
			if i > j {
				i, j = j, i
			}
			return raw.Data[i*raw.Stride+j]
		}
		for k, l := range p.Links {
			for i := range n {
				qb.Set(i, k, at(q, i, l.U)-at(q, i, l.V))
			}
		}
		gram.Mul(qb.T(), qb) // b_eᵀQ²b_f
		for a, la := range p.Links {
			for b := a; b < m; b++ {
				lb := p.Links[b]
				qab := qb.At(la.U, b) - qb.At(la.V, b) // b_aᵀQb_b
				pab := at(pr, la.U, lb.U) - at(pr, la.U, lb.V) - at(pr, la.V, lb.U) + at(pr, la.V, lb.V)
				h := 4*gamma*gamma*qab*gram.At(a, b) + mu*(pab*pab+la.Cost*lb.Cost/(slack*slack))
				if a == b {
					h += mu / (w[a] * w[a])
				}
				hess.SetSym(a, b, h)
			}
		}
		return pt
	}

	if eval(w, 0, false) == nil {
		return 0, fmt.Errorf("consensus: DesignWeights: uniform weights at 0.9 of the budget give no stable start with λ₂ > Floor = %v", p.Floor)
	}
	f0 := eval(w, 0, false).f
	mu := f0 / float64(n+m+1)
	var ch mat.Cholesky
	step := mat.NewVecDense(m, nil)
	rhs := mat.NewVecDense(m, nil)
	trial := make([]float64, m)
	stage := 0
	for it := 0; it < set.MaxIter; it++ {
		pt := eval(w, mu, true)
		gap := e.fwGap(w, pt.lgrad) + mu*float64(n)
		d.Value, d.Gap, d.Lower = pt.f, gap, pt.f-gap
		if gap <= set.Tol*pt.f {
			return it, nil
		}
		for i := range pt.grad {
			rhs.SetVec(i, -pt.grad[i])
		}
		if !ch.Factorize(hess) {
			return it, fmt.Errorf("consensus: DesignWeights: barrier Hessian not positive definite at gap %.3g", gap)
		}
		if err := ch.SolveVecTo(step, rhs); err != nil {
			return it, fmt.Errorf("consensus: DesignWeights: Newton step: %w", err)
		}
		var dec float64 // Newton decrement squared
		for i := range pt.grad {
			dec -= pt.grad[i] * step.AtVec(i)
		}
		// Centred when the decrement of the scaled barrier φ/μ is small
		// (the scale at which Newton's method is affine invariant) and
		// the certificate is near its central-path value μ(n + m + 1):
		// the barrier Hessian grows like 1/μ, so a small decrement alone
		// can leave a gradient error that keeps the certificate loose.
		// Extra Newton steps (quadratic convergence) remove it; after 30
		// at one μ rounding is the limit and μ moves on.
		if dec/(2*mu) <= 1e-6 && (gap <= 10*mu*float64(n+m+1) || stage > 30) {
			mu /= 10 // follow the central path
			stage = 0
			continue
		}
		stage++
		t := 1.0
		var ok bool
		for range 60 {
			for i := range w {
				trial[i] = w[i] + t*step.AtVec(i)
			}
			if nt := eval(trial, mu, false); nt != nil && nt.phi <= pt.phi-0.25*t*dec {
				ok = true
				break
			}
			t /= 2
		}
		if !ok {
			mu /= 10 // no progress possible at this μ: rounding level
			continue
		}
		copy(w, trial)
	}
	return set.MaxIter, fmt.Errorf("consensus: DesignWeights: relative gap %.3g after %d iterations, want ≤ %g", d.Gap/d.Value, set.MaxIter, set.Tol)
}
