package consensus

import (
	"errors"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/spectral"
)

// The resistance term of EstimateGammaH2 and EstimateH2 on graphs whose
// Lanczos quadrature of a = qᵀL†q is slow (tori, paths, random geometric
// graphs, power grids). There a single probe's a has a large relative
// spread (0.077 on the 1000 × 1000 torus, spec throttlers.md §9), so a
// sample of g or ρ₂ whose every probe carries its own a needs hundreds of
// probes and as many Laplacian solves, while the shifted traces b and c
// (well conditioned) settle with a few. The sum of the a's over the probes
// only ever estimates tr L†; it is estimated once instead, by Hutch++ on
// the sampler's solver (hutchpp.go: a low-rank sketch takes the smallest
// eigenvalues exactly and Hutchinson probes the rest), independently of
// the probes, and added to each sample's mean with its own weight. Plain
// Hutchinson is not used there even when its spread looks small: when a
// few small eigenvalues dominate tr L†, its samples are heavy-tailed (each
// carries (qᵀu₂)²/λ₂, a scaled χ²₁) and a Student-t interval over a few
// dozen of them undercovers — on a clique bridged to an expander
// (TestEstimateGammaH2RefinesBracket), 20 probes put tr L† at 631 ± 16
// against 700.
//
//	g(γ) = ¼ tr L† + mean_k [γ b_k/4 − γ c_k/2],
//	ρ₂(γ) = tr L†/(2γ) + mean_k [b_k/2]      (spec throttlers.md §4.4, §5.1).
//
// The two parts are independent, so the standard errors add in quadrature
// and the 95 % interval takes the Student-t quantile at the
// Welch–Satterthwaite degrees of freedom (mc.SumIndependent).
const (
	// traceShare is the relative half-width asked of the first estimate
	// of tr L†, per unit of RelAcc: half the budget, since near γ*_H2 a
	// relative error in tr L† moves γ̂ by about as much on a torus.
	traceShare = 0.5
	// traceRefine: the part of a half-width due to tr L† is kept below
	// traceRefine·RelAcc; above, more probes cannot help and tr L† is
	// estimated again, more tightly (at most traceMaxRuns times).
	traceRefine  = 0.7
	traceMaxRuns = 4
	// traceStream is the PCG stream of the trace estimates' probes,
	// seeded by the sampler's solver seed (stream 0 is the solver's).
	traceStream = 0x5851f42d4c957f2d
)

// resistanceTerm is the one estimate of tr L† of a decoupled sampler.
type resistanceTerm struct {
	on     bool             // the probes' a are 0 and est stands for them
	exact  bool             // est is the exact tr L† (exactTrace)
	est    loadlab.Estimate // tr L† with its 95 % interval
	relAcc float64          // relative half-width asked of est
	runs   int              // estimates run (the first and refinements)
}

// add returns e + w·tr L̂† with the Welch–Satterthwaite interval when
// the term is on, else e. N stays e's (the probes).
func (r *resistanceTerm) add(e loadlab.Estimate, w float64) loadlab.Estimate {
	return r.addDF(e, float64(e.N-1), w)
}

// addDF is add with df degrees of freedom for e's standard error.
func (r *resistanceTerm) addDF(e loadlab.Estimate, df, w float64) loadlab.Estimate {
	if !r.on {
		return e
	}
	s := mc.SumIndependent(
		mc.Part{Mean: e.Mean, StdErr: e.StdErr, DF: df},
		mc.Part{Mean: w * r.est.Mean, StdErr: w * r.est.StdErr, DF: float64(r.est.N - 1)})
	return loadlab.Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: e.N}
}

// share returns the fraction of the variance of e + w·tr L̂† due to tr L̂†
// (e without the term).
func (r *resistanceTerm) share(e loadlab.Estimate, w float64) float64 {
	t := w * r.est.StdErr
	if !r.on || t == 0 {
		return 0
	}
	return t * t / (t*t + e.StdErr*e.StdErr)
}

// traceWeight is the weight of tr L† in the sample which at γ.
func traceWeight(gamma float64, which int) float64 {
	if which == sampleG {
		return 0.25
	}
	return 1 / (2 * gamma)
}

