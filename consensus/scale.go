package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/linalg"
)

// GammaH2Result is γ*_H2 and ρ₂(γ*_H2) with the path that computed them
// (spec §5.1). On the dense path both are exact to rounding: Lo = Hi =
// Mean, StdErr = 0 and N = 0.
type GammaH2Result struct {
	Gamma      loadlab.Estimate // γ*_H2 with its 95 % interval
	Rho2       loadlab.Estimate // ρ₂(γ*_H2) at noise level σ, with its 95 % interval
	Method     linalg.Method    // MethodDense or MethodStochastic: the path that ran
	LambdaMax  linalg.Bracket   // bracket of λ_n behind the stability check
	Probes     int              // stochastic path: Rademacher probes
	Iterations int              // stochastic path: conjugate-gradient iterations
	MatVecs    int              // stochastic path: other products with L
	Status     loadlab.Status   // Success, or why the estimate stopped short
}

// EstimateGammaH2 returns the H2-optimal update cycle γ*_H2, the root of
// g(γ) = Σ_{i≥2} (1 − γλ_i)/(λ_i (2 − γλ_i)²) in
// [1/λ_n, min{1/λ₂, 2/λ_n}) (spec §5.1 fact 2), and ρ₂(γ*_H2) at noise
// level σ, on graphs of any size. set.Method chooses the path (nil or
// MethodAuto: dense up to linalg.DenseMaxNodes nodes):
//
//   - MethodDense: the dense spectrum and bisection on g
//     (Spectral.GammaH2), exact to rounding;
//   - MethodStochastic: linalg.EstimateGammaH2, the root of the
//     stochastic estimate of g with common probes (the same Rademacher
//     probes for every γ, so the estimated curve is smooth and
//     decreasing), a 95 % interval for γ*_H2 by test inversion and ρ₂
//     there as a loadlab.Estimate, both to relative half-width
//     set.RelAcc (default 1 %); λ_n is bracketed by
//     linalg.LambdaMaxBracket so that every γ examined is certified
//     stable.
//
// Errors: ErrInvalid for σ negative or not finite, bad settings or fewer
// than 2 nodes; ErrDisconnected; ErrIllConditioned for a nearly
// disconnected graph (dense) or a root within rounding of the stability
// limit; ErrTooLarge when the dense path does not fit; ErrNotConverged
// with the partial result when the probe budget runs out. It panics if g
// or src is nil (src is not used on the dense path, but a nil source is a
// programmer error either way).
func EstimateGammaH2(g *linalg.Graph, sigma float64, set *linalg.TraceSettings, src rand.Source) (GammaH2Result, error) {
	if g == nil || src == nil {
		panic("consensus: EstimateGammaH2: nil graph or rand.Source")
	}
	var out GammaH2Result
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return out, loadlab.Invalid("consensus", "EstimateGammaH2: sigma = %v, want finite and ≥ 0", sigma)
	}
	if err := set.Validate(); err != nil {
		return out, err
	}
	if g.Order() < 2 {
		return out, loadlab.Invalid("consensus", "EstimateGammaH2: graph has %d nodes, want ≥ 2", g.Order())
	}
	var m linalg.Method
	if set != nil {
		m = set.Method
	}
	out.Method = m.Resolve(g.Order())
	if out.Method == linalg.MethodDense {
		return gammaH2Dense(out, g, sigma)
	}
	e, err := linalg.EstimateGammaH2(g, set, src)
	v := sigma * sigma
	out.Gamma, out.Rho2 = e.Gamma, scaleEst(e.Rho2, v)
	out.LambdaMax, out.Probes, out.Iterations, out.MatVecs, out.Status = e.LambdaMax, e.Probes, e.Iterations, e.MatVecs, e.Status
	return out, err
}

// gammaH2Dense is the dense path of EstimateGammaH2.
func gammaH2Dense(out GammaH2Result, g *linalg.Graph, sigma float64) (GammaH2Result, error) {
	s, err := NewSpectral(g)
	if err != nil {
		return out, err
	}
	gamma, rho, err := s.GammaH2(sigma)
	if err != nil {
		return out, err
	}
	out.Gamma, out.Rho2 = exactEst(gamma), exactEst(rho)
	ln := s.LambdaMax()
	out.LambdaMax = linalg.Bracket{Lo: ln * (1 - s.eigenTol()), Est: ln, Hi: ln * (1 + s.eigenTol())}
	out.Status = loadlab.Success
	return out, nil
}

// exactEst is the Estimate of an exact value: Lo = Hi = Mean, N = 0.
func exactEst(x float64) loadlab.Estimate { return loadlab.Estimate{Mean: x, Lo: x, Hi: x} }

// scaleEst multiplies an estimate by f ≥ 0.
func scaleEst(e loadlab.Estimate, f float64) loadlab.Estimate {
	return loadlab.Estimate{Mean: f * e.Mean, Lo: f * e.Lo, Hi: f * e.Hi, StdErr: f * e.StdErr, N: e.N}
}
