package consensus

import (
	"errors"
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// sparseSettings are the sparse path's limits: nil, cholesky's
// defaults; tests lower them to reach the refusals on small graphs.
var sparseSettings *cholesky.Settings

// sparsePath returns the shifted-Laplacian analysis of th's graph when
// the exact H2 values should take the sparse path (spectral's rule: the
// predicted sparse factorisation beats the dense one, and always above
// spectral.DenseMaxNodes when it fits), and otherwise nil with, above
// DenseMaxNodes, the error that names the estimator to call instead.
func sparsePath(th *Throttler, fn, instead string) (*spectral.ShiftedLaplacian, error) {
	if th == nil || th.Graph == nil || th.Graph.Order() == 0 {
		return nil, nil // validation reports it
	}
	g := th.Graph
	sl, err := spectral.NewShiftedLaplacian(g, sparseSettings)
	if err == nil && sl.Path() == spectral.Sparse {
		return sl, nil
	}
	if g.Order() <= spectral.DenseMaxNodes {
		return nil, nil
	}
	reason := "the sparse factor is refused"
	if err != nil {
		reason = err.Error()
	}
	return nil, loadlab.TooLarge("consensus", "%s: n = %d nodes > spectral.DenseMaxNodes = %d (the dense O(n³) path) and %s; %s estimates the measure with its interval", fn, g.Order(), spectral.DenseMaxNodes, reason, instead)
}

// stationaryDiagSparse returns the diagonal of Q = (2I − γL)⁻¹ from the
// sparse factorisation of 2I − γL. As for the dense path
// (stationaryInverse), a failed factorisation or a condition estimate
// above signLimit means γλ_n ≥ 2 to rounding: ErrUnstable.
func stationaryDiagSparse(sl *spectral.ShiftedLaplacian, n int, gamma float64) ([]float64, error) {
	f, err := sl.Factor(2, -gamma)
	if err != nil {
		if errors.Is(err, loadlab.ErrIllConditioned) {
			return nil, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: 2I − γL is not safely positive definite (γλ_n ≥ 2 to rounding): %v", gamma, err)
		}
		return nil, err
	}
	if c, lim := f.Cond(), signLimit(n); !(c <= lim) {
		return nil, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v: 2I − γL has condition number ≈ %.3g > %.3g, so γλ_n lies within rounding of the stability limit 2 (either side)", gamma, c, lim)
	}
	return f.Inverse().Diag(nil), nil
}

// nodalRhoSparse is NodalRho's sparse path (spec §4.4 with the diagonals
// of spec sparse-cholesky.md §5): Q's diagonal from the selected inverse
// of 2I − γL, L†'s from that of the grounded Laplacian.
func nodalRhoSparse(dst []float64, th *Throttler, t Traffic, sigma float64, sl *spectral.ShiftedLaplacian, fn string) ([]float64, error) {
	if err := th.validateLinear(fn); err != nil {
		return nil, err
	}
	g, gamma := th.Graph, th.Gamma
	if err := validateRhoArgs(t, gamma, sigma); err != nil {
		return nil, err
	}
	n := g.Order()
	dst = allocDst(dst, n, fn)
	q, err := stationaryDiagSparse(sl, n, gamma)
	if err != nil {
		return nil, err
	}
	v, c := sigma*sigma, 1/float64(n)
	if t == Case1 {
		for j, qjj := range q {
			dst[j] = v * (2*qjj - c)
		}
		return dst, nil
	}
	r, err := spectral.NewResistance(g)
	if err != nil {
		return nil, fmt.Errorf("consensus: L† of the graph: %w", err)
	}
	lp := r.PseudoInverseDiag(nil)
	s := v
	if t == Case2T {
		s *= gamma
	}
	for j := range dst {
		dst[j] = s / 2 * (lp[j]/gamma + q[j] - c/2)
	}
	return dst, nil
}

// GammaH2 returns the update cycle γ*_H2 that minimises ρ₂ (spec §5.1,
// Problem B) and ρ₂(γ*_H2) at noise level σ, exactly, at any size where
// the graph's sparse Cholesky factor fits (spectral.NewShiftedLaplacian),
// and by the dense spectrum (Spectral.GammaH2) where the graph is dense.
//
// On the sparse path, ρ₂(γ) = σ²/2 [tr L†/γ + tr (2I − γL)⁻¹ − ½] (spec
// §4.4 R2) is evaluated with one sparse factorisation and selected
// inversion of 2I − γL per γ and the shared tr L†, and minimised by
// golden-section search over [1/λ̄_n, 2/λ̲_n] from a certified bracket
// [λ̲_n, λ̄_n] of λ_n (γ*_H2 lies in [1/λ_n, 2/λ_n), spec §5.1 fact 2; a γ
// past the stability limit evaluates to +Inf). ρ₂ is convex in γ, so the
// search converges to the minimiser; the minimum is flat, so γ*_H2 is
// found to about 1e-8 relative (where ρ₂'s own rounding hides the
// slope) and ρ₂(γ*_H2) to rounding.
//
// A single node returns (NaN, 0). Errors: ErrInvalid for a nil, empty or
// disconnected graph and σ negative or not finite; ErrIllConditioned for
// a nearly disconnected graph (L† has no correct digits); ErrTooLarge
// when neither path fits. It panics if g is nil.
func GammaH2(g *wgraph.Graph, sigma float64) (gamma, rho float64, err error) {
	if g == nil {
		panic("consensus: GammaH2: nil graph g")
	}
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return math.NaN(), math.NaN(), loadlab.Invalid("consensus", "GammaH2: sigma = %v, want finite and ≥ 0", sigma)
	}
	if err := validateGraph(g); err != nil {
		return math.NaN(), math.NaN(), err
	}
	if g.Order() == 1 {
		return math.NaN(), 0, nil
	}
	sl, err := sparsePath(&Throttler{Graph: g}, "GammaH2", "EstimateGammaH2")
	if err != nil {
		return math.NaN(), math.NaN(), err
	}
	if sl == nil {
		s, err := NewSpectral(g)
		if err != nil {
			return math.NaN(), math.NaN(), err
		}
		return s.GammaH2(sigma)
	}
	return gammaH2Sparse(g, sl, sigma)
}

