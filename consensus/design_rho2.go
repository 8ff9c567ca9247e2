package consensus

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/internal/solve"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// Rho2WeightProblem is Problem A of spec §5.2 at any size (spec
// §13.14): choose link weights w in the budget-and-box polytope of the
// embedded TraceWeightProblem to minimise ρ₂(γ; L(w)) (σ = 1) at the
// update cycle Gamma, keeping the throttler stable (λ_n(L(w)) < 2/γ).
type Rho2WeightProblem struct {
	TraceWeightProblem
	Gamma float64
}

// Validate checks Gamma (finite and > 0) and the embedded
// TraceWeightProblem; errors wrap loadlab.ErrInvalid (or
// ErrDisconnected, ErrTooLarge) and name the field.
func (p Rho2WeightProblem) Validate() error {
	if !(p.Gamma > 0) || math.IsInf(p.Gamma, 1) {
		return loadlab.Invalid("consensus", "Rho2WeightProblem.Gamma = %v, want finite and > 0", p.Gamma)
	}
	return p.TraceWeightProblem.Validate()
}

// Rho2WeightDesign is a solution of the Rho2WeightProblem (or of the
// joint problem over the weights and the update cycle) with its
// certificate.
type Rho2WeightDesign struct {
	// Weights holds w_e for Links, in input order.
	Weights []float64
	// Graph has the links with positive weight.
	Graph *wgraph.Graph
	// Gamma is the update cycle: the problem's, or the designed one
	// (DesignRho2CycleAtScale).
	Gamma float64
	// Value is ρ₂(γ; L(w)) (σ = 1): exact on the exact paths, else a 95 %
	// Student-t interval from the certificate's sketch columns.
	Value loadlab.Estimate
	// Lower is a lower bound on the optimum over the feasible set, and
	// Gap = Value.Hi − Lower; both hold with probability at least
	// Confidence (1 on the dense path).
	Lower, Gap, Confidence float64
	// LambdaMax is a certified bracket of λ_n(L(w)) whose upper end lies
	// below 2/Gamma (the stability certificate; its Delta is the
	// Lanczos end's failure probability).
	LambdaMax spectral.Bracket
	// Exact says an exact path ran, Sparse that it was the sparse
	// Cholesky one (above DenseMax), Local that the local path ran
	// (Lower exact, the Value's interval the only uncertainty), with
	// polynomials of degree Depth in its certificate.
	Exact, Sparse, Local bool
	Depth                int
	// Iterations of the projected gradient, Evals of the objective,
	// Solves of the Laplacian, ShiftedSolves of 2I − γL (sketched path)
	// and SketchColumns of the certificate.
	Iterations, Evals, Solves, ShiftedSolves, SketchColumns int
	// Status is Success when Gap ≤ Tol · Value.Hi, else as for
	// ScaleWeightDesign.Status (with ErrNotConverged).
	Status loadlab.Status
}

// DesignRho2AtScale minimises ρ₂(γ; L(w)) = ½[tr L(w)†/γ +
// tr_{1⊥}(2I − γL(w))⁻¹] over the budget-and-box polytope at the
// problem's γ (spec §13.14), by the spectral projected gradient of
// DesignWeightsAtScale with the gradient
//
//	∂ρ₂/∂w_e = ½[−‖L†b_e‖²/γ + γ‖(2I − γL)⁻¹b_e‖²],
//
// keeping every accepted iterate certified stable (a Cholesky factor of
// 2I − γL on the dense path, spectral.LambdaMaxBracket with threshold
// 2/γ on the sketched path, where the held-out guard of
// DesignWeightsAtScale picks the iterate returned). The certificate is
// the convexity bound of
// spec §13.14,
//
//	ρ₂* ≥ max_τ [τ a/γ + C₂ + min_{v∈S} Σ_e v_e(½γ t_e − τ² s_e/(2γ))],
//
// with a = tr L†, s_e = ‖L†b_e‖², t_e = ‖Qb_e‖², C₂ = ½ tr_{1⊥}Q −
// ½γ Σ w_e t_e: exact on the dense path (n ≤ DenseMax) and on the sparse
// Cholesky path (larger graphs whose factor fits: factors of L(w) and
// 2I − γL(w), two solves per link per step), and on the sketched path
// with a and C₂ at the lower ends of their 95 % intervals and s_e, t_e
// at their (1 ∓ ε) sketch envelopes, so that it holds with probability
// at least 1 − δ − 0.075. On expanders above the exact paths' reach (or
// with Local) the local path runs instead (spec §13.14, "Local path"):
// multiplicative updates from local Chebyshev moments and the exact
// polynomial certificate of X = p(L)², Y = q(L)², with ρ₂'s 95 %
// interval from EstimateH2 (Confidence 0.95).
//
// Errors: an invalid problem or settings (see Validate), starting
// weights with λ_n ≥ 2/γ (ErrUnstable, naming Gamma), the solver's
// errors, and a certified gap above Tol after MaxIter iterations or a
// stall (ErrNotConverged, with the design so far). It panics if src is
// nil on the sketched path.
func DesignRho2AtScale(p Rho2WeightProblem, s *ScaleDesignSettings, src rand.Source) (*Rho2WeightDesign, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	set, err := rho2Settings(p.TraceWeightProblem, s)
	if err != nil {
		return nil, err
	}
	w, err := p.start(set.Start)
	if err != nil {
		return nil, err
	}
	return runRho2(p.TraceWeightProblem, p.Gamma, w, set, src, "Rho2WeightProblem.Gamma")
}

