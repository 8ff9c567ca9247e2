package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// MarginCycle is an update cycle with a safety margin below the
// stability limit and its H2 price (Spectral.GammaMargin, spec
// throttlers.md §13.11).
type MarginCycle struct {
	// Gamma is the cycle chosen: the H2-optimal γ*_H2 when it keeps the
	// margin, else (1 − Margin)·Limit, the ρ₂-best cycle that does (ρ₂ is
	// convex in γ with its minimum at γ*_H2, spec §5.1).
	Gamma float64
	// Margin is the margin asked for: Gamma ≤ (1 − Margin)·Limit.
	Margin float64
	// LambdaMax is the certified bracket of λ_n behind Limit.
	LambdaMax spectral.Bracket
	// Limit = 2/LambdaMax.Hi is the certified stability limit: the true
	// limit 2/λ_n lies in [Limit, 2/LambdaMax.Lo].
	Limit float64
	// AchievedLo and AchievedHi bracket the margin Gamma keeps below the
	// true limit, 1 − γλ_n/2 over λ_n in LambdaMax; AchievedLo ≥ Margin.
	AchievedLo, AchievedHi float64
	// GammaH2 is γ*_H2, and H2Optimal reports Gamma = GammaH2.
	GammaH2   float64
	H2Optimal bool
	// Rho2 and Rho2H2 are ρ₂ (noise σ) at Gamma and at GammaH2.
	Rho2, Rho2H2 float64
	// Price = Rho2/Rho2H2 − 1 ≥ 0 is the H2 price of the margin; 0 when
	// H2Optimal.
	Price float64
}

// GammaMargin returns the update cycle that keeps at least the relative
// margin m ∈ (0, 1) below the stability limit and is otherwise as good
// as possible for the random-walk dispersion ρ₂ at noise σ, with the
// price of the margin (spec throttlers.md §13.11):
//
//	Γ = min{γ*_H2, (1 − m)·2/λ_n⁺},   price = ρ₂(Γ)/ρ₂(γ*_H2) − 1,
//
// λ_n⁺ = λ_n (1 + 8nε), the upper end of the bracket of λ_n from the
// dense eigensolver's error bound, so the margin holds for the true λ_n
// (Γλ_n ≤ 2(1 − m)). Since ρ₂ is strictly convex with its minimum at
// γ*_H2 (spec §5.1), Γ minimises ρ₂ over the cycles that keep the
// margin: a user gets γ*_H2 whenever it is already m below the limit
// (on expanders, where γ*_H2 λ_n ≈ 1.5), and the limit less the margin
// where γ*_H2 crowds the limit (hub-heavy graphs, where it lies within
// 0.1 % of it). The price is computed from the difference of the two
// spectral sums term by term, f(a) − f(b) = (b − a)(2 − a − b)/(a(2 − a)
// b(2 − b)) for f(t) = 1/(t(2 − t)), so that a small price keeps its
// digits. It costs O(n) after the spectrum.
//
// It returns an error wrapping loadlab.ErrInvalid for m outside (0, 1),
// σ negative or not finite, or a single node (no cycle to choose), and
// one wrapping ErrUnstable when m is so small that (1 − m)·Limit lies
// within the error bound of λ_n of the limit.
func (s *Spectral) GammaMargin(m, sigma float64) (MarginCycle, error) {
	if err := validateMargin(m); err != nil {
		return MarginCycle{}, err
	}
	if len(s.lambda) < 2 {
		return MarginCycle{}, loadlab.Invalid("consensus", "GammaMargin: a single node has no update cycle to choose")
	}
	gh2, rhoH2, err := s.GammaH2(sigma)
	if err != nil {
		return MarginCycle{}, err
	}
	lmax, tol := s.LambdaMax(), s.eigenTol()
	br := spectral.Bracket{Lo: lmax * (1 - tol), Est: lmax, Hi: lmax * (1 + tol), Cert: spectral.CertDense, Status: loadlab.Success}
	out := MarginCycle{Margin: m, LambdaMax: br, Limit: 2 / br.Hi, GammaH2: gh2, Rho2H2: rhoH2}
	out.Gamma = (1 - m) * out.Limit
	if gh2 <= out.Gamma {
		out.Gamma, out.H2Optimal, out.Rho2 = gh2, true, rhoH2
	} else {
		if out.Rho2, err = s.Rho(Case2, out.Gamma, sigma); err != nil {
			return out, err
		}
		out.Price = s.rho2Excess(out.Gamma, gh2) / s.rho2Sum(gh2)
	}
	out.AchievedLo, out.AchievedHi = 1-out.Gamma*br.Hi/2, 1-out.Gamma*br.Lo/2
	return out, nil
}

