package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/linalg"
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
// is one factor-and-invert pass of the kind linalg's Kirchhoff index
// makes: a Cholesky factor A = UᵀU and tr A⁻¹ = ‖U⁻¹‖_F², 2n³/3 flops;
// L† comes from A = L + αJ/n (linalg.Lift); the two passes of ρ₂ run on
// two goroutines. 2I − γL is positive definite
// exactly when γλ_n < 2, so its factorisation doubles as the stability
// test.
//
// Errors (with ρ = +Inf): ErrUnstable when 2I − γL is not numerically
// positive definite or so ill conditioned (condition estimate above
// linalg.MaxCondition) that γλ_n lies within its rounding error of 2
// (the stability limit, where ρ has no correct digits); ErrIllConditioned
// for ρ₂ and ρ₂T when L + αJ/n is (a nearly disconnected graph, as
// linalg.KirchhoffIndex refuses it); ErrInvalid for an invalid
// throttler (see Throttler.Validate; ErrDisconnected for a disconnected
// graph), a Measure other than Amount, σ negative or not finite, or an
// unknown t; ErrTooLarge when the dense n×n work exceeds the memory
// budget. It panics if th is nil.
func Rho(th *Throttler, t Traffic, sigma float64) (float64, error) {
	d, err := NodalRho(nil, th, t, sigma)
	if err != nil {
		return math.Inf(1), err
	}
	return linalg.Sum(d), nil
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
func NodalRho(dst []float64, th *Throttler, t Traffic, sigma float64) ([]float64, error) {
	if err := th.validateLinear("NodalRho"); err != nil {
		return nil, err
	}
	g, gamma := th.Graph, th.Gamma
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return nil, err
	}
	n := g.Order()
	// Case 2 runs two passes side by side: two matrices and two factors.
	if err := linalg.CheckDense("consensus: NodalRho", n, 4); err != nil {
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
	// The two passes are independent: run them side by side.
	var q *linalg.SPDFactor
	var lp []float64
	var errs [2]error
	mc.For(2, 2, func(i int) {
		if i == 0 {
			q, errs[0] = stationaryInverse(g, gamma)
			if errs[0] == nil {
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
	s := v / 2
	if t == Case2T {
		s *= gamma
	}
	for j, qjj := range dst {
		dst[j] = s * (lp[j]/gamma + qjj - c/2)
	}
	return dst, nil
}

// stationaryInverse factors 2I − γL (spec §4.1, §4.4). A failed
// factorisation, or a condition estimate above linalg.MaxCondition, means
// that 2 − γλ_n is at or below the rounding error of the factorisation
// (the eigenvalues of 2I − γL lie in (2 − γλ_n, 2], so its condition
// number is at most 2/(2 − γλ_n)): the network is unstable or marginal
// to rounding, and the error wraps ErrUnstable.
func stationaryInverse(g *linalg.Graph, gamma float64) (*linalg.SPDFactor, error) {
	a := g.Laplacian()
	linalg.Shift(a, a, 2, gamma)
	var f linalg.SPDFactor
	if err := f.Factorize(a); err != nil {
		return nil, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: 2I − γL is not positive definite (γλ_n ≥ 2 to rounding)", gamma)
	}
	if c := f.Cond(); !(c <= linalg.MaxCondition) {
		return nil, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: 2I − γL has condition number ≈ %.3g > %.0e, so γλ_n lies within rounding of the stability limit 2", gamma, c, linalg.MaxCondition)
	}
	return &f, nil
}

// pseudoInverseDiag returns the diagonal of L† from the lifted
// factorisation (linalg.Lift), with the error of linalg.KirchhoffIndex
// (ErrIllConditioned) when L + αJ/n is too ill conditioned.
func pseudoInverseDiag(g *linalg.Graph) ([]float64, error) {
	a, alpha := linalg.LiftedLaplacian(g)
	var f linalg.SPDFactor
	if err := linalg.FactorWellConditioned(&f, a, "L + αJ/n"); err != nil {
		return nil, fmt.Errorf("consensus: L† of the graph: %w", err)
	}
	d := f.InverseDiag(nil)
	c := 1 / (alpha * float64(g.Order()))
	for j := range d {
		d[j] -= c
	}
	return d, nil
}
