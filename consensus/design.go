package consensus

import (
	"cmp"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/internal/solve"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Link is a candidate link {U, V} of Problem A with its cost per unit
// of weight.
type Link struct {
	U, V int
	Cost float64
}

// WeightProblem is Problem A of spec §5.2: choose weights w ≥ 0 on the
// candidate links with Σ_e Cost_e w_e ≤ Budget for update cycle Gamma.
//
// With Floor = 0 the objective is ρ₂(γ; L(w)) (σ = 1). With Floor > 0 it
// is the Case 1 variant: minimise ρ₁(γ; L(w)) subject to
// λ₂(L(w)) ≥ Floor (ρ₁ alone would be minimised by no links at all).
type WeightProblem struct {
	Nodes  int
	Links  []Link
	Gamma  float64
	Budget float64
	Floor  float64
}

// DesignSettings are optional solver settings; nil means the defaults.
type DesignSettings struct {
	// Tol is the relative duality gap at which to stop; zero means 1e-6.
	Tol float64
	// MaxIter bounds the projected-gradient (or Newton) iterations; zero
	// means 100000.
	MaxIter int
}

// Validate checks the settings: Tol finite and ≥ 0, MaxIter ≥ 0 (zero
// means the default). The errors wrap loadlab.ErrInvalid and name the
// field; a value is never silently replaced.
func (s *DesignSettings) Validate() error {
	if s == nil {
		return nil
	}
	if !(s.Tol >= 0) || math.IsInf(s.Tol, 1) {
		return loadlab.Invalid("consensus", "DesignSettings.Tol = %v, want finite and ≥ 0", s.Tol)
	}
	if s.MaxIter < 0 {
		return loadlab.Invalid("consensus", "DesignSettings.MaxIter = %d, want ≥ 0", s.MaxIter)
	}
	return nil
}

// withDefaults returns the settings with zero fields replaced by their
// defaults.
func (s *DesignSettings) withDefaults() DesignSettings {
	set := DesignSettings{Tol: 1e-6, MaxIter: 100000}
	if s != nil {
		if s.Tol > 0 {
			set.Tol = s.Tol
		}
		if s.MaxIter > 0 {
			set.MaxIter = s.MaxIter
		}
	}
	return set
}

// WeightDesign is a solution of Problem A with its optimality
// certificate.
type WeightDesign struct {
	// Weights holds w_e for Links, in input order.
	Weights []float64
	// Graph has the links with positive weight.
	Graph *wgraph.Graph
	// Value is the objective at Weights (ρ₂, or ρ₁ for the variant; σ = 1).
	Value float64
	// Lower is a certified lower bound on the optimal value, and
	// Gap = Value − Lower ≥ Value − optimum (see DesignWeights).
	Lower, Gap float64
	// Lambda2 is λ₂(L(w)) for the variant, 0 otherwise.
	Lambda2 float64
	// Status says why the solver stopped: Success when the certified
	// gap met Tol; IterationLimit, StepLimit (no acceptable step),
	// Stagnated (rounding hides further descent) or Failure (a
	// factorisation broke down) otherwise, with ErrNotConverged.
	Status     loadlab.Status
	Iterations int
}

// DesignWeights solves Problem A (spec §5.2) to a certified optimum
// without an SDP solver.
//
// Method. The feasible set S = {w ≥ 0, cᵀw ≤ B} is a simplex with
// slack; the objective f is convex on it (tr L(w)† and
// tr (2I − γL(w))⁻¹ are convex in w, spec §5.2) and +∞ where L(w) is
// disconnected or γλ_n ≥ 2, which acts as a barrier. The solver is the
// spectral projected gradient method (Barzilai–Borwein steps,
// non-monotone Armijo search, Euclidean projection onto S in
// O(m log m)) with the gradients of spec §11:
//
//	∂ρ₂/∂w_e = ½ [−‖L†b_e‖²/γ + γ‖Q b_e‖²],   ∂ρ₁/∂w_e = 2γ ‖Q b_e‖²,
//
// b_e = e_u − e_v, Q = (2I − γL)⁻¹, L† from a Cholesky factor of
// L + αJ/n.
//
// Certificate. For convex f and any feasible w, convexity gives
// f(w*) ≥ f(w) + ∇f(w)ᵀ(w* − w) ≥ f(w) − max_{s∈S} ∇f(w)ᵀ(w − s), and
// the maximum is over the vertices 0 and (B/c_e) e_e of S:
//
//	gap(w) = ∇f(w)ᵀw − B · min{0, min_e ∂_e f(w)/c_e}  ≥  f(w) − f*.
//
// The variant adds the constraint B(w) = L(w) − s M_n + J/n ⪰ 0
// (λ₂ ≥ s) and is solved by a primal barrier method: Newton steps on
// ρ₁ − μ[log det B(w) + Σ log w_e + log(B − cᵀw)] with μ divided by 10
// after each centring (exact Hessians; see floor.go). With Z = μ B(w)⁻¹
// ⪰ 0 as multiplier, the Lagrangian f − ⟨Z, B(w)⟩ is convex in w, so
// weak duality and the same linearisation over S give
//
//	f* ≥ f(w) − ⟨Z, B(w)⟩ − gap_ℓ(w) = f(w) − μ n − gap_ℓ(w),
//
// with gap_ℓ the expression above for the Lagrangian's gradient
// ∇f − μ (b_eᵀB⁻¹b_e)_e.
//
// The barrier method starts from uniform weights at 0.9 of the budget
// when they meet the floor stably; otherwise a phase one maximises the
// concave margin min{λ₂ − s, 2/γ − λ_n} by projected supergradient
// ascent (see phaseOne in floor.go) until it is positive, or until its
// supergradient bound certifies that no weights within the budget meet
// the floor, which is then the error. After 500 ascent steps without
// either outcome (this happens for floors just above the largest
// reachable λ₂, where the bound is not yet tight) it gives up with an
// error that reports the best margin and the certified bound.
//
// The solver stops when Value − Lower ≤ Tol · Value and returns both.
//
// Errors: Nodes < 2, a link out of range, a self-loop or repeated link,
// a cost that is not finite and positive, Gamma or Budget not finite and
// positive, Floor negative (all ErrInvalid, see WeightProblem.Validate),
// invalid settings (DesignSettings.Validate), candidate links that cannot
// connect the nodes (ErrDisconnected), no stable start (uniform weights
// scaled down 60 times; ErrUnstable), for the variant a floor certified
// unreachable (ErrInvalid) or no strictly feasible start found
// (ErrNotConverged), and failure to reach Tol: MaxIter iterations, or a
// stall where rounding hides further descent (typically below a relative
// gap of 1e-9). In the last two cases the best design so far is returned
// with an error wrapping ErrNotConverged, and its Status says why.
func DesignWeights(p WeightProblem, s *DesignSettings) (*WeightDesign, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	set := s.withDefaults()
	e := newEvaluator(p)
	w := make([]float64, len(p.Links))
	d := &WeightDesign{}
	var rec solve.Record
	var err error
	if p.Floor > 0 {
		if err = e.floorStart(w); err != nil {
			return nil, err
		}
		rec = e.floorSolve(w, set, d)
	} else {
		if err = e.stableStart(w); err != nil {
			return nil, err
		}
		rec = e.spg(w, set, d)
	}
	d.Status, d.Iterations = rec.Status, rec.Iter
	d.Weights = w
	b := p.builder()
	for i, l := range p.Links {
		if w[i] > 0 {
			mustSet(b, l.U, l.V, w[i])
		}
	}
	d.Graph = b.Build()
	if p.Floor > 0 {
		if l2, lerr := spectral.Lambda2Bracket(d.Graph, nil); lerr == nil {
			d.Lambda2 = l2.Est
		}
	}
	return d, rec.Err("consensus", "DesignWeights: relative gap %.3g, want ≤ %g", d.Gap/d.Value, set.Tol)
}

// stableStart sets w to the uniform allocation of the budget, halved
// until it is stable (at most 60 times).
func (e *evaluator) stableStart(w []float64) error {
	for i := range w {
		w[i] = e.p.Budget / e.p.costSum()
	}
	for range 60 {
		if e.value(w) != nil {
			return nil
		}
		for i := range w {
			w[i] /= 2
		}
	}
	return loadlab.Wrap(ErrUnstable, "consensus", "DesignWeights: found no stable starting weights (uniform weights scaled down 2^60 times)")
}

// costSum returns Σ_e c_e, so that B/costSum is the uniform allocation
// that spends the budget.
func (p WeightProblem) costSum() float64 {
	var s float64
	for _, l := range p.Links {
		s += l.Cost
	}
	return s
}

// Validate checks the problem: Nodes ≥ 2, Gamma and Budget finite and
// positive, Floor finite and ≥ 0, every link in range, no self-loop or
// repeated link, costs finite and positive (ErrInvalid, naming the field
// or link), candidate links that connect the nodes (ErrDisconnected),
// and dense n×n work matrices (and, for the variant, the m×m Newton
// Hessian) within the memory budget (ErrTooLarge).
func (p WeightProblem) Validate() error {
	if err := p.validateScalars(); err != nil {
		return err
	}
	seen := make(map[[2]int]int, len(p.Links))
	for i, l := range p.Links {
		if l.U < 0 || l.U >= p.Nodes || l.V < 0 || l.V >= p.Nodes {
			return loadlab.Invalid("consensus", "WeightProblem.Links[%d] = {%d, %d}: node out of range [0, %d)", i, l.U, l.V, p.Nodes)
		}
		if l.U == l.V {
			return loadlab.Invalid("consensus", "WeightProblem.Links[%d] is a self-loop at node %d", i, l.U)
		}
		if !(l.Cost > 0) || math.IsInf(l.Cost, 1) {
			return loadlab.Invalid("consensus", "WeightProblem.Links[%d].Cost = %v, want finite and > 0", i, l.Cost)
		}
		key := [2]int{min(l.U, l.V), max(l.U, l.V)}
		if j, dup := seen[key]; dup {
			return loadlab.Invalid("consensus", "WeightProblem.Links[%d] repeats Links[%d] = {%d, %d}", i, j, l.U, l.V)
		}
		seen[key] = i
	}
	support := p.builder()
	for _, l := range p.Links {
		mustSet(support, l.U, l.V, 1)
	}
	if !wgraph.IsConnected(support.Build()) {
		return loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "WeightProblem: the %d candidate links do not connect the %d nodes", len(p.Links), p.Nodes)
	}
	return nil
}

