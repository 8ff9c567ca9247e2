package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
)

// delayCaps are the successive search caps of EstimateGammaH2Delay, as
// fractions of the certified limit a*(τ)/λ_n⁺: each cap raises the
// Lanczos work (the quadratures must settle nearer the pole).
var delayCaps = []float64{0.9, 0.99, 0.999, 0.9999}

// lastCapProbes bounds, as a multiple of MinProbes, the probes added at
// the last cap while the root lies below it and its interval reaches it,
// before EstimateGammaH2Delay refuses (ErrIllConditioned).
const lastCapProbes = 16

// EstimateGammaH2Delay estimates the update cycle γ*_H2(τ) that
// minimises ρ₂ when every measure arrives τ cycles late, and ρ₂ there at
// noise level σ (spec deployed §2.4, §2.5), on graphs of any size, with
// 95 % intervals. The probes of EstimateH2Delay are shared by every γ
// (common random numbers): each gives ρ₂ and its derivative
//
//	dρ₂/dγ = −tr L†/(2γ²) + tr_{1⊥} L R'_τ(γL)
//
// as functions of γ from one Lanczos tridiagonal, so the estimated
// derivative is a smooth function of γ; γ̂ is its root and [Lo, Hi] the
// γ where its 95 % interval holds 0 (test inversion), as in
// EstimateGammaH2, with the top mode's weight taken off each probe by
// the same control variate and the Student-t of the degrees of freedom
// that match the sample kurtosis of the probes' derivatives
// (kurtosisDF), and ρ₂'s interval is that of ρ₂(γ*) = min ρ₂, the union
// of its intervals over γ*'s interval (spec throttlers.md §12.15; γ*'s
// interval covers 0.954 on the 2⁵-node hypercube at RelAcc 5 %). The search runs below a cap,
// 90 % of a*(τ)/λ_n⁺ with λ_n⁺ the deterministic upper bound of λ_n
// (spectral.LambdaMaxBounds), raised to 99 %, 99.9 % and 99.99 % while
// the root's interval reaches it, so every γ examined is certified
// stable. Each probe's ρ₂ and
// derivative are bracketed at every γ (the τ + 1 partial fractions of
// R_τ in closed form, each pole's term between its Gauss and
// Gauss–Radau values; spec throttlers.md §12.13, §12.14), the
// recurrences run until those brackets at the cap are ≤ RelAcc/10
// relative, and the intervals are widened by them; the roots are found
// by regula falsi (signChange). Probes are added until both intervals
// have relative half-width ≤ set.RelAcc. Each γ costs O(τ) per Ritz
// value (the Gauss values) and τ + 1 resolvent quadratures per probe
// (the brackets): at τ = 200 about 0.4 s on the 64-node hypercube and
// 1.6 s on a 64-node random graph. τ = 0 is EstimateGammaH2 (its finer
// cap moves and bracket refinement). Spectral.GammaH2Delay computes the
// same exactly on graphs of up to spectral.DenseMaxNodes nodes.
//
// Errors: ErrInvalid for σ negative or not finite, τ < 0, bad settings
// or fewer than 2 nodes; ErrTooLarge for τ > MaxDelay or past the memory
// budget; ErrDisconnected; ErrIllConditioned when the root lies within
// 10⁻⁴ of the limit a*(τ)/λ_n⁺ (the bounds cannot certify it), or its
// interval still reaches that last cap after 16·MinProbes probes (near
// the pole the derivative's spread needs more probes than its mean); the
// partial estimates with loadlab.ErrNotConverged at MaxProbes. It
// panics if g or src is nil.
func EstimateGammaH2Delay(g *wgraph.Graph, tau int, sigma float64, set *estimate.TraceSettings, src rand.Source) (GammaH2Estimate, error) {
	if g == nil || src == nil {
		panic("consensus: EstimateGammaH2Delay: nil graph or rand.Source")
	}
	var out GammaH2Estimate
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return out, loadlab.Invalid("consensus", "EstimateGammaH2Delay: sigma = %v, want finite and ≥ 0", sigma)
	}
	if err := validateDelay(tau); err != nil {
		return out, err
	}
	if err := set.Validate(); err != nil {
		return out, err
	}
	if g.Order() < 2 {
		return out, loadlab.Invalid("consensus", "EstimateGammaH2Delay: graph has %d nodes, want ≥ 2", g.Order())
	}
	if tau == 0 {
		return EstimateGammaH2(g, sigma, set, src)
	}
	ts, solverSet := set.Resolved()
	if err := solverSet.Validate(); err != nil {
		return out, err
	}
	m, err := lapmat.New(g)
	if err != nil || m == nil {
		return out, cmpErr(err, wgraph.CheckConnected(g))
	}
	if out.LambdaMax, err = spectral.LambdaMaxBounds(g); err != nil {
		return out, err
	}
	hs := newH2Sampler(g, m, solverSet, src.Uint64(), out.LambdaMax, ts)
	if err := hs.startTopMode(); err != nil {
		return out, err
	}
	ds := &delaySearch{hs: hs, dq: newDelayQuad(tau), lim: delayLimit(tau) / out.LambdaMax.Hi}
	if ds.dq.poles.ok {
		hs.ends.Extra = func(p *lanczos.Probe) float64 {
			return ds.dq.poles.relWidth(p, ds.gcap(), hs.lmax, true, &ds.dq.qw)
		}
	}
	err = ds.estimate(&out, ts, rand.New(src))
	out.Probes, out.Iterations, out.MatVecs, out.Solves = len(hs.probes), hs.iters, hs.matvecs, hs.solves
	v := sigma * sigma
	out.Rho2 = scaleEst(out.Rho2, v)
	return out, err
}