// gammaH2Sparse is GammaH2's sparse path.
func gammaH2Sparse(g *wgraph.Graph, sl *spectral.ShiftedLaplacian, sigma float64) (gamma, rho float64, err error) {
	r, err := spectral.NewResistance(g)
	if err != nil {
		return math.NaN(), math.NaN(), fmt.Errorf("consensus: GammaH2: L† of the graph: %w", err)
	}
	n := g.Order()
	trL := r.Kirchhoff() / float64(n)
	br, err := spectral.LambdaMaxBracket(g, nil)
	if err != nil {
		return math.NaN(), math.NaN(), err
	}
	// f(γ) = 2ρ₂/σ² + ½ = tr L†/γ + tr Q(γ), +Inf past the limit.
	f := func(gm float64) float64 {
		q, err := stationaryDiagSparse(sl, n, gm)
		if err != nil {
			return math.Inf(1)
		}
		return trL/gm + dense.Sum(q)
	}
	gamma, fmin := goldenMin(f, 1/br.Hi, 2/br.Lo, 1e-10)
	if math.IsInf(fmin, 1) {
		return math.NaN(), math.NaN(), loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "GammaH2: 2I − γL is not safely positive definite anywhere in [1/λ_n, 2/λ_n) = [%v, %v)", 1/br.Hi, 2/br.Lo)
	}
	return gamma, sigma * sigma / 2 * (fmin - 0.5), nil
}

// goldenMin minimises a unimodal f on [a, b] by golden-section search
// until the bracket is below tol relative to its upper end, and returns
// the best point found and its value.
func goldenMin(f func(float64) float64, a, b, tol float64) (float64, float64) {
	const r = 0.6180339887498949 // (√5 − 1)/2
	c, d := b-r*(b-a), a+r*(b-a)
	fc, fd := f(c), f(d)
	for b-a > tol*b {
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - r*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + r*(b-a)
			fd = f(d)
		}
	}
	if fc <= fd {
		return c, fc
	}
	return d, fd
}
