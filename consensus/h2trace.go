package consensus

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// H2Estimate holds stochastic estimates of the H2 measures of a
// throttler (spec throttlers.md §4.3–4.4) with their 95 % intervals.
type H2Estimate struct {
	Rho1, Rho2, Rho2T loadlab.Estimate
	Probes            int              // Rademacher probes
	Iterations        int              // conjugate-gradient iterations of the Laplacian solves (0 when every resistance term came from Lanczos)
	MatVecs           int              // products of L with a vector outside the solves (the probes' Lanczos steps)
	Solves            int              // Laplacian solves: those of the estimates of tr L† when a's quadrature is slow, else 0
	LambdaMax         spectral.Bracket // proven bracket of λ_n, checked against 2/γ
	Status            loadlab.Status   // Success when ρ₁ and ρ₂ met RelAcc
}

// EstimateH2 estimates the H2 measures ρ₁, ρ₂ and ρ₂T of the
// throttler th at noise level σ (spec throttlers.md §4.3–4.4) with a
// 95 % interval each, on graphs of any size:
//
//	ρ₂(γ) = σ² Σ_{i≥2} 1/(γλ_i(2 − γλ_i)),   ρ₂T = γρ₂,   ρ₁ = σ² Σ_{i≥2} 2/(2 − γλ_i),
//
// by Rademacher probes and the split
//
//	1/(t(2 − t)) = ½ (1/t + 1/(2 − t)),
//	ρ₂ = ½ [tr L†/γ + tr_{1⊥} (2I − γL)⁻¹],   ρ₁ = 2 tr_{1⊥} (2I − γL)⁻¹:
//
// each probe q gives a = qᵀL†q and b = (Pq)ᵀ(2I − γL)⁻¹(Pq) by Gauss
// quadrature on the Lanczos tridiagonal of L from Pq, the probes run
// eight at a time in one block, exactly as in EstimateGammaH2 at the
// fixed γ (each probe's quadratures bracketed to RelAcc/10 relative and
// the intervals widened by the brackets, spec throttlers.md §12.11; tr L†
// estimated
// once by Hutch++ with preconditioned solves, instead of a per probe,
// when a's quadrature would need more than 200 steps: h2resist.go).
// Probes are added (MinProbes, then about 25 % more at a time) until ρ₁
// and ρ₂ have relative half-width ≤ set.RelAcc (default 1 %). γ must
// satisfy 0 < γ < 2/λ_n: λ_n is bracketed first (LambdaMaxBracket, which
// stops at the deterministic bounds when they decide) and γ ≥ 2/λ_n is
// an error wrapping ErrUnstable, a γ that the bracket cannot decide one
// wrapping loadlab.ErrIllConditioned. Rho computes the same measures
// exactly on graphs of up to spectral.DenseMaxNodes nodes. Errors:
// ErrInvalid for an invalid throttler (see Throttler.Validate; the
// Measure must be Amount), σ negative or not finite, or bad settings;
// ErrDisconnected; ErrTooLarge past the memory budget; the partial
// estimates with loadlab.ErrNotConverged at MaxProbes (or when a solve
// or a quadrature stops short). It panics if th or src is nil.
func EstimateH2(th *Throttler, sigma float64, set *estimate.TraceSettings, src rand.Source) (H2Estimate, error) {
	if th == nil || src == nil {
		panic("consensus: EstimateH2: nil throttler or rand.Source")
	}
	if err := th.validateLinear("EstimateH2"); err != nil {
		return H2Estimate{}, err
	}
	if err := validateRhoArgs(Case2, th.Gamma, sigma); err != nil {
		return H2Estimate{}, err
	}
	e, err := estimateH2(th.Graph, th.Gamma, set, src)
	v := sigma * sigma
	e.Rho1, e.Rho2, e.Rho2T = scaleEst(e.Rho1, v), scaleEst(e.Rho2, v), scaleEst(e.Rho2T, v)
	return e, err
}

