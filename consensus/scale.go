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
	Iterations int              // stochastic path: conjugate-gradient iterations (0 when Lanczos quadrature sufficed)
	MatVecs    int              // stochastic path: other products with L
	Solves     int              // stochastic path: Laplacian solves (those of tr L† on ill-conditioned graphs)
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
//     set.RelAcc (default 1 %); λ_n is bracketed (deterministic bounds,
//     linalg.LambdaMaxBracket only when they do not reach the root) so
//     that every γ examined is certified stable.
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
	out.LambdaMax, out.Probes, out.Iterations, out.MatVecs, out.Solves, out.Status = e.LambdaMax, e.Probes, e.Iterations, e.MatVecs, e.Solves, e.Status
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

// RhoResult is an H2 measure with the path that computed it. On the
// dense path it is exact to rounding: Lo = Hi = Mean, StdErr = 0, N = 0.
type RhoResult struct {
	Rho        loadlab.Estimate // ρ of the traffic at σ, with its 95 % interval
	Method     linalg.Method    // MethodDense or MethodStochastic: the path that ran
	LambdaMax  linalg.Bracket   // stochastic path: the proven λ_n bracket checked against 2/γ
	Probes     int              // stochastic path: Rademacher probes
	Iterations int              // stochastic path: conjugate-gradient iterations (0 when Lanczos quadrature sufficed)
	Status     loadlab.Status   // Success, or why the estimate stopped short
}

// RhoWith returns the H2 measure ρ of traffic t (spec §4.3–§4.4) for the
// throttler th and noise level σ by the path set.Method selects (nil or
// MethodAuto: dense up to linalg.DenseMaxNodes nodes, stochastic above):
// MethodDense is Rho's Cholesky path; MethodStochastic is
// linalg.EstimateH2 at γ = th.Gamma (ρ₁, ρ₂ and ρ₂T by Hutchinson probes
// with the split 1/(a(2 − a)) = ½(1/a + 1/(2 − a)), to relative
// half-width set.RelAcc, default 1 %, at 95 %), with γ checked against
// the proven bracket of λ_n (ErrUnstable, or ErrIllConditioned when the
// bracket cannot decide). Errors are those of Rho and of the path; on
// ErrNotConverged the partial estimate is returned. It panics if th or
// src is nil.
func RhoWith(th *Throttler, t Traffic, sigma float64, set *linalg.TraceSettings, src rand.Source) (RhoResult, error) {
	if src == nil {
		panic("consensus: RhoWith: nil rand.Source")
	}
	out := RhoResult{Rho: exactEst(math.Inf(1))}
	m, err := rhoPath(th, t, sigma, set, "RhoWith")
	if err != nil {
		return out, err
	}
	out.Method = m
	if m == linalg.MethodDense {
		r, err := rhoDense(th, t, sigma)
		out.Rho = exactEst(r)
		if err == nil {
			out.Status = loadlab.Success
		}
		return out, err
	}
	e, err := linalg.EstimateH2(th.Graph, th.Gamma, set, src)
	est := e.Rho2
	switch t {
	case Case1:
		est = e.Rho1
	case Case2T:
		est = e.Rho2T
	}
	out.Rho = scaleEst(est, sigma*sigma)
	out.LambdaMax, out.Probes, out.Iterations, out.Status = e.LambdaMax, e.Probes, e.Iterations, e.Status
	return out, err
}

// rhoPath validates the arguments of the H2 entry points and returns the
// path to take.
func rhoPath(th *Throttler, t Traffic, sigma float64, set *linalg.TraceSettings, fn string) (linalg.Method, error) {
	if err := th.validateLinear(fn); err != nil {
		return 0, err
	}
	if err := validateRhoArgs(t, th.Gamma, sigma); err != nil {
		return 0, err
	}
	if err := set.Validate(); err != nil {
		return 0, err
	}
	var m linalg.Method
	if set != nil {
		m = set.Method
	}
	return m.Resolve(th.Graph.Order()), nil
}

// NodalRhoResult holds nodal H2 measures with the path that computed
// them. On the dense path each is exact to rounding (Lo = Hi = Mean,
// N = 0).
type NodalRhoResult struct {
	Rho        []loadlab.Estimate // ρ_j at σ, with per-node 95 % intervals
	Method     linalg.Method      // MethodDense or MethodStochastic: the path that ran
	LambdaMax  linalg.Bracket     // stochastic path: the proven λ_n bracket
	Probes     int                // stochastic path: Rademacher probes
	Iterations int                // stochastic path: conjugate-gradient iterations
	MaxRelHW   float64            // stochastic path: largest per-node relative half-width (0 on the dense path)
	Status     loadlab.Status     // Success, or why the estimate stopped short
}

// NodalRhoWith returns the nodal H2 measures ρ_j of traffic t (spec
// §4.3) by the path set.Method selects (as RhoWith): MethodDense is
// NodalRho's Cholesky path; MethodStochastic is linalg.EstimateNodalH2,
// the stochastic diagonal estimator with a Chebyshev control variate and
// a Student-t interval per node from that node's probe values, probing
// until every node's relative half-width is ≤ set.RelAcc — default
// linalg.DefaultDiagRelAcc (1 %; about 10 probes on a random regular
// graph). Where the probes that accuracy would take exceed MaxProbes
// (tori and other graphs with many small eigenvalues, at large n) it
// stops early with the partial estimate and an error wrapping
// loadlab.ErrNotConverged. Errors are those of RhoWith. It panics if th
// or src is nil.
func NodalRhoWith(th *Throttler, t Traffic, sigma float64, set *linalg.TraceSettings, src rand.Source) (NodalRhoResult, error) {
	if src == nil {
		panic("consensus: NodalRhoWith: nil rand.Source")
	}
	var out NodalRhoResult
	m, err := rhoPath(th, t, sigma, set, "NodalRhoWith")
	if err != nil {
		return out, err
	}
	out.Method = m
	if m == linalg.MethodDense {
		d, err := nodalRhoDense(nil, th, t, sigma)
		if err != nil {
			return out, err
		}
		out.Rho = make([]loadlab.Estimate, len(d))
		for j, x := range d {
			out.Rho[j] = exactEst(x)
		}
		out.Status = loadlab.Success
		return out, nil
	}
	e, err := linalg.EstimateNodalH2(th.Graph, th.Gamma, set, src)
	d, f := e.Rho2, sigma*sigma
	switch t {
	case Case1:
		d = e.Rho1
	case Case2T:
		f *= th.Gamma
	}
	out.Rho = make([]loadlab.Estimate, len(d.Diag))
	for j, x := range d.Diag {
		out.Rho[j] = scaleEst(x, f)
	}
	out.LambdaMax, out.Probes, out.Iterations, out.MaxRelHW, out.Status = e.LambdaMax, d.Probes, d.Iterations, d.MaxRelHW, d.Status
	return out, err
}
