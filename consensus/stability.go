package consensus

import (
	"errors"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// stability decides whether γ μ_n < 2 for the largest eigenvalue μ_n of
// the (linearised) update operator L Q, Q = diag(q): q = 1 for Amount
// and Clipped (spec §4.1), q = 1/r(0) for Ratio and
// q = r_total/(l_total r(0)) for LogRatio (the linearisations of spec §8
// at the first step's demand); nil means q = 1. It returns the bracket
// of μ_n from spectral.LambdaMaxBracket with Threshold 2/γ (which refines
// only while 2/γ lies inside it) and
//
//   - nil when the bracket lies below 2/γ (certified stable);
//   - an error wrapping ErrUnstable when it lies at or above 2/γ, or
//     holds 2/γ but is no wider than the error bound of the method
//     (dense eigenvalues, or the Cholesky decision up to 3000 nodes):
//     γ μ_n = 2 to rounding, where the dispersion does not decay;
//   - an error wrapping ErrIllConditioned, with the bracket, when the
//     bounds could not settle it (above 3000 nodes, with 2/γ inside the
//     Lanczos bracket after EigenSettings.MaxSteps steps).
//
// Above 400 nodes the upper end of the bracket may be the probabilistic
// Lanczos bound (Bracket.Delta = 1e-10, spec throttlers.md §12.8): a
// "stable" answer is then wrong with probability at most Delta.
func stability(g *wgraph.Graph, gamma float64, q []float64) (spectral.Bracket, error) {
	for i, qi := range q {
		if math.IsInf(qi, 1) {
			// r_i(0) so small that q_i = 1/r_i overflows: μ_n ≥ q_i d_i
			// (a Rayleigh quotient) exceeds every 2/γ.
			return spectral.Bracket{Lo: qi, Est: qi, Hi: qi}, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v ≥ 2/μ_n: the linearisation at r(0) has scale q[%d] = +Inf, so μ_n ≥ q_i d_i overflows (spec §8)", gamma, i)
		}
		if !(qi > 0) {
			return spectral.Bracket{}, loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "stability of γ = %v cannot be decided: the linearisation at r(0) has scale q[%d] = %v (spec §8)", gamma, i, qi)
		}
	}
	t := 2 / gamma
	b, err := spectral.LambdaMaxBracket(g, &spectral.EigenSettings{Scale: q, Threshold: t})
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return b, err
	}
	switch {
	case b.Hi < t:
		return b, nil
	case b.Lo >= t:
		return b, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v ≥ 2/μ_n, μ_n ∈ %v: the throttler is unstable and its limits diverge (spec §4.1, §8)", gamma, b)
	case b.Width() <= 1e-8*(t+b.Hi):
		return b, loadlab.Wrap(ErrUnstable, "consensus", "γ = %v = 2/μ_n to rounding, μ_n ∈ %v: the throttler is at the stability limit and its dispersion does not decay (spec §4.1, §8)", gamma, b)
	}
	return b, loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "stability of γ = %v is uncertain: μ_n ∈ %v (Lanczos lower bound, proven upper bound), so 2/μ_n ∈ [%.10g, %.10g]; the throttler is unstable if γ ≥ 2/μ_n (spec §4.1, §8)", gamma, b, 2/b.Hi, 2/b.Lo)
}
