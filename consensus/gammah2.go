package consensus

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// GammaH2Estimate is the stochastic estimate of the H2-optimal update
// cycle γ*_H2 and of ρ₂ there at noise level σ (spec throttlers.md §5.1;
// γ*_H2 does not depend on σ).
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
	// else the Lanczos bracket narrowed as far as the root needed.
	LambdaMax  spectral.Bracket
	Probes     int            // Rademacher probes
	Iterations int            // conjugate-gradient iterations of the Laplacian solves (0 when every a came from Lanczos)
	MatVecs    int            // products of L with a vector outside the solves (Lanczos steps of every probe, residual corrections)
	Solves     int            // Laplacian solves: those of the estimates of tr L† when a's quadrature is slow, else 0
	Status     loadlab.Status // Success when both intervals met RelAcc
}

// Search range of EstimateGammaH2: the Lanczos quadratures are run to
// convergence at the cap γ_c = (2 − δ)/λ_n⁺ (λ_n⁺ = LambdaMax.Hi); when
// the root or its interval reaches the cap, δ is divided by capShrink
// (the first block of probes continues its recurrences, later ones are
// rerun), down to δ = capMinGap.
const (
	capFirstGap = 0.25
	capShrink   = 8
	capMinGap   = 0x1p-36
	// capMinWidth is the narrowest relative width asked of the λ_n
	// bracket.
	capMinWidth = 1e-12
)