// Of returns the estimate of traffic t's measure (Case1: ρ₁, Case2:
// ρ₂, Case2T: ρ₂T). It panics for an unknown Traffic.
func (e H2Estimate) Of(t Traffic) loadlab.Estimate {
	switch t {
	case Case1:
		return e.Rho1
	case Case2:
		return e.Rho2
	case Case2T:
		return e.Rho2T
	}
	panic(fmt.Sprintf("consensus: H2Estimate.Of: unknown %v", t))
}

// estimateH2 is EstimateH2 of the throttler on g with cycle γ at σ = 1,
// after the throttler's checks. It panics if g or src is nil.
func estimateH2(g *wgraph.Graph, gamma float64, set *estimate.TraceSettings, src rand.Source) (H2Estimate, error) {
	var out H2Estimate
	if err := set.Validate(); err != nil {
		return out, err
	}
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return out, loadlab.Invalid("consensus", "EstimateH2: gamma = %v, want > 0 and finite", gamma)
	}
	ts, solverSet := set.Resolved()
	if err := solverSet.Validate(); err != nil {
		return out, err
	}
	mat, err := lapmat.New(g)
	if err != nil || mat == nil {
		return out, cmpErr(err, wgraph.CheckConnected(g))
	}
	if out.LambdaMax, err = h2Stable(g, gamma); err != nil {
		return out, err
	}
	hs := newH2Sampler(g, mat, solverSet, src.Uint64(), out.LambdaMax, ts)
	hs.fixed = gamma
	err = hs.estimateH2(&out, gamma, ts, rand.New(src))
	out.Probes, out.Iterations, out.MatVecs, out.Solves = len(hs.probes), hs.iters, hs.matvecs, hs.solves
	return out, err
}

// estimateH2 adds probes at the fixed γ until ρ₁ and ρ₂ meet ts.RelAcc
// or MaxProbes are used, and fills out's estimates (the partial ones on
// an error).
func (hs *h2Sampler) estimateH2(out *H2Estimate, gamma float64, ts estimate.TraceSettings, rng *rand.Rand) error {
	sample := func(p *lanczos.Probe) (rho2, rho1 [2]float64) {
		rho2, rho1, _ = sampleH2Bounds(p, gamma, hs.lmax, &hs.qw)
		return rho2, rho1
	}
	return hs.probeLoop("EstimateH2", out, gamma, ts, rng, sample, nil)
}

// probeLoop adds probes at hs.fixed until the estimates of ρ₁ and ρ₂
// that sample gives meet ts.RelAcc or MaxProbes are used, refining the
// trace of the resistance term when it dominates, and fills out's
// estimates (the partial ones on an error; fn names the caller in its
// errors). check, if not nil, is asked after each round for an error
// that ends the loop with Status Failure.
func (hs *h2Sampler) probeLoop(fn string, out *H2Estimate, gamma float64, ts estimate.TraceSettings, rng *rand.Rand,
	sample func(p *lanczos.Probe) (rho2, rho1 [2]float64), check func() error) error {
	next := ts.MinProbes
	for {
		err := hs.addFixed(next-len(hs.probes), rng)
		var r1, r2, h1, h2 []float64
		for _, p := range hs.probes {
			rho2, rho1 := sample(p)
			r1, r2, h1, h2 = append(r1, rho1[0]), append(r2, rho2[0]), append(h1, rho1[1]), append(h2, rho2[1])
		}
		e2, bias2 := lanczos.BracketEstimate(r2, h2)
		if hs.res.on {
			e2 = lanczos.Widen(hs.res.add(e2, traceWeight(gamma, sampleRho2)), bias2)
		}
		out.Rho1, _ = lanczos.BracketEstimate(r1, h1)
		out.Rho2 = e2
		out.Rho2T = scaleEst(out.Rho2, gamma)
		if err == nil && check != nil {
			if err = check(); err != nil {
				out.Status = loadlab.Failure
				return err
			}
		}
		switch {
		case err != nil:
			out.Status = failStatus(err)
			return err
		case out.Rho1.RelHalfWidth() <= ts.RelAcc && out.Rho2.RelHalfWidth() <= ts.RelAcc:
			out.Status = loadlab.Success
			return nil
		}
		if dec, err := hs.decoupleBySpread(gamma, sampleRho2, out.Rho2.RelHalfWidth()); dec || err != nil {
			if err != nil {
				out.Status = failStatus(err)
				return err
			}
			next = len(hs.probes)
			continue
		}
		refined, err := hs.refineTrace([2]float64{out.Rho2.RelHalfWidth(), hs.res.share(mc.Estimate(r2), traceWeight(gamma, sampleRho2))})
		switch {
		case err != nil:
			out.Status = failStatus(err)
			return err
		case refined:
			next = len(hs.probes)
			continue
		case len(hs.probes) >= ts.MaxProbes:
			out.Status = loadlab.IterationLimit
			return loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "%s: relative half-widths %.3g (ρ₁), %.3g (ρ₂) > RelAcc = %.3g after %d probes", fn, out.Rho1.RelHalfWidth(), out.Rho2.RelHalfWidth(), ts.RelAcc, len(hs.probes))
		}
		next = min(ts.MaxProbes, max(len(hs.probes)+1, len(hs.probes)*5/4))
	}
}

