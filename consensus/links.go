package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
)

// LinkMethod selects how AddLinks evaluates L†.
type LinkMethod int

const (
	// LinkAuto is LinkExact up to LinkDenseMaxNodes nodes and LinkSketch
	// above.
	LinkAuto LinkMethod = iota
	// LinkExact keeps the dense L† (O(n²) memory): every gain, the
	// Kirchhoff index and the certificate are exact.
	LinkExact
	// LinkSketch screens with sketches, confirms by solves and
	// certifies with a Gaussian sketch (spec §13.13).
	LinkSketch
)

// LinkDenseMaxNodes is the largest graph LinkAuto treats exactly.
const LinkDenseMaxNodes = 1000

// LinkSettings configures AddLinks. A nil pointer means all defaults; a
// zero field means that field's default.
type LinkSettings struct {
	// Weight is the weight of a candidate whose W is 0; 0 means 1.
	Weight float64
	// Method is LinkAuto (the zero value), LinkExact or LinkSketch.
	Method LinkMethod
	// Sketch is the number of rows of each screening sketch (of ‖L†b‖²
	// and of R_uv, and for LinkRho2 of (2I − γL)⁻¹, for LinkRho2Star one
	// per cycle of its grid); 0 means 64.
	Sketch int
	// Pool is the number of best-screened candidates confirmed by exact
	// solves at each step; 0 means 16.
	Pool int
	// CertSketch is the number of Gaussian rows of the certificate's
	// sketch; 0 means 256.
	CertSketch int
	// Confirm is the number of candidates, beyond the chosen ones, whose
	// certificate gradient is computed by solves; 0 means k + 16.
	Confirm int
	// FrankWolfe is the number of Frank–Wolfe iterations on the
	// relaxation that tighten the bound of LinkExact (each a dense
	// pseudo-inverse); 0 means 20.
	FrankWolfe int
	// Miss is the probability that the sketched certificate fails, in
	// (0, 1); 0 means 0.05.
	Miss float64
	// Trace configures the estimate of the starting Kirchhoff index
	// (LinkSketch), or those of ρ₂ before and after (LinkRho2 on the
	// sketch path, EstimateH2; LinkRho2Star, EstimateGammaH2); nil means
	// the defaults (±1 % at 95 %).
	Trace *estimate.TraceSettings
	// Solver configures the confirming solves; a zero Tol means 1e-12.
	Solver *laplacian.Settings
	// Objective is LinkKirchhoff (the zero value), LinkRho2 or
	// LinkRho2Star.
	Objective LinkObjective
	// Gamma is the update cycle of LinkRho2, > 0 with γλ_n < 2
	// (required for LinkRho2, unused otherwise).
	Gamma float64
	// GammaEvery is the number of links between re-computations of γ*
	// in LinkRho2Star; 0 means 1.
	GammaEvery int
}

