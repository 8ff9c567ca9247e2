package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Rho returns the H2 dispersion measure ρ of traffic t (spec §4.3–§4.4)
// for the throttler th (graph and update cycle γ; Measure must be Amount,
// the linear measure the closed forms are for) and noise level σ, from
// dense Cholesky
// factorisations instead of an eigendecomposition. With
// 1/(a(2 − a)) = ½ (1/a + 1/(2 − a)) for a = γλ_i,
//
//	ρ₁  = σ² [2 tr (2I − γL)⁻¹ − 1]                        (spec §4.4 R1)
//	ρ₂  = σ²/2 [tr L†/γ + tr (2I − γL)⁻¹ − ½]               (spec §4.4 R2)
//	ρ₂T = γ ρ₂                                            (Case 2T)
//
// (tr (2I − γL)⁻¹ includes ½ from the conserved mode λ₁ = 0.) Each trace
// is one factor-and-invert pass of the kind spectral's Kirchhoff index
// makes: a Cholesky factor A = UᵀU and tr A⁻¹ = ‖U⁻¹‖_F², 2n³/3 flops;
// L† comes from A = L + αJ/n (dense.Lift); the two passes of ρ₂ run on
// two goroutines. On sparse graphs (Σ_k deg(k)² ≤ n³/20) ρ₂ takes one
// pass instead, on H = γL(2I − γL) + J/n formed from the adjacency
// lists, ρ₂ = σ² [tr H⁻¹ − 1]; where H is not safely positive definite
// (near γλ_n = 2 or λ₂ = 0) the two passes decide. 2I − γL is positive definite
// exactly when γλ_n < 2, so its factorisation doubles as the stability
// test.
//
// Errors (with ρ = +Inf): ErrUnstable when 2I − γL is not numerically
// positive definite or so ill conditioned (condition estimate above
// spectral.MaxCondition) that γλ_n lies within its rounding error of 2
// (the stability limit, where ρ has no correct digits); ErrIllConditioned
// for ρ₂ and ρ₂T when L + αJ/n is (a nearly disconnected graph, as
// spectral.KirchhoffIndex refuses it); ErrInvalid for an invalid
// throttler (see Throttler.Validate; ErrDisconnected for a disconnected
// graph), a Measure other than Amount, σ negative or not finite, or an
// unknown t; ErrTooLarge when the dense n×n work exceeds the memory
// budget. It panics if th is nil.
//
// The value is exact to rounding. On sparse graphs (where
// spectral.NewShiftedLaplacian's Path is Sparse) the traces come instead
// from sparse Cholesky factorisations of 2I − γL and of the grounded
// Laplacian and their selected inverses (spec sparse-cholesky.md §5), at
// any size where the factors fit cholesky's default limits. Above
// spectral.DenseMaxNodes nodes, where the factor does not fit (graphs
// whose factor fills in, such as large expanders), Rho returns an error
// wrapping loadlab.ErrTooLarge: EstimateH2 estimates ρ with a 95 %
// interval at about O(m) per probe.
func Rho(th *Throttler, t Traffic, sigma float64) (float64, error) {
	d, err := nodalRho(nil, th, t, sigma, "Rho", "EstimateH2")
	if err != nil {
		return math.Inf(1), err
	}
	return dense.Sum(d), nil
}

// tooLargeForDense returns an error wrapping loadlab.ErrTooLarge, naming
// the estimator to call instead, when th's graph has more than
// spectral.DenseMaxNodes nodes.
func tooLargeForDense(th *Throttler, fn, instead string) error {
	if th != nil && th.Graph != nil && th.Graph.Order() > spectral.DenseMaxNodes {
		return loadlab.TooLarge("consensus", "%s: n = %d nodes > spectral.DenseMaxNodes = %d (the dense O(n³) path); %s estimates the measure with its interval", fn, th.Graph.Order(), spectral.DenseMaxNodes, instead)
	}
	return nil
}

// nodalRho is NodalRho with fn naming the caller and instead the
// estimator its ErrTooLarge names: the sparse path where it pays, else
// the dense one.
func nodalRho(dst []float64, th *Throttler, t Traffic, sigma float64, fn, instead string) ([]float64, error) {
	sl, err := sparsePath(th, fn, instead)
	if err != nil {
		return nil, err
	}
	if sl != nil {
		return nodalRhoSparse(dst, th, t, sigma, sl, fn)
	}
	return nodalRhoDense(dst, th, t, sigma, fn)
}