// EstimateGammaH2 estimates γ*_H2 and ρ₂(γ*_H2) at noise level σ on
// graphs of any size (Spectral.GammaH2 computes them exactly on graphs
// of up to spectral.DenseMaxNodes nodes). γ*_H2 is the root of
//
//	g(γ) = Σ_{i≥2} (1 − γλ_i)/(λ_i (2 − γλ_i)²)
//	     = ¼ tr L† + (γ/4) tr_{1⊥}(2I − γL)⁻¹ − (γ/2) tr_{1⊥}(2I − γL)⁻²
//
// (spec throttlers.md §5.1 fact 2; dρ₂/dγ = −2g/γ²), and ρ₂(γ*_H2), for
// graphs too large for the dense spectrum. The probes are common to all
// γ: each Rademacher probe q gives the Lanczos tridiagonal T of L from
// Pq, from which a = qᵀL†q and the two shifted traces follow by Gauss
// quadrature for every γ at once (stochastic Lanczos quadrature, spec
// throttlers.md §5.1 with the split 1/(t(2 − t)) = ½(1/t + 1/(2 − t))).
// 2I − γL is well conditioned away from the stability edge and L itself
// on an expander (κ(L) = λ_n/λ₂ ≈ 7 on a random 6-regular graph), so
// plain Lanczos converges in about ten steps; the probes' recurrences run
// eight at a time in one block (lanczosBlock: one read of a neighbour's
// eight values per product). When a's quadrature is predicted to need
// more than resLanczosMax = 200 steps (an ill-conditioned L: a torus, a
// path, a random geometric graph), the probes' a are dropped and tr L† is
// estimated once, by Hutch++ with preconditioned Laplacian solves, to half
// of RelAcc, and added to every sample's mean with the Welch–Satterthwaite
// interval (h2resist.go); it is estimated again, more tightly, when its
// part alone keeps an interval above RelAcc; the same happens, whatever
// the quadratures' speed, when the probes' spread projects more than 60
// probes and a carries at least half of it (a barbell: spec §12.11).
// Each probe's g(γ) under one quadrature rule is a decreasing function
// of γ (its derivative −Σ γθ w/(2 − γθ)³ over the nodes θ and positive
// weights w), so the estimated curve is smooth and close to decreasing,
// with its root γ̂ found by bisection on [1/λ_n⁺, γ_c]: g ≥ 0 at
// γ ≤ 1/λ_n, every term being ≥ 0.
//
// Quadrature stopping (spec throttlers.md §12.11): each probe's
// quadratures of a, b and c are bracketed, the Gauss quadratures below
// (the functions' even derivatives are positive) and the Gauss–Radau
// quadratures with a node at λ_n⁺ (for b, c) or at a lower bound on λ₂
// (for a: the lower end of a loose Lambda2Bracket, failure probability
// 10⁻³, asked for once) above; the recurrence stops when every bracket
// at the cap has relative half-width ≤ RelAcc/10. Each probe's g and ρ₂
// then have brackets, and the intervals of g (hence of γ*_H2) and of ρ₂
// are the Student-t intervals of the midpoints widened by the mean
// half-width, so the quadrature error lies inside them. The midpoints'
// g need not be exactly decreasing in γ (its terms come from two rules),
// but the root and the interval ends are found by bisection all the same.
//
// The 95 % interval of γ*_H2 is the set of γ at which 0 lies in the 95 %
// Student-t interval of g(γ): at γ = γ*_H2 the true g is 0, so the set
// covers γ*_H2 exactly as often as the interval of g(γ*_H2) covers 0
// (inverting a test; Fieller's construction). Its ends are the roots of
// the interval's ends next to γ̂. On graphs of 3 to 2¹⁷ − 1 nodes each
// probe's g and ρ₂ carry a control variate of the top mode: with u a
// Ritz vector of λ_n (at most 64 Lanczos steps from a fixed start, so
// independent of the probes) and c = (n − 1)(uᵀv)² the probe's weight
// on it, whose mean is exactly 1, the value less β(c − 1), β = f(θ) −
// f(λ̄) fixed (f the term of one mode, θ = uᵀLu, λ̄ the mean of the
// other eigenvalues, (tr L − θ)/(n − 2)): unbiased whatever u, and it
// removes the heavy tail of the top eigenvector's weight, the cause of
// the intervals' undercoverage where one top eigenvalue stands apart
// (gammah2_topmode.go; spec throttlers.md §12.15). The interval reported
// and stopped on takes the Student-t with degrees of freedom matched to
// the probes' sample kurtosis (kurtosisDF); the cap moves (below) still
// follow the Student-t of N − 1 degrees of freedom, and when only the
// reported interval reaches the cap more probes are drawn under it.
// Measured over 1000 seeds (RelAcc 5 % unless said; before → after):
// γ* covers 0.909 → 0.959 on the 2⁵-node hypercube (13.7 → 10.6 mean
// probes), 0.914 and 0.917 → 1.000 on the stars of 20 and 21 nodes at
// RelAcc 1 % (g and ρ₂ exact up to rounding there), 0.931 → 0.967 on
// the 2⁶-node hypercube, and 0.921–0.928 → 0.947–0.960 on two small
// random graphs. ρ₂ is estimated at γ̂ from the same
// probes (its mean), with the interval of ρ₂(γ*) = min ρ₂: the union of
// ρ₂'s intervals at γ̂ and at 16 equally spaced γ of γ*'s interval,
// which holds ρ₂(γ*) whenever γ*'s interval holds γ* and ρ₂'s interval
// at γ* holds ρ₂(γ*). The interval at γ̂ alone misses it when ρ₂ rises
// over γ̂'s error faster than the probes spread (spec throttlers.md
// §12.15: 0.95 on the 30-node star, 0.93 on the 2⁵-node hypercube; 1.00
// and 0.965 with the union, 1.00 and 0.951 with the control variate,
// whose narrower γ* intervals narrow the union).
//
// λ_n⁺ is first the deterministic bound (edge and Collatz–Wielandt
// bounds, O(m), or the dense eigenvalues up to 400 nodes), which proves
// γ < 2/λ_n with δ = 0 for every γ under its cap; only when the root lies
// beyond the cap at the smallest gap is λ_n bracketed by Lanczos
// (LambdaMaxBracket, 1 % relative width or 1/16 of the bounds' width if
// that is narrower, δ = 1e-10) and the search restarted under the new
// cap, the bracket narrowed 16-fold each time the root reaches the cap
// again (down to capMinWidth = 1e-12 relative). A hub makes the bounds
// narrow (λ_n ≈ d_max + 1) and puts γ*_H2 λ_n close to 2: 1.99967 on
// the Internet AS graph (a bracket of 10⁻⁵ suffices), about 2 − 2/n on
// a star of n nodes. On a random d-regular graph the bound 2d
// suffices: γ*_H2 λ_n ≈ 1.56 for d = 6 while λ_n/2d ≈ 0.87.
//
// Probes are added (checks at about every 25 % more) until both the
// relative half-width of γ's interval, (Hi − Lo)/(2γ̂), and that of
// ρ₂(γ̂) are ≤ RelAcc. The Laplacian solves of tr L† use
// TraceSettings.Solver (default relative residual DefaultTraceSolveTol);
// each quadratic form 2(Pq)ᵀx − xᵀLx with the computed x has error
// ‖e‖²_L ≤ ‖r‖²/λ₂, relative error ≤ κ(L)·Tol², 1e-12 κ(L), negligible up
// to κ(L) ~ 10⁶ (a 10³×10³ torus has κ ≈ 2·10⁵).
//
// When γ*_H2 lies very near the stability limit (γ*λ_n ≈ 1.97 on a path)
// a few top eigenvalues dominate the shifted trace tr(2I − γL)⁻², each
// probe's sample is heavy-tailed and the Student-t interval covers less
// than its 95 % with few probes (0.91 on a 300-node path over 120 seeds,
// 0.94–0.98 on grids, tori and expanders, measured before the control
// variate, which takes one top mode only); a larger MinProbes helps.
//
// Errors: ErrDisconnected, ErrTooLarge (the Laplacian's copy, the 3·8
// n-vectors of a block, or the solver's), ErrInvalid for σ negative or not finite, bad settings
// (TraceSettings and its Solver), ErrInvalid for a graph with fewer than 2
// nodes, ErrIllConditioned when γ*_H2 lies within 2⁻³⁶/λ_n⁺ of the
// stability limit 2/λ_n⁺ (where 2 − γλ_n keeps fewer than 5 of its
// digits), and ErrNotConverged with the partial estimate
// when MaxProbes are reached, a solve stops short or a quadrature has
// not settled in Solver.MaxIter Lanczos steps. It panics if g or
// src is nil.
func EstimateGammaH2(g *wgraph.Graph, sigma float64, set *estimate.TraceSettings, src rand.Source) (GammaH2Estimate, error) {
	if g == nil || src == nil {
		panic("consensus: EstimateGammaH2: nil graph or rand.Source")
	}
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return GammaH2Estimate{}, loadlab.Invalid("consensus", "EstimateGammaH2: sigma = %v, want finite and ≥ 0", sigma)
	}
	e, err := estimateGammaH2(g, set, src, false)
	e.Rho2 = scaleEst(e.Rho2, sigma*sigma)
	return e, err
}