// validateMargin returns an error unless m lies in (0, 1).
func validateMargin(m float64) error {
	if !(m > 0 && m < 1) {
		return loadlab.Invalid("consensus", "margin m = %v, want in (0, 1)", m)
	}
	return nil
}

// rho2Sum returns ρ₂(γ) at σ = 1, Σ_{i≥2} f(γλ_i), f(t) = 1/(t(2 − t)).
func (s *Spectral) rho2Sum(gamma float64) float64 {
	var sum dense.CompensatedSum
	for _, l := range s.lambda[1:] {
		sum.Add(rhoTerm(Case2, gamma, l))
	}
	return sum.Value()
}

// rho2Excess returns ρ₂(x) − ρ₂(y) at σ = 1 term by term,
// f(a) − f(b) = (b − a)(2 − a − b)/(a(2 − a) b(2 − b)) with a = xλ,
// b = yλ: no cancellation between the two sums.
func (s *Spectral) rho2Excess(x, y float64) float64 {
	var sum dense.CompensatedSum
	for _, l := range s.lambda[1:] {
		a, b := x*l, y*l
		sum.Add((y - x) * l * (2 - a - b) / (a * (2 - a) * b * (2 - b)))
	}
	return sum.Value()
}

// MarginCycleEstimate is the estimate of a cycle with a safety margin
// and its H2 price on a graph of any size (EstimateGammaMargin, spec
// throttlers.md §13.11).
type MarginCycleEstimate struct {
	// Gamma is the cycle chosen, min{γ̂*_H2, (1 − Margin)·Limit}: a number,
	// not an estimate, and it keeps the margin whatever the error of γ̂.
	Gamma float64
	// Margin, LambdaMax, Limit, AchievedLo and AchievedHi are as in
	// MarginCycle; LambdaMax is a Lanczos bracket of relative width
	// 1e-4 (its upper end wrong with probability at most 1e-10).
	Margin                 float64
	LambdaMax              spectral.Bracket
	Limit                  float64
	AchievedLo, AchievedHi float64
	// GammaH2 is EstimateGammaH2's result: γ*_H2 and ρ₂ there with their
	// intervals, the probes and the status.
	GammaH2 GammaH2Estimate
	// H2Optimal reports that γ̂*_H2 keeps the margin: Gamma = GammaH2.Gamma.Mean.
	H2Optimal bool
	// Rho2 is ρ₂ at Gamma, from the same probes.
	Rho2 loadlab.Estimate
	// Price is ρ₂(Gamma)/ρ₂(γ*_H2) − 1 with its 95 % interval (paired
	// probes, delta method); exactly 0 when H2Optimal.
	Price loadlab.Estimate
}

// Relative width of the λ_n bracket of EstimateGammaMargin: the margin
// achieved exceeds the one asked for by at most about this much.
const marginRelWidth = 1e-4