// failStatus is the Status of an estimate stopped by err:
// IterationLimit for ErrNotConverged, else Failure.
func failStatus(err error) loadlab.Status {
	if errors.Is(err, loadlab.ErrNotConverged) {
		return loadlab.IterationLimit
	}
	return loadlab.Failure
}

// h2Stable brackets λ_n and checks 0 < γ < 2/λ_n.
func h2Stable(g *wgraph.Graph, gamma float64) (spectral.Bracket, error) {
	// The threshold 2/γ stops the refinement as soon as the bracket
	// decides γλ_n < 2 (or not), instead of refining to RelWidth.
	b, err := spectral.LambdaMaxBracket(g, &spectral.EigenSettings{Threshold: 2 / gamma})
	if err != nil {
		return b, err
	}
	switch {
	case gamma*b.Lo >= 2:
		return b, loadlab.Wrap(loadlab.ErrUnstable, "consensus", "gamma = %v ≥ 2/λ_n (λ_n ∈ [%g, %g])", gamma, b.Lo, b.Hi)
	case gamma*b.Hi >= 2:
		return b, loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "gamma = %v is within the bracket of 2/λ_n (λ_n ∈ [%g, %g])", gamma, b.Lo, b.Hi)
	}
	return b, nil
}

// shiftedCG solves (2I − γL) x = P b by unpreconditioned conjugate
// gradients; 2I − γL is positive definite for 0 < γ < 2/λ_n, with its
// spectrum on 1⊥ in [2 − γλ_n, 2], so the iterations are about
// √(2/(2 − γλ_n)) per digit. who names the caller in errors.
type shiftedCG struct {
	op           *laplacian.Operator
	gamma, tol   float64
	maxIter      int
	who          string
	pq, r, p, ap []float64
}

func newShiftedCG(op *laplacian.Operator, gamma, tol float64, maxIter int) *shiftedCG {
	n := op.Order()
	return &shiftedCG{op: op, gamma: gamma, tol: tol, maxIter: maxIter, who: "EstimateH2",
		pq: make([]float64, n), r: make([]float64, n), p: make([]float64, n), ap: make([]float64, n)}
}

// apply sets dst = (2I − γL) v = −γ (L − (2/γ) I) v.
func (c *shiftedCG) apply(dst, v []float64) {
	c.op.ApplyShifted(dst, v, -2/c.gamma)
	for i := range dst {
		dst[i] *= -c.gamma
	}
}