// DesignRho2CycleAtScale minimises ρ₂ jointly over the update cycle
// γ > 0 and the weights w of the polytope (spec §13.14). ρ₂ depends on
// u = γw only. With zero lower bounds the cone {γw : γ > 0, w ∈ S} is
// the whole orthant, so it minimises ρ₂(1; L(u)) over u ≥ 0 and returns
// the shortest cycle γ = max(cᵀu/B, max_e u_e/Hi_e) at which w = u/γ is
// feasible (the budget spent); any longer cycle with w = u/γ is as good.
// With positive lower bounds it minimises V(γ) = min_{w∈S} ρ₂(γ; L(w)),
// convex in γ, by golden-section search on ln γ over
// [10⁻³γ_max, γ_max], γ_max = 2/λ_n(L(Lo)) (no stable weights beyond),
// each design warm-started from the previous one (pulled towards Lo
// until stable), and certifies the best by the bound over every cycle in
// (0, γ_max]. Lower bounds the joint optimum. Errors as for
// DesignRho2AtScale.
func DesignRho2CycleAtScale(p TraceWeightProblem, s *ScaleDesignSettings, src rand.Source) (*Rho2WeightDesign, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	set, err := rho2Settings(p, s)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(p.Lo, func(x float64) bool { return x > 0 }) {
		return cycleGolden(p, set, src)
	}
	w, err := p.start(set.Start)
	if err != nil {
		return nil, err
	}
	br, err := spectral.LambdaMaxBracket(p.graph(w), &spectral.EigenSettings{RelWidth: 0.5})
	if err != nil {
		return nil, err
	}
	for i := range w {
		w[i] /= br.Hi // λ_n(L(u)) ≤ 1 < 2: a stable start at γ = 1
	}
	u := TraceWeightProblem{Nodes: p.Nodes, Links: p.Links, Budget: math.Inf(1)}
	if slices.Contains(p.Hi, 0) { // a link held at zero stays at zero in the cone
		u.Hi = make([]float64, len(p.Hi))
		for i, h := range p.Hi {
			u.Hi[i] = math.Inf(1)
			if h == 0 {
				u.Hi[i] = 0
			}
		}
	}
	d, err := runRho2(u, 1, w, set, src, "the joint design's start")
	if d == nil {
		return nil, err
	}
	gamma := p.cycle(d.Weights)
	for i := range d.Weights {
		d.Weights[i] /= gamma
	}
	d.Graph = p.graph(d.Weights)
	d.Gamma = gamma
	d.LambdaMax.Lo, d.LambdaMax.Est, d.LambdaMax.Hi = d.LambdaMax.Lo/gamma, d.LambdaMax.Est/gamma, d.LambdaMax.Hi/gamma
	return d, err
}

// cycle returns the least γ at which u/γ lies in the polytope (zero
// lower bounds): max(cᵀu/B, max_e u_e/Hi_e).
func (p TraceWeightProblem) cycle(u []float64) float64 {
	var cu, gamma float64
	for i, l := range p.Links {
		cu += l.Cost * u[i]
		if _, hi := p.bounds(i); hi > 0 && !math.IsInf(hi, 1) {
			gamma = max(gamma, u[i]/hi)
		}
	}
	return max(gamma, cu/p.Budget)
}

