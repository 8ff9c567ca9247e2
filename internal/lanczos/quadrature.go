package lanczos

// Probe holds what one Rademacher probe q contributes to the H2
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
// probe's estimate too (spec throttlers.md §12.9).
type Probe struct {
	Seed   uint64    // the probe's stream, so that it can be regenerated
	A      float64   // qᵀ L† q
	AFinal bool      // A is fixed (settled quadrature or a solve)
	nrm2   float64   // ‖Pq‖²
	Alpha  []float64 // diagonal of T
	Beta   []float64 // off-diagonal of T, len(Alpha) − 1 entries
}

// QuadWork is scratch space for the tridiagonal solves of Probe.
type QuadWork struct{ c, y []float64 }

// triSolve solves (σI + τT_k) y = e₁, T_k the leading k × k block of T,
// by the Thomas algorithm and returns y₁ and ‖y‖². The matrices used
// here are symmetric positive definite:
// 2I − γT for γ < 2/λ_n (eigenvalues 2 − γθ, Ritz values θ ≤ λ_n) and T
// itself (θ ≥ λ₂ > 0 on 1⊥), so no pivoting is needed.
func (p *Probe) triSolve(k int, sigma, tau float64, w *QuadWork) (y1, yy float64) {
	if cap(w.c) < k {
		w.c, w.y = make([]float64, k), make([]float64, k)
	}
	cp, y := w.c[:k], w.y[:k]
	var prevC, prevY float64
	for j := range k {
		m := sigma + tau*p.Alpha[j]
		rhs := 0.0
		if j == 0 {
			rhs = 1
		} else {
			e := tau * p.Beta[j-1]
			m -= e * prevC
			rhs -= e * prevY
		}
		if j < k-1 {
			cp[j] = tau * p.Beta[j] / m
		}
		y[j] = rhs / m
		prevC, prevY = cp[j], y[j]
	}
	for j := k - 2; j >= 0; j-- {
		y[j] -= cp[j] * y[j+1]
	}
	for _, v := range y {
		yy += v * v
	}
	return y[0], yy
}

// Shifted returns b = (Pq)ᵀ (2I − γL)⁻¹ (Pq) and c = ‖(2I − γL)⁻¹ Pq‖²
// by quadrature on T: y = (2I − γT)⁻¹ e₁, b = ‖Pq‖² y₁, c = ‖Pq‖² ‖y‖².
func (p *Probe) Shifted(gamma float64, w *QuadWork) (b, c float64) {
	return p.shiftedK(len(p.Alpha), gamma, w)
}

// shiftedK is Shifted with the leading k × k block of T (the quadrature
// after k steps).
func (p *Probe) shiftedK(k int, gamma float64, w *QuadWork) (b, c float64) {
	if k == 0 {
		return 0, 0
	}
	y1, yy := p.triSolve(k, 2, -gamma, w)
	return p.nrm2 * y1, p.nrm2 * yy
}

// ResistanceK returns the Gauss quadrature ‖Pq‖² e₁ᵀ T_k⁻¹ e₁ of
// qᵀ L† q after k steps (the value of k conjugate-gradient steps on
// L x = Pq from x = 0, increasing with k to its limit).
func (p *Probe) ResistanceK(k int, w *QuadWork) float64 {
	if k == 0 {
		return 0
	}
	y1, _ := p.triSolve(k, 0, 1, w)
	return p.nrm2 * y1
}

// CheckSteps is the number of Lanczos steps between convergence checks
// of the quadratures (each check costs O(k) per probe).
const CheckSteps = 1
