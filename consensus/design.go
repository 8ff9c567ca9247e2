package consensus

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab/linalg"
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
	// Tol is the relative duality gap at which to stop; default 1e-6.
	Tol float64
	// MaxIter bounds the projected-gradient iterations; default 100000.
	MaxIter int
}

// WeightDesign is a solution of Problem A with its optimality
// certificate.
type WeightDesign struct {
	// Weights holds w_e for Links, in input order.
	Weights []float64
	// Graph has the links with positive weight.
	Graph *linalg.Graph
	// Value is the objective at Weights (ρ₂, or ρ₁ for the variant; σ = 1).
	Value float64
	// Lower is a certified lower bound on the optimal value, and
	// Gap = Value − Lower ≥ Value − optimum (see DesignWeights).
	Lower, Gap float64
	// Lambda2 is λ₂(L(w)) for the variant, 0 otherwise.
	Lambda2    float64
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
// positive, Floor negative, candidate links that cannot connect the
// nodes, no stable start (uniform weights scaled down 60 times), for the
// variant no strictly feasible start, and failure to reach Tol: MaxIter iterations, or a stall
// where rounding hides further descent (typically below a relative gap
// of 1e-9). In the last two cases the best design so far is returned
// with the error.
func DesignWeights(p WeightProblem, s *DesignSettings) (*WeightDesign, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	set := DesignSettings{Tol: 1e-6, MaxIter: 100000}
	if s != nil {
		if s.Tol > 0 {
			set.Tol = s.Tol
		}
		if s.MaxIter > 0 {
			set.MaxIter = s.MaxIter
		}
	}
	e := newEvaluator(p)
	m := len(p.Links)
	costSum := p.costSum()
	w := make([]float64, m)
	for i := range w {
		w[i] = p.Budget / costSum
	}
	d := &WeightDesign{}
	var err error
	if p.Floor > 0 {
		d.Iterations, err = e.floorSolve(w, set, d)
		if err != nil && d.Iterations == 0 {
			return nil, err // no feasible start
		}
	} else {
		ok := false
		for range 60 {
			if e.value(w) != nil {
				ok = true
				break
			}
			for i := range w {
				w[i] /= 2
			}
		}
		if !ok {
			return nil, errors.New("consensus: DesignWeights: found no stable starting weights")
		}
		d.Iterations, err = e.spg(w, set, d)
	}
	d.Weights = w
	b, berr := linalg.NewBuilder(p.Nodes)
	if berr != nil {
		return nil, berr
	}
	for i, l := range p.Links {
		if w[i] > 0 {
			mustSet(b, l.U, l.V, w[i])
		}
	}
	d.Graph = b.Build()
	if p.Floor > 0 {
		l2, _, lerr := linalg.AlgebraicConnectivity(d.Graph)
		if lerr == nil {
			d.Lambda2 = l2
		}
	}
	return d, err
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

func (p WeightProblem) validate() error {
	if p.Nodes < 2 {
		return fmt.Errorf("consensus: WeightProblem.Nodes = %d: want ≥ 2", p.Nodes)
	}
	if err := checkGamma(p.Gamma); err != nil {
		return err
	}
	if !(p.Budget > 0) || math.IsInf(p.Budget, 1) {
		return fmt.Errorf("consensus: WeightProblem.Budget = %v: want finite and > 0", p.Budget)
	}
	if !(p.Floor >= 0) || math.IsInf(p.Floor, 1) {
		return fmt.Errorf("consensus: WeightProblem.Floor = %v: want finite and ≥ 0", p.Floor)
	}
	seen := make(map[[2]int]int)
	support, err := linalg.NewBuilder(p.Nodes)
	if err != nil {
		return err
	}
	for i, l := range p.Links {
		if l.U < 0 || l.U >= p.Nodes || l.V < 0 || l.V >= p.Nodes {
			return fmt.Errorf("consensus: Links[%d] = {%d, %d}: node out of range [0, %d)", i, l.U, l.V, p.Nodes)
		}
		if l.U == l.V {
			return fmt.Errorf("consensus: Links[%d] is a self-loop at node %d", i, l.U)
		}
		if !(l.Cost > 0) || math.IsInf(l.Cost, 1) {
			return fmt.Errorf("consensus: Links[%d].Cost = %v: want finite and > 0", i, l.Cost)
		}
		key := [2]int{min(l.U, l.V), max(l.U, l.V)}
		if j, dup := seen[key]; dup {
			return fmt.Errorf("consensus: Links[%d] repeats Links[%d] = {%d, %d}", i, j, l.U, l.V)
		}
		seen[key] = i
		mustSet(support, l.U, l.V, 1)
	}
	if !linalg.IsConnected(support.Build()) {
		return fmt.Errorf("consensus: the %d candidate links do not connect the %d nodes", len(p.Links), p.Nodes)
	}
	return nil
}

// evaluator computes the objective, its gradient and the barrier for
// Problem A on dense n×n matrices.
type evaluator struct {
	p      WeightProblem
	n      int
	l      *mat.SymDense
	a      *mat.SymDense
	kinv   mat.SymDense
	qinv   mat.SymDense
	binv   mat.SymDense
	ch     linalg.SPDFactor
	grad   []float64
	bgrad  []float64
	logdet float64
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

// laplacian fills e.l with L(w).
func (e *evaluator) laplacian(w []float64) {
	raw := e.l.RawSymmetric()
	clear(raw.Data)
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
	gamma := e.p.Gamma
	e.laplacian(w)
	// Q = (2I − γL)⁻¹; positive definite iff stable.
	linalg.Shift(e.a, e.l, 2, gamma)
	if !e.inverse(&e.qinv, e.a) {
		return nil
	}
	trQ := mat.Trace(&e.qinv)
	var f float64
	if e.p.Floor == 0 {
		// K = (L + αJ/n)⁻¹ = L† + J/(αn), α = mean weighted degree.
		alpha := linalg.Lift(e.a, e.l)
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
// gradient until the certified gap is within tolerance. It fills d's
// value and certificate and returns the iteration count.
func (e *evaluator) spg(w []float64, set DesignSettings, d *WeightDesign) (int, error) {
	m := len(w)
	const memory = 10
	r := e.value(w)
	g := slices.Clone(r.grad)
	f := r.f
	hist := []float64{f}
	y := make([]float64, m)
	dir := make([]float64, m)
	trial := make([]float64, m)
	idx := make([]int, 0, m)
	// Initial step: unit projected-gradient step scaled to the weights.
	alpha := 1.0
	{
		var gn, wn float64
		for i := range g {
			gn = max(gn, math.Abs(g[i]))
			wn = max(wn, w[i])
		}
		if gn > 0 {
			alpha = 0.1 * wn / gn
		}
	}
	record := func() {
		gap := e.fwGap(w, g)
		d.Value, d.Gap, d.Lower = f, gap, f-gap
	}
	stalls := 0
	for it := 0; it < set.MaxIter; it++ {
		record()
		if d.Gap <= set.Tol*f {
			return it, nil
		}
		for i := range y {
			y[i] = w[i] - alpha*g[i]
		}
		e.project(dir, y, idx)
		var gd float64
		for i := range dir {
			dir[i] -= w[i]
			gd += g[i] * dir[i]
		}
		if gd >= 0 {
			// The step is too short for the descent to show above
			// rounding (BB steps can collapse on a face of S): lengthen
			// it, and give up only after many tries.
			if stalls++; stalls > 40 {
				return it, fmt.Errorf("consensus: DesignWeights: stalled at relative gap %.3g", d.Gap/f)
			}
			alpha = min(alpha*10, 1e30)
			continue
		}
		stalls = 0
		ref := slices.Max(hist)
		lambda := 1.0
		var rt *evalResult
		for range 60 {
			for i := range trial {
				trial[i] = w[i] + lambda*dir[i]
			}
			rt = e.value(trial)
			if rt != nil && rt.f <= ref+1e-4*lambda*gd {
				break
			}
			rt = nil
			lambda /= 2
		}
		if rt == nil {
			return it, fmt.Errorf("consensus: DesignWeights: line search failed at gap %.3g", d.Gap)
		}
		var ss, sy float64
		for i := range w {
			si := trial[i] - w[i]
			yi := rt.grad[i] - g[i]
			ss += si * si
			sy += si * yi
			w[i] = trial[i]
			g[i] = rt.grad[i]
		}
		f = rt.f
		hist = append(hist, f)
		if len(hist) > memory {
			hist = hist[1:]
		}
		if sy > 0 {
			alpha = min(max(ss/sy, 1e-30), 1e30)
		} else {
			alpha = min(alpha*10, 1e30)
		}
	}
	record()
	return set.MaxIter, fmt.Errorf("consensus: DesignWeights: relative gap %.3g after %d iterations, want ≤ %g", d.Gap/d.Value, set.MaxIter, set.Tol)
}

// mustSet adds a validated edge; an error is a bug in this package.
func mustSet(b *linalg.Builder, u, v int, w float64) {
	if err := b.SetEdge(u, v, w); err != nil {
		panic(err)
	}
}
