package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/internal/solve"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
)

// TraceWeightProblem is the resistance form of Problem A at any size
// (spec §13.12): choose link weights w with Lo_e ≤ w_e ≤ Hi_e and
// Σ_e Cost_e w_e ≤ Budget to minimise f(w) = tr L(w)†, the Kirchhoff
// index over n (the resistance term of ρ₂, spec §4.4, which dominates
// ρ₂ for short update cycles).
type TraceWeightProblem struct {
	Nodes int
	// Links are the candidate links with their costs per unit weight.
	Links  []Link
	Budget float64
	// Lo and Hi are the per-link bounds, in Links' order; nil means 0
	// and +Inf for every link.
	Lo, Hi []float64
}

// ScaleDesignSettings configure DesignWeightsAtScale; nil means the
// defaults, a zero field its default.
type ScaleDesignSettings struct {
	// Tol is the relative certified gap (Gap/Value.Hi) the design aims
	// at; zero means 0.01.
	Tol float64
	// MaxIter bounds the projected-gradient iterations; zero means 500.
	MaxIter int
	// Sketch forces the sketched path; otherwise graphs of at most
	// DenseMax nodes are designed exactly (dense), and larger ones
	// exactly by sparse Cholesky where the factor fits (spectral's rule:
	// grids, power grids, the AS graph; not expanders), one solve per
	// link per evaluation.
	Sketch bool
	// DenseMax is the largest order designed exactly; zero means 1000.
	DenseMax int
	// Probes is the number k of Gaussian columns of the sketch the
	// optimisation minimises (f̂(w) = (1/k) Σ_j q_jᵀ L(w)† q_j); zero
	// means 64.
	Probes int
	// Eps and Miss are the certificate's sketch accuracy ε and miss
	// probability δ for all links at once (spec §13.12); zero means 0.2
	// and 0.05.
	Eps, Miss float64
	// Refine is the number of links whose gradient the certificate
	// computes by an exact solve (those the sketch ranks highest); zero
	// means 32.
	Refine int
	// Patience is the number of accepted steps without an improvement
	// on the held-out sketch after which the sketched path stops (spec
	// §13.12, "Held-out sketch"); zero means 3.
	Patience int
	// Start is the starting weight vector (a warm start, in Links'
	// order; projected onto the feasible set); nil means the uniform
	// allocation of the budget.
	Start []float64
	// Local forces the local path (spec §13.12 and §13.14, "Local
	// path"): gradients from local Chebyshev moments of every link,
	// multiplicative updates and the polynomial dual certificate, exact
	// but for the value's interval. Otherwise graphs that neither the
	// dense nor the sparse path takes go to the local path where its
	// polynomials converge fast (expanders: ρ^(−H) ≤ 0.25 for the
	// Chebyshev rate ρ of 1/λ on [0.9·λ₂, λ_n]), and to the sketched path
	// elsewhere. The same holds for the ρ₂ designs.
	Local bool
	// Depth is the degree H of the local path's polynomials (each link's
	// moments cover its ball of radius H, at about five times the cost
	// per degree); zero means the largest H whose balls stay within 500
	// edge visits per endpoint on average (H = 3 on a random 6-regular
	// graph), then one degree more (within 2500 visits) if the certified
	// gap misses Tol.
	Depth int
	// Solver configures the Laplacian solves of the sketched path and of
	// the local path's value; nil means defaults with Tol 1e-8.
	Solver *laplacian.Settings
}

// Validate checks the settings: Tol in [0, 1), MaxIter, DenseMax,
// Probes, Refine and Patience ≥ 0, Eps and Miss 0 or in (0, 1), Start entries
// finite, and the solver settings; errors wrap loadlab.ErrInvalid.
func (s *ScaleDesignSettings) Validate() error {
	if s == nil {
		return nil
	}
	if !(s.Tol >= 0 && s.Tol < 1) {
		return loadlab.Invalid("consensus", "ScaleDesignSettings.Tol = %v, want in [0, 1)", s.Tol)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"MaxIter", s.MaxIter}, {"DenseMax", s.DenseMax}, {"Probes", s.Probes}, {"Refine", s.Refine}, {"Patience", s.Patience}} {
		if f.v < 0 {
			return loadlab.Invalid("consensus", "ScaleDesignSettings.%s = %d, want ≥ 0", f.name, f.v)
		}
	}
	if s.Depth < 0 || s.Depth > localMaxDepth {
		return loadlab.Invalid("consensus", "ScaleDesignSettings.Depth = %d, want 0 (by ball volume) to %d", s.Depth, localMaxDepth)
	}
	if s.Local && s.Sketch {
		return loadlab.Invalid("consensus", "ScaleDesignSettings: Local and Sketch both set, want at most one path forced")
	}
	if s.Probes == 1 {
		return loadlab.Invalid("consensus", "ScaleDesignSettings.Probes = 1, want 0 (default) or ≥ 2")
	}
	if s.Eps != 0 && !(s.Eps > 0 && s.Eps < 1) {
		return loadlab.Invalid("consensus", "ScaleDesignSettings.Eps = %v, want 0 (default) or in (0, 1)", s.Eps)
	}
	if s.Miss != 0 && !(s.Miss > 0 && s.Miss < 1) {
		return loadlab.Invalid("consensus", "ScaleDesignSettings.Miss = %v, want 0 (default) or in (0, 1)", s.Miss)
	}
	for i, x := range s.Start {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return loadlab.Invalid("consensus", "ScaleDesignSettings.Start[%d] = %v, want finite", i, x)
		}
	}
	return s.Solver.Validate()
}