// estimateGammaH2 is EstimateGammaH2; solveA forces the resistance term
// to solves (for the tests).
func estimateGammaH2(g *wgraph.Graph, set *estimate.TraceSettings, src rand.Source, solveA bool) (GammaH2Estimate, error) {
	out, _, err := gammaH2Sampler(g, set, src, solveA)
	return out, err
}

// gammaH2Sampler is estimateGammaH2, also returning the sampler with its
// probes (nil when it failed before drawing any), whose quadratures
// evaluate ρ₂ at every γ up to the cap (EstimateGammaMargin).
func gammaH2Sampler(g *wgraph.Graph, set *estimate.TraceSettings, src rand.Source, solveA bool) (GammaH2Estimate, *h2Sampler, error) {
	var out GammaH2Estimate
	if err := set.Validate(); err != nil {
		return out, nil, err
	}
	if g.Order() < 2 {
		return out, nil, loadlab.Invalid("consensus", "EstimateGammaH2: graph has %d nodes, want ≥ 2", g.Order())
	}
	ts, solverSet := set.Resolved()
	if err := solverSet.Validate(); err != nil {
		return out, nil, err
	}
	mat, err := lapmat.New(g)
	if err != nil || mat == nil {
		return out, nil, cmpErr(err, wgraph.CheckConnected(g))
	}
	// Only the upper end λ_n⁺ is used (the search range and the cap):
	// the deterministic bounds first, the Lanczos bracket only when the
	// root lies beyond their cap (refineBracket).
	if out.LambdaMax, err = spectral.LambdaMaxBounds(g); err != nil {
		return out, nil, err
	}
	// The solver's seed is drawn first and the probes' after it, so a
	// seed gives the same probes whatever the number of workers.
	hs := newH2Sampler(g, mat, solverSet, src.Uint64(), out.LambdaMax, ts)
	hs.solveA, hs.perProbeA = solveA, solveA
	if err := hs.startTopMode(); err != nil {
		return out, nil, err
	}
	err = hs.estimate(&out, ts, rand.New(src))
	out.LambdaMax = hs.br
	out.Probes, out.Iterations, out.MatVecs, out.Solves = len(hs.probes), hs.iters, hs.matvecs, hs.solves
	hs.ritzEstimate(&out.LambdaMax)
	return out, hs, err
}