// delaySearch holds the probes' quadrature nodes for the search of
// γ*_H2(τ).
type delaySearch struct {
	hs    *h2Sampler
	dq    *delayQuad
	lim   float64 // a*(τ)/λ_n⁺
	cap   int     // index into delayCaps
	nodes [][]float64
	wts   [][]float64 // (n − 1) × squared first components
	buf   []float64
	half  []float64
}

// gcap returns the current cap on γ.
func (ds *delaySearch) gcap() float64 { return delayCaps[ds.cap] * ds.lim }

// settleAt sets the sampler's settle point for the current cap: the
// quadrature of 1/(2 − γ'λ), γ' = 2γ_cap/a*(τ), whose pole is that of
// R_τ(γ_cap λ) (spec deployed §2.5).
func (ds *delaySearch) settleAt() {
	ds.hs.fixed = 2 * delayCaps[ds.cap] / ds.hs.lmax
}

// refresh recomputes the Gauss nodes and weights of every probe.
func (ds *delaySearch) refresh() bool {
	ds.nodes, ds.wts = ds.nodes[:0], ds.wts[:0]
	for _, p := range ds.hs.probes {
		k := len(p.Alpha)
		if k == 0 {
			ds.nodes, ds.wts = append(ds.nodes, nil), append(ds.wts, nil)
			continue
		}
		b0, _ := p.Shifted(0, &ds.hs.qw)
		d := append([]float64(nil), p.Alpha...)
		e := append([]float64(nil), p.Beta[:k-1]...)
		z := make([]float64, k*k)
		for i := range k {
			z[i*k+i] = 1
		}
		if !(gonum.Implementation{}).Dsteqr(lapack.EVTridiag, k, d, e, z, k, make([]float64, max(1, 2*k-2))) {
			return false
		}
		w := make([]float64, k)
		for j := range k {
			w[j] = 2 * b0 * z[j] * z[j]
		}
		ds.nodes, ds.wts = append(ds.nodes, d), append(ds.wts, w)
	}
	return true
}