// withDefaults returns the settings with zero fields replaced.
func (s *ScaleDesignSettings) withDefaults() ScaleDesignSettings {
	r := ScaleDesignSettings{Tol: 0.01, MaxIter: 500, DenseMax: 1000, Probes: 64, Eps: 0.2, Miss: 0.05, Refine: 32, Patience: 3}
	if s == nil {
		return r
	}
	out := *s
	for _, p := range []struct {
		dst *float64
		def float64
	}{{&out.Tol, r.Tol}, {&out.Eps, r.Eps}, {&out.Miss, r.Miss}} {
		if *p.dst == 0 {
			*p.dst = p.def
		}
	}
	for _, p := range []struct {
		dst *int
		def int
	}{{&out.MaxIter, r.MaxIter}, {&out.DenseMax, r.DenseMax}, {&out.Probes, r.Probes}, {&out.Refine, r.Refine}, {&out.Patience, r.Patience}} {
		if *p.dst == 0 {
			*p.dst = p.def
		}
	}
	return out
}

// solverSettings returns the solver settings of the sketched path.
func (s *ScaleDesignSettings) solverSettings() laplacian.Settings {
	var r laplacian.Settings
	if s.Solver != nil {
		r = *s.Solver
	}
	if r.Tol == 0 {
		r.Tol = 1e-8
	}
	return r
}

// ScaleWeightDesign is a solution of the TraceWeightProblem with its
// certificate.
type ScaleWeightDesign struct {
	// Weights holds w_e for Links, in input order.
	Weights []float64
	// Graph has the links with positive weight.
	Graph *wgraph.Graph
	// Value is tr L(w)† at Weights: exact (Lo = Hi = Mean, N = 0) on the
	// dense path, else a 95 % Student-t interval from the certificate's
	// sketch columns.
	Value loadlab.Estimate
	// Lower is a lower bound on min tr L(w)† over the feasible set, and
	// Gap = Value.Hi − Lower ≥ f(w) − f*; both hold with probability at
	// least Confidence (1 on the dense path).
	Lower, Gap, Confidence float64
	// Exact says an exact path ran, Sparse that it was the sparse
	// Cholesky one (above DenseMax), Local that the local path ran, with
	// polynomials of degree Depth.
	Exact, Sparse, Local bool
	Depth                int
	// Iterations of the projected gradient, Evals of the objective,
	// Solves of the Laplacian (sketched path) and SketchColumns, the
	// certificate's columns k.
	Iterations, Evals, Solves, SketchColumns int
	// Status is Success when Gap ≤ Tol · Value.Hi, else IterationLimit,
	// StepLimit or Stagnated (with ErrNotConverged). On the sketched path
	// IterationLimit also reports a design whose optimisation converged
	// but whose certificate is looser than Tol, as the sketch's envelope
	// makes it for Tol below about 2ε (spec §13.12).
	Status loadlab.Status
}

