package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Reweighting is the result of ReweightLinks: at most k links of a
// throttler's graph reweighted, with a certificate of how far the answer
// is from the best reweighting of all links.
type Reweighting struct {
	// Graph is the throttler's graph with the new weights; a link whose
	// new weight is 0 is removed.
	Graph *wgraph.Graph
	// Changed lists the links chosen, in the order chosen, with their
	// new weights W (0: removed). Its length is at most k.
	Changed []wgraph.Edge
	// Rho2 holds ρ₂ (σ = 1) of the throttler before any change, Rho2[0],
	// and after the best reweighting of the first i links chosen,
	// Rho2[i] (a pair chosen together, see ReweightLinks, shares one
	// value); each is exact (dense Cholesky factorisations), the last is
	// the answer's.
	Rho2 []float64
	// Lower is a certified lower bound on ρ₂ over every reweighting of
	// every link within the budget (Full.Lower, spec §5.2 Problem A), so
	// Gap = Rho2[len(Rho2)−1] − Lower bounds how much any reweighting,
	// of any number of links, could still gain.
	Lower, Gap float64
	// Full is the design with every link free (DesignWeights), whose
	// Value is the best found with all links and Lower its certificate.
	Full *WeightDesign
	// Status is Success, or the status of the first solve that stopped
	// short (the answer is then still feasible and its values exact, but
	// a restricted design or the full one may be short of its optimum).
	Status loadlab.Status
}

// ReweightLinks chooses at most k links of the throttler's graph and new
// weights for them, the other links keeping theirs, to minimise the
// random-walk dispersion ρ₂ (σ = 1) at the throttler's γ, under Problem
// A's budget on the total weight (spec §5.2, every link of cost 1):
// Σ_e w_e ≤ budget, which must be at least the current total weight.
// It returns the exact ρ₂ before and after and a certified lower bound on
// what any reweighting can achieve (spec throttlers.md §13.11).
//
// Method. The links are chosen greedily. With a set F of links free,
// the best weights on F (the others fixed) solve Problem A restricted to
// F: a convex problem, solved by DesignWeights' projected gradient with
// its duality-gap certificate, over {w_F ≥ 0, Σ_F w ≤ budget − Σ_{e∉F}
// w_e}, from the current weights. The next link is the one whose
// first-order change promises most per unit of weight, given the
// gradient ∂ρ₂/∂w_e = ½[−‖L†b_e‖²/γ + γ‖Qb_e‖²] (spec §11) at the current
// weights: raising w_e, paid from unused budget or from the free link
// whose weight costs least to lower, gains −∂_e − (that cost); lowering
// w_e > 0, with the weight freed spent on the free link that gains most
// from it (or left unused), gains ∂_e + (that gain). A link can hurt
// (spec §5.1 fact 5), so lowering or removing one can pay. With the
// budget spent and no link free, one link can only be lowered; when no
// single link gains, the first two chosen are the best pair to move
// weight between. The greedy stops early when no link promises a gain.
//
// Certificate. Every reweighting of ≤ k links is a point of Problem A
// with all links free, so its optimum, and DesignWeights' certified
// Lower, bounds every such answer from below: Rho2[last] − Lower ≥ 0
// bounds the loss of the greedy choice and of the cap k together.
//
// Cost: one full design, then per link chosen a restricted design and a
// gradient, each iteration two dense factorisations, O(n³); the graph
// must have at most spectral.DenseMaxNodes nodes.
//
// Errors: those of Throttler.Validate (Measure must be Amount; the
// throttler must be stable), k < 0 or a budget not finite or below the
// current total weight (ErrInvalid, naming it), more than
// spectral.DenseMaxNodes nodes (ErrTooLarge), invalid settings
// (DesignSettings.Validate), and ErrNotConverged with the answer, whose
// Status says why, when a design stopped short of its tolerance. It
// panics if th is nil.
func ReweightLinks(th *Throttler, k int, budget float64, s *DesignSettings) (*Reweighting, error) {
	if th == nil {
		panic("consensus: ReweightLinks: nil throttler th")
	}
	if err := tooLargeForDense(th, "ReweightLinks", "GreedyLinks on a smaller candidate set"); err != nil {
		return nil, err
	}
	if err := th.validateLinear("ReweightLinks"); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, loadlab.Invalid("consensus", "ReweightLinks: k = %d, want ≥ 0", k)
	}
	edges := th.Graph.Edges()
	w0 := make([]float64, len(edges))
	var total float64
	for i, e := range edges {
		w0[i], total = e.W, total+e.W
	}
	if !(budget >= total) || math.IsInf(budget, 1) {
		return nil, loadlab.Invalid("consensus", "ReweightLinks: budget = %v, want finite and ≥ the current total weight %v", budget, total)
	}
	rw := newReweighter(th, edges, w0, budget, s)
	return rw.run(k)
}