// summary returns the estimate of ρ₂ (deriv false) or dρ₂/dγ at γ, at
// σ = 1, with the resistance term when it is estimated apart, its
// interval widened by the probes' brackets (lanczos.BracketEstimate).
func (ds *delaySearch) summary(gamma float64, deriv bool) loadlab.Estimate {
	e, bias := ds.probeBrackets(gamma, deriv)
	df := float64(e.N - 1)
	if deriv {
		e, df = kurtosisT(e, bias, ds.buf)
	}
	if !ds.hs.res.on {
		return e
	}
	return lanczos.Widen(ds.hs.res.addDF(e, df, ds.traceWeight(gamma, deriv)), bias)
}

// traceWeight is the weight of tr L† in ρ₂ (1/(2γ)) or its derivative
// (−1/(2γ²)).
func (ds *delaySearch) traceWeight(gamma float64, deriv bool) float64 {
	if deriv {
		return -1 / (2 * gamma * gamma)
	}
	return 1 / (2 * gamma)
}

// probeSummary is summary without a separately estimated resistance
// term.
func (ds *delaySearch) probeSummary(gamma float64, deriv bool) loadlab.Estimate {
	e, _ := ds.probeBrackets(gamma, deriv)
	return e
}

// probeBrackets returns the estimate of ρ₂ or dρ₂/dγ at γ over the
// probes from their brackets (lanczos.BracketEstimate: the Gauss values
// shifted and widened by the brackets of a and of the delayed parts,
// spec throttlers.md §12.13) and the bias bound it carries.
func (ds *delaySearch) probeBrackets(gamma float64, deriv bool) (loadlab.Estimate, float64) {
	ds.gauss(gamma, deriv)
	ds.half = ds.half[:0]
	for k, p := range ds.hs.probes {
		v := [2]float64{ds.buf[k], p.AHalf / (2 * gamma)}
		if deriv {
			v[1] /= gamma
		}
		if ds.dq.poles.ok {
			b, ok := ds.dq.poles.bounds(p, gamma, ds.hs.lmax, &ds.dq.qw)
			iv := b.r
			if deriv {
				iv = b.d
			}
			if !ok {
				iv = [2]float64{math.Inf(-1), math.Inf(1)}
			}
			v = shiftBracket(v, iv)
		}
		ds.buf[k], ds.half = v[0], append(ds.half, v[1])
	}
	if ds.hs.top != nil {
		if beta, ok := ds.topBeta(gamma, deriv); ok {
			ds.hs.top.adjust(ds.buf, ds.half, ds.hs.probes, beta)
		}
	}
	return lanczos.BracketEstimate(ds.buf, ds.half)
}

// topBeta is the top-mode control variate's coefficient f(θ) − f(λ̄)
// for the delayed ρ₂ (deriv false) or its derivative (spec throttlers.md
// §12.15, as h2Sampler.topBeta): one mode's term in a probe's value is
// R(γλ) + 1/(2γλ), or λR'(γλ) − 1/(2γ²λ), less the resistance part when
// tr L† is estimated apart; false when R has a pole at either point.
func (ds *delaySearch) topBeta(gamma float64, deriv bool) (float64, bool) {
	term := func(l float64) (float64, bool) {
		r, dr, ok := ds.dq.w.r(gamma * l)
		v, res := r, 1/(2*gamma*l)
		if deriv {
			v, res = l*dr, -1/(2*gamma*gamma*l)
		}
		if !ds.hs.res.on {
			v += res
		}
		return v, ok && !math.IsInf(v, 0) && !math.IsNaN(v)
	}
	a, okA := term(ds.hs.top.theta)
	b, okB := term(ds.hs.top.lbar)
	return a - b, okA && okB
}