// validateScalars checks the scalar fields and the sizes of the dense
// work: seven n×n matrices, and m×m plus n×m for the variant's Newton
// steps.
func (p WeightProblem) validateScalars() error {
	if p.Nodes < 2 {
		return loadlab.Invalid("consensus", "WeightProblem.Nodes = %d, want ≥ 2", p.Nodes)
	}
	if !(p.Gamma > 0) || math.IsInf(p.Gamma, 1) {
		return loadlab.Invalid("consensus", "WeightProblem.Gamma = %v, want finite and > 0", p.Gamma)
	}
	if !(p.Budget > 0) || math.IsInf(p.Budget, 1) {
		return loadlab.Invalid("consensus", "WeightProblem.Budget = %v, want finite and > 0", p.Budget)
	}
	if !(p.Floor >= 0) || math.IsInf(p.Floor, 1) {
		return loadlab.Invalid("consensus", "WeightProblem.Floor = %v, want finite and ≥ 0", p.Floor)
	}
	nn, ok := size.Mul(p.Nodes, p.Nodes)
	if !ok {
		return loadlab.TooLarge("consensus", "WeightProblem.Nodes = %d: the dense n×n work overflows", p.Nodes)
	}
	if err := size.Check("consensus", "WeightProblem.Nodes² (dense work)", nn, 7*8); err != nil {
		return err
	}
	if p.Floor > 0 {
		m := len(p.Links)
		mm, ok1 := size.Mul(m, m)
		nm, ok2 := size.Mul(p.Nodes, m)
		if !ok1 || !ok2 || mm > math.MaxInt-nm {
			return loadlab.TooLarge("consensus", "WeightProblem: %d links: the Newton Hessian overflows", m)
		}
		if err := size.Check("consensus", "WeightProblem.Links² + Nodes·Links (Newton work)", mm+nm, 3*8); err != nil {
			return err
		}
	}
	return nil
}

