package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
)

// Overthrottling is the expected over-throttling of a throttler in a
// Gaussian stationary regime (spec deployed §4.2), in requests per cycle.
// Over-throttling is O = a_ideal − a_total = Σ_i (r_i − x_i)₊ −
// (r_total − l_total)₊ (spec deployed §4.1); its per-server parts
// O_i = (r_i − x_i)₊ − (r_total − l_total)₊/n sum to it: what server i
// rejects beyond an equal share of what even the ideal throttler must
// reject.
type Overthrottling struct {
	// Total is E O, the network over-throttling per cycle.
	Total float64
	// Server holds E O_i, the per-server parts; each is ≥ 0 (spec
	// deployed §4.2), and they sum to Total.
	Server []float64
	// Throttled holds E (r_i − x_i)₊, the requests server i rejects per
	// cycle.
	Throttled []float64
	// Unavoidable is E (r_total − l_total)₊, what the ideal throttler
	// rejects.
	Unavoidable float64
}

// ExpectedOver returns the expected over-throttling of th under traffic
// t at noise level σ (spec deployed §4.2), exact (dense, as NodalRho,
// up to spectral.DenseMaxNodes nodes). In the stationary regime each
// throttled amount r_i − x_i is normal, and
//
//	E (r_i − x_i)₊ = G(μ, s_i),   G(μ, s) = μ Φ(μ/s) + s φ(μ/s),
//	E O = Σ_i G(μ, s_i) − E (r_total − l_total)₊,
//
// with μ = excess/n. The meaning of excess depends on t:
//
//   - Case1 (r = r̄ + white noise): excess = r̄_total − l_total, the mean
//     aggregate excess demand; s_i² = ρ₁,ᵢ + σ²/n and
//     E (r_total − l_total)₊ = G(excess, σ√n). Only r̄_total matters:
//     the throttler equalises the mean throttled amounts.
//   - Case2, Case2T (random walks, no stationary level): the dispersion
//     is stationary and independent of the aggregate, and the result
//     is conditional on the current r_total − l_total = excess:
//     s_i² = ρ₂,ᵢ (ρ₂T,ᵢ), E (r_total − l_total)₊ = excess₊.
//
// Both are exact; no bound is involved (spec deployed §4.2). Errors:
// those of NodalRho (Measure must be Amount, ErrUnstable, ErrTooLarge
// naming EstimateOver), and an error wrapping loadlab.ErrInvalid for
// excess not finite. It panics if th is nil.
func ExpectedOver(th *Throttler, t Traffic, sigma, excess float64) (Overthrottling, error) {
	if err := tooLargeForDense(th, "ExpectedOver", "EstimateOver"); err != nil {
		return Overthrottling{}, err
	}
	rho, err := nodalRhoDense(nil, th, t, sigma, "ExpectedOver")
	if err != nil {
		return Overthrottling{}, err
	}
	if err := validateExcess(excess); err != nil {
		return Overthrottling{}, err
	}
	return overFrom(rho, t, sigma, excess), nil
}

// validateExcess checks the aggregate excess demand: finite.
func validateExcess(excess float64) error {
	if math.IsNaN(excess) || math.IsInf(excess, 0) {
		return loadlab.Invalid("consensus", "excess = %v, want finite", excess)
	}
	return nil
}

// Over is ExpectedOver at the update cycle γ, from the eigenvectors (as
// NodalRho: O(n³) once, then O(n²) per call), for sweeps over γ. It
// returns the errors of ExpectedOver and of Spectral.NodalRho.
func (s *Spectral) Over(t Traffic, gamma, sigma, excess float64) (Overthrottling, error) {
	if err := validateExcess(excess); err != nil {
		return Overthrottling{}, err
	}
	rho, err := s.NodalRho(nil, t, gamma, sigma)
	if err != nil {
		return Overthrottling{}, err
	}
	return overFrom(rho, t, sigma, excess), nil
}

// OverDelay is Spectral.Over when every measure arrives τ cycles late
// (spec deployed §2.1, §4.2): the closed form holds unchanged with the
// nodal dispersions ρ_j of the delayed throttler (Spectral.NodalRhoDelay),
// since the dispersion stays independent of the aggregate excess — L 1 =
// 0 keeps the mean mode out of the delayed recursion as out of the
// undelayed one. Errors: those of Spectral.Over and of NodalRhoDelay
// (ErrUnstable at or beyond a*(τ)/λ_n). τ = 0 is Over.
func (s *Spectral) OverDelay(t Traffic, tau int, gamma, sigma, excess float64) (Overthrottling, error) {
	if err := validateExcess(excess); err != nil {
		return Overthrottling{}, err
	}
	rho, err := s.NodalRhoDelay(nil, t, tau, gamma, sigma)
	if err != nil {
		return Overthrottling{}, err
	}
	return overFrom(rho, t, sigma, excess), nil
}

// overFrom is the closed form of spec deployed §4.2 from the nodal
// dispersions ρ_j of traffic t.
func overFrom(rho []float64, t Traffic, sigma, excess float64) Overthrottling {
	n := float64(len(rho))
	mu := excess / n
	var unavoidable float64
	if t == Case1 {
		unavoidable = positivePart(excess, sigma*math.Sqrt(n))
	} else {
		unavoidable = max(excess, 0)
	}
	o := Overthrottling{
		Server:      make([]float64, len(rho)),
		Throttled:   make([]float64, len(rho)),
		Unavoidable: unavoidable,
	}
	var total dense.CompensatedSum
	for j, r := range rho {
		v := r
		if t == Case1 {
			v += sigma * sigma / n // the aggregate's own noise, spec deployed §4.2
		}
		o.Throttled[j] = positivePart(mu, math.Sqrt(max(v, 0)))
		o.Server[j] = o.Throttled[j] - unavoidable/n
		total.Add(o.Server[j])
	}
	o.Total = total.Value()
	return o
}

