package linalg

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// GammaH2Estimate is the stochastic estimate of the H2-optimal update
// cycle γ*_H2 and of ρ₂ there (spec throttlers.md §5.1), at σ = 1 (ρ₂
// scales with σ²; γ*_H2 does not depend on σ).
type GammaH2Estimate struct {
	// Gamma is γ*_H2: Mean is the root γ̂ of the estimated g, [Lo, Hi]
	// the 95 % confidence set {γ : 0 ∈ 95 % interval of g(γ)} (test
	// inversion), StdErr the delta-method standard error
	// se(ĝ(γ̂))/|ĝ′(γ̂)|, N the probes.
	Gamma loadlab.Estimate
	// Rho2 is the estimate of ρ₂(γ̂) from the same probes.
	Rho2 loadlab.Estimate
	// LambdaMax is the proven bracket of λ_n behind the search: every γ
	// examined is < 2/LambdaMax.Hi. It is the deterministic bounds
	// (CertBounds, δ = 0, no Lanczos) when the root lies under their cap,
	// else the Lanczos bracket of 1 % relative width.
	LambdaMax  Bracket
	Probes     int            // Rademacher probes
	Iterations int            // conjugate-gradient iterations of the Laplacian solves
	MatVecs    int            // products with L outside the solves (Lanczos, residual corrections)
	Status     loadlab.Status // Success when both intervals met RelAcc
}

// Search range of EstimateGammaH2: the Lanczos quadratures are run to
// convergence at the cap γ_c = (2 − δ)/λ_n⁺ (λ_n⁺ = LambdaMax.Hi); when
// the root or its interval reaches the cap, δ is divided by capShrink and
// the quadratures are recomputed, down to δ = capMinGap.
const (
	capFirstGap = 0.25
	capShrink   = 8
	capMinGap   = 0x1p-20
)

// EstimateGammaH2 estimates γ*_H2, the root of
//
//	g(γ) = Σ_{i≥2} (1 − γλ_i)/(λ_i (2 − γλ_i)²)
//	     = ¼ tr L† + (γ/4) tr_{1⊥}(2I − γL)⁻¹ − (γ/2) tr_{1⊥}(2I − γL)⁻²
//
// (spec throttlers.md §5.1 fact 2; dρ₂/dγ = −2g/γ²), and ρ₂(γ*_H2), for
// graphs too large for the dense spectrum. The probes are common to all
// γ: each Rademacher probe q gives a = qᵀL†q by one Laplacian solve and
// the Lanczos tridiagonal of L from Pq, from which the two shifted traces
// follow by Gauss quadrature for every γ at once (stochastic Lanczos
// quadrature; 2I − γL is well conditioned away from the stability edge,
// so unpreconditioned Lanczos converges fast). Each probe's g(γ) is then
// an exactly decreasing function of γ (its derivative −Σ γθ w/(2 − γθ)³
// over the quadrature nodes θ and positive weights w), so the estimated
// curve, their mean, is smooth and decreasing, with one root γ̂, found by
// bisection on [1/λ_n⁺, γ_c]: g ≥ 0 at γ ≤ 1/λ_n, every term being ≥ 0.
//
// The 95 % interval of γ*_H2 is the set of γ at which 0 lies in the 95 %
// Student-t interval of g(γ): at γ = γ*_H2 the true g is 0, so the set
// covers γ*_H2 exactly as often as the interval of g(γ*_H2) covers 0
// (inverting a test; Fieller's construction). Its ends are the roots of
// the interval's ends next to γ̂. ρ₂(γ̂) is estimated from the same
// probes; since γ̂ minimises the estimated ρ₂, it is biased low by about
// ½ρ₂″ Var(γ̂), second order in the interval and far below it.
//
// λ_n⁺ is first the deterministic bound (edge and Collatz–Wielandt
// bounds, O(m), or the dense eigenvalues up to 400 nodes), which proves
// γ < 2/λ_n with δ = 0 for every γ under its cap; only when the root lies
// beyond the cap at the smallest gap is λ_n bracketed by Lanczos
// (LambdaMaxBracket, 1 % relative width, δ = 1e-10) and the search
// restarted under the new cap. On a random d-regular graph the bound 2d
// suffices: γ*_H2 λ_n ≈ 1.56 for d = 6 while λ_n/2d ≈ 0.87.
//
// Probes are added (checks at about every 25 % more) until both the
// relative half-width of γ's interval, (Hi − Lo)/(2γ̂), and that of
// ρ₂(γ̂) are ≤ RelAcc. The Laplacian solves use TraceSettings.Solver
// (default relative residual DefaultTraceSolveTol); a = 2(Pq)ᵀx − xᵀLx
// with the computed x has error ‖e‖²_L ≤ ‖r‖²/λ₂, relative error
// ≤ κ(L)·Tol², 1e-12 κ(L), negligible up to κ(L) ~ 10⁶ (a 10³×10³ torus
// has κ ≈ 2·10⁵).
//
// Errors: those of NewLaplacianSolver (ErrDisconnected, ErrTooLarge,
// ErrInvalid for bad settings), ErrInvalid for a graph with fewer than 2
// nodes, ErrIllConditioned when γ*_H2 lies within 2⁻²⁰ λ_n⁺ of the
// stability limit 2/λ_n⁺, and ErrNotConverged with the partial estimate
// when MaxProbes are reached or a solve stops short. It panics if g or
// src is nil.
func EstimateGammaH2(g *Graph, set *TraceSettings, src rand.Source) (GammaH2Estimate, error) {
	if g == nil || src == nil {
		panic("linalg: EstimateGammaH2: nil graph or rand.Source")
	}
	var out GammaH2Estimate
	if err := set.Validate(); err != nil {
		return out, err
	}
	if g.Order() < 2 {
		return out, loadlab.Invalid("linalg", "EstimateGammaH2: graph has %d nodes, want ≥ 2", g.Order())
	}
	ts, solverSet := set.resolved()
	s, err := NewLaplacianSolver(g, &solverSet, src)
	if err != nil {
		return out, err
	}
	// Only the upper end λ_n⁺ is used (the search range and the cap):
	// the deterministic bounds first, the Lanczos bracket only when the
	// root lies beyond their cap (refineBracket).
	if out.LambdaMax, err = lambdaMaxBounds(g); err != nil {
		return out, err
	}
	hs := newH2Sampler(s, out.LambdaMax.Hi, solverSet.MaxIter)
	hs.g = g
	err = hs.estimate(&out, ts, rand.New(src))
	out.Probes, out.Iterations, out.MatVecs = len(hs.probes), hs.iters, hs.matvecs
	return out, err
}

