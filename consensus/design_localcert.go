package consensus

import (
	"math"
	"slices"

	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/solve"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// The polynomial dual certificate of the local path (spec §13.12,
// "Local path"): for a polynomial p(L) = Σ_k c_k T_k(S) of degree h and
// X = α² p(L)² on 1⊥, tr X^(1/2) ≥ α cᵀt and b_eᵀXb_e = α² cᵀG_e c, so
// that f* ≥ 2α cᵀt − α² M(s(c)) for every α, and at the best α
//
//	f* ≥ (cᵀt)² / M(s(c)),   s_e(c) = cᵀG_e c,   cᵀt > 0,
//
// exact (every term from local moments) for any c. The best c solves
// min_{v feasible} tᵀG(v)⁻¹t, G(v) = Σ_e v_e G_e, whose value φ(v)
// bounds every such certificate from above; Frank–Wolfe over v (the
// vertex from M's knapsack, an exact line search on φ) gives c = G(v)⁻¹t
// at each iterate.

// polyBound returns the best certificate of localFWIter Frank–Wolfe
// iterations started at v = w, stopping early when φ(v) is within
// localFWGap of it.
func (p TraceWeightProblem) polyBound(mom *linkMoments, w []float64) float64 {
	s := make([]float64, len(w))
	var best float64
	mom.frankWolfe(w, p.Lo, func(mv []float64) func(visit func(int, float64)) bool {
		c, phi, ok := polyDual(mv, mom.t)
		if !ok {
			return nil
		}
		mom.quads(quadCoef(c), w, s)
		if ct := dense.Dot(c, mom.t); ct > 0 {
			best = max(best, ct*ct/p.lmo(s))
		}
		if phi-best <= localFWGap*phi {
			return nil
		}
		return func(visit func(int, float64)) bool { p.minVertex(negated(s), nil, visit); return true }
	}, func(mv []float64) float64 {
		_, f, ok := polyDual(mv, mom.t)
		if !ok {
			return math.Inf(1)
		}
		return f
	})
	return best
}

// frankWolfe runs localFWIter Frank–Wolfe iterations on a convex
// function φ of the aggregated moments of G(v) = Σ_e v_e G_e, from v = w
// (spec §13.12, "Local path"): step scores the iterate's moments and
// returns its vertex — a visitor handing each link the vertex raises
// above its lower bound lo_e, with the weight added, and reporting
// whether there is one — or nil to stop; the step to the vertex is an
// exact line search (golden section) on phi.
func (mom *linkMoments) frankWolfe(w, lo []float64, step func(mv []float64) func(visit func(int, float64)) bool, phi func(mv []float64) float64) {
	k1 := 2*mom.h + 1
	mv, mlo := mom.aggregate(w), mom.aggregate(lo)
	mu, trial := make([]float64, k1), make([]float64, k1)
	at := func(eta float64) []float64 { // (1 − η) mv + η mu
		for k := range trial {
			trial[k] = (1-eta)*mv[k] + eta*mu[k]
		}
		return trial
	}
	for range localFWIter {
		vertex := step(mv)
		if vertex == nil {
			return
		}
		copy(mu, mlo)
		if !vertex(func(i int, add float64) {
			for k, v := range mom.mu[i*k1 : (i+1)*k1] {
				mu[k] += add * v
			}
		}) {
			return
		}
		_, _, eta, _ := solve.Golden(func(eta float64) float64 { return phi(at(eta)) }, 0, 1, 1e-6)
		copy(mv, at(eta))
	}
}

// aggregate returns Σ_e v_e μ(e), the moments of G(v).
func (mom *linkMoments) aggregate(v []float64) []float64 {
	k1 := 2*mom.h + 1
	out := make([]float64, k1)
	for i, vi := range v {
		if vi == 0 {
			continue
		}
		for k, x := range mom.mu[i*k1 : (i+1)*k1] {
			out[k] += vi * x
		}
	}
	return out
}

// polyDual returns c = G⁻¹t and φ = tᵀG⁻¹t for G_jk = (μ_{j+k} +
// μ_{|j−k|})/2 built from the aggregated moments mu; ok is false when G
// is not numerically positive definite.
func polyDual(mu, t []float64) (c []float64, phi float64, ok bool) {
	return hankelSolve(mu, t, 1, nil, 0)
}

// hankelSolve returns x = A⁻¹t and tᵀx for the (h+1)×(h+1) matrix
// A_jk = a·(μ_{j+k} + μ_{|j−k|})/2 + b·B_jk (B ignored when nil), h =
// len(t) − 1, by an unpivoted Cholesky factorisation without a condition
// estimate (the matrices are of order at most localMaxDepth + 1 and are
// factored thousands of times per certificate); ok is false when A is
// not numerically positive definite.
func hankelSolve(mu, t []float64, a float64, bm *mat.SymDense, b float64) (x []float64, xt float64, ok bool) {
	n := len(t)
	m := make([]float64, n*n)
	for j := range n {
		for k := j; k < n; k++ {
			m[j*n+k] = a * (mu[j+k] + mu[k-j]) / 2
			if bm != nil {
				m[j*n+k] += b * bm.At(j, k)
			}
		}
	}
	u, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: n, Stride: n, Data: m})
	if !ok {
		return nil, 0, false
	}
	x = slices.Clone(t)
	lapack64.Potrs(u, blas64.General{Rows: n, Cols: 1, Stride: 1, Data: x})
	return x, dense.Dot(x, t), true
}