// gauss sets ds.buf to the probes' Gauss values of ρ₂ (deriv false) or
// dρ₂/dγ at γ.
func (ds *delaySearch) gauss(gamma float64, deriv bool) {
	ds.buf = ds.buf[:0]
	w := ds.dq.w
	for k, p := range ds.hs.probes {
		var s float64
		for j, th := range ds.nodes[k] {
			r, dr, ok := w.r(gamma * th)
			if !ok {
				r, dr = math.Inf(1), math.Inf(1)
			}
			if deriv {
				s += ds.wts[k][j] * th * dr
			} else {
				s += ds.wts[k][j] * r
			}
		}
		if deriv {
			s -= p.A / (2 * gamma * gamma)
		} else {
			s += p.A / (2 * gamma)
		}
		ds.buf = append(ds.buf, s)
	}
}

// root locates γ̂ and its interval below the cap; atCap reports that the
// root or the interval's upper end reaches the cap.
func (ds *delaySearch) root() (gam, rho2 loadlab.Estimate, atCap bool) {
	gc := ds.gcap()
	lo := 1e-3 * gc
	mean := func(x float64) float64 { return -ds.summary(x, true).Mean }
	upper := func(x float64) float64 { return -ds.summary(x, true).Lo }
	lower := func(x float64) float64 { return -ds.summary(x, true).Hi }
	if mean(gc) >= 0 {
		return gam, rho2, true
	}
	gh := signChange(mean, lo, gc)
	gam = loadlab.Estimate{Mean: gh, Lo: lo, Hi: gc, N: len(ds.hs.probes)}
	if lower(lo) >= 0 {
		gam.Lo = signChange(lower, lo, gh)
	}
	if upper(gc) >= 0 {
		atCap = true
	} else {
		gam.Hi = signChange(upper, gh, gc)
	}
	h := 1e-6 * gh
	slope := (ds.summary(gh+h, true).Mean - ds.summary(gh-h, true).Mean) / (2 * h)
	gam.StdErr = ds.summary(gh, true).StdErr / math.Abs(slope)
	return gam, ds.summary(gh, false), atCap
}

// rho2Over returns rho2, the estimate of ρ₂ at γ̂ = gam.Mean, with the
// interval of ρ₂(γ*) = min ρ₂: the union of ρ₂'s intervals at γ̂ and at
// rho2Points equally spaced γ of γ*'s interval [Lo, Hi] (spec
// throttlers.md §12.15). The interval at γ̂ alone sees neither the
// uncertainty of γ̂ nor how fast the probes' spread changes with γ.
func (ds *delaySearch) rho2Over(gam, rho2 loadlab.Estimate) loadlab.Estimate {
	return rho2Union(gam, rho2, func(x float64) loadlab.Estimate { return ds.summary(x, false) })
}