// h2Sampler holds the common probes of EstimateGammaH2 and evaluates
// their sample of g and ρ₂ at any γ ≤ gcap.
type h2Sampler struct {
	g         *Graph
	s         *LaplacianSolver
	lw        *lanczosWork
	probes    []probeQuad
	q, x, lx  []float64
	lmax, gap float64
	maxSteps  int
	iters     int
	matvecs   int
	buf       []float64
	qw        quadWork
}

func newH2Sampler(s *LaplacianSolver, lmax float64, maxSteps int) *h2Sampler {
	n := s.op.n
	if maxSteps == 0 {
		maxSteps = DefaultSolveMaxIter
	}
	return &h2Sampler{s: s, lw: newLanczosWork(s.op), q: make([]float64, n), x: make([]float64, n), lx: make([]float64, n),
		lmax: lmax, gap: capFirstGap, maxSteps: maxSteps}
}

// gcap returns the current cap (2 − δ)/λ_n⁺.
func (hs *h2Sampler) gcap() float64 { return (2 - hs.gap) / hs.lmax }

// probe fills hs.q with the projection Pq of the Rademacher probe of seed.
func (hs *h2Sampler) probe(seed uint64) {
	rademacher(hs.q, rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)))
	var mean float64
	for _, v := range hs.q {
		mean += v
	}
	mean /= float64(len(hs.q))
	for i := range hs.q {
		hs.q[i] -= mean
	}
}

// add draws one probe: a Laplacian solve for a and the Lanczos
// quadrature at the current cap.
func (hs *h2Sampler) add(seed uint64) error {
	p := probeQuad{seed: seed}
	hs.probe(seed)
	res, err := hs.s.Solve(hs.x, hs.q)
	hs.iters += res.Iterations
	if err != nil {
		return err
	}
	hs.s.op.Apply(hs.lx, hs.x)
	// a = 2(Pq)ᵀx − xᵀLx = qᵀL†q − ‖x − L†q‖²_L: second order in the
	// solve error whether or not x is a Galerkin approximation.
	p.a = 2*dot(hs.q, hs.x) - dot(hs.x, hs.lx)
	k, err := hs.lw.run(&p, hs.q, hs.gcap(), hs.maxSteps)
	hs.matvecs += k + 1
	if err != nil {
		return err
	}
	hs.probes = append(hs.probes, p)
	return nil
}

// raise halves-and-more the gap to the stability limit and reruns the
// quadratures of every probe at the new cap. It reports false when the
// gap is already at capMinGap.
func (hs *h2Sampler) raise() (bool, error) {
	if hs.gap <= capMinGap {
		return false, nil
	}
	hs.gap = max(hs.gap/capShrink, capMinGap)
	for i := range hs.probes {
		p := &hs.probes[i]
		hs.probe(p.seed)
		k, err := hs.lw.run(p, hs.q, hs.gcap(), hs.maxSteps)
		hs.matvecs += k
		if err != nil {
			return true, err
		}
	}
	return true, nil
}

