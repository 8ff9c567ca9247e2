package linalg

import (
	"math"

	"github.com/loadlab/loadlab"
)

// probeQuad holds what one Rademacher probe q contributes to the H2
// functions of every γ: the resistance term a = qᵀ L† q (independent of
// γ) and the Lanczos tridiagonal T of L started from Pq (P the projection
// onto 1⊥), from which the Gauss quadratures
//
//	(Pq)ᵀ f(L) (Pq) ≈ ‖Pq‖² e₁ᵀ f(T) e₁
//
// of f(λ) = 1/(2 − γλ) and 1/(2 − γλ)² follow in O(k) for any γ
// (stochastic Lanczos quadrature; Golub and Meurant, Matrices, Moments and
// Quadrature, 2010, ch. 7). T's eigenvalues (the nodes) lie in
// [λ₂, λ_n] and its weights are positive, so every per-probe value below
// is a positive combination of the scalar function at points of the
// spectrum: the monotonicity in γ of each spectral sum holds for each
// probe's estimate too.
type probeQuad struct {
	seed  uint64    // the probe's stream, so that it can be regenerated
	a     float64   // qᵀ L† q
	nrm2  float64   // ‖Pq‖²
	alpha []float64 // diagonal of T
	beta  []float64 // off-diagonal of T, len(alpha) − 1 entries
}

// quadWork is scratch space for the tridiagonal solves of probeQuad.
type quadWork struct{ c, y []float64 }

// shifted returns b = (Pq)ᵀ (2I − γL)⁻¹ (Pq) and c = ‖(2I − γL)⁻¹ Pq‖²
// by quadrature on T: y = (2I − γT)⁻¹ e₁, b = ‖Pq‖² y₁, c = ‖Pq‖² ‖y‖².
// 2I − γT is symmetric positive definite for γ < 2/λ_n (its eigenvalues
// are 2 − γθ with Ritz values θ ≤ λ_n), so the Thomas algorithm needs no
// pivoting.
func (p *probeQuad) shifted(gamma float64, w *quadWork) (b, c float64) {
	k := len(p.alpha)
	if k == 0 {
		return 0, 0
	}
	if cap(w.c) < k {
		w.c, w.y = make([]float64, k), make([]float64, k)
	}
	cp, y := w.c[:k], w.y[:k]
	// Forward elimination of M y = e₁, M_jj = 2 − γα_j, M_j,j+1 = −γβ_j.
	var prevC, prevY float64
	for j := range k {
		m := 2 - gamma*p.alpha[j]
		rhs := 0.0
		if j == 0 {
			rhs = 1
		} else {
			e := -gamma * p.beta[j-1]
			m -= e * prevC
			rhs -= e * prevY
		}
		if j < k-1 {
			cp[j] = -gamma * p.beta[j] / m
		}
		y[j] = rhs / m
		prevC, prevY = cp[j], y[j]
	}
	for j := k - 2; j >= 0; j-- {
		y[j] -= cp[j] * y[j+1]
	}
	var ss float64
	for _, v := range y {
		ss += v * v
	}
	return p.nrm2 * y[0], p.nrm2 * ss
}

// h2Sample holds one probe's values of the H2 functions at γ (σ = 1):
// with b and c from shifted and a = qᵀ L† q,
//
//	ρ₂ = ½ (a/γ + b),   ρ₁ = 2b,
//	g  = a/4 + γb/4 − γc/2,
//
// the last from the partial fractions (1 − t)/(t(2 − t)²) =
// 1/(4t) + 1/(4(2 − t)) − 1/(2(2 − t)²) with t = γλ, multiplied by γ:
// Σ_{i≥2} (1 − γλ_i)/(λ_i (2 − γλ_i)²) = g(γ) of spec throttlers.md §5.1.
func (p *probeQuad) sample(gamma float64, w *quadWork) (rho2, rho1, g float64) {
	b, c := p.shifted(gamma, w)
	return (p.a/gamma + b) / 2, 2 * b, p.a/4 + gamma*b/4 - gamma*c/2
}

// lanczosTol is the relative change of the quadratures between two
// checks at which the Lanczos recurrence stops: far below any requested
// relative accuracy (≥ 1e-6 is reasonable), so the quadrature error is
// negligible against the sampling error. Gauss quadrature of
// 1/(2 − γλ) (all even derivatives positive) increases monotonically to
// its limit, so the change between checks bounds the remaining error up
// to the convergence factor.
const lanczosTol = 1e-9

// lanczosCheck is the number of Lanczos steps between convergence checks.
const lanczosCheck = 5

// lanczosWork holds the three Lanczos vectors of one probe's run.
type lanczosWork struct {
	op       *LaplacianOperator
	v, vp, w []float64
	qw       quadWork
}

func newLanczosWork(op *LaplacianOperator) *lanczosWork {
	n := op.n
	return &lanczosWork{op: op, v: make([]float64, n), vp: make([]float64, n), w: make([]float64, n)}
}

// run runs the Lanczos recurrence of L from v = Pq/‖Pq‖ without
// reorthogonalisation (the quadrature of finite-precision Lanczos
// converges as in exact arithmetic: Greenbaum, Linear Algebra Appl. 113,
// 1989; Knizhnerman 1996) and stores T in p, stopping when the
// quadratures at γ = gcap change by less than lanczosTol between checks,
// at an invariant subspace, or after maxSteps steps (then it returns an
// error wrapping loadlab.ErrNotConverged). Every γ ≤ gcap converges at
// least as fast as gcap: the pole 2/γ of f moves away from the spectrum.
// It returns the number of products with L.
func (lw *lanczosWork) run(p *probeQuad, pq []float64, gcap float64, maxSteps int) (int, error) {
	p.alpha, p.beta = p.alpha[:0], p.beta[:0]
	p.nrm2 = dot(pq, pq)
	if p.nrm2 == 0 {
		return 0, nil
	}
	inv := 1 / math.Sqrt(p.nrm2)
	for i, x := range pq {
		lw.v[i], lw.vp[i] = x*inv, 0
	}
	var lastB, lastC, scale float64
	var beta float64
	for k := 1; k <= maxSteps; k++ {
		lw.op.Apply(lw.w, lw.v)
		alpha := dot(lw.w, lw.v)
		scale = max(scale, math.Abs(alpha))
		var mean float64
		for i := range lw.w {
			lw.w[i] -= alpha*lw.v[i] + beta*lw.vp[i]
			mean += lw.w[i]
		}
		// Re-project onto 1⊥: rounding leaks a component along the
		// constants, which T would see as a spurious eigenvalue 0.
		mean /= float64(len(lw.w))
		for i := range lw.w {
			lw.w[i] -= mean
		}
		p.alpha = append(p.alpha, alpha)
		beta = math.Sqrt(dot(lw.w, lw.w))
		if beta <= 1e-14*scale {
			return k, nil // invariant subspace: the quadrature is exact
		}
		if k%lanczosCheck == 0 {
			b, c := p.shifted(gcap, &lw.qw)
			if math.Abs(b-lastB) <= lanczosTol*b && math.Abs(c-lastC) <= lanczosTol*c {
				return k, nil
			}
			lastB, lastC = b, c
		}
		p.beta = append(p.beta, beta)
		lw.vp, lw.v, lw.w = lw.v, lw.w, lw.vp
		for i := range lw.v {
			lw.v[i] /= beta
		}
	}
	p.beta = p.beta[:len(p.alpha)-1]
	return maxSteps, loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "Lanczos quadrature at γ = %.6g did not settle in %d steps", gcap, maxSteps)
}