// EstimateGammaMargin estimates GammaMargin's cycle and price on graphs
// of any size (spec throttlers.md §13.11), for graphs above
// spectral.DenseMaxNodes where the dense spectrum is out of reach. γ*_H2
// and ρ₂ come from EstimateGammaH2 (set, src), λ_n⁺ from
// spectral.LambdaMaxBracket at relative width 1e-4, and
//
//	Γ = min{γ̂*_H2, (1 − m)·2/λ_n⁺}
//
// keeps the margin whatever the error of γ̂. ρ₂(Γ) and the price
// ρ₂(Γ)/ρ₂(γ̂) − 1 are evaluated with the same probes (their Gauss
// quadratures hold for every γ below the sampler's cap), the price as a
// ratio of paired means whose 95 % interval is the delta method's
// (the resistance term, when estimated apart, adds its independent
// part: Welch–Satterthwaite). Since γ̂ minimises the estimated ρ₂, the
// price is biased high by a term of second order in γ̂'s interval.
//
// Errors are those of EstimateGammaH2 (with the partial estimate) and
// of spectral.LambdaMaxBracket, and ErrInvalid for m outside (0, 1). It
// panics if g or src is nil.
func EstimateGammaMargin(g *wgraph.Graph, m, sigma float64, set *estimate.TraceSettings, src rand.Source) (MarginCycleEstimate, error) {
	if g == nil || src == nil {
		panic("consensus: EstimateGammaMargin: nil graph or rand.Source")
	}
	out := MarginCycleEstimate{Margin: m}
	if err := validateMargin(m); err != nil {
		return out, err
	}
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return out, loadlab.Invalid("consensus", "EstimateGammaMargin: sigma = %v, want finite and ≥ 0", sigma)
	}
	gh, hs, err := gammaH2Sampler(g, set, src, false)
	gh.Rho2 = scaleEst(gh.Rho2, sigma*sigma)
	out.GammaH2 = gh
	if err != nil {
		return out, err
	}
	if out.LambdaMax, err = spectral.LambdaMaxBracket(g, &spectral.EigenSettings{RelWidth: marginRelWidth}); err != nil {
		return out, err
	}
	br := out.LambdaMax
	out.Limit = 2 / br.Hi
	gh2 := gh.Gamma.Mean
	out.Gamma = min(gh2, (1-m)*out.Limit)
	out.AchievedLo, out.AchievedHi = 1-out.Gamma*br.Hi/2, 1-out.Gamma*br.Lo/2
	if out.Gamma == gh2 {
		out.H2Optimal, out.Rho2 = true, gh.Rho2
		out.Price = loadlab.Estimate{N: gh.Probes}
		return out, nil
	}
	out.Rho2 = scaleEst(hs.summary(out.Gamma, sampleRho2), sigma*sigma)
	out.Price = hs.price(out.Gamma, gh2)
	return out, nil
}

// price estimates ρ₂(x)/ρ₂(y) − 1 from the common probes: the ratio
// r = ρ̂₂(x)/ρ̂₂(y) of the two means, whose error is to first order
// (mean of z_k + (w_x − r w_y)(T̂ − T))/ρ̂₂(y) with z_k = ρ₂,k(x) − r ρ₂,k(y)
// the paired probes' residuals, w the weights of the separately
// estimated tr L† = T (0 when the probes carry it), independent parts
// whose 95 % interval is the Welch–Satterthwaite one (mc.SumIndependent),
// from the midpoints of the probes' quadrature brackets and widened by
// their mean half-widths (spec throttlers.md §12.11).
func (hs *h2Sampler) price(x, y float64) loadlab.Estimate {
	n := len(hs.probes)
	xs, ys := make([]float64, n), make([]float64, n)
	var hx, hy float64 // mean half-widths of the quadratures' brackets
	for k, p := range hs.probes {
		bx, _, _ := sampleH2Bounds(p, x, hs.lmax, &hs.qw)
		by, _, _ := sampleH2Bounds(p, y, hs.lmax, &hs.qw)
		xs[k], ys[k] = bx[0], by[0]
		hx, hy = hx+bx[1]/float64(n), hy+by[1]/float64(n)
	}
	wx, wy := traceWeight(x, sampleRho2), traceWeight(y, sampleRho2)
	mx, my := mc.Estimate(xs).Mean, mc.Estimate(ys).Mean
	if hs.res.on {
		mx += wx * hs.res.est.Mean
		my += wy * hs.res.est.Mean
	}
	r := mx / my
	for k := range xs {
		xs[k] -= r * ys[k]
	}
	parts := []mc.Part{{StdErr: mc.Estimate(xs).StdErr, DF: float64(n - 1)}}
	if hs.res.on {
		parts = append(parts, mc.Part{StdErr: math.Abs(wx-r*wy) * hs.res.est.StdErr, DF: float64(hs.res.est.N - 1)})
	}
	s := mc.SumIndependent(parts...)
	// The brackets move the numerator's mean by at most hx + r·hy
	// (spec throttlers.md §12.11).
	bias := (hx + r*hy) / my
	return loadlab.Estimate{Mean: r - 1, Lo: r - 1 + s.Lo/my - bias, Hi: r - 1 + s.Hi/my + bias, StdErr: s.StdErr / my, N: n}
}