// NodalRho returns the nodal H2 measures ρ_j = lim E (p_j − p̄)² of
// spec §4.3 in dst (allocated if nil), with Σ_j ρ_j = ρ:
//
//	ρ₁,j  = σ² [2 Q_jj − 1/n],   Q = (2I − γL)⁻¹
//	ρ₂,j  = σ²/2 [L†_jj/γ + Q_jj − 1/(2n)],   ρ₂T,j = γ ρ₂,j.
//
// The ρ₁ form follows from the stationary covariance σ² [2Q − J/n] of
// M_n p in Case 1 (spec §4.4 R1, whose eigenvalues are σ² 2/(2 − γλ_i)
// on 1⊥); the ρ₂ form is the diagonal of (γL(2I − γL))† = ½ (L†/γ +
// Q − J/(2n)), the same partial fractions. Errors are as for Rho. It
// panics if th is nil or dst is non-nil with a length other than the
// number of nodes.
//
// The values are exact to rounding, by the sparse path on sparse graphs
// as for Rho. Above spectral.DenseMaxNodes nodes, where the sparse
// factor does not fit, NodalRho returns an error wrapping
// loadlab.ErrTooLarge: EstimateNodalH2 estimates the ρ_j with per-node
// 95 % intervals.
func NodalRho(dst []float64, th *Throttler, t Traffic, sigma float64) ([]float64, error) {
	return nodalRho(dst, th, t, sigma, "NodalRho", "EstimateNodalH2")
}

// nodalRhoDense is NodalRho's dense path; fn names the caller in errors.
func nodalRhoDense(dst []float64, th *Throttler, t Traffic, sigma float64, fn string) ([]float64, error) {
	if err := th.validateLinear(fn); err != nil {
		return nil, err
	}
	g, gamma := th.Graph, th.Gamma
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return nil, err
	}
	n := g.Order()
	// Case 2 runs two passes side by side: two matrices and two factors.
	if err := size.CheckDense("consensus", "consensus: NodalRho", n, 4); err != nil {
		return nil, err
	}
	dst = allocDst(dst, n, "NodalRho")
	v, c := sigma*sigma, 1/float64(n)
	if t == Case1 {
		q, err := stationaryInverse(g, gamma)
		if err != nil {
			return nil, err
		}
		q.InverseDiag(dst)
		for j, qjj := range dst {
			dst[j] = v * (2*qjj - c)
		}
		return dst, nil
	}
	s := v
	if t == Case2T {
		s *= gamma
	}
	if sparseH2(g) && h2Direct(dst, g, gamma) {
		for j, x := range dst {
			dst[j] = s * (x - c)
		}
		return dst, nil
	}
	lp, err := twoPass(dst, g, gamma)
	if err != nil {
		return nil, err
	}
	for j, qjj := range dst {
		dst[j] = s / 2 * (lp[j]/gamma + qjj - c/2)
	}
	return dst, nil
}