// builder returns an empty graph builder on the problem's nodes, whose
// count Validate has checked.
func (p WeightProblem) builder() *wgraph.Builder {
	b, err := wgraph.NewBuilder(p.Nodes)
	if err != nil {
		panic(err) // Validate has checked the size: a bug here
	}
	return b
}

// evaluator computes the objective, its gradient and the barrier for
// Problem A on dense n×n matrices.
type evaluator struct {
	p      WeightProblem
	base   *mat.SymDense // the Laplacian of the links held fixed (ReweightLinks), or nil
	n      int
	l      *mat.SymDense
	a      *mat.SymDense
	kinv   mat.SymDense
	qinv   mat.SymDense
	binv   mat.SymDense
	ch     dense.SPDFactor
	grad   []float64
	bgrad  []float64
	logdet float64
	over   *overObjective // the over-throttling objective instead (design_over.go), or nil
}

type evalResult struct {
	f    float64   // objective
	grad []float64 // its gradient (the evaluator's buffer)
}

func newEvaluator(p WeightProblem) *evaluator {
	n := p.Nodes
	return &evaluator{p: p, n: n, l: mat.NewSymDense(n, nil), a: mat.NewSymDense(n, nil),
		grad: make([]float64, len(p.Links)), bgrad: make([]float64, len(p.Links))}
}