// cmpErr returns err if it is non-nil, else alt.
func cmpErr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// Block sizes and budgets of EstimateGammaH2's sampler.
const (
	// blockMax is the most probes whose Lanczos recurrences run in one
	// block (3·blockMax n-vectors): 8 lanes, one cache line per node
	// (lanczosBlock).
	blockMax = lanczos.BlockLanes
)

// h2Sampler holds the common probes of EstimateGammaH2 and evaluates
// their sample of g and ρ₂ at any γ ≤ gcap.
type h2Sampler struct {
	g          *wgraph.Graph
	mat        *lapmat.Matrix
	solverSet  laplacian.Settings
	solverSeed uint64
	s          *laplacian.Solver // built on the first resistance solve
	br         spectral.Bracket  // the bracket of λ_n behind lmax
	probes     []*lanczos.Probe
	q, x, lx   []float64
	lmax, gap  float64
	fixed      float64 // EstimateH2's γ: the quadratures settle there
	tol        float64
	maxSteps   int
	solveA     bool // a by solves: its Lanczos quadrature converges too slowly
	perProbeA  bool // with solveA, solve every probe's a (tests) instead of estimating tr L† once
	res        resistanceTerm
	ts         estimate.TraceSettings
	iters      int
	matvecs    int
	solves     int // Laplacian solves: the probes' a, or the estimates of tr L†
	buf, half  []float64
	qw         lanczos.QuadWork
	ends       lanczos.Ends // the spectral ends of the quadratures' brackets (h2trace.go)
	top        *topMode     // the control variate of g's top mode, or nil (gammah2_topmode.go)
}

func newH2Sampler(g *wgraph.Graph, mat *lapmat.Matrix, set laplacian.Settings, seed uint64, br spectral.Bracket, ts estimate.TraceSettings) *h2Sampler {
	n := g.Order()
	set = set.Resolved()
	return &h2Sampler{g: g, mat: mat, solverSet: set, solverSeed: seed, br: br,
		q: make([]float64, n), x: make([]float64, n), lx: make([]float64, n),
		lmax: br.Hi, gap: capFirstGap, tol: lanczos.QuadRel * ts.RelAcc, maxSteps: set.MaxIter, ts: ts,
		ends: lanczos.Ends{Lam2Lo: func() float64 { return lam2Lower(g) }}}
}

// gcap returns the current cap (2 − δ)/λ_n⁺, or the fixed γ of
// EstimateH2.
func (hs *h2Sampler) gcap() float64 {
	if hs.fixed > 0 {
		return hs.fixed
	}
	return (2 - hs.gap) / hs.lmax
}