// Validate reports a field outside its domain (errors wrap
// loadlab.ErrInvalid and name the field).
func (s *LinkSettings) Validate() error {
	if s == nil {
		return nil
	}
	switch {
	case !(s.Weight >= 0) || math.IsInf(s.Weight, 1):
		return loadlab.Invalid("consensus", "LinkSettings.Weight = %v, want finite and ≥ 0 (0: default 1)", s.Weight)
	case s.Method < LinkAuto || s.Method > LinkSketch:
		return loadlab.Invalid("consensus", "LinkSettings.Method = %d, want LinkAuto, LinkExact or LinkSketch", int(s.Method))
	case s.Sketch < 0:
		return loadlab.Invalid("consensus", "LinkSettings.Sketch = %d, want ≥ 0", s.Sketch)
	case s.Pool < 0:
		return loadlab.Invalid("consensus", "LinkSettings.Pool = %d, want ≥ 0", s.Pool)
	case s.CertSketch < 0:
		return loadlab.Invalid("consensus", "LinkSettings.CertSketch = %d, want ≥ 0", s.CertSketch)
	case s.Confirm < 0:
		return loadlab.Invalid("consensus", "LinkSettings.Confirm = %d, want ≥ 0", s.Confirm)
	case s.FrankWolfe < 0:
		return loadlab.Invalid("consensus", "LinkSettings.FrankWolfe = %d, want ≥ 0", s.FrankWolfe)
	case s.Miss != 0 && !(s.Miss > 0 && s.Miss < 1):
		return loadlab.Invalid("consensus", "LinkSettings.Miss = %v, want 0 (default) or in (0, 1)", s.Miss)
	case s.Objective < LinkKirchhoff || s.Objective > LinkRho2Star:
		return loadlab.Invalid("consensus", "LinkSettings.Objective = %d, want LinkKirchhoff, LinkRho2 or LinkRho2Star", int(s.Objective))
	case !(s.Gamma >= 0) || math.IsInf(s.Gamma, 1):
		return loadlab.Invalid("consensus", "LinkSettings.Gamma = %v, want finite and > 0 (0: unset)", s.Gamma)
	case s.Objective == LinkRho2 && s.Gamma == 0:
		return loadlab.Invalid("consensus", "LinkSettings.Gamma = 0: LinkRho2 needs the update cycle γ > 0")
	case s.GammaEvery < 0:
		return loadlab.Invalid("consensus", "LinkSettings.GammaEvery = %d, want ≥ 0", s.GammaEvery)
	}
	if err := s.Trace.Validate(); err != nil {
		return err
	}
	return s.Solver.Validate()
}

// resolved returns the settings with defaults filled in for k links on n
// nodes.
func (s *LinkSettings) resolved(n, k int) LinkSettings {
	r := LinkSettings{Weight: 1, Sketch: 64, Pool: 16, CertSketch: 256, Confirm: k + 16, FrankWolfe: 20, Miss: 0.05}
	var sol laplacian.Settings
	if s != nil {
		r.Method, r.Trace = s.Method, s.Trace
		r.Objective, r.Gamma, r.GammaEvery = s.Objective, s.Gamma, s.GammaEvery
		setIf(&r.Weight, s.Weight)
		setIfInt(&r.Sketch, s.Sketch)
		setIfInt(&r.Pool, s.Pool)
		setIfInt(&r.CertSketch, s.CertSketch)
		setIfInt(&r.Confirm, s.Confirm)
		setIfInt(&r.FrankWolfe, s.FrankWolfe)
		setIf(&r.Miss, s.Miss)
		if s.Solver != nil {
			sol = *s.Solver
		}
	}
	if sol.Tol == 0 {
		sol.Tol = 1e-12
	}
	if r.GammaEvery == 0 {
		r.GammaEvery = 1
	}
	r.Solver = &sol
	if r.Method == LinkAuto {
		r.Method = LinkSketch
		if n <= LinkDenseMaxNodes {
			r.Method = LinkExact
		}
	}
	return r
}

func setIf(dst *float64, v float64) {
	if v != 0 {
		*dst = v
	}
}

func setIfInt(dst *int, v int) {
	if v != 0 {
		*dst = v
	}
}

// LinkStep is one link added by AddLinks.
type LinkStep struct {
	// Link is the candidate added, with its weight.
	Link wgraph.Edge
	// Gain is the decrease of the Kirchhoff index it brings, n·w‖L†b‖²/
	// (1 + w R_uv) on the graph before it, with an interval that bounds
	// the solve error (exact in LinkExact). For the ρ₂ objectives it is
	// the decrease of ρ₂ at Gamma.
	Gain loadlab.Estimate
	// Gamma is the update cycle the step was scored at (the ρ₂
	// objectives; 0 for LinkKirchhoff).
	Gamma float64
}

