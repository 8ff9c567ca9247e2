package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// EstimateH2Delay estimates the H2 measures ρ₁, ρ₂ and ρ₂T of the
// throttler th at noise level σ when every measure arrives τ cycles late
// (spec deployed §2.5), with a 95 % interval each, on graphs of any
// size. With V_τ(a) = 1/(2a) + R_τ(a) the stationary variance of a
// mode (spec deployed §2.3),
//
//	ρ₂ = σ² [tr L†/(2γ) + tr_{1⊥} R_τ(γL)],   ρ₂T = γ ρ₂,
//	ρ₁ = σ² tr_{1⊥} (I + γL/2 + γ²L² R_τ(γL)),
//
// each probe q giving a = qᵀL†q and the Gauss quadratures of the smooth
// functions R_τ(γλ) and 1 + γλ/2 + (γλ)² R_τ(γλ) on the Lanczos
// tridiagonal of L from Pq (stochastic Lanczos quadrature), exactly as
// EstimateH2 does for τ = 0: the same probes in blocks of eight, the
// recurrences run until the quadrature of 1/(2 − γ'λ) with
// γ' = 2γ/a*(τ) has settled (its pole a*(τ)/γ is the real pole of
// R_τ(γλ); spec deployed §2.5) and, for τ ≥ 1, until the delayed
// quadratures' own brackets have relative half-width ≤ RelAcc/10: with
// R_τ in its τ + 1 partial fractions (closed form, spec throttlers.md
// §12.14), each pole's term is bracketed by its Gauss and Gauss–Radau
// values, and the intervals are widened by the brackets (spec
// throttlers.md §12.13); the resistance
// term by Lanczos or, when that is slow, tr L† once by Hutch++ with
// preconditioned solves. Probes are added until ρ₁ and ρ₂ have relative
// half-width ≤ set.RelAcc (default 1 %). Stability is decided first
// (DelayStability): γ ≥ a*(τ)/λ_n is an error wrapping ErrUnstable, a γ
// the certified bracket cannot place one wrapping ErrIllConditioned.
// RhoDelay computes the same measures exactly on graphs of up to
// spectral.DenseMaxNodes nodes. Errors: ErrInvalid for an invalid
// throttler (see Throttler.Validate; Measure must be Amount), σ
// negative or not finite, τ < 0, or bad settings; ErrTooLarge for
// τ > MaxDelay or past the memory budget; ErrDisconnected; the partial
// estimates with loadlab.ErrNotConverged at MaxProbes. It panics if th
// or src is nil.
func EstimateH2Delay(th *Throttler, tau int, sigma float64, set *estimate.TraceSettings, src rand.Source) (H2Estimate, error) {
	if th == nil || src == nil {
		panic("consensus: EstimateH2Delay: nil throttler or rand.Source")
	}
	if err := th.validateLinear("EstimateH2Delay"); err != nil {
		return H2Estimate{}, err
	}
	if err := validateRhoArgs(Case2, th.Gamma, sigma); err != nil {
		return H2Estimate{}, err
	}
	if err := validateDelay(tau); err != nil {
		return H2Estimate{}, err
	}
	e, err := estimateH2Delay(th, tau, set, src)
	v := sigma * sigma
	e.Rho1, e.Rho2, e.Rho2T = scaleEst(e.Rho1, v), scaleEst(e.Rho2, v), scaleEst(e.Rho2T, v)
	return e, err
}

// estimateH2Delay is EstimateH2Delay at σ = 1 after the checks.
func estimateH2Delay(th *Throttler, tau int, set *estimate.TraceSettings, src rand.Source) (H2Estimate, error) {
	var out H2Estimate
	if err := set.Validate(); err != nil {
		return out, err
	}
	ts, solverSet := set.Resolved()
	if err := solverSet.Validate(); err != nil {
		return out, err
	}
	g, gamma := th.Graph, th.Gamma
	m, err := lapmat.New(g)
	if err != nil || m == nil {
		return out, cmpErr(err, wgraph.CheckConnected(g))
	}
	if out.LambdaMax, err = delayStable(th, tau); err != nil {
		return out, err
	}
	hs := newH2Sampler(g, m, solverSet, src.Uint64(), out.LambdaMax, ts)
	hs.fixed = 2 * gamma / delayLimit(tau)
	dq := newDelayQuad(tau)
	dq.gamma = gamma
	if dq.poles.ok {
		hs.ends.Extra = func(p *lanczos.Probe) float64 { return dq.poles.relWidth(p, gamma, hs.lmax, false, &dq.qw) }
	}
	err = hs.estimateDelay(&out, dq, ts, rand.New(src))
	out.Probes, out.Iterations, out.MatVecs, out.Solves = len(hs.probes), hs.iters, hs.matvecs, hs.solves
	return out, err
}