// Validate checks the problem: Nodes ≥ 2, Budget finite and > 0, links
// in range, no self-loop or repeated link, costs finite and > 0, Lo and
// Hi of length len(Links) when given, 0 ≤ Lo_e ≤ Hi_e, Lo finite,
// Σ Cost·Lo ≤ Budget, and links that connect the nodes (ErrInvalid or
// ErrDisconnected, naming the field).
func (p TraceWeightProblem) Validate() error {
	if p.Nodes < 2 {
		return loadlab.Invalid("consensus", "TraceWeightProblem.Nodes = %d, want ≥ 2", p.Nodes)
	}
	if !(p.Budget > 0) || math.IsInf(p.Budget, 1) {
		return loadlab.Invalid("consensus", "TraceWeightProblem.Budget = %v, want finite and > 0", p.Budget)
	}
	if err := wgraph.CheckSize("TraceWeightProblem", p.Nodes, len(p.Links)); err != nil {
		return err
	}
	if err := size.Check("consensus", "TraceWeightProblem.Links (work vectors)", len(p.Links), 8*8); err != nil {
		return err
	}
	if err := p.checkBounds(); err != nil {
		return err
	}
	edges := make([]wgraph.Edge, len(p.Links))
	for i, l := range p.Links {
		if !(l.Cost > 0) || math.IsInf(l.Cost, 1) {
			return loadlab.Invalid("consensus", "TraceWeightProblem.Links[%d].Cost = %v, want finite and > 0", i, l.Cost)
		}
		edges[i] = wgraph.Edge{U: l.U, V: l.V, W: 1}
	}
	g, err := wgraph.FromEdges(p.Nodes, edges)
	if err != nil {
		return loadlab.Invalid("consensus", "TraceWeightProblem.Links: %v", err)
	}
	if !wgraph.IsConnected(g) {
		return loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "TraceWeightProblem: the %d candidate links do not connect the %d nodes", len(p.Links), p.Nodes)
	}
	return nil
}

// checkBounds checks Lo and Hi.
func (p TraceWeightProblem) checkBounds() error {
	m := len(p.Links)
	if p.Lo != nil && len(p.Lo) != m {
		return loadlab.Invalid("consensus", "TraceWeightProblem.Lo has %d entries, want %d (one per link)", len(p.Lo), m)
	}
	if p.Hi != nil && len(p.Hi) != m {
		return loadlab.Invalid("consensus", "TraceWeightProblem.Hi has %d entries, want %d (one per link)", len(p.Hi), m)
	}
	var spent float64
	for i := range m {
		lo, hi := p.bounds(i)
		if !(lo >= 0) || math.IsInf(lo, 1) {
			return loadlab.Invalid("consensus", "TraceWeightProblem.Lo[%d] = %v, want finite and ≥ 0", i, lo)
		}
		if math.IsNaN(hi) || hi < lo {
			return loadlab.Invalid("consensus", "TraceWeightProblem.Hi[%d] = %v, want ≥ Lo[%d] = %v", i, hi, i, lo)
		}
		if c := p.Links[i].Cost; c > 0 {
			spent += c * lo
		}
	}
	if spent > p.Budget {
		return loadlab.Invalid("consensus", "TraceWeightProblem: the lower bounds cost %v, above Budget = %v", spent, p.Budget)
	}
	return nil
}

// bounds returns Lo_e and Hi_e.
func (p TraceWeightProblem) bounds(i int) (lo, hi float64) {
	lo, hi = 0, math.Inf(1)
	if p.Lo != nil {
		lo = p.Lo[i]
	}
	if p.Hi != nil {
		hi = p.Hi[i]
	}
	return lo, hi
}