// laplacian fills e.l with L(w), plus the fixed links' Laplacian.
func (e *evaluator) laplacian(w []float64) {
	raw := e.l.RawSymmetric()
	if e.base != nil {
		copy(raw.Data, e.base.RawSymmetric().Data)
	} else {
		clear(raw.Data)
	}
	for i, lk := range e.p.Links {
		u, v := min(lk.U, lk.V), max(lk.U, lk.V)
		raw.Data[u*raw.Stride+u] += w[i]
		raw.Data[v*raw.Stride+v] += w[i]
		raw.Data[u*raw.Stride+v] -= w[i]
	}
}

// inverse factors a and writes its inverse to dst; false if a is not
// positive definite.
func (e *evaluator) inverse(dst *mat.SymDense, a *mat.SymDense) bool {
	if e.ch.Factorize(a) != nil {
		return false
	}
	e.ch.InverseTo(dst)
	return true
}

// normB returns ‖X b‖² and bᵀXb for b = e_u − e_v.
func normB(x *mat.SymDense, u, v int) (sq, quad float64) {
	raw := x.RawSymmetric()
	n := raw.N
	at := func(i, j int) float64 {
		if i > j {
			i, j = j, i
		}
		return raw.Data[i*raw.Stride+j]
	}
	for k := range n {
		d := at(k, u) - at(k, v)
		sq += d * d
	}
	return sq, at(u, u) + at(v, v) - 2*at(u, v)
}

// value evaluates the objective and gradient at w; nil means w is
// outside the domain (disconnected or unstable).
func (e *evaluator) value(w []float64) *evalResult {
	if e.over != nil {
		return e.overValue(w)
	}
	gamma := e.p.Gamma
	e.laplacian(w)
	// Q = (2I − γL)⁻¹; positive definite iff stable.
	dense.Shift(e.a, e.l, 2, gamma)
	if !e.inverse(&e.qinv, e.a) {
		return nil
	}
	trQ := mat.Trace(&e.qinv)
	var f float64
	if e.p.Floor == 0 {
		// K = (L + αJ/n)⁻¹ = L† + J/(αn), α = mean weighted degree.
		alpha := dense.Lift(e.a, e.l)
		if !e.inverse(&e.kinv, e.a) {
			return nil // disconnected
		}
		trL := mat.Trace(&e.kinv) - 1/alpha
		f = 0.5 * (trL/gamma + trQ - 0.5) // spec §4.4 R2, σ = 1
		for i, lk := range e.p.Links {
			kb, _ := normB(&e.kinv, lk.U, lk.V)
			qb, _ := normB(&e.qinv, lk.U, lk.V)
			e.grad[i] = 0.5 * (-kb/gamma + gamma*qb) // spec §11
		}
	} else {
		f = 2*trQ - 1 // spec §4.4 R1, σ = 1
		for i, lk := range e.p.Links {
			qb, _ := normB(&e.qinv, lk.U, lk.V)
			e.grad[i] = 2 * gamma * qb
		}
	}
	return &evalResult{f: f, grad: e.grad}
}