// positivePart returns E (X)₊ for X ~ N(μ, s²) (spec deployed §4.2):
// s h(μ/s) with h(z) = z Φ(z) + φ(z), and μ₊ for s = 0. For z far below
// zero the two terms of h cancel; the absolute error stays below a few
// units of s·u·z², far below s.
func positivePart(mu, s float64) float64 {
	if s == 0 {
		return max(mu, 0)
	}
	z := mu / s
	cdf := 0.5 * math.Erfc(-z/math.Sqrt2)
	pdf := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
	return max(s*(z*cdf+pdf), 0, mu)
}

// GammaOver returns the update cycle that minimises the expected
// over-throttling of Case2 at aggregate excess demand excess (spec
// deployed §4.3), beside the H2-optimal GammaH2 (which minimises
// Σ_j ρ₂,ⱼ instead), and the over-throttling there. The minimiser lies
// in the bracket of γ*_H2, [1/λ_n, min{1/λ₂, 2/λ_n}), where every ρ₂,ⱼ
// turns from decreasing to increasing; the objective is searched on a
// grid of gammaOverGrid points there and refined by bisection of its
// derivative in the cells around the best point, to the last bit. Case1
// and Case2T need no search: their over-throttling increases with γ
// (spec deployed §4.3). It returns the errors of Over, and an error
// wrapping loadlab.ErrInvalid for σ not finite and positive; a single
// node returns (NaN, zero over-throttling).
func (s *Spectral) GammaOver(sigma, excess float64) (float64, Overthrottling, error) {
	if !(sigma > 0) || math.IsInf(sigma, 1) {
		return math.NaN(), Overthrottling{}, loadlab.Invalid("consensus", "GammaOver: sigma = %v, want finite and > 0", sigma)
	}
	if err := validateExcess(excess); err != nil {
		return math.NaN(), Overthrottling{}, err
	}
	if len(s.lambda) < 2 {
		return math.NaN(), Overthrottling{Server: []float64{0}, Throttled: []float64{max(excess, 0)}, Unavoidable: max(excess, 0)}, nil
	}
	if _, err := s.NodalRho(nil, Case2, 1/s.LambdaMax(), sigma); err != nil {
		return math.NaN(), Overthrottling{}, err // no eigenvectors
	}
	ow := newOverWeights(s, sigma, excess/float64(len(s.lambda)))
	gamma := ow.minimise(1/s.LambdaMax(), min(1/s.Lambda2(), 2/s.LambdaMax()))
	o, err := s.Over(Case2, gamma, sigma, excess)
	return gamma, o, err
}

// gammaOverGrid is the number of grid points of GammaOver's search.
const gammaOverGrid = 64

// overWeights evaluates the Case 2 over-throttling objective
// F(γ) = Σ_j G(μ, s_j(γ)), s_j² = ρ₂,ⱼ(γ), and its derivative
// F'(γ) = Σ_j φ(μ/s_j) ρ₂,ⱼ'(γ)/(2 s_j) (spec deployed §4.3) from the
// squared eigenvector entries.
type overWeights struct {
	lambda []float64
	w      [][]float64 // w[j][i] = σ² v_ij², i ≥ 1
	mu     float64
}

func newOverWeights(s *Spectral, sigma, mu float64) *overWeights {
	n := len(s.lambda)
	raw := s.vecs.RawMatrix()
	ow := &overWeights{lambda: s.lambda, w: make([][]float64, n), mu: mu}
	for j := range n {
		row := raw.Data[j*raw.Stride : j*raw.Stride+n]
		ow.w[j] = make([]float64, n)
		for i := 1; i < n; i++ {
			ow.w[j][i] = sigma * sigma * row[i] * row[i]
		}
	}
	return ow
}

// eval returns F(γ) and F'(γ).
func (ow *overWeights) eval(gamma float64) (f, df float64) {
	var fs, ds dense.CompensatedSum
	for _, wj := range ow.w {
		var rho, drho float64
		for i := 1; i < len(wj); i++ {
			a := gamma * ow.lambda[i]
			d := a * (2 - a)
			rho += wj[i] / d
			drho -= wj[i] * 2 * ow.lambda[i] * (1 - a) / (d * d) // d/dγ 1/(γλ(2 − γλ))
		}
		sj := math.Sqrt(rho)
		fs.Add(positivePart(ow.mu, sj))
		z := ow.mu / sj
		ds.Add(math.Exp(-z*z/2) / math.Sqrt(2*math.Pi) * drho / (2 * sj))
	}
	return fs.Value(), ds.Value()
}

// minimise returns the minimiser of F on the bracket (lo, hi): the best
// of gammaOverGrid interior grid points, refined by bisecting F' on the
// two cells around it (F' ≤ 0 at lo, ≥ 0 at hi, spec deployed §4.3).
func (ow *overWeights) minimise(lo, hi float64) float64 {
	h := (hi - lo) / (gammaOverGrid + 1)
	best, fbest := 0, math.Inf(1)
	for q := 1; q <= gammaOverGrid; q++ {
		if f, _ := ow.eval(lo + float64(q)*h); f < fbest {
			best, fbest = q, f
		}
	}
	a, b := lo+float64(best-1)*h, min(lo+float64(best+1)*h, hi)
	if best == 1 {
		a = lo
	}
	_, da := ow.eval(a)
	_, db := ow.eval(b)
	if da > 0 || (db < 0 && b < hi) {
		// The derivative does not change sign on the cells (rounding
		// on a flat objective): the grid point is the answer.
		return lo + float64(best)*h
	}
	return bisect(func(g float64) float64 { _, d := ow.eval(g); return -d }, a, b)
}
