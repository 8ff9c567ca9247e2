package consensus

import (
	"errors"
	"fmt"
	"math"

	"github.com/loadlab/loadlab/linalg"
	"gonum.org/v1/gonum/mat"
)

// Rho returns the H2 dispersion measure ρ of traffic t (spec §4.3–§4.4)
// for graph g, update cycle γ and noise level σ, from one dense Cholesky
// factorisation instead of an eigendecomposition:
//
//	ρ₁  = σ² [2 tr (2I − γL)⁻¹ − 1]                       (spec §4.4 R1)
//	ρ₂  = σ² tr (γL(2I − γL))† = σ² [tr (γL(2I − γL) + J/n)⁻¹ − 1]  (R2)
//	ρ₂T = γ ρ₂                                           (Case 2T)
//
// The second form holds because γL(2I − γL) annihilates 1 and J/n adds
// the eigenvalue 1 on that direction only. Each matrix is positive
// definite exactly when γλ_n < 2, so the factorisation doubles as the
// stability test: for γλ_n ≥ 2 Rho returns +Inf and an error wrapping
// ErrUnstable. The cost is n³/3 flops for the factor and n³/3 for its
// triangular inverse (tr A⁻¹ = ‖U⁻¹‖_F² for A = UᵀU).
//
// It returns an error for a nil, empty or disconnected graph, γ not
// finite and positive, σ negative, or an unknown t.
func Rho(g *linalg.Graph, t Traffic, gamma, sigma float64) (float64, error) {
	d, err := NodalRho(nil, g, t, gamma, sigma)
	if err != nil {
		return math.Inf(1), err
	}
	var s float64
	for _, v := range d {
		s += v
	}
	return s, nil
}

// NodalRho returns the nodal H2 measures ρ_j = lim E (p_j − p̄)² of
// spec §4.3 in dst (allocated if nil), with Σ_j ρ_j = ρ:
//
//	ρ₁,j = σ² [2 ((2I − γL)⁻¹)_jj − 1/n]
//	ρ₂,j = σ² [((γL(2I − γL) + J/n)⁻¹)_jj − 1/n],   ρ₂T,j = γ ρ₂,j.
//
// The ρ₁ form follows from the stationary covariance
// σ² [2 (2I − γL)⁻¹ − J/n] of M_n p in Case 1 (spec §4.4 R1, whose
// eigenvalues are σ² 2/(2 − γλ_i) on 1⊥). Errors are as for Rho. It
// panics if dst is non-nil with a length other than g.Order().
func NodalRho(dst []float64, g *linalg.Graph, t Traffic, gamma, sigma float64) ([]float64, error) {
	if err := checkGraph(g); err != nil {
		return nil, err
	}
	if err := checkRhoArgs(t, gamma, sigma); err != nil {
		return nil, err
	}
	n := g.Order()
	if dst == nil {
		dst = make([]float64, n)
	} else if len(dst) != n {
		panic(fmt.Sprintf("consensus: NodalRho: len(dst) = %d, want %d", len(dst), n))
	}
	var a *mat.SymDense
	if t == Case1 {
		a = shiftedLaplacian(g, gamma)
	} else {
		a = h2Matrix(g, gamma)
	}
	if !inverseDiag(dst, a) {
		return nil, fmt.Errorf("%w: γ = %v (the Cholesky factorisation failed)", ErrUnstable, gamma)
	}
	v := sigma * sigma
	c := 1 / float64(n)
	for j := range dst {
		switch t {
		case Case1:
			dst[j] = v * (2*dst[j] - c)
		case Case2:
			dst[j] = v * (dst[j] - c)
		case Case2T:
			dst[j] = v * gamma * (dst[j] - c)
		}
	}
	return dst, nil
}

// shiftedLaplacian returns 2I − γL, whose inverse gives ρ₁ (spec §4.4
// R1) and whose positive definiteness is stability (spec §4.1).
func shiftedLaplacian(g *linalg.Graph, gamma float64) *mat.SymDense {
	a := g.Laplacian()
	raw := a.RawSymmetric()
	n := raw.N
	for i := range n {
		row := raw.Data[i*raw.Stride+i : i*raw.Stride+n]
		for j := range row {
			row[j] *= -gamma
		}
		row[0] += 2
	}
	return a
}

// h2Matrix returns γL(2I − γL) + J/n = 2γL − γ²L² + J/n (spec §4.4 R2
// with the conserved mode lifted to eigenvalue 1), forming L²
// from the adjacency lists in O(n² + Σ_u deg(u)²) rather than by a dense
// product.
func h2Matrix(g *linalg.Graph, gamma float64) *mat.SymDense {
	n := g.Order()
	data := make([]float64, n*n)
	c := 1 / float64(n)
	for i := range data {
		data[i] = c
	}
	deg := make([]float64, n)
	for u := range n {
		deg[u] = g.WeightedDegree(u)
	}
	g2 := gamma * gamma
	for u := range n {
		row := data[u*n : (u+1)*n]
		// Row u of L is d_u e_u − Σ_k w_uk e_k; row u of L² is
		// d_u (row u of L) − Σ_k w_uk (row k of L).
		du := deg[u]
		row[u] += 2*gamma*du - g2*du*du
		wu := g.Weights(u)
		for i, k := range g.Neighbors(u) {
			w := wu[i]
			// e_k: 2γ(−w) − γ² d_u (−w) − γ² (−w) d_k
			row[k] += -2*gamma*w + g2*w*(du+deg[k])
			// e_v for v ~ k: −γ² (−w)(−w_kv); v = u gives the w² terms of (L²)_uu.
			wk := g.Weights(int(k))
			for j, v := range g.Neighbors(int(k)) {
				row[v] -= g2 * w * wk[j]
			}
		}
	}
	return mat.NewSymDense(n, data)
}

// inverseDiag writes the diagonal of a⁻¹ into dst via a Cholesky
// factorisation a = UᵀU: a⁻¹ = VVᵀ with V = U⁻¹, so (a⁻¹)_jj = ‖row j
// of V‖². It reports false if a is not numerically positive definite.
func inverseDiag(dst []float64, a *mat.SymDense) bool {
	var ch mat.Cholesky
	if !ch.Factorize(a) {
		return false
	}
	var u, v mat.TriDense
	ch.UTo(&u)
	if err := v.InverseTri(&u); err != nil {
		var c mat.Condition
		if !errors.As(err, &c) {
			return false
		}
	}
	raw := v.RawTriangular()
	n := raw.N
	for j := range n {
		row := raw.Data[j*raw.Stride+j : j*raw.Stride+n]
		var s float64
		for _, x := range row {
			s += x * x
		}
		dst[j] = s
	}
	return true
}