// barrier factors B = L − s M_n + J/n (e.l must hold L(w)), sets
// log det B and ∂ log det B/∂w_e = b_eᵀ B⁻¹ b_e; false if B is not
// positive definite (λ₂ ≤ s).
func (e *evaluator) barrier() bool {
	n, s := e.n, e.p.Floor
	c := (s + 1) / float64(n)
	raw := e.a.RawSymmetric()
	lraw := e.l.RawSymmetric()
	for i := range n {
		for j := i; j < n; j++ {
			raw.Data[i*raw.Stride+j] = lraw.Data[i*lraw.Stride+j] + c
		}
		raw.Data[i*raw.Stride+i] -= s
	}
	if !e.inverse(&e.binv, e.a) {
		return false
	}
	e.logdet = e.ch.LogDet()
	for i, lk := range e.p.Links {
		_, e.bgrad[i] = normB(&e.binv, lk.U, lk.V)
	}
	return true
}

// fwGap returns max_{s∈S} gᵀ(w − s) over S = {w ≥ 0, cᵀw ≤ B}.
func (e *evaluator) fwGap(w, g []float64) float64 {
	var gw, best float64
	for i, lk := range e.p.Links {
		gw += g[i] * w[i]
		best = min(best, g[i]/lk.Cost)
	}
	return gw - e.p.Budget*best
}

// project writes the Euclidean projection of y onto
// S = {w ≥ 0, cᵀw ≤ B} into dst: (y)₊ if it fits, else (y − τc)₊ with
// cᵀ(y − τc)₊ = B, found by sorting the breakpoints y_e/c_e.
func (e *evaluator) project(dst, y []float64, idx []int) {
	var cw float64
	for i, lk := range e.p.Links {
		dst[i] = max(y[i], 0)
		cw += lk.Cost * dst[i]
	}
	if cw <= e.p.Budget {
		return
	}
	links := e.p.Links
	idx = idx[:0]
	for i := range y {
		if y[i] > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Compare(y[b]/links[b].Cost, y[a]/links[a].Cost) // descending
	})
	var scy, scc, tau float64
	for k, i := range idx {
		c := links[i].Cost
		scy += c * y[i]
		scc += c * c
		tau = (scy - e.p.Budget) / scc
		if k+1 == len(idx) || tau >= y[idx[k+1]]/links[idx[k+1]].Cost {
			break
		}
	}
	cw = 0
	for i, lk := range links {
		dst[i] = max(y[i]-tau*lk.Cost, 0)
		cw += lk.Cost * dst[i]
	}
	// For a very long step (|y| ≫ w) τ carries a rounding error of
	// order ε|y|; pull the point back onto the budget.
	if cw > e.p.Budget {
		s := e.p.Budget / cw
		for i := range dst {
			dst[i] *= s
		}
	}
}

// spg minimises ρ₂ from w (updated in place) by spectral projected
// gradient (Barzilai–Borwein steps, the non-monotone Armijo search of
// internal/solve over the last 10 values) until the certified gap is
// within tolerance. It fills d's value and certificate and returns the
// record of the run.
func (e *evaluator) spg(w []float64, set DesignSettings, d *WeightDesign) solve.Record {
	st := newSPGState(e, w)
	var rec solve.Record
	for rec.Iter = 0; rec.Iter < set.MaxIter; rec.Iter++ {
		st.record(d)
		if d.Gap <= set.Tol*st.f {
			rec.Stop(loadlab.Success)
			return rec
		}
		gd := st.direction()
		if gd >= 0 {
			// The step is too short for the descent to show above
			// rounding (BB steps can collapse on a face of S): lengthen
			// it, and give up only after many tries.
			if st.stalls++; st.stalls > 40 {
				rec.Stop(loadlab.Stagnated)
				return rec
			}
			st.alpha = min(st.alpha*10, 1e30)
			continue
		}
		st.stalls = 0
		ls := solve.Armijo{}.Search(slices.Max(st.hist), func(t float64) (float64, float64, bool) {
			for i := range st.trial {
				st.trial[i] = w[i] + t*st.dir[i]
			}
			r := e.value(st.trial)
			if r == nil {
				return math.NaN(), 0, false
			}
			return r.f, -t * gd, true
		})
		rec.Evals += ls.Trials
		if ls.Status != loadlab.Success {
			rec.Stop(ls.Status)
			return rec
		}
		st.accept(ls.F, e.grad) // e.grad holds the gradient at the accepted trial
	}
	st.record(d)
	rec.Stop(loadlab.IterationLimit)
	return rec
}