// estimateDelay adds probes until ρ₁ and ρ₂ under delay meet ts.RelAcc
// or MaxProbes are used, as estimateH2 does at τ = 0.
func (hs *h2Sampler) estimateDelay(out *H2Estimate, dq *delayQuad, ts estimate.TraceSettings, rng *rand.Rand) error {
	// Each probe's values are bracketed (spec throttlers.md §12.13): a's
	// bracket enters ρ₂ through a/(2γ), the delayed parts' through
	// delayPoles.bounds.
	sample := func(p *lanczos.Probe) (rho2, rho1 [2]float64) {
		r2, r1 := dq.sample(p, &hs.qw)
		rho2, rho1 = [2]float64{r2, p.AHalf / (2 * dq.gamma)}, [2]float64{r1, 0}
		if !dq.poles.ok {
			return rho2, rho1
		}
		b, ok := dq.poles.bounds(p, dq.gamma, hs.lmax, &dq.qw)
		if !ok {
			return [2]float64{r2, math.Inf(1)}, [2]float64{r1, math.Inf(1)}
		}
		return shiftBracket(rho2, b.r), shiftBracket(rho1, b.r1)
	}
	singular := func() error {
		if !dq.singular {
			return nil
		}
		return loadlab.Wrap(ErrIllConditioned, "consensus", "EstimateH2Delay: γ = %v, delay τ = %d: a Ritz value of L makes the mode's variance system singular (γθ within rounding of a*(τ))", dq.gamma, dq.w.tau)
	}
	return hs.probeLoop("EstimateH2Delay", out, dq.gamma, ts, rng, sample, singular)
}

// delayQuad evaluates one probe's Gauss quadratures of the delayed H2
// functions from its Lanczos tridiagonal T (spec deployed §2.5).
type delayQuad struct {
	w        *modeEval
	poles    *delayPoles // the brackets' partial fractions (poles.ok false: none)
	qw       lanczos.QuadWork
	gamma    float64
	singular bool // a node γθ made the mode system singular
	d, e, z  []float64
	work     []float64
}

// newDelayQuad returns the quadratures for delay τ: R_τ through the
// partial fractions, which also bracket them, for τ ≥ 1 (spec
// throttlers.md §12.13, §12.14).
func newDelayQuad(tau int) *delayQuad {
	return &delayQuad{w: newModeEval(tau), poles: newDelayPoles(tau)}
}

// sample returns the probe's values of ρ₂ = a/(2γ) + (Pq)ᵀR_τ(γL)(Pq)
// and ρ₁ = (Pq)ᵀ(I + γL/2 + γ²L²R_τ(γL))(Pq) at σ = 1: with T = ZΘZᵀ,
// (Pq)ᵀf(L)(Pq) ≈ ‖Pq‖² Σ_j Z_{0j}² f(θ_j). ‖Pq‖² is 2·Shifted(0), since
// e₁ᵀ(2I)⁻¹e₁ = ½ exactly.
func (dq *delayQuad) sample(p *lanczos.Probe, qw *lanczos.QuadWork) (rho2, rho1 float64) {
	rho2 = p.A / (2 * dq.gamma)
	k := len(p.Alpha)
	if k == 0 {
		return rho2, 0
	}
	b0, _ := p.Shifted(0, qw)
	nrm2 := 2 * b0
	dq.d = append(dq.d[:0], p.Alpha...)
	dq.e = append(dq.e[:0], p.Beta[:k-1]...)
	if cap(dq.z) < k*k {
		dq.z = make([]float64, k*k)
		dq.work = make([]float64, max(1, 2*k-2))
	}
	z := dq.z[:k*k]
	clear(z)
	for i := range k {
		z[i*k+i] = 1
	}
	if !(gonum.Implementation{}).Dsteqr(lapack.EVTridiag, k, dq.d, dq.e, z, k, dq.work[:max(1, 2*k-2)]) {
		dq.singular = true
		return math.NaN(), math.NaN()
	}
	var s2, s1 float64
	for j, theta := range dq.d {
		wj := z[j] * z[j] // first row of Z: the first components of the eigenvectors
		a := dq.gamma * theta
		r, _, ok := dq.w.r(a)
		if !ok {
			dq.singular = true
			return math.NaN(), math.NaN()
		}
		s2 += wj * r
		s1 += wj * (1 + a/2 + a*a*r)
	}
	return rho2 + nrm2*s2, nrm2 * s1
}

// shiftBracket returns the {midpoint, half-width} of v = {g, h} (a value
// g known to ±h) plus a quantity in [iv[0], iv[1]].
func shiftBracket(v [2]float64, iv [2]float64) [2]float64 {
	return [2]float64{v[0] + (iv[0]+iv[1])/2, v[1] + (iv[1]-iv[0])/2}
}