// runChunk runs the Lanczos recurrences of up to blockMax probes in one
// block until their quadratures have settled at the cap, and fixes each
// probe's a (by quadrature, or by a solve once solveA is set). With
// explore, after each settling it locates the root with hs.probes and
// these probes, and while the root or its interval reaches the cap it
// shrinks the gap (or refines the bracket) and continues the same
// recurrences, rather than rerunning them.
func (hs *h2Sampler) runChunk(ps []*lanczos.Probe, explore bool) error {
	lb, err := lanczos.NewBlock(hs.mat, ps, hs.q)
	if err != nil {
		return err
	}
	withA := !hs.solveA && slices.ContainsFunc(ps, func(p *lanczos.Probe) bool { return !p.AFinal })
	for {
		if err := hs.settle(lb, withA); err != nil {
			return err
		}
		withA = withA && !hs.solveA
		if err := hs.fixA(ps, withA); err != nil {
			return err
		}
		if !explore {
			return nil
		}
		saved := hs.probes
		hs.probes = append(slices.Clip(saved), ps...)
		_, _, atCap := hs.root(false)
		hs.probes = saved
		if !atCap {
			return nil
		}
		if moved, err := hs.moveCap(); !moved || err != nil {
			return err
		}
	}
}

// moveCap shrinks the gap or, at the smallest gap, narrows the bracket
// and restarts the gap: from the bounds to a Lanczos bracket of relative
// width 1 %, then each time 1/16 of the last width, down to
// capMinWidth (a γ*_H2 within 0.3 % of 2/λ_n, as on a random geometric
// graph whose top eigenvalue stands apart, needs a bracket narrower
// than that). It reports false when neither is possible.
func (hs *h2Sampler) moveCap() (bool, error) {
	if hs.gap > capMinGap {
		hs.gap = max(hs.gap/capShrink, capMinGap)
		return true, nil
	}
	// The bounds may already be narrower than 1 % (a hub: λ_n ≈ d_max + 1
	// within 0.5 %), and a bracket no narrower than them moves no cap.
	width := 0.01
	if hs.br.Cert != spectral.CertBounds || hs.br.Width() < 0.01*hs.br.Lo {
		width = min(width, hs.br.Width()/hs.br.Lo/16)
	}
	if width < capMinWidth {
		return false, nil
	}
	b, err := spectral.LambdaMaxBracket(hs.g, &spectral.EigenSettings{RelWidth: width})
	if err != nil {
		if errors.Is(err, loadlab.ErrNotConverged) && hs.br.Cert != spectral.CertBounds {
			return false, nil // the narrower bracket is out of reach: keep this one
		}
		return false, err
	}
	if !(b.Hi < hs.br.Hi) {
		return false, nil
	}
	hs.br, hs.lmax, hs.gap = b, b.Hi, capFirstGap
	return true, nil
}

// settle steps lb until every probe's quadratures have settled at the
// cap (lanczosBlock.settle); when a is predicted to need more than
// resLanczosMax steps it sets hs.solveA.
func (hs *h2Sampler) settle(lb *lanczos.Block, withA bool) error {
	hs.ends.LmaxHi = hs.lmax
	mv, slowA, err := lb.Settle(hs.gcap(), hs.tol, withA, &hs.ends, hs.maxSteps, &hs.qw)
	hs.matvecs += mv
	if slowA {
		hs.solveA = true
	}
	return err
}