// spgState is the state of the spectral projected gradient method.
type spgState struct {
	e    *evaluator
	w, g []float64 // iterate (the caller's slice) and gradient
	spgStep
	y, dir, trial []float64
	idx           []int
	stalls        int
}

// spgMemory is the number of values the non-monotone search compares
// with.
const spgMemory = 10

// spgStep is the value, the Barzilai–Borwein step and the memory of the
// non-monotone search, shared by the dense and the sketched weight
// designs' spectral projected gradient methods.
type spgStep struct {
	f, alpha float64   // value and BB step
	hist     []float64 // last values, for the non-monotone search
}

// advance keeps the accepted value f and sets the BB step ss/sy from the
// step s and the gradient change y (ss = sᵀs, sy = sᵀy), within
// [1e-30, 1e30]; without positive curvature the step grows tenfold.
func (p *spgStep) advance(f, ss, sy float64) {
	p.f = f
	p.hist = append(p.hist, f)
	if len(p.hist) > spgMemory {
		p.hist = p.hist[1:]
	}
	if sy > 0 {
		p.alpha = min(max(ss/sy, 1e-30), 1e30)
	} else {
		p.alpha = min(p.alpha*10, 1e30)
	}
}

func newSPGState(e *evaluator, w []float64) *spgState {
	m := len(w)
	r := e.value(w)
	st := &spgState{e: e, w: w, g: slices.Clone(r.grad), spgStep: spgStep{f: r.f, hist: []float64{r.f}},
		y: make([]float64, m), dir: make([]float64, m), trial: make([]float64, m), idx: make([]int, 0, m)}
	// Initial step: unit projected-gradient step scaled to the weights.
	st.alpha = 1
	var gn, wn float64
	for i := range st.g {
		gn = max(gn, math.Abs(st.g[i]))
		wn = max(wn, w[i])
	}
	if gn > 0 {
		st.alpha = 0.1 * wn / gn
	}
	return st
}

// record stores the value and the certificate at the current iterate.
func (st *spgState) record(d *WeightDesign) {
	gap := st.e.fwGap(st.w, st.g)
	d.Value, d.Gap, d.Lower = st.f, gap, st.f-gap
}

// direction sets dir = P(w − αg) − w and returns gᵀdir.
func (st *spgState) direction() float64 {
	for i := range st.y {
		st.y[i] = st.w[i] - st.alpha*st.g[i]
	}
	st.e.project(st.dir, st.y, st.idx)
	var gd float64
	for i := range st.dir {
		st.dir[i] -= st.w[i]
		gd += st.g[i] * st.dir[i]
	}
	return gd
}

// accept moves to the trial point with value f and gradient grad and
// sets the next Barzilai–Borwein step ss/sy.
func (st *spgState) accept(f float64, grad []float64) {
	var ss, sy float64
	for i := range st.w {
		si := st.trial[i] - st.w[i]
		yi := grad[i] - st.g[i]
		ss += si * si
		sy += si * yi
		st.w[i] = st.trial[i]
		st.g[i] = grad[i]
	}
	st.advance(f, ss, sy)
}

// mustSet adds a validated edge; an error is a bug in this package.
func mustSet(b *wgraph.Builder, u, v int, w float64) {
	if err := b.SetEdge(u, v, w); err != nil {
		panic(err)
	}
}