// decouple sets a = 0 for the probes of ps and every earlier one and, on
// first use, estimates tr L† to traceShare·RelAcc.
func (hs *h2Sampler) decouple(ps []*lanczos.Probe) error {
	for _, p := range ps {
		p.A, p.AHalf, p.AFinal = 0, 0, true
	}
	if hs.res.on {
		return nil
	}
	for _, p := range hs.probes {
		p.A, p.AHalf = 0, 0
	}
	hs.res.on = true
	if ok, err := hs.exactTrace(); ok || err != nil {
		return err
	}
	return hs.estimateTrace(traceShare * hs.ts.RelAcc)
}

// Above exactTraceMinOrder nodes the term first tries tr L† exactly, by
// the sparse Cholesky factor of the grounded Laplacian and its selected
// inverse (spectral.NewResistanceWith), within exactTraceFlops predicted
// flops. The graphs that need this term — tori, grids, paths, random
// geometric graphs, power grids — are those whose factor fits: on the
// 1000 × 1000 torus (2.4·10¹⁰ flops) it takes about 16 s, where Hutch++
// to traceShare·RelAcc took most of the estimate's 146 s. The exact
// term has no variance, so the intervals are the probes' alone. Below
// the order Hutch++ is quick and the path stays as it was; a graph
// whose factor does not fit is refused after its ordering's count
// (tens of seconds at 10⁶ nodes: 17 s for AMD to give up on a random
// 6-regular graph) and takes Hutch++.
const (
	exactTraceMinOrder = 1 << 14
	exactTraceFlops    = 1e11
)

// exactTrace sets the term to the exact tr L† when the graph has more
// than exactTraceMinOrder nodes and its sparse factor fits, and reports
// whether it did; a factor that is refused (too large or too ill
// conditioned) leaves the term to estimateTrace.
func (hs *h2Sampler) exactTrace() (bool, error) {
	if hs.g.Order() <= exactTraceMinOrder {
		return false, nil
	}
	r, err := spectral.NewResistanceWith(hs.g, &cholesky.Settings{MaxFlops: exactTraceFlops})
	if err != nil {
		if errors.Is(err, loadlab.ErrTooLarge) || errors.Is(err, loadlab.ErrIllConditioned) {
			return false, nil
		}
		return false, err
	}
	t := r.Kirchhoff() / float64(hs.g.Order())
	// No variance: share is 0, so refineTrace never runs again.
	hs.res.est, hs.res.relAcc, hs.res.exact = loadlab.Estimate{Mean: t, Lo: t, Hi: t, N: 1}, 0, true
	return true, nil
}

// estimateTrace estimates tr L† = K_f/n to relative half-width relAcc by
// estimate.Kirchhoff's solver path on the sampler's solver, Hutch++ forced
// (on graphs of fewer than 64 nodes it stays Hutchinson).
func (hs *h2Sampler) estimateTrace(relAcc float64) error {
	if err := hs.buildSolver(); err != nil {
		return err
	}
	ts := hs.ts
	ts.RelAcc = relAcc
	ts.Estimator = estimate.EstimatorHutchPP
	r, err := estimate.KirchhoffWithSolver(hs.s, &ts, rand.NewPCG(hs.solverSeed, traceStream+uint64(hs.res.runs)))
	hs.res.runs++
	hs.solves += r.Solves
	hs.iters += r.Iterations
	hs.res.est, hs.res.relAcc = scaleEst(r.Estimate, 1/float64(hs.g.Order())), relAcc
	return err
}

// refineTrace estimates tr L† again, more tightly, when for some checked
// estimate (relative half-width hw, share of the variance due to tr L̂†)
// the part of hw due to tr L̂†, hw·√share, exceeds traceRefine·RelAcc
// while hw exceeds RelAcc: more probes cannot remove that part. It
// reports whether it ran.
func (hs *h2Sampler) refineTrace(checks ...[2]float64) (bool, error) {
	if !hs.res.on || hs.res.runs >= traceMaxRuns {
		return false, nil
	}
	target, f := traceRefine*hs.ts.RelAcc, 1.0
	for _, c := range checks {
		hw, part := c[0], c[0]*math.Sqrt(c[1])
		if hw > hs.ts.RelAcc && part > target {
			f = min(f, max(0.25, min(0.8, target/part)))
		}
	}
	if f == 1 {
		return false, nil
	}
	return true, hs.estimateTrace(f * hs.res.relAcc)
}