// solve sets x = (2I − γL)⁻¹ P b (P the projection onto 1⊥, kept in
// c.pq) from x = 0 and returns the iterations.
func (c *shiftedCG) solve(x, b []float64) (int, error) {
	clear(x)
	return c.solveFrom(x, b)
}

// solveFrom updates x (in 1⊥, a warm start) until ‖P b − (2I − γL) x‖ ≤
// tol ‖P b‖ and returns the iterations (0 when x already meets tol; and
// when P b = 0, as for an all-equal Rademacher probe, of probability
// 2^{1−n}, where iterating would divide 0 by 0).
func (c *shiftedCG) solveFrom(x, b []float64) (int, error) {
	mean := dense.Sum(b) / float64(len(b))
	for i, v := range b {
		c.pq[i] = v - mean
	}
	c.apply(c.r, x)
	for i := range c.r {
		c.r[i] = c.pq[i] - c.r[i]
	}
	stop := c.tol * c.tol * dense.Dot(c.pq, c.pq)
	rr := dense.Dot(c.r, c.r)
	if rr <= stop {
		return 0, nil
	}
	copy(c.p, c.r)
	for it := 1; it <= c.maxIter; it++ {
		c.apply(c.ap, c.p)
		alpha := rr / dense.Dot(c.p, c.ap)
		for i := range x {
			x[i] += alpha * c.p[i]
			c.r[i] -= alpha * c.ap[i]
		}
		rrNew := dense.Dot(c.r, c.r)
		if rrNew <= stop {
			return it, nil
		}
		beta := rrNew / rr
		rr = rrNew
		for i := range c.p {
			c.p[i] = c.r[i] + beta*c.p[i]
		}
	}
	return c.maxIter, loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "%s: the solve of 2I − γL did not reach Tol = %.3g in %d iterations", c.who, c.tol, c.maxIter)
}

// scaleEst multiplies an estimate by f ≥ 0.
func scaleEst(e loadlab.Estimate, f float64) loadlab.Estimate {
	return loadlab.Estimate{Mean: f * e.Mean, Lo: f * e.Lo, Hi: f * e.Hi, StdErr: f * e.StdErr, N: e.N}
}

// sampleH2 returns one probe's values of the H2 functions at γ (σ = 1;
// spec throttlers.md §4.4, §12.9): with b and c from Shifted and
// a = A = qᵀ L† q,
//
//	ρ₂ = ½ (a/γ + b),   ρ₁ = 2b,
//	g  = a/4 + γb/4 − γc/2,
//
// the last from the partial fractions (1 − t)/(t(2 − t)²) =
// 1/(4t) + 1/(4(2 − t)) − 1/(2(2 − t)²) with t = γλ, multiplied by γ:
// Σ_{i≥2} (1 − γλ_i)/(λ_i (2 − γλ_i)²) = g(γ) of spec throttlers.md §5.1.
func sampleH2(p *lanczos.Probe, gamma float64, w *lanczos.QuadWork) (rho2, rho1, g float64) {
	b, c := p.Shifted(gamma, w)
	return (p.A/gamma + b) / 2, 2 * b, p.A/4 + gamma*b/4 - gamma*c/2
}

// sampleH2Bounds returns one probe's values of ρ₂, ρ₁ and g at γ as
// {midpoint, half-width} of their brackets (spec throttlers.md §12.11):
// the combinations of sampleH2 evaluated on the brackets of a
// (Probe.A ± AHalf) and of b and c (Probe.ShiftedBounds with the node
// lmaxHi ≥ λ_n), each term at the end that makes the value smallest
// or largest (g's c term enters with a minus sign).
func sampleH2Bounds(p *lanczos.Probe, gamma, lmaxHi float64, w *lanczos.QuadWork) (rho2, rho1, g [2]float64) {
	b, c := p.ShiftedBounds(gamma, lmaxHi, w)
	aLo, aHi := p.A-p.AHalf, p.A+p.AHalf
	mid := func(lo, hi float64) [2]float64 { return [2]float64{(lo + hi) / 2, (hi - lo) / 2} }
	rho2 = mid((aLo/gamma+b[0])/2, (aHi/gamma+b[1])/2)
	rho1 = mid(2*b[0], 2*b[1])
	g = mid(aLo/4+gamma*b[0]/4-gamma*c[1]/2, aHi/4+gamma*b[1]/4-gamma*c[0]/2)
	return rho2, rho1, g
}