// reweighter holds the state of ReweightLinks.
type reweighter struct {
	th     *Throttler
	edges  []wgraph.Edge
	w      []float64 // current weights, in the order of edges
	budget float64
	set    DesignSettings
	full   *evaluator // every link free: the gradient
	free   []int      // indices of the links chosen
	out    *Reweighting
	err    error // the first ErrNotConverged
}

func newReweighter(th *Throttler, edges []wgraph.Edge, w0 []float64, budget float64, s *DesignSettings) *reweighter {
	links := make([]Link, len(edges))
	for i, e := range edges {
		links[i] = Link{U: e.U, V: e.V, Cost: 1}
	}
	p := WeightProblem{Nodes: th.Graph.Order(), Links: links, Gamma: th.Gamma, Budget: budget}
	return &reweighter{th: th, edges: edges, w: w0, budget: budget, set: s.withDefaults(),
		full: newEvaluator(p), out: &Reweighting{Status: loadlab.Success}}
}

// run solves the full design for the certificate, then chooses up to k
// links.
func (rw *reweighter) run(k int) (*Reweighting, error) {
	r := rw.full.value(rw.w)
	if r == nil {
		return nil, loadlab.Wrap(ErrUnstable, "consensus", "ReweightLinks: Throttler.Gamma = %v: 2I − γL is not positive definite (γλ_n ≥ 2)", rw.th.Gamma)
	}
	rw.out.Rho2 = []float64{r.f}
	full, err := DesignWeights(rw.full.p, &rw.set)
	if full == nil {
		return nil, err
	}
	rw.note(full.Status, err)
	rw.out.Full, rw.out.Lower = full, full.Lower // DesignWeights has its own evaluator: r stands
	for len(rw.free) < k {
		next := rw.choose(r.grad, k-len(rw.free))
		if len(next) == 0 {
			break
		}
		rw.free = append(rw.free, next...)
		f := rw.restricted()
		for range next {
			rw.out.Rho2 = append(rw.out.Rho2, f)
		}
		if r = rw.full.value(rw.w); r == nil {
			return nil, loadlab.Wrap(loadlab.ErrIllConditioned, "consensus", "ReweightLinks: the reweighted throttler left the stable, connected domain (a bug)")
		}
	}
	rw.finish()
	return rw.out, rw.err
}

// note records the first solve that stopped short.
func (rw *reweighter) note(st loadlab.Status, err error) {
	if err != nil && rw.err == nil {
		rw.err, rw.out.Status = err, st
	}
}