// LinkResult is the answer of AddLinks.
type LinkResult struct {
	// Graph is the input graph with the chosen links.
	Graph *wgraph.Graph
	// Steps lists the links in the order chosen.
	Steps []LinkStep
	// Before and After are the Kirchhoff index K_f = n tr L† of the
	// input graph and of Graph (ρ₂ for the ρ₂ objectives), with 95 %
	// intervals (zero width when exact).
	Before, After loadlab.Estimate
	// Gap bounds After − (the best K_f of any k candidates) from above:
	// the linearisation gap of the convex relaxation at the chosen
	// links (spec §13.13), exact in LinkExact and an upper confidence
	// bound (level Confidence) in LinkSketch.
	Gap float64
	// Lower = After.Lo − Gap is the certified lower bound on the best
	// K_f achievable with k of the candidates.
	Lower float64
	// Confidence is the probability with which Gap holds: 1 in
	// LinkExact, 1 − Miss in LinkSketch, less the miss probability of
	// the input's λ_n bracket for LinkRho2 and LinkRho2Star (Lower also
	// relies on the 95 % intervals of Before and After).
	Confidence float64
	// Method is the method that ran (LinkExact or LinkSketch).
	Method LinkMethod
	// Solves counts the Laplacian solves (block columns included).
	Solves int
	// CertDepth is the degree H of the sketched certificate's control
	// variate (spec §13.13): the part ‖p(L)b_e‖ of each candidate's
	// gradient computed exactly from its neighbourhood; 0 when none ran
	// (LinkExact, or graphs whose polynomials converge slowly).
	CertDepth int
	// Rescored counts the screening scores LinkSketch computed after the
	// first pass over the candidates (lazy screening, spec §13.13).
	Rescored int
	// Refused counts the candidates LinkRho2 on the sketch path confirmed
	// and refused because they are not certified to keep the throttler
	// stable (spec §13.16); the exact path skips such links silently.
	Refused int
	// ShiftedSolves counts the solves of 2I − γL (the ρ₂ objectives on
	// the sketch path; those of the ρ₂ estimates are not counted).
	ShiftedSolves int
	// GammaStar is γ*_H2 of Graph (LinkRho2Star): exact on the exact
	// path, EstimateGammaH2's estimate with its 95 % interval on the
	// sketch path (that of the input graph when no link was added).
	GammaStar loadlab.Estimate
	// AfterGamma is the cycle After is evaluated at (LinkRho2Star): γ*
	// of Graph on the exact path; on the sketch path GammaStar.Mean,
	// lowered if needed below the input sampler's cap and until every
	// link is certified stable there, so that After ≥ F(Graph) (spec
	// §13.17).
	AfterGamma float64
}

