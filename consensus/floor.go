package consensus

import (
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/solve"
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
// constraints handled by the linearisation over S. w must hold a
// strictly feasible start (floorStart).
func (e *evaluator) floorSolve(w []float64, set DesignSettings, d *WeightDesign) solve.Record {
	b := newBarrier(e)
	mu := b.eval(w, 0, false).f / float64(e.n+len(w)+1)
	var rec solve.Record
	stage := 0
	for rec.Iter = 0; rec.Iter < set.MaxIter; rec.Iter++ {
		pt := b.eval(w, mu, true)
		gap := e.fwGap(w, pt.lgrad) + mu*float64(e.n)
		d.Value, d.Gap, d.Lower = pt.f, gap, pt.f-gap
		if gap <= set.Tol*pt.f {
			rec.Stop(loadlab.Success)
			return rec
		}
		dec, ok := b.newtonStep(pt)
		if !ok {
			rec.Stop(loadlab.Failure) // barrier Hessian not positive definite
			return rec
		}
		if b.centred(dec, gap, mu, stage) {
			mu /= 10 // follow the central path
			stage = 0
			continue
		}
		stage++
		ls := b.search(w, pt, mu, dec)
		rec.Evals += ls.Trials
		if ls.Status != loadlab.Success {
			mu /= 10 // no progress possible at this μ: rounding level
			continue
		}
		copy(w, b.trial)
	}
	rec.Stop(loadlab.IterationLimit)
	return rec
}

// floorStart sets w to a strictly feasible start of the variant: 0.9 of
// the budget spread uniformly when that meets the floor stably, else the
// result of phaseOne.
func (e *evaluator) floorStart(w []float64) error {
	for i := range w {
		w[i] = 0.9 * e.p.Budget / e.p.costSum() // strictly inside the budget
	}
	e.laplacian(w)
	if e.barrier() && e.value(w) != nil {
		return nil
	}
	return e.phaseOne(w)
}

// barrierPoint is φ_μ and its pieces at one w.
type barrierPoint struct {
	f, phi float64
	grad   []float64 // of φ_μ
	lgrad  []float64 // of the Lagrangian f − ⟨μP, B(w)⟩
}

// barrierMethod holds the work of the barrier Newton method.
type barrierMethod struct {
	e     *evaluator
	qb    *mat.Dense // columns Q b_e
	gram  mat.Dense  // b_eᵀQ²b_f
	hess  *mat.SymDense
	ch    dense.SPDFactor
	step  []float64
	trial []float64
}

func newBarrier(e *evaluator) *barrierMethod {
	m := len(e.p.Links)
	return &barrierMethod{e: e, qb: mat.NewDense(e.n, m, nil), hess: mat.NewSymDense(m, nil),
		step: make([]float64, m), trial: make([]float64, m)}
}

// eval returns φ_μ at w with its gradients (and the Hessian in b.hess if
// withHess), or nil outside the domain.
func (b *barrierMethod) eval(w []float64, mu float64, withHess bool) *barrierPoint {
	e, p := b.e, b.e.p
	m := len(w)
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
	pt := &barrierPoint{f: r.f, grad: make([]float64, m), lgrad: make([]float64, m)}
	logs := math.Log(slack)
	for i, l := range p.Links {
		logs += math.Log(w[i])
		pt.lgrad[i] = r.grad[i] - mu*e.bgrad[i]
		pt.grad[i] = pt.lgrad[i] - mu*(1/w[i]-l.Cost/slack)
	}
	pt.phi = r.f - mu*(e.logdet+logs)
	if withHess {
		b.hessian(w, mu, slack)
	}
	return pt
}

// hessian fills b.hess with ∇²φ_μ (see floorSolve) from Q and P in the
// evaluator.
func (b *barrierMethod) hessian(w []float64, mu, slack float64) {
	e, p := b.e, b.e.p
	gamma := p.Gamma
	q := e.qinv.RawSymmetric()
	pr := e.binv.RawSymmetric()
	at := func(raw blas64.Symmetric, i, j int) float64 {
		if i > j {
			i, j = j, i
		}
		return raw.Data[i*raw.Stride+j]
	}
	for k, l := range p.Links {
		for i := range e.n {
			b.qb.Set(i, k, at(q, i, l.U)-at(q, i, l.V))
		}
	}
	b.gram.Mul(b.qb.T(), b.qb) // b_eᵀQ²b_f
	for a, la := range p.Links {
		for c := a; c < len(w); c++ {
			lc := p.Links[c]
			qac := b.qb.At(la.U, c) - b.qb.At(la.V, c) // b_aᵀQb_c
			pac := at(pr, la.U, lc.U) - at(pr, la.U, lc.V) - at(pr, la.V, lc.U) + at(pr, la.V, lc.V)
			h := 4*gamma*gamma*qac*b.gram.At(a, c) + mu*(pac*pac+la.Cost*lc.Cost/(slack*slack))
			if a == c {
				h += mu / (w[a] * w[a])
			}
			b.hess.SetSym(a, c, h)
		}
	}
}

// newtonStep solves ∇²φ step = −∇φ into b.step and returns the squared
// Newton decrement −∇φᵀ step; false if the Hessian is not positive
// definite.
func (b *barrierMethod) newtonStep(pt *barrierPoint) (float64, bool) {
	for i := range pt.grad {
		b.step[i] = -pt.grad[i]
	}
	if b.ch.Factorize(b.hess) != nil {
		return 0, false
	}
	b.ch.SolveVec(b.step, b.step)
	var dec float64
	for i := range pt.grad {
		dec -= pt.grad[i] * b.step[i]
	}
	return dec, true
}

// centred reports whether the current μ is done: the decrement of the
// scaled barrier φ/μ is small (the scale at which Newton's method is
// affine invariant) and the certificate is near its central-path value
// μ(n + m + 1). The barrier Hessian grows like 1/μ, so a small decrement
// alone can leave a gradient error that keeps the certificate loose;
// extra Newton steps (quadratic convergence) remove it, and after 30 at
// one μ rounding is the limit and μ moves on.
func (b *barrierMethod) centred(dec, gap, mu float64, stage int) bool {
	central := 10 * mu * float64(b.e.n+len(b.step)+1)
	return dec/(2*mu) <= 1e-6 && (gap <= central || stage > 30)
}

// search is the Armijo search (C = ¼) on φ_μ along the Newton step; on
// success b.trial holds the accepted point.
func (b *barrierMethod) search(w []float64, pt *barrierPoint, mu, dec float64) solve.Step {
	return solve.Armijo{C: 0.25}.Search(pt.phi, func(t float64) (float64, float64, bool) {
		for i := range w {
			b.trial[i] = w[i] + t*b.step[i]
		}
		nt := b.eval(b.trial, mu, false)
		if nt == nil {
			return math.NaN(), 0, false
		}
		return nt.phi, t * dec, true
	})
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
			return loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "DesignWeights: eigendecomposition failed in the phase-one search")
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
			return loadlab.Invalid("consensus", "DesignWeights: no weights within Budget = %v give λ₂ > Floor = %v with γλ_n < 2 (certified: the margin min{λ₂ − Floor, 2/γ − λ_n} is at most %.3g)", p.Budget, p.Floor, bound)
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
		return loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "DesignWeights: found no weights within Budget = %v giving λ₂ > Floor = %v with γλ_n < 2 after %d phase-one steps (best margin min{λ₂ − Floor, 2/γ − λ_n} = %.3g, certified upper bound %.3g)", p.Budget, p.Floor, iters, best, bound)
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
	return loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "DesignWeights: phase one reached margin %.3g but found no interior start", h)
}