// choose returns the next link to free (or, at the start with the
// budget spent and no single link gaining, the best pair when room is
// left for two), from the gradient g at the current weights; none when
// no link promises a gain.
func (rw *reweighter) choose(g []float64, room int) []int {
	isFree := make([]bool, len(g))
	for _, i := range rw.free {
		isFree[i] = true
	}
	// The cheapest source of weight: unused budget, else the free link
	// with positive weight whose lowering costs least; the best use of
	// freed weight: the free link that gains most from it, else nothing.
	fund, gain := math.Inf(1), 0.0
	var used float64
	for _, x := range rw.w {
		used += x
	}
	if rw.budget-used > 1e-12*rw.budget {
		fund = 0
	}
	for _, i := range rw.free {
		gain = max(gain, -g[i])
		if rw.w[i] > 0 {
			fund = min(fund, g[i])
		}
	}
	best, score := -1, 0.0
	for i := range g {
		if isFree[i] {
			continue
		}
		s := -g[i] - fund // raise link i
		if rw.w[i] > 0 {
			s = max(s, g[i]+gain) // lower link i
		}
		if s > score {
			best, score = i, s
		}
	}
	if best >= 0 {
		return []int{best}
	}
	if len(rw.free) > 0 || room < 2 {
		return nil
	}
	return rw.bestPair(g)
}

// bestPair returns the pair (raise i, lower j) with the largest
// g_j − g_i > 0, or none.
func (rw *reweighter) bestPair(g []float64) []int {
	lo, hi := -1, -1
	for i := range g {
		if lo < 0 || g[i] < g[lo] {
			lo = i
		}
		if rw.w[i] > 0 && (hi < 0 || g[i] > g[hi]) {
			hi = i
		}
	}
	if lo < 0 || hi < 0 || lo == hi || !(g[hi] > g[lo]) {
		return nil
	}
	return []int{lo, hi}
}

// restricted solves Problem A with the links of rw.free free and the
// others fixed, from the current weights, sets rw.w and returns ρ₂.
func (rw *reweighter) restricted() float64 {
	n := rw.th.Graph.Order()
	isFree := make(map[int]bool, len(rw.free))
	links := make([]Link, len(rw.free))
	wf := make([]float64, len(rw.free))
	for j, i := range rw.free {
		isFree[i] = true
		links[j] = Link{U: rw.edges[i].U, V: rw.edges[i].V, Cost: 1}
		wf[j] = rw.w[i]
	}
	base := mat.NewSymDense(n, nil)
	fixed := rw.budget
	for i, e := range rw.edges {
		if isFree[i] {
			continue
		}
		u, v := min(e.U, e.V), max(e.U, e.V)
		base.SetSym(u, u, base.At(u, u)+rw.w[i])
		base.SetSym(v, v, base.At(v, v)+rw.w[i])
		base.SetSym(u, v, base.At(u, v)-rw.w[i])
		fixed -= rw.w[i]
	}
	e := newEvaluator(WeightProblem{Nodes: n, Links: links, Gamma: rw.th.Gamma, Budget: max(fixed, 0)})
	e.base = base
	var d WeightDesign
	rec := e.spg(wf, rw.set, &d)
	rw.note(rec.Status, rec.Err("consensus", "ReweightLinks: the design of %d free links: relative gap %.3g, want ≤ %g", len(rw.free), d.Gap/d.Value, rw.set.Tol))
	for j, i := range rw.free {
		rw.w[i] = wf[j]
	}
	return d.Value
}

// finish builds the reweighted graph, the list of changes and the gap.
func (rw *reweighter) finish() {
	b, err := wgraph.NewBuilder(rw.th.Graph.Order())
	if err != nil {
		panic(err) // the throttler's graph has this order: a bug
	}
	for i, e := range rw.edges {
		if rw.w[i] > 0 {
			mustSet(b, e.U, e.V, rw.w[i])
		}
	}
	rw.out.Graph = b.Build()
	for _, i := range rw.free {
		rw.out.Changed = append(rw.out.Changed, wgraph.Edge{U: rw.edges[i].U, V: rw.edges[i].V, W: rw.w[i]})
	}
	rw.out.Gap = rw.out.Rho2[len(rw.out.Rho2)-1] - rw.out.Lower
}