// twoPass writes the diagonal of Q = (2I − γL)⁻¹ into dst and returns
// that of L†, from the two independent factor-and-invert passes, run
// side by side.
func twoPass(dst []float64, g *wgraph.Graph, gamma float64) ([]float64, error) {
	var lp []float64
	var errs [2]error
	mc.For(2, 2, func(i int) {
		if i == 0 {
			var q *dense.SPDFactor
			if q, errs[0] = stationaryInverse(g, gamma); errs[0] == nil {
				q.InverseDiag(dst)
			}
		} else {
			lp, errs[1] = pseudoInverseDiag(g)
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return lp, nil
}

// sparseH2 reports whether forming H = γL(2I − γL) + J/n from the
// adjacency lists, Σ_k deg(k)² scalar updates, is cheaper than the
// second factor-and-invert pass (2n³/3 flops in blocked BLAS, several
// times faster per operation than the scalar loop): Σ_k deg(k)² ≤ n³/20.
func sparseH2(g *wgraph.Graph) bool {
	n := g.Order()
	var w float64
	for u := range n {
		d := float64(g.Degree(u))
		w += d * d
	}
	return w <= float64(n)*float64(n)*float64(n)/20
}

// h2Direct writes the diagonal of H⁻¹, H = γL(2I − γL) + J/n (spec §4.4
// R2 with the conserved mode lifted to eigenvalue 1, so that
// (γL(2I − γL))† = H⁻¹ − J/n), into dst from one factor-and-invert pass.
// It reports false, leaving the diagnosis to the two-pass route, when H
// is not numerically positive definite or its condition estimate
// exceeds spectral.MaxCondition: H cannot tell instability (γλ_n ≈ 2) from
// near-disconnection (λ₂ ≈ 0), where either its smallest eigenvalue
// γλ(2 − γλ) is near 0.
func h2Direct(dst []float64, g *wgraph.Graph, gamma float64) bool {
	var f dense.SPDFactor
	if f.Factorize(h2Matrix(g, gamma)) != nil || !(f.Cond() <= signLimit(g.Order())) {
		return false
	}
	f.InverseDiag(dst)
	return true
}

// signLimit is the largest condition estimate at which a successful
// Cholesky factorisation of an n×n matrix still proves it positive
// definite: the factorisation is exact for A + ΔA with
// ‖ΔA‖ ≤ c n ε ‖A‖ (Higham, Accuracy and Stability of Numerical
// Algorithms, Thm 10.3; c = 8 here), so an eigenvalue below that, whose
// sign is unknown, shows as κ(A) ≥ 1/(8 n ε). It is also at most
// spectral.MaxCondition, past which no result has two correct digits.
func signLimit(n int) float64 {
	return min(spectral.MaxCondition, 1/(8*float64(n)*0x1p-52))
}

// h2Matrix returns H = γL(2I − γL) + J/n = 2γL − γ²L² + J/n, forming L²
// from the adjacency lists in O(n² + Σ_k deg(k)²) rather than by a dense
// product.
func h2Matrix(g *wgraph.Graph, gamma float64) *mat.SymDense {
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
			k := int(k)
			w := wu[i]
			// e_k: 2γ(−w) − γ² d_u (−w) − γ² (−w) d_k
			row[k] += -2*gamma*w + g2*w*(du+deg[k])
			// e_v for v ~ k: −γ² (−w)(−w_kv); v = u gives the w² terms
			// of (L²)_uu.
			wk := g.Weights(k)
			for j, v := range g.Neighbors(k) {
				row[int(v)] -= g2 * w * wk[j]
			}
		}
	}
	return mat.NewSymDense(n, data)
}

// stationaryInverse factors 2I − γL (spec §4.1, §4.4). A failed
// factorisation, or a condition estimate above signLimit (κ ≥ 1/(8nε)), means
// that 2 − γλ_n is at or below the rounding error of the factorisation
// (the eigenvalues of 2I − γL lie in (2 − γλ_n, 2], so its condition
// number is at most 2/(2 − γλ_n)): the network is unstable or marginal
// to rounding, and the error wraps ErrUnstable.
func stationaryInverse(g *wgraph.Graph, gamma float64) (*dense.SPDFactor, error) {
	a, err := g.Laplacian()
	if err != nil {
		return nil, err
	}
	dense.Shift(a, a, 2, gamma)
	var f dense.SPDFactor
	if err := f.Factorize(a); err != nil {
		return nil, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: 2I − γL is not positive definite (γλ_n ≥ 2 to rounding)", gamma)
	}
	if c, lim := f.Cond(), signLimit(g.Order()); !(c <= lim) {
		return nil, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: 2I − γL has condition number ≈ %.3g > %.3g, so γλ_n lies within rounding of the stability limit 2 (either side)", gamma, c, lim)
	}
	return &f, nil
}

// pseudoInverseDiag returns the diagonal of L† from the lifted
// factorisation (dense.Lift), with the error of spectral.KirchhoffIndex
// (ErrIllConditioned) when L + αJ/n is too ill conditioned.
func pseudoInverseDiag(g *wgraph.Graph) ([]float64, error) {
	a, alpha, err := spectral.LiftedLaplacian(g)
	if err != nil {
		return nil, err
	}
	var f dense.SPDFactor
	if err := f.FactorizeChecked(a, "L + αJ/n"); err != nil {
		return nil, fmt.Errorf("consensus: L† of the graph: %w", err)
	}
	d := f.InverseDiag(nil)
	c := 1 / (alpha * float64(g.Order()))
	for j := range d {
		d[j] -= c
	}
	return d, nil
}