// refineBracket replaces a bracket of λ_n from the deterministic bounds
// (CertBounds) by the Lanczos bracket of 1 % relative width when the
// root lies beyond the bounds' cap even at the smallest gap, restarts the
// gap at capFirstGap and reruns the quadratures at the new cap. It
// reports false, doing nothing, when the bracket is already refined.
func (hs *h2Sampler) refineBracket(out *GammaH2Estimate) (bool, error) {
	if out.LambdaMax.Cert != CertBounds {
		return false, nil
	}
	b, err := LambdaMaxBracket(hs.g, &EigenSettings{RelWidth: 0.01})
	if err != nil {
		return true, err
	}
	out.LambdaMax, hs.lmax, hs.gap = b, b.Hi, capFirstGap*capShrink
	_, err = hs.raise()
	return true, err
}

// Which values summary samples.
const (
	sampleG = iota
	sampleRho2
)

// summary returns the estimate of g (which = sampleG) or ρ₂ at γ over
// the probes.
func (hs *h2Sampler) summary(gamma float64, which int) loadlab.Estimate {
	hs.buf = hs.buf[:0]
	for i := range hs.probes {
		r2, _, gv := hs.probes[i].sample(gamma, &hs.qw)
		if which == sampleG {
			hs.buf = append(hs.buf, gv)
		} else {
			hs.buf = append(hs.buf, r2)
		}
	}
	return summarize(hs.buf)
}

// bisect returns the root of f on [lo, hi] for f(lo) ≥ 0 > f(hi), to the
// last bit.
func bisect(f func(float64) float64, lo, hi float64) float64 {
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if f(mid) >= 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}

// root locates γ̂ and its interval with the current probes. It reports
// atCap when the root or the interval's upper end reaches the cap (the
// cap must rise before the answer can be trusted).
func (hs *h2Sampler) root() (gam, rho2 loadlab.Estimate, atCap bool) {
	ga, gc := 1/hs.lmax, hs.gcap()
	mean := func(x float64) float64 { return hs.summary(x, sampleG).Mean }
	lower := func(x float64) float64 { return hs.summary(x, sampleG).Lo }
	upper := func(x float64) float64 { return hs.summary(x, sampleG).Hi }
	if mean(gc) >= 0 {
		return gam, rho2, true
	}
	gh := bisect(mean, ga, gc)
	gam = loadlab.Estimate{Mean: gh, Lo: ga, Hi: gc, N: len(hs.probes)}
	if lower(ga) > 0 {
		gam.Lo = bisect(lower, ga, gh)
	}
	if upper(gc) >= 0 {
		atCap = true
	} else {
		gam.Hi = bisect(upper, gh, gc)
	}
	h := 1e-6 * gh
	slope := (mean(gh+h) - mean(gh-h)) / (2 * h)
	gam.StdErr = hs.summary(gh, sampleG).StdErr / math.Abs(slope)
	return gam, hs.summary(gh, sampleRho2), atCap
}

// estimate adds probes, raising the cap when needed, until both
// intervals meet ts.RelAcc or MaxProbes are used.
func (hs *h2Sampler) estimate(out *GammaH2Estimate, ts TraceSettings, rng *rand.Rand) error {
	next := ts.MinProbes
	for {
		for len(hs.probes) < next {
			if err := hs.add(rng.Uint64()); err != nil {
				return hs.partial(out, err)
			}
		}
		gam, rho2, atCap := hs.root()
		if atCap {
			raised, err := hs.raise()
			if err != nil {
				return hs.partial(out, err)
			}
			if raised {
				continue
			}
			if refined, err := hs.refineBracket(out); refined || err != nil {
				if err != nil {
					return hs.partial(out, err)
				}
				continue
			}
			if gam.N == 0 {
				out.Status = loadlab.Failure
				return loadlab.Wrap(loadlab.ErrIllConditioned, "linalg", "EstimateGammaH2: γ*_H2 lies within %.3g/λ_n of the stability limit 2/λ_n (λ_n ∈ [%g, %g])", capMinGap, out.LambdaMax.Lo, out.LambdaMax.Hi)
			}
		}
		out.Gamma, out.Rho2 = gam, rho2
		if !atCap && gam.HalfWidth() <= ts.RelAcc*gam.Mean && rho2.RelHalfWidth() <= ts.RelAcc {
			out.Status = loadlab.Success
			return nil
		}
		if len(hs.probes) >= ts.MaxProbes {
			out.Status = loadlab.IterationLimit
			return loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimateGammaH2: relative half-widths %.3g (γ*_H2), %.3g (ρ₂) > RelAcc = %.3g after %d probes", gam.HalfWidth()/gam.Mean, rho2.RelHalfWidth(), ts.RelAcc, len(hs.probes))
		}
		next = min(ts.MaxProbes, max(len(hs.probes)+1, len(hs.probes)*5/4))
	}
}

// partial records the estimate of the probes completed before err.
func (hs *h2Sampler) partial(out *GammaH2Estimate, err error) error {
	out.Status = loadlab.Failure
	if errors.Is(err, loadlab.ErrNotConverged) {
		out.Status = loadlab.IterationLimit
	}
	if len(hs.probes) >= 2 {
		if gam, rho2, atCap := hs.root(); !atCap || gam.N > 0 {
			out.Gamma, out.Rho2 = gam, rho2
		}
	}
	return err
}