// fixA sets a for the probes whose a is not final: the settled
// quadrature when byLanczos, else Laplacian solves.
func (hs *h2Sampler) fixA(ps []*lanczos.Probe, byLanczos bool) error {
	var todo []*lanczos.Probe
	for _, p := range ps {
		switch {
		case p.AFinal:
		case byLanczos:
			p.SetA(hs.ends.Lam2(), &hs.qw) // the bracket's midpoint (h2trace.go)
		default:
			todo = append(todo, p)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if !hs.perProbeA {
		return hs.decouple(todo)
	}
	return hs.solve(todo)
}

// solve sets p.a = qᵀL†q for every probe of ps by Laplacian solves
// (TraceSettings.Solver), all right-hand sides iterated together
// (laplacian.Solver.SolveBlock), building the solver on first use.
func (hs *h2Sampler) solve(ps []*lanczos.Probe) error {
	n, k := hs.g.Order(), len(ps)
	if err := size.Check("consensus", "EstimateGammaH2: probe and solution blocks, n", n, 2*8*k); err != nil {
		return err
	}
	if err := hs.buildSolver(); err != nil {
		return err
	}
	b := mat.NewDense(n, k, nil)
	for j, p := range ps {
		lanczos.ProbeVector(hs.q, p.Seed)
		b.SetCol(j, hs.q)
	}
	var x mat.Dense
	res, err := hs.s.SolveBlock(&x, b)
	hs.solves += k
	for _, r := range res {
		hs.iters += r.Iterations
	}
	if err != nil {
		return err
	}
	for j, p := range ps {
		mat.Col(hs.q, j, b)
		mat.Col(hs.x, j, &x)
		hs.s.Operator().Apply(hs.lx, hs.x)
		// a = 2(Pq)ᵀx − xᵀLx = qᵀL†q − ‖x − L†q‖²_L: second order in
		// the solve error whether or not x is a Galerkin approximation.
		p.A, p.AFinal = 2*dense.Dot(hs.q, hs.x)-dense.Dot(hs.x, hs.lx), true
		hs.matvecs++
	}
	return nil
}

// runAll reruns the recurrences of ps (after a cap move) in blocks of
// blockMax, and with explore lets the first block move the cap.
func (hs *h2Sampler) runAll(ps []*lanczos.Probe, explore bool) error {
	for lo := 0; lo < len(ps); lo += blockMax {
		if err := hs.runChunk(ps[lo:min(lo+blockMax, len(ps))], explore && lo == 0); err != nil {
			return err
		}
	}
	return nil
}

// add draws the seeds of m new probes, runs them and appends them; the
// first block explores the cap (runChunk).
func (hs *h2Sampler) add(m int, rng *rand.Rand) error {
	return hs.addBlocks(m, rng, len(hs.probes) == 0)
}

// addFixed is add at EstimateH2's fixed γ (no cap to explore).
func (hs *h2Sampler) addFixed(m int, rng *rand.Rand) error { return hs.addBlocks(m, rng, false) }

// addBlocks draws the seeds of m new probes and runs them in blocks of
// blockMax, the first exploring the cap when explore is set.
func (hs *h2Sampler) addBlocks(m int, rng *rand.Rand, explore bool) error {
	ps := make([]*lanczos.Probe, m)
	for i := range ps {
		ps[i] = &lanczos.Probe{Seed: rng.Uint64()}
	}
	for lo := 0; lo < m; lo += blockMax {
		chunk := ps[lo:min(lo+blockMax, m)]
		if err := hs.runChunk(chunk, explore && lo == 0); err != nil {
			return err
		}
		hs.probes = append(hs.probes, chunk...)
	}
	return nil
}

// raise shrinks the gap to the stability limit (or, at the smallest gap
// with a bracket from the bounds, refines the bracket) and reruns every
// probe's recurrence to the new cap. It reports false when neither move
// is possible.
func (hs *h2Sampler) raise() (bool, error) {
	if moved, err := hs.moveCap(); !moved || err != nil {
		return moved, err
	}
	return true, hs.runAll(hs.probes, false)
}

// Which values summary samples.
const (
	sampleG = iota
	sampleRho2
)

// summary returns the estimate of g (which = sampleG) or ρ₂ at γ over
// the probes, with the resistance term when it is estimated apart, its
// interval widened by the quadratures' brackets (h2trace.go).
func (hs *h2Sampler) summary(gamma float64, which int) loadlab.Estimate {
	e, bias := hs.probeParts(gamma, which)
	if !hs.res.on {
		return e
	}
	return lanczos.Widen(hs.res.add(e, traceWeight(gamma, which)), bias)
}

// summaryT is summary(γ, sampleG), its interval, with kurt, rebuilt from
// the Student-t of the degrees of freedom matched to the probes' sample
// kurtosis (kurtosisT; spec throttlers.md §12.15).
func (hs *h2Sampler) summaryT(gamma float64, kurt bool) loadlab.Estimate {
	if !kurt {
		return hs.summary(gamma, sampleG)
	}
	e, bias := hs.probeParts(gamma, sampleG)
	e, df := kurtosisT(e, bias, hs.buf)
	if !hs.res.on {
		return e
	}
	return lanczos.Widen(hs.res.addDF(e, df, traceWeight(gamma, sampleG)), bias)
}

// rho2Over returns rho2, the estimate of ρ₂ at γ̂ = gam.Mean, with the
// interval of ρ₂(γ*) (rho2Union; spec throttlers.md §12.15).
func (hs *h2Sampler) rho2Over(gam, rho2 loadlab.Estimate) loadlab.Estimate {
	return rho2Union(gam, rho2, func(x float64) loadlab.Estimate { return hs.summary(x, sampleRho2) })
}

// probeSummary is summary without a separately estimated resistance term.
func (hs *h2Sampler) probeSummary(gamma float64, which int) loadlab.Estimate {
	e, _ := hs.probeParts(gamma, which)
	return e
}

// buildSolver builds the Laplacian solver on first use.
func (hs *h2Sampler) buildSolver() error {
	if hs.s != nil {
		return nil
	}
	s, err := laplacian.NewSolver(hs.g, &hs.solverSet, rand.NewPCG(hs.solverSeed, 0))
	hs.s = s
	return err
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

// root locates γ̂ and its interval with the current probes, inverting
// g's interval of summaryT with kurt. It reports atCap when the root or
// the interval's upper end reaches the cap (the cap must rise, or with
// kurt more probes come, before the answer can be trusted). The cap
// moves follow root(false) alone (spec throttlers.md §12.15).
func (hs *h2Sampler) root(kurt bool) (gam, rho2 loadlab.Estimate, atCap bool) {
	ga, gc := 1/hs.lmax, hs.gcap()
	mean := func(x float64) float64 { return hs.summary(x, sampleG).Mean }
	if mean(gc) >= 0 {
		return gam, rho2, true
	}
	gh := bisect(mean, ga, gc)
	gam = loadlab.Estimate{Mean: gh, N: len(hs.probes)}
	gam.Lo, gam.Hi, atCap = hs.rootEnds(gh, kurt)
	h := 1e-6 * gh
	slope := (mean(gh+h) - mean(gh-h)) / (2 * h)
	gam.StdErr = hs.summary(gh, sampleG).StdErr / math.Abs(slope)
	return gam, hs.summary(gh, sampleRho2), atCap
}

// rootEnds returns the ends of γ*'s interval around the root gh of the
// mean: the roots of g's interval ends (summaryT with kurt) next to gh,
// the search range's ends where they have none, and whether the upper
// end reaches the cap.
func (hs *h2Sampler) rootEnds(gh float64, kurt bool) (lo, hi float64, atCap bool) {
	ga, gc := 1/hs.lmax, hs.gcap()
	lower := func(x float64) float64 { return hs.summaryT(x, kurt).Lo }
	upper := func(x float64) float64 { return hs.summaryT(x, kurt).Hi }
	lo, hi = ga, gc
	if lower(ga) > 0 {
		lo = bisect(lower, ga, gh)
	}
	if upper(gc) >= 0 {
		return lo, hi, true
	}
	return lo, bisect(upper, gh, gc), false
}

// estimate adds probes, raising the cap when needed, until both
// intervals meet ts.RelAcc or MaxProbes are used.
func (hs *h2Sampler) estimate(out *GammaH2Estimate, ts estimate.TraceSettings, rng *rand.Rand) error {
	next := ts.MinProbes
	for {
		if err := hs.add(next-len(hs.probes), rng); err != nil {
			return hs.partial(out, err)
		}
		gam, rho2, atCap := hs.root(false)
		if atCap {
			raised, err := hs.raise()
			if err != nil {
				return hs.partial(out, err)
			}
			if raised {
				next = len(hs.probes)
				continue
			}
			if gam.N == 0 {
				out.Status = loadlab.Failure
				return loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "EstimateGammaH2: γ*_H2 lies within %.3g/λ_n of the stability limit 2/λ_n (λ_n ∈ [%g, %g])", capMinGap, hs.br.Lo, hs.br.Hi)
			}
		}
		gam, atCap = hs.reported(gam, atCap)
		out.Gamma, out.Rho2 = gam, hs.rho2Over(gam, rho2)
		if !atCap && gam.HalfWidth() <= ts.RelAcc*gam.Mean && out.Rho2.RelHalfWidth() <= ts.RelAcc {
			out.Status = loadlab.Success
			return nil
		}
		if dec, err := hs.decoupleAt(gam, rho2, atCap); dec || err != nil {
			if err != nil {
				return hs.partial(out, err)
			}
			next = len(hs.probes)
			continue
		}
		if refined, err := hs.refineGamma(gam, rho2, atCap); refined || err != nil {
			if err != nil {
				return hs.partial(out, err)
			}
			next = len(hs.probes)
			continue
		}
		if len(hs.probes) >= ts.MaxProbes {
			out.Status = loadlab.IterationLimit
			return loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "EstimateGammaH2: relative half-widths %.3g (γ*_H2), %.3g (ρ₂) > RelAcc = %.3g after %d probes", gam.HalfWidth()/gam.Mean, out.Rho2.RelHalfWidth(), ts.RelAcc, len(hs.probes))
		}
		next = min(ts.MaxProbes, max(len(hs.probes)+1, len(hs.probes)*5/4))
	}
}

// reported returns the interval of γ* that EstimateGammaH2 reports and
// stops on: gam's ends rebuilt from g's interval with kurtosis-matched
// degrees of freedom (summaryT), and atCap also when those ends reach
// the cap while gam's (the Student-t of N − 1, which alone moves the
// cap) do not; then more probes are drawn at the same cap (spec
// throttlers.md §12.15). gam at the cap is returned as it is.
func (hs *h2Sampler) reported(gam loadlab.Estimate, atCap bool) (loadlab.Estimate, bool) {
	if atCap || gam.N == 0 {
		return gam, atCap
	}
	gam.Lo, gam.Hi, atCap = hs.rootEnds(gam.Mean, true)
	return gam, atCap
}

// refineGamma refines the resistance term (refineTrace) when its share
// keeps γ̂'s or ρ₂'s interval above RelAcc.
func (hs *h2Sampler) refineGamma(gam, rho2 loadlab.Estimate, atCap bool) (bool, error) {
	if !hs.res.on || atCap {
		return false, nil
	}
	gh := gam.Mean
	return hs.refineTrace(
		[2]float64{gam.HalfWidth() / gh, hs.res.share(hs.probeSummary(gh, sampleG), traceWeight(gh, sampleG))},
		[2]float64{rho2.RelHalfWidth(), hs.res.share(hs.probeSummary(gh, sampleRho2), traceWeight(gh, sampleRho2))})
}

// partial records the estimate of the probes completed before err.
func (hs *h2Sampler) partial(out *GammaH2Estimate, err error) error {
	out.Status = failStatus(err)
	if len(hs.probes) >= 2 {
		if gam, rho2, atCap := hs.root(false); !atCap || gam.N > 0 {
			gam, _ = hs.reported(gam, atCap)
			out.Gamma, out.Rho2 = gam, hs.rho2Over(gam, rho2)
		}
	}
	return err
}

// ritzEstimate sets the estimate of a bracket from the bounds to the
// largest Ritz value of the probes' tridiagonals (each ≤ λ_n up to
// rounding: an estimate, not a bound), clamped into the bracket.
func (hs *h2Sampler) ritzEstimate(b *spectral.Bracket) {
	if b.Cert != spectral.CertBounds {
		return
	}
	top := 0.0
	for _, p := range hs.probes {
		if k := len(p.Alpha); k > 0 {
			d := append([]float64(nil), p.Alpha...)
			e := append([]float64(nil), p.Beta[:k-1]...)
			if (gonum.Implementation{}).Dsterf(k, d, e) {
				top = max(top, d[k-1])
			}
		}
	}
	if top > 0 {
		b.Est = min(max(top, b.Lo), b.Hi)
	}
}