// estimate adds probes, raising the cap while the root's interval
// reaches it, until both intervals meet ts.RelAcc or MaxProbes are used.
func (ds *delaySearch) estimate(out *GammaH2Estimate, ts estimate.TraceSettings, rng *rand.Rand) error {
	hs := ds.hs
	ds.settleAt()
	next := ts.MinProbes
	for {
		if err := hs.addFixed(next-len(hs.probes), rng); err != nil {
			out.Status = failStatus(err)
			return err
		}
		if !ds.refresh() {
			out.Status = loadlab.Failure
			return loadlab.Wrap(ErrIllConditioned, "consensus", "EstimateGammaH2Delay: a Lanczos tridiagonal's eigenvalues did not converge")
		}
		gam, rho2, atCap := ds.root()
		if atCap {
			if ds.cap == len(delayCaps)-1 && gam.N > 0 && len(hs.probes) < min(ts.MaxProbes, lastCapProbes*ts.MinProbes) {
				// The root lies below the last cap but its interval reaches
				// it: near the pole the derivative's spread is a χ²₁-type
				// term that few probes cannot bound away from 0 (spec
				// throttlers.md §12.13); more probes close the interval.
				next = min(ts.MaxProbes, max(len(hs.probes)+1, len(hs.probes)*5/4))
				continue
			}
			if ds.cap == len(delayCaps)-1 {
				out.Status = loadlab.Failure
				return loadlab.Wrap(ErrIllConditioned, "consensus", "EstimateGammaH2Delay: γ*_H2(τ) lies within %.3g of the certified limit a*(τ)/λ_n⁺ = %g (λ_n ≤ %g)", 1-delayCaps[ds.cap], ds.lim, hs.lmax)
			}
			ds.cap++
			ds.settleAt()
			if err := hs.runAll(hs.probes, false); err != nil {
				out.Status = failStatus(err)
				return err
			}
			next = len(hs.probes)
			continue
		}
		out.Gamma, out.Rho2 = gam, ds.rho2Over(gam, rho2)
		if gam.HalfWidth() <= ts.RelAcc*gam.Mean && out.Rho2.RelHalfWidth() <= ts.RelAcc {
			out.Status = loadlab.Success
			return nil
		}
		gh := gam.Mean
		refined, err := hs.refineTrace(
			[2]float64{gam.HalfWidth() / gh, hs.res.share(ds.probeSummary(gh, true), ds.traceWeight(gh, true))},
			// ρ₂'s interval at γ̂ alone: the union over γ*'s interval
			// (rho2Over) narrows with γ's, not with tr L†'s.
			[2]float64{rho2.RelHalfWidth(), hs.res.share(ds.probeSummary(gh, false), ds.traceWeight(gh, false))})
		switch {
		case err != nil:
			out.Status = failStatus(err)
			return err
		case refined:
			next = len(hs.probes)
			continue
		case len(hs.probes) >= ts.MaxProbes:
			out.Status = loadlab.IterationLimit
			return loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "EstimateGammaH2Delay: relative half-widths %.3g (γ*_H2), %.3g (ρ₂) > RelAcc = %.3g after %d probes", gam.HalfWidth()/gam.Mean, out.Rho2.RelHalfWidth(), ts.RelAcc, len(hs.probes))
		}
		next = min(ts.MaxProbes, max(len(hs.probes)+1, len(hs.probes)*5/4))
	}
}

// signChange returns a point of [lo, hi] where f changes sign from ≥ 0
// to < 0, as bisect does (f ≥ 0 kept at the left end, NaN counted as
// < 0), to within 4ε relative, or a zero of f it meets. It uses the
// Illinois variant of regula falsi: on the smooth estimated derivative
// of the root search it takes about a dozen evaluations of f where
// bisection to the last bit takes 52 or more, and every evaluation
// brackets all the probes' poles (spec throttlers.md §12.14). Every
// fourth step bisects if the three before have not halved the bracket,
// so the bracket halves at least every four evaluations (at worst four
// times bisection's count). If f(lo) < 0 it returns lo, if f(hi) ≥ 0 hi.
func signChange(f func(float64) float64, lo, hi float64) float64 {
	flo, fhi := f(lo), f(hi)
	if !(flo >= 0) {
		return lo
	}
	if fhi >= 0 {
		return hi
	}
	side, w0 := 0, hi-lo
	for step := 1; step <= 400; step++ {
		if hi-lo <= 4*0x1p-52*max(math.Abs(lo), math.Abs(hi)) {
			break
		}
		x := lo + (hi-lo)/2
		if step%4 != 0 || hi-lo <= w0/2 {
			if sec := lo + flo*(hi-lo)/(flo-fhi); sec > lo && sec < hi {
				x = sec
			}
		}
		if step%4 == 0 {
			w0 = hi - lo
		}
		fx := f(x)
		switch {
		case fx == 0:
			return x
		case fx > 0:
			lo, flo = x, fx
			if side == -1 {
				fhi /= 2 // Illinois: the end kept twice has its value halved
			}
			side = -1
		default:
			hi, fhi = x, fx
			if side == 1 {
				flo /= 2
			}
			side = 1
		}
	}
	return lo + (hi-lo)/2
}
