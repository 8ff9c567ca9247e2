package consensus

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab/linalg"
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
	costSum := p.costSum()
	for i := range w {
		w[i] = 0.9 * p.Budget / costSum // strictly inside the budget
	}
	e.laplacian(w)
	if e.barrier() && e.value(w) != nil {
		// uniform weights are a strictly feasible start
	} else if err := e.phaseOne(w); err != nil {
		return 0, err
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

	f0 := eval(w, 0, false).f
	mu := f0 / float64(n+m+1)
	var ch linalg.SPDFactor
	step := make([]float64, m)
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
			step[i] = -pt.grad[i]
		}
		if ch.Factorize(hess) != nil {
			return it, fmt.Errorf("consensus: DesignWeights: barrier Hessian not positive definite at gap %.3g", gap)
		}
		ch.SolveVec(step, step)
		var dec float64 // Newton decrement squared
		for i := range pt.grad {
			dec -= pt.grad[i] * step[i]
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
				trial[i] = w[i] + t*step[i]
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

// floorBound returns an upper bound on max_S (λ₂(L(w)) − s) from the
// eigenvectors v_2, …, v_{K+1} of the current L (columns 1..K of vecs,
// orthonormal and ⊥ 1). For weights z_j ≥ 0 with Σ z_j = 1,
// λ₂(L(w')) ≤ Σ_j z_j v_jᵀL(w')v_j (the smallest Rayleigh quotient on 1⊥
// is at most a weighted average of others), a linear function of w'
// whose maximum over S is B·φ(z), φ(z) = max_e Σ_j z_j (v_j(u) − v_j(v))²/c_e.
// Every z gives a valid bound, and at a multiple λ₂ a mixture over its
// eigenvectors is far tighter than one vector; z is improved by a short
// exponentiated-gradient descent on the convex φ. a is scratch of
// length K·m.
func (e *evaluator) floorBound(vecs *mat.Dense, a []float64) float64 {
	p := e.p
	m := len(p.Links)
	k := min(e.n-1, floorVectors)
	for j := range k {
		for i, l := range p.Links {
			d := vecs.At(l.U, j+1) - vecs.At(l.V, j+1)
			a[j*m+i] = d * d / l.Cost
		}
	}
	var z [floorVectors]float64
	for j := range k {
		z[j] = 1 / float64(k)
	}
	best := math.Inf(1)
	var scale float64 // step scale: 1/max entry
	for _, v := range a[:k*m] {
		scale = max(scale, v)
	}
	if scale == 0 {
		return -p.Floor
	}
	for it := range 100 {
		phi, arg := 0.0, 0
		for i := range m {
			var s float64
			for j := range k {
				s += z[j] * a[j*m+i]
			}
			if s > phi {
				phi, arg = s, i
			}
		}
		best = min(best, phi)
		// z ← z ∘ exp(−η a_{·,arg}), normalised; η ∝ 1/√t.
		eta := 2 / (scale * math.Sqrt(float64(it+1)))
		var sum float64
		for j := range k {
			z[j] *= math.Exp(-eta * a[j*m+arg])
			sum += z[j]
		}
		for j := range k {
			z[j] /= sum
		}
	}
	return p.Budget*best - p.Floor
}

// floorVectors is the number of eigenvectors floorBound mixes.
const floorVectors = 8

// phaseOne finds a strictly feasible start for floorSolve when uniform
// weights are not one. It maximises the concave margin
//
//	h(w) = min{λ₂(L(w)) − s, 2/γ − λ_n(L(w))}
//
// over S = {w ≥ 0, cᵀw ≤ B} by projected supergradient ascent:
// λ₂(L(w')) ≤ Σ_e w'_e (v_u − v_v)² for a unit Fiedler vector v of L(w)
// and λ_n(L(w')) ≥ Σ_e w'_e (z_u − z_v)² for a unit top eigenvector z,
// so g = ((v_u − v_v)²)_e, or −((z_u − z_v)²)_e when the second term is
// the smaller, is a supergradient of h. The same bounds certify
// infeasibility: max_S h ≤ U = h(w) + max_{w'∈S} gᵀ(w' − w), tightened
// by floorBound's mixture over several eigenvectors, and when U ≤ 0 no
// design meets the floor stably. The steps are Polyak steps
// (τ − h)/‖g‖² toward the level τ midway between the best margin found
// and the smallest bound U. Just above the largest reachable floor the
// bounds, taken at the iterates, can stay positive, and the search ends
// without either outcome. Once h > 0 the point is
// moved into the interior (every w_e > 0, cᵀw < B) by mixing in a
// little of the uniform allocation at half the budget; h is concave and
// continuous, so a small enough share keeps it positive. On success w
// holds the start.
func (e *evaluator) phaseOne(w []float64) error {
	p := e.p
	n, m := e.n, len(w)
	const iters = 500
	costSum := p.costSum()
	g := make([]float64, m)
	ga := make([]float64, floorVectors*m)
	y := make([]float64, m)
	idx := make([]int, 0, m)
	var eig mat.EigenSym
	var vecs mat.Dense
	bound := math.Inf(1) // certified upper bound on max_S h
	h, best := math.Inf(-1), math.Inf(-1)
	for range iters {
		e.laplacian(w)
		if !eig.Factorize(e.l, true) {
			return errors.New("consensus: DesignWeights: eigendecomposition failed in the phase-one search")
		}
		vals := eig.Values(nil)
		eig.VectorsTo(&vecs)
		col, sign := 1, 1.0
		h = vals[1] - p.Floor
		if hn := 2/p.Gamma - vals[n-1]; hn < h {
			h, col, sign = hn, n-1, -1
		}
		var gn, gw, gmax float64
		for i, l := range p.Links {
			d := vecs.At(l.U, col) - vecs.At(l.V, col)
			g[i] = sign * d * d
			gn += g[i] * g[i]
			gw += g[i] * w[i]
			gmax = max(gmax, g[i]/l.Cost)
		}
		bound = min(bound, h-gw+p.Budget*gmax, e.floorBound(&vecs, ga))
		best = max(best, h)
		if h > 0 {
			break
		}
		if bound <= 0 {
			return fmt.Errorf("consensus: DesignWeights: no weights within Budget = %v give λ₂ > Floor = %v with γλ_n < 2 (certified: the margin min{λ₂ − Floor, 2/γ − λ_n} is at most %.3g)", p.Budget, p.Floor, bound)
		}
		// Polyak step toward the level midway between the best margin
		// found (≤ 0 here) and the certified bound (> 0 here).
		step := ((best+bound)/2 - h) / gn
		for i := range y {
			y[i] = w[i] + step*g[i]
		}
		e.project(w, y, idx)
	}
	if !(h > 0) {
		return fmt.Errorf("consensus: DesignWeights: found no weights within Budget = %v giving λ₂ > Floor = %v with γλ_n < 2 after %d phase-one steps (best margin min{λ₂ − Floor, 2/γ − λ_n} = %.3g, certified upper bound %.3g)", p.Budget, p.Floor, iters, best, bound)
	}
	base := slices.Clone(w)
	u := 0.5 * p.Budget / costSum
	theta := 0.5
	for range 60 {
		for i := range w {
			w[i] = (1-theta)*base[i] + theta*u
		}
		e.laplacian(w)
		if e.barrier() && e.value(w) != nil {
			return nil
		}
		theta /= 2
	}
	return fmt.Errorf("consensus: DesignWeights: phase one reached margin %.3g but found no interior start", h)
}