// AddLinks chooses k of the candidate links, one at a time, each time
// the one that lowers the Kirchhoff index K_f = n tr L† most (spec
// §13.13), and certifies the answer: Lower bounds the best K_f reachable
// with any k candidates, so After − Lower is the gap.
//
// A candidate's gain is n·w‖L†b‖²/(1 + w R_uv) (Sherman–Morrison, spec
// §5.2, b = e_u − e_v, w = the candidate's W or Settings.Weight when W =
// 0). LinkExact evaluates it from the dense L†, updated by the rank-one
// correction after each link. LinkSketch screens every candidate with a
// sketch Z = Q L† of ‖L†b‖² and a resistance sketch, confirms the Pool
// best by solves, adds the best confirmed one, and updates both sketches
// by the rank-one correction (no new solves); the solves on the grown
// graph use the product form L_k† = L† − Σ_i c_i x_i x_iᵀ. On graphs
// where the local Chebyshev polynomials converge (expanders; not tori)
// the screened values are control-variate estimates: the sketch measures
// only what a polynomial p(L) ≈ L† misses, p's part is exact from each
// candidate's local moments, and R comes from Z without the resistance
// sketch (spec §13.13, "Screening control variate"; §13.16 for Q). Greedy
// addition is a heuristic (the objective is not supermodular); the
// certificate is what bounds the answer. A candidate listed twice may be
// chosen twice (its weights add).
//
// With LinkRho2 the objective is ρ₂ at LinkSettings.Gamma (spec §13.15):
// the gain adds the term −½γW‖Qb‖²/(1 − γW bᵀQb), Q = (2I − γL)⁻¹, a
// link that would make the throttler unstable is refused, and greedy
// stops early when no stable candidate lowers ρ₂. LinkSketch (spec
// §13.16) screens with a sketch of Q as well, confirms by solves of
// 2I − γL (conjugate gradients), refuses every confirmed link not
// certified stable (LinkResult.Refused), estimates ρ₂ of the input by
// EstimateH2 (After = Before − Σ gains) and certifies Lower with the
// Kirchhoff path's sketch and a local lower bound of t_e = ‖Qb_e‖². γ at
// or beyond the stability limit 2/λ_n is an error wrapping ErrUnstable
// (ErrIllConditioned when the λ_n bracket cannot decide).
//
// With LinkRho2Star the objective is ρ₂ at the best cycle γ* of the
// graph with the links (spec §13.15): each step scores the candidates at
// a grid of cycles at and below γ* (re-tuned every GammaEvery links) and
// adds the one that lowers the least ρ₂ over the grid most. LinkSketch
// (spec §13.17) estimates γ* by EstimateGammaH2 (GammaStar), keeps one
// sketch of (2I − γL)⁻¹ per grid cycle, confirms by solves, refuses a link
// not certified stable at the smallest cycle, evaluates After at the
// answer's γ* (AfterGamma) on the input's probes less the links' gains,
// and certifies Lower over cells of cycles.
//
// Errors (ErrInvalid unless said): k < 0 or k > len(cands), a candidate
// out of range, a self-loop, an existing edge of g, a weight that is
// negative, NaN or infinite, bad settings (LinkSettings.Validate), a
// disconnected g (ErrDisconnected), LinkExact above the dense limit
// (ErrTooLarge), an unstable γ
// (ErrUnstable), and the solvers' and estimators' errors. It panics if g is nil, or src
// is nil for LinkSketch.
func AddLinks(g *wgraph.Graph, cands []wgraph.Edge, k int, s *LinkSettings, src rand.Source) (*LinkResult, error) {
	if g == nil {
		panic("consensus: AddLinks: nil graph")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if err := checkCandidates(g, cands, k); err != nil {
		return nil, err
	}
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, err
	}
	set := s.resolved(g.Order(), k)
	switch {
	case set.Objective != LinkKirchhoff && set.Method == LinkExact:
		if err := size.CheckDense("consensus", "AddLinks (ρ₂)", g.Order(), 2); err != nil {
			return nil, err
		}
		return addLinksRho(g, cands, k, set)
	}
	if set.Method == LinkSketch && src == nil {
		panic("consensus: AddLinks: nil rand.Source")
	}
	r, err := newLinkRun(g, cands, k, set, src)
	if err != nil {
		return nil, err
	}
	switch {
	case r.rho != nil:
		return r.runRho()
	case r.star != nil:
		return r.runStar()
	}
	return r.run()
}

// checkCandidates validates k and the candidates against g.
func checkCandidates(g *wgraph.Graph, cands []wgraph.Edge, k int) error {
	n := g.Order()
	if k < 0 || k > len(cands) {
		return loadlab.Invalid("consensus", "AddLinks: k = %d: want 0 ≤ k ≤ %d (the number of candidates)", k, len(cands))
	}
	for i, c := range cands {
		switch {
		case c.U < 0 || c.U >= n || c.V < 0 || c.V >= n:
			return loadlab.Invalid("consensus", "AddLinks: candidates[%d] = {%d, %d}: want nodes in [0, %d)", i, c.U, c.V, n)
		case c.U == c.V:
			return loadlab.Invalid("consensus", "AddLinks: candidates[%d] = {%d, %d}: a self-loop", i, c.U, c.V)
		case !(c.W >= 0) || math.IsInf(c.W, 1):
			return loadlab.Invalid("consensus", "AddLinks: candidates[%d].W = %v: want finite and ≥ 0 (0: LinkSettings.Weight)", i, c.W)
		case g.HasEdge(c.U, c.V):
			return loadlab.Invalid("consensus", "AddLinks: candidates[%d] = {%d, %d}: already an edge of the graph", i, c.U, c.V)
		}
	}
	return nil
}

// linkWeight is the weight of candidate c.
func (r *linkRun) linkWeight(c wgraph.Edge) float64 {
	if c.W > 0 {
		return c.W
	}
	return r.set.Weight
}