// probeParts returns the estimate of g (which = sampleG) or ρ₂ at γ
// over the probes from their brackets (lanczos.BracketEstimate), with
// the top mode's control variate when there is one (topMode.adjust),
// and the bias bound the interval carries.
func (hs *h2Sampler) probeParts(gamma float64, which int) (loadlab.Estimate, float64) {
	hs.buf, hs.half = hs.buf[:0], hs.half[:0]
	for _, p := range hs.probes {
		r2, _, gv := sampleH2Bounds(p, gamma, hs.lmax, &hs.qw)
		if which == sampleG {
			r2 = gv
		}
		hs.buf, hs.half = append(hs.buf, r2[0]), append(hs.half, r2[1])
	}
	if hs.top != nil {
		hs.top.adjust(hs.buf, hs.half, hs.probes, hs.topBeta(gamma, which))
	}
	return lanczos.BracketEstimate(hs.buf, hs.half)
}

// lam2Lower returns the lower end of g's λ₂ bracket at relative width
// lanczos.Lam2RelWidth and failure probability lanczos.Lam2Delta, the
// node of the upper bounds on a = qᵀL†q, or 0 when the bracket fails
// (then a is left to solves).
func lam2Lower(g *wgraph.Graph) float64 {
	b, err := spectral.Lambda2Bracket(g, &spectral.EigenSettings{RelWidth: lanczos.Lam2RelWidth, Delta: lanczos.Lam2Delta})
	if err != nil {
		return 0
	}
	return b.Lo
}

// Spread rule of the resistance term: decoupleProbes is the projected
// probe count above which a's share of the variance, when at least
// decoupleShare, makes the sampler estimate tr L† apart (Hutch++, which
// takes the low modes exactly) instead of from each probe's quadrature.
const (
	decoupleProbes = 60
	decoupleShare  = 0.5
)

// decoupleBySpread drops the probes' a and estimates tr L† apart
// (decouple) when a's quadratures settle fast but its sampling spread
// does not (a barbell: the low mode across the bridge carries most of
// qᵀL†q, so one probe's a spreads by about √2 relative): the estimate
// of which at γ with relative half-width relHW projects more than
// decoupleProbes probes and a's terms carry at least decoupleShare of
// its variance. It reports whether it did.
func (hs *h2Sampler) decoupleBySpread(gamma float64, which int, relHW float64) (bool, error) {
	n := len(hs.probes)
	if hs.solveA || hs.res.on || n < 2 || relHW <= hs.ts.RelAcc ||
		float64(n)*(relHW/hs.ts.RelAcc)*(relHW/hs.ts.RelAcc) <= decoupleProbes {
		return false, nil
	}
	hs.probeParts(gamma, which)
	w := traceWeight(gamma, which)
	as := make([]float64, n)
	for i, p := range hs.probes {
		as[i] = w * p.A
	}
	va, vs := mc.Summarize(as).Std, mc.Summarize(hs.buf).Std
	if !(va*va >= decoupleShare*vs*vs) {
		return false, nil
	}
	hs.solveA = true
	return true, hs.decouple(hs.probes)
}

// decoupleAt is decoupleBySpread for EstimateGammaH2: at γ̂, judged on
// ρ₂(γ̂), and never while the root reaches the cap.
func (hs *h2Sampler) decoupleAt(gam, rho2 loadlab.Estimate, atCap bool) (bool, error) {
	if atCap || gam.N == 0 {
		return false, nil
	}
	return hs.decoupleBySpread(gam.Mean, sampleRho2, rho2.RelHalfWidth())
}
