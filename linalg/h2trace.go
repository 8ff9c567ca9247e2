package linalg

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// H2Estimate holds stochastic estimates of the H2 measures of the
// throttler iteration x ← (I − γL) x + noise at σ = 1 (spec throttlers.md
// §4.3–4.4; each scales with σ²).
type H2Estimate struct {
	Rho1, Rho2, Rho2T loadlab.Estimate
	Probes            int            // Rademacher probes
	Iterations        int            // conjugate-gradient iterations of the Laplacian solves (0 when every resistance term came from Lanczos)
	MatVecs           int            // products of L with a vector outside the solves (the probes' Lanczos steps)
	Solves            int            // Laplacian solves: those of the estimates of tr L† when a's quadrature is slow, else 0
	LambdaMax         Bracket        // proven bracket of λ_n, checked against 2/γ
	Status            loadlab.Status // Success when ρ₁ and ρ₂ met RelAcc
}

// EstimateH2 estimates ρ₂(γ) = Σ_{i≥2} 1/(γλ_i(2 − γλ_i)), ρ₂T = γρ₂ and
// ρ₁ = Σ_{i≥2} 2/(2 − γλ_i) (spec throttlers.md §4.4) with σ = 1 by
// Rademacher probes, using the split
//
//	1/(t(2 − t)) = ½ (1/t + 1/(2 − t)),
//	ρ₂ = ½ [tr L†/γ + tr_{1⊥} (2I − γL)⁻¹],   ρ₁ = 2 tr_{1⊥} (2I − γL)⁻¹:
//
// each probe q gives a = qᵀL†q and b = (Pq)ᵀ(2I − γL)⁻¹(Pq) by Gauss
// quadrature on the Lanczos tridiagonal of L from Pq, the probes run
// eight at a time in one block, exactly as in EstimateGammaH2 at the
// fixed γ (the same quadrature tolerance 10⁻³ RelAcc, and tr L† estimated
// once by Hutch++ with preconditioned solves, instead of a per probe, when
// a's quadrature would need more than 200 steps: h2resist.go). Probes are added (MinProbes, then about 25 % more at a time)
// until both ρ₁ and ρ₂ have relative half-width ≤ RelAcc. γ must
// satisfy 0 < γ < 2/λ_n: λ_n is bracketed first (LambdaMaxBracket, which
// stops at the deterministic bounds when they decide) and γ ≥ 2/λ_n is
// an error wrapping loadlab.ErrUnstable, a γ that the bracket cannot
// decide one wrapping loadlab.ErrIllConditioned. It returns the partial
// estimates with loadlab.ErrNotConverged at MaxProbes (or when a solve or
// a quadrature stops short), ErrDisconnected for a disconnected graph,
// and ErrTooLarge past the memory budget. It panics if g or src is nil.
func EstimateH2(g *Graph, gamma float64, set *TraceSettings, src rand.Source) (H2Estimate, error) {
	if g == nil || src == nil {
		panic("linalg: EstimateH2: nil graph or rand.Source")
	}
	var out H2Estimate
	if err := set.Validate(); err != nil {
		return out, err
	}
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return out, loadlab.Invalid("linalg", "EstimateH2: gamma = %v, want > 0 and finite", gamma)
	}
	ts, solverSet := set.resolved()
	if err := solverSet.Validate(); err != nil {
		return out, err
	}
	mat, err := newLapMatrix(g)
	if err != nil || mat == nil {
		return out, cmpErr(err, CheckConnected(g))
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
func (hs *h2Sampler) estimateH2(out *H2Estimate, gamma float64, ts TraceSettings, rng *rand.Rand) error {
	next := ts.MinProbes
	for {
		err := hs.addFixed(next-len(hs.probes), rng)
		var r1, r2 []float64
		for _, p := range hs.probes {
			rho2, rho1, _ := p.sample(gamma, &hs.qw)
			r1, r2 = append(r1, rho1), append(r2, rho2)
		}
		out.Rho1, out.Rho2 = summarize(r1), hs.res.add(summarize(r2), traceWeight(gamma, sampleRho2))
		out.Rho2T = scaleEstimate(out.Rho2, gamma)
		switch {
		case err != nil:
			out.Status = failStatus(err)
			return err
		case out.Rho1.RelHalfWidth() <= ts.RelAcc && out.Rho2.RelHalfWidth() <= ts.RelAcc:
			out.Status = loadlab.Success
			return nil
		}
		refined, err := hs.refineTrace([2]float64{out.Rho2.RelHalfWidth(), hs.res.share(summarize(r2), traceWeight(gamma, sampleRho2))})
		switch {
		case err != nil:
			out.Status = failStatus(err)
			return err
		case refined:
			next = len(hs.probes)
			continue
		case len(hs.probes) >= ts.MaxProbes:
			out.Status = loadlab.IterationLimit
			return loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimateH2: relative half-widths %.3g (ρ₁), %.3g (ρ₂) > RelAcc = %.3g after %d probes", out.Rho1.RelHalfWidth(), out.Rho2.RelHalfWidth(), ts.RelAcc, len(hs.probes))
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
func h2Stable(g *Graph, gamma float64) (Bracket, error) {
	// The threshold 2/γ stops the refinement as soon as the bracket
	// decides γλ_n < 2 (or not), instead of refining to RelWidth.
	b, err := LambdaMaxBracket(g, &EigenSettings{Threshold: 2 / gamma})
	if err != nil {
		return b, err
	}
	switch {
	case gamma*b.Lo >= 2:
		return b, loadlab.Wrap(loadlab.ErrUnstable, "linalg", "EstimateH2: gamma = %v ≥ 2/λ_n (λ_n ∈ [%g, %g])", gamma, b.Lo, b.Hi)
	case gamma*b.Hi >= 2:
		return b, loadlab.Wrap(loadlab.ErrIllConditioned, "linalg", "EstimateH2: gamma = %v is within the bracket of 2/λ_n (λ_n ∈ [%g, %g])", gamma, b.Lo, b.Hi)
	}
	return b, nil
}

func scaleEstimate(e loadlab.Estimate, f float64) loadlab.Estimate {
	return loadlab.Estimate{Mean: f * e.Mean, Lo: f * e.Lo, Hi: f * e.Hi, StdErr: f * e.StdErr, N: e.N}
}

// shiftedCG solves (2I − γL) x = P b by unpreconditioned conjugate
// gradients; 2I − γL is positive definite for 0 < γ < 2/λ_n.
type shiftedCG struct {
	op           *LaplacianOperator
	gamma, tol   float64
	maxIter      int
	pq, r, p, ap []float64
}

func newShiftedCG(op *LaplacianOperator, gamma, tol float64, maxIter int) *shiftedCG {
	n := op.n
	return &shiftedCG{op: op, gamma: gamma, tol: tol, maxIter: maxIter,
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
// c.pq) and returns the iterations.
func (c *shiftedCG) solve(x, b []float64) (int, error) {
	n := float64(len(b))
	var mean float64
	for _, v := range b {
		mean += v / n
	}
	for i, v := range b {
		c.pq[i] = v - mean
	}
	clear(x)
	copy(c.r, c.pq)
	copy(c.p, c.r)
	rr := dot(c.r, c.r)
	if rr == 0 {
		// P b = 0 (b constant, e.g. an all-equal Rademacher probe, which
		// has probability 2^{1−n}): the solution is x = 0, and iterating
		// would divide 0 by 0.
		return 0, nil
	}
	stop := c.tol * c.tol * rr
	for it := 1; it <= c.maxIter; it++ {
		c.apply(c.ap, c.p)
		alpha := rr / dot(c.p, c.ap)
		for i := range x {
			x[i] += alpha * c.p[i]
			c.r[i] -= alpha * c.ap[i]
		}
		rrNew := dot(c.r, c.r)
		if rrNew <= stop {
			return it, nil
		}
		beta := rrNew / rr
		rr = rrNew
		for i := range c.p {
			c.p[i] = c.r[i] + beta*c.p[i]
		}
	}
	return c.maxIter, loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimateH2: shifted solve did not reach Tol = %.3g in %d iterations", c.tol, c.maxIter)
}