// rho2Settings validates the settings against the problem and checks
// the sizes of the path they select.
func rho2Settings(p TraceWeightProblem, s *ScaleDesignSettings) (ScaleDesignSettings, error) {
	if err := s.Validate(); err != nil {
		return ScaleDesignSettings{}, err
	}
	set := s.withDefaults()
	if set.Start != nil && len(set.Start) != len(p.Links) {
		return set, loadlab.Invalid("consensus", "ScaleDesignSettings.Start has %d entries, want %d (one per link)", len(set.Start), len(p.Links))
	}
	if p.Nodes <= set.DenseMax && !set.Sketch {
		return set, size.CheckDense("consensus", "DesignRho2AtScale", p.Nodes, 4)
	}
	return set, size.Check("consensus", "(2 · ScaleDesignSettings.Probes + 48) × Nodes (warm starts and blocks)", (2*set.Probes+3*laplacian.MaxBlockCols)*p.Nodes, 8)
}

// rho2Route is the path of a ρ₂ design: exact (dense, or by sparse
// Cholesky where the factor fits), local (degree h > 0), or sketched,
// with the seed of the randomised paths.
type rho2Route struct {
	exact bool
	h     int
	seed  uint64
}

// rho2Path chooses the path at the start w and draws the seed of the
// local and sketched paths from src (panicking on a nil src there).
func rho2Path(p TraceWeightProblem, w []float64, set ScaleDesignSettings, src rand.Source) (rho2Route, error) {
	if !set.Sketch && !set.Local && (p.Nodes <= set.DenseMax || p.sparseExact()) {
		return rho2Route{exact: true}, nil
	}
	if src == nil {
		panic("consensus: DesignRho2AtScale: nil rand.Source")
	}
	h, err := rho2LocalPlan(p, w, set)
	return rho2Route{h: h, seed: rand.New(src).Uint64()}, err
}

// rho2Run is one optimisation at a fixed cycle, before its certificate.
type rho2Run struct {
	p      TraceWeightProblem
	gamma  float64
	o      rho2Oracle
	seed   uint64
	rec    solve.Record
	f      float64 // the oracle's value at w
	w      []float64
	exact  bool
	sparse bool    // the exact path by sparse Cholesky
	h      int     // the local path's degree (0: not the local path)
	lower  float64 // the local path's best certificate at gamma
}

// optimiseRho2 minimises the oracle's ρ₂ at cycle gamma from the
// feasible start w (updated in place). field names what an unstable
// start is blamed on.
func optimiseRho2(p TraceWeightProblem, gamma float64, w []float64, set ScaleDesignSettings, path rho2Route, field string) (*rho2Run, error) {
	exact, seed := path.exact, path.seed
	r := &rho2Run{p: p, gamma: gamma, seed: seed, w: w, exact: exact, sparse: exact && p.Nodes > set.DenseMax, h: path.h}
	var h *holdout
	switch {
	case path.h > 0:
		r.o = rho2NoOracle{}
		var err error
		r.rec, r.f, r.lower, err = p.rho2LocalIterate(gamma, w, path.h, set, seed)
		if err == errRho2Unstable {
			return nil, loadlab.Wrap(loadlab.ErrUnstable, "consensus", "%s = %v: the starting weights have γλ_n ≥ 2 (or not certified below 2)", field, gamma)
		}
		return r, err
	case exact && p.Nodes <= set.DenseMax:
		r.o = newDenseRho2Oracle(p, gamma)
	case exact:
		r.o = newSparseRho2Oracle(p, gamma)
	default:
		o := newSketchRho2Oracle(p, gamma, set, seed)
		held := newSketchRho2Oracle(p, gamma, set, heldOutSeed(seed))
		h = newHoldout(func(w []float64) (float64, bool, error) {
			r, ok, err := held.eval(w)
			return r.value(gamma), ok, err
		}, set.Patience, len(w))
		r.o = rho2Counter{o, held}
	}
	var err error
	r.rec, r.f, err = rho2SPG(p, gamma, r.o, w, set, exact, h)
	if err == errRho2Unstable {
		return nil, loadlab.Wrap(loadlab.ErrUnstable, "consensus", "%s = %v: the starting weights have γλ_n ≥ 2 (or not certified below 2)", field, gamma)
	}
	return r, err
}