// DesignWeightsAtScale solves the TraceWeightProblem (spec §13.12): it
// minimises tr L(w)† over the budget-and-box polytope by spectral
// projected gradient and certifies the result by the bound
//
//	f* ≥ f(w)² / max_{v feasible} Σ_e v_e ‖L(w)† b_e‖²,
//
// exact on the dense path (n ≤ DenseMax) and on the sparse Cholesky path
// (larger graphs whose factor fits), and on the sketched path with
// f(w) and the gradients ‖L(w)† b_e‖² replaced by the lower end of f's
// 95 % interval and by their (1 − ε) sketch envelope (exact solves for
// the Refine links ranked highest), so that it holds with probability at
// least 1 − δ − 0.05. The sketched optimisation minimises f̂ of a fixed
// sketch of Probes columns, each solve warm-started from the previous
// iterate's solution; each accepted iterate is scored again on an
// independent held-out sketch of as many columns, and the iterate with
// the least held-out score (the start included) is the design returned,
// so that the design does not fit its sketch's noise (spec §13.12,
// "Held-out sketch"). src draws the sketches (and the approximate
// Cholesky factors, when the solver uses them).
//
// Errors: an invalid problem or settings (ErrInvalid, ErrDisconnected,
// ErrTooLarge, see Validate), no feasible start that connects the nodes
// (ErrDisconnected), the solver's errors, and a certified gap above Tol
// after MaxIter iterations or a stall (ErrNotConverged, with the design
// so far). It panics if src is nil on the sketched path.
func DesignWeightsAtScale(p TraceWeightProblem, s *ScaleDesignSettings, src rand.Source) (*ScaleWeightDesign, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	set := s.withDefaults()
	if set.Start != nil && len(set.Start) != len(p.Links) {
		return nil, loadlab.Invalid("consensus", "ScaleDesignSettings.Start has %d entries, want %d (one per link)", len(set.Start), len(p.Links))
	}
	forced := set.Sketch || set.Local
	exact := p.Nodes <= set.DenseMax && !forced
	sparse := !exact && !forced && p.sparseExact()
	if !exact && !sparse && !set.Sketch {
		if d, ran, err := p.tryLocal(set, src); ran {
			return d, err
		}
	}
	var o traceOracle
	var h *holdout
	var seed uint64
	switch {
	case exact:
		if err := size.CheckDense("consensus", "DesignWeightsAtScale", p.Nodes, 2); err != nil {
			return nil, err
		}
		o = newDenseTraceOracle(p)
	case sparse:
		o = newSparseTraceOracle(p, 0)
	default:
		if src == nil {
			panic("consensus: DesignWeightsAtScale: nil rand.Source")
		}
		if err := size.Check("consensus", "(2 · ScaleDesignSettings.Probes + 48) × Nodes (warm starts and blocks)", (2*set.Probes+3*laplacian.MaxBlockCols)*p.Nodes, 8); err != nil {
			return nil, err
		}
		seed = rand.New(src).Uint64()
		o = newSketchTraceOracle(p, set, seed)
		held := newSketchTraceOracle(p, set, heldOutSeed(seed))
		h = newHoldout(func(w []float64) (float64, bool, error) {
			f, _, ok, err := held.eval(w)
			return f, ok, err
		}, set.Patience, len(p.Links))
		o = solveCounter{o, held}
	}
	d := &ScaleWeightDesign{Exact: exact || sparse, Sparse: sparse}
	w, err := p.start(set.Start)
	if err != nil {
		return nil, err
	}
	rec, err := traceSPG(p, o, w, set, d, h)
	if err != nil {
		return nil, err
	}
	d.Weights = w
	d.Graph = p.graph(w)
	if err := certify(p, o, w, set, seed, d); err != nil {
		return d, err
	}
	d.Iterations, d.Evals = rec.Iter, rec.Evals
	d.Solves += o.solves()
	d.Status, err = certifiedStatus(rec, d.Gap, d.Value.Hi, set.Tol, "DesignWeightsAtScale")
	return d, err
}

// tryLocal runs the local path when it is forced or its polynomials fit
// (ran false: the sketched path runs instead).
func (p TraceWeightProblem) tryLocal(set ScaleDesignSettings, src rand.Source) (*ScaleWeightDesign, bool, error) {
	w, err := p.start(set.Start)
	if err != nil {
		return nil, true, err
	}
	pl, err := newLocalPlan(p.graph(w), set.Depth)
	if err != nil {
		return nil, true, err
	}
	if !set.Local && !pl.fits() {
		return nil, false, nil
	}
	if src == nil {
		panic("consensus: DesignWeightsAtScale: nil rand.Source")
	}
	d, err := p.designLocal(w, pl, set, src)
	return d, true, err
}

// graph returns the graph of the links with positive weight.
func (p TraceWeightProblem) graph(w []float64) *wgraph.Graph {
	edges := make([]wgraph.Edge, 0, len(w))
	for i, l := range p.Links {
		if w[i] > 0 {
			edges = append(edges, wgraph.Edge{U: l.U, V: l.V, W: w[i]})
		}
	}
	g, err := wgraph.FromEdges(p.Nodes, edges)
	if err != nil {
		panic(err) // validated links with positive weights: a bug here
	}
	return g
}

// start returns the projection of the starting weights (the uniform
// allocation when nil), checked to connect the nodes.
func (p TraceWeightProblem) start(w0 []float64) ([]float64, error) {
	m := len(p.Links)
	y := make([]float64, m)
	if w0 != nil {
		copy(y, w0)
	} else {
		var cs float64
		for _, l := range p.Links {
			cs += l.Cost
		}
		for i := range y {
			y[i] = p.Budget / cs
		}
	}
	w := make([]float64, m)
	p.project(w, y)
	if !wgraph.IsConnected(p.graph(w)) {
		return nil, loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "DesignWeightsAtScale: the starting weights leave the nodes disconnected")
	}
	return w, nil
}

// certifiedStatus is the status of a design at scale whose optimisation
// ended as rec: Success when its certified gap is at most tol·hi (hi the
// upper end of its value), IterationLimit when the optimisation converged
// but the certificate is looser, else the optimisation's own; the error
// wraps ErrNotConverged unless Success.
func certifiedStatus(rec solve.Record, gap, hi, tol float64, fn string) (loadlab.Status, error) {
	if gap <= tol*hi {
		rec.Status = loadlab.Success
	} else if rec.Status == loadlab.Success {
		rec.Status = loadlab.IterationLimit
	}
	return rec.Status, rec.Err("consensus", "%s: certified relative gap %.3g, want ≤ %g", fn, gap/hi, tol)
}