// finish certifies the run (spec §13.14; with gmax > 0 the bound over
// every cycle up to gmax) and sets the status.
func (r *rho2Run) finish(set ScaleDesignSettings, gmax float64) (*Rho2WeightDesign, error) {
	d := &Rho2WeightDesign{Exact: r.exact, Sparse: r.sparse, Gamma: r.gamma, Weights: r.w, Graph: r.p.graph(r.w)}
	var err error
	if r.h > 0 {
		if gmax == 0 {
			d.Lower = r.lower
		}
		err = rho2LocalCertify(r.p, r.gamma, r.w, r.h, set, r.seed, gmax, d)
	} else {
		err = rho2Certify(r.p, r.gamma, r.o, r.w, set, r.seed, gmax, d)
	}
	if err != nil {
		return d, err
	}
	rec := r.rec
	d.Iterations, d.Evals = rec.Iter, rec.Evals
	d.Solves, d.ShiftedSolves = d.Solves+r.o.solves(), d.ShiftedSolves+r.o.shiftedSolves()
	d.Status, err = certifiedStatus(rec, d.Gap, d.Value.Hi, set.Tol, "DesignRho2AtScale")
	return d, err
}

// runRho2 designs from the feasible start w at cycle gamma: the oracle
// of the path, the projected gradient, the certificate and the status.
// field names what an unstable start is blamed on.
func runRho2(p TraceWeightProblem, gamma float64, w []float64, set ScaleDesignSettings, src rand.Source, field string) (*Rho2WeightDesign, error) {
	path, err := rho2Path(p, w, set, src)
	if err != nil {
		return nil, err
	}
	r, err := optimiseRho2(p, gamma, w, set, path, field)
	if err != nil {
		return nil, err
	}
	return r.finish(set, 0)
}

// cycleGolden is DesignRho2CycleAtScale with positive lower bounds: a
// golden-section search on ln γ of the designs' values (the oracle's:
// exact, or the fixed sketch's), certified at the best cycle over every
// cycle up to γ_max = 2/λ_n(L(Lo)) (spec §13.14).
func cycleGolden(p TraceWeightProblem, set ScaleDesignSettings, src rand.Source) (*Rho2WeightDesign, error) {
	br, err := spectral.LambdaMaxBracket(p.graph(p.Lo), nil)
	if err != nil {
		return nil, err
	}
	gmax := 2 / br.Lo // λ_n(L(w)) ≥ λ_n(L(Lo)) ≥ br.Lo for every w ≥ Lo
	prev, err := p.start(set.Start)
	if err != nil {
		return nil, err
	}
	path, err := rho2Path(p, prev, set, src)
	if err != nil {
		return nil, err
	}
	inner := set
	inner.Tol = set.Tol / 4 // the joint bound adds the cycle's suboptimality to the design's gap
	var best *rho2Run
	var firstErr error
	var iter, evals, solves, shifted int
	v := func(lg float64) float64 {
		gamma := math.Exp(lg)
		w, err := p.stableToward(prev, gamma)
		if err == nil && w == nil {
			return math.Inf(1)
		}
		var r *rho2Run
		if err == nil {
			r, err = optimiseRho2(p, gamma, w, inner, path, "the joint design's cycle")
		}
		if r != nil {
			iter, evals, solves, shifted = iter+r.rec.Iter, evals+r.rec.Evals, solves+r.o.solves(), shifted+r.o.shiftedSolves()
		}
		if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
			firstErr = cmp.Or(firstErr, err)
			return math.Inf(1)
		}
		if best == nil || r.f < best.f {
			best = r
		}
		prev = slices.Clone(r.w)
		return r.f
	}
	solve.Golden(v, math.Log(gmax*1e-3), math.Log(gmax), 1e-3)
	if best == nil {
		return nil, cmp.Or(firstErr, loadlab.Wrap(loadlab.ErrUnstable, "consensus", "DesignRho2CycleAtScale: no cycle below 2/λ_n(L(Lo)) = %g gave stable weights", gmax))
	}
	d, err := best.finish(set, gmax)
	if d != nil { // the work of every design of the search
		d.Iterations, d.Evals = iter, evals
		d.Solves += solves - best.o.solves()
		d.ShiftedSolves += shifted - best.o.shiftedSolves()
	}
	return d, err
}

// stableToward returns Lo + θ(w − Lo) for the largest θ = 2⁻ʲ
// (j < 60) that is certified stable at gamma (nil if none): a feasible
// point, S being convex with Lo and w in it, with w's links.
func (p TraceWeightProblem) stableToward(w []float64, gamma float64) ([]float64, error) {
	x := make([]float64, len(w))
	for theta := 1.0; theta > 1e-18; theta /= 2 {
		for i := range x {
			lo, _ := p.bounds(i)
			x[i] = lo + theta*(w[i]-lo)
		}
		br, err := spectral.LambdaMaxBracket(p.graph(x), &spectral.EigenSettings{Threshold: 2 / gamma})
		if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
			return nil, err
		}
		if br.Hi < 2/gamma {
			return x, nil
		}
	}
	return nil, nil
}
