package consensus

import (
	"cmp"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/internal/solve"
	"github.com/loadlab/loadlab/laplacian"
	"gonum.org/v1/gonum/mat"
)

// project writes the Euclidean projection of y onto the feasible set
// {Lo ≤ w ≤ Hi, cᵀw ≤ B} into dst: clip(y) if it fits the budget, else
// clip(y − τc) with τ > 0 found by bisection on the (decreasing) cost,
// keeping the feasible end.
func (p TraceWeightProblem) project(dst, y []float64) {
	clip := func(tau float64) float64 {
		var cw float64
		for i, l := range p.Links {
			lo, hi := p.bounds(i)
			dst[i] = min(max(y[i]-tau*l.Cost, lo), hi)
			cw += l.Cost * dst[i]
		}
		return cw
	}
	if clip(0) <= p.Budget {
		return
	}
	var top float64 // at τ = top every link is at its lower bound
	for i, l := range p.Links {
		lo, _ := p.bounds(i)
		top = max(top, (y[i]-lo)/l.Cost)
	}
	clip(p.budgetRoot(clip, top))
}

// budgetRoot returns, by bisection on [0, hi], the least x (to the
// resolution of float64) at which the non-increasing cost(x) is within
// the budget; cost(hi) must be within it.
func (p TraceWeightProblem) budgetRoot(cost func(x float64) float64, hi float64) float64 {
	a, b := 0.0, hi
	for range 2100 {
		mid := a + (b-a)/2
		if mid <= a || mid >= b {
			break
		}
		if cost(mid) > p.Budget {
			a = mid
		} else {
			b = mid
		}
	}
	return b
}

// lmo returns max_v Σ_e v_e s_e over the feasible set (s ≥ 0): every
// link at its lower bound, then the rest of the budget to the links in
// decreasing order of s_e/c_e, each up to its upper bound — the
// knapsack of minLinear on −s.
func (p TraceWeightProblem) lmo(s []float64) float64 {
	return -p.minLinear(negated(s), nil)
}

// negated returns −s in a new slice.
func negated(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, x := range s {
		out[i] = -x
	}
	return out
}

// traceState is the state of the projected gradient on the oracle's
// objective.
type traceState struct {
	p    TraceWeightProblem
	o    traceOracle
	w, s []float64 // iterate (the caller's slice) and negative gradient
	spgStep
	y, dir, trial  []float64
	stalls, nostep int
}

// traceSPG minimises the oracle's objective from w (updated in place)
// by spectral projected gradient (Barzilai–Borwein steps, non-monotone
// Armijo search) until its own certified relative gap 1 − f²/(f·M)
// (spec §13.12) is at most Tol (a quarter of it on the sketched path,
// where the certificate comes from a fresh sketch). With a held-out
// guard h (the sketched path) w ends at the guarded iterate.
func traceSPG(p TraceWeightProblem, o traceOracle, w []float64, set ScaleDesignSettings, d *ScaleWeightDesign, h *holdout) (solve.Record, error) {
	rec, f, err := traceIterate(p, o, w, set, d, h)
	if h != nil && err == nil {
		h.restore(w, f)
	}
	return rec, err
}

// traceIterate runs traceSPG's iterations and returns the value at the
// last iterate.
func traceIterate(p TraceWeightProblem, o traceOracle, w []float64, set ScaleDesignSettings, d *ScaleWeightDesign, h *holdout) (solve.Record, float64, error) {
	var rec solve.Record
	f, s, ok, err := o.eval(w)
	rec.Evals++
	if err != nil {
		return rec, 0, err
	}
	if !ok {
		return rec, 0, loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "DesignWeightsAtScale: the starting weights leave the nodes disconnected")
	}
	if h != nil {
		if _, err := h.observe(w, f); err != nil {
			return rec, f, err
		}
	}
	m := len(w)
	st := &traceState{p: p, o: o, w: w, s: slices.Clone(s), spgStep: spgStep{f: f, hist: []float64{f}},
		y: make([]float64, m), dir: make([]float64, m), trial: make([]float64, m)}
	st.alpha = 0.1 * slices.Max(w) / max(slices.Max(st.s), math.SmallestNonzeroFloat64)
	tol := set.Tol
	if !d.Exact {
		tol /= 4
	}
	for rec.Iter = 0; rec.Iter < set.MaxIter; rec.Iter++ {
		if 1-st.f/p.lmo(st.s) <= tol {
			rec.Stop(loadlab.Success)
			return rec, st.f, nil
		}
		done, err := st.step(&rec)
		if err != nil || done {
			return rec, st.f, err
		}
		if h != nil && st.stalls == 0 { // an accepted step
			if stop, err := h.observe(w, st.f); err != nil || stop {
				rec.Stop(loadlab.Success) // converged at the sketch's resolution
				return rec, st.f, err
			}
		}
	}
	rec.Stop(loadlab.IterationLimit)
	return rec, st.f, nil
}

// step takes one projected-gradient step; done reports a stop (its
// status in rec).
func (st *traceState) step(rec *solve.Record) (done bool, err error) {
	for i := range st.y {
		st.y[i] = st.w[i] + st.alpha*st.s[i]
	}
	st.p.project(st.dir, st.y)
	var gd float64 // gᵀdir with g = −s
	for i := range st.dir {
		st.dir[i] -= st.w[i]
		gd -= st.s[i] * st.dir[i]
	}
	if gd >= 0 {
		if st.stalls++; st.stalls > 40 {
			return rec.Stop(loadlab.Stagnated), nil
		}
		st.alpha = min(st.alpha*10, 1e30)
		return false, nil
	}
	st.stalls = 0
	var snew []float64
	var evalErr error
	ls := solve.Armijo{}.Search(slices.Max(st.hist), func(t float64) (float64, float64, bool) {
		for i := range st.trial {
			st.trial[i] = st.w[i] + t*st.dir[i]
		}
		f, s, ok, err := st.o.eval(st.trial)
		if err != nil {
			evalErr = err
			return math.NaN(), 0, false
		}
		if !ok {
			return math.NaN(), 0, false
		}
		snew = s
		return f, -t * gd, true
	})
	rec.Evals += ls.Trials
	if evalErr != nil {
		return true, evalErr
	}
	if ls.Status != loadlab.Success {
		return rec.Stop(ls.Status), nil
	}
	st.accept(ls.F, snew)
	return false, nil
}

// accept moves to the trial point and sets the Barzilai–Borwein step.
func (st *traceState) accept(f float64, s []float64) {
	var ss, sy float64
	for i := range st.w {
		di := st.trial[i] - st.w[i]
		ss += di * di
		sy -= di * (s[i] - st.s[i]) // y = g_new − g_old = −(s_new − s_old)
		st.w[i] = st.trial[i]
		st.s[i] = s[i]
	}
	st.advance(f, ss, sy)
}

// certify fills d's value and certificate at w (spec §13.12): exactly
// on the dense path; on the sketched path from a fresh sketch of k
// Gaussian columns (k from estimate.SketchProjections for ε and δ/m),
// the value's 95 % interval from the same columns, and exact solves for
// the Refine links with the largest envelope.
func certify(p TraceWeightProblem, o traceOracle, w []float64, set ScaleDesignSettings, seed uint64, d *ScaleWeightDesign) error {
	if d.Exact {
		f, s, ok, err := o.eval(w)
		if err != nil || !ok {
			return loadlab.Wrap(loadlab.ErrDisconnected, "consensus", "DesignWeightsAtScale: the design leaves the nodes disconnected")
		}
		lower := min(f*f/p.lmo(s), f)
		d.Value = loadlab.Estimate{Mean: f, Lo: f, Hi: f}
		d.Lower, d.Gap, d.Confidence = lower, f-lower, 1
		return nil
	}
	m := len(p.Links)
	k, err := estimate.SketchProjections(1, &estimate.SketchSettings{Eps: set.Eps, Miss: set.Miss / float64(m)})
	if err != nil {
		return err
	}
	if err := size.Check("consensus", "certificate sketch blocks (2·16 columns × Nodes)", 2*laplacian.MaxBlockCols*p.Nodes, 8); err != nil {
		return err
	}
	solver := set.solverSettings()
	sv, err := laplacian.NewSolver(d.Graph, &solver, loadlab.Stream(seed, 4))
	if err != nil {
		return err
	}
	s := make([]float64, m)
	vals := make([]float64, k)
	q, x := make([]float64, p.Nodes), make([]float64, p.Nodes)
	if err := sketchColumns(sv, k, seed, q, x, func(j int) {
		vals[j] = dense.Dot(q, x)
		accumulateEdges(s, p.Links, x)
	}); err != nil {
		return err
	}
	for i := range s {
		s[i] /= float64(k) * (1 - set.Eps) // the upper envelope
	}
	if err := p.refine(sv, s, set.Refine, q, x); err != nil {
		return err
	}
	d.Solves += k + min(set.Refine, m)
	d.SketchColumns = k
	d.Value = mc.Estimate(vals)
	flo := max(d.Value.Lo, 0)
	d.Lower = flo * flo / p.lmo(s)
	d.Gap = d.Value.Hi - d.Lower
	d.Confidence = 1 - set.Miss - 0.05
	return nil
}

// refine replaces the envelope s_e of the r links with the largest
// s_e/c_e by ‖L† b_e‖² from a solve.
func (p TraceWeightProblem) refine(sv interface {
	Solve(dst, b []float64) (laplacian.SolveResult, error)
}, s []float64, r int, b, x []float64) error {
	idx := make([]int, len(s))
	for i := range idx {
		idx[i] = i
	}
	r = min(r, len(s))
	slices.SortFunc(idx, func(a, c int) int {
		return cmp.Compare(s[c]/p.Links[c].Cost, s[a]/p.Links[a].Cost)
	})
	for _, i := range idx[:r] {
		clear(b)
		b[p.Links[i].U], b[p.Links[i].V] = 1, -1
		if _, err := sv.Solve(x, b); err != nil {
			return err
		}
		s[i] = dense.Dot(x, x) * (1 + 1e-4) // the solve's error: relative ≤ κ·Tol = 1e-4 for κ ≤ 10⁴ at Tol 1e-8
	}
	return nil
}

// sketchColumns solves L x_j = q_j for the k Gaussian columns q_j of
// the stream (seed, 3, j), in blocks of laplacian.MaxBlockCols columns
// (SolveBlock: the same solutions as column by column), and calls
// visit(j) with q and x holding q_j and x_j.
func sketchColumns(sv *laplacian.Solver, k int, seed uint64, q, x []float64, visit func(j int)) error {
	n := len(q)
	var b, xs *mat.Dense
	for c0 := 0; c0 < k; c0 += laplacian.MaxBlockCols {
		c := min(laplacian.MaxBlockCols, k-c0)
		if b == nil || b.RawMatrix().Cols != c {
			b, xs = mat.NewDense(n, c, nil), mat.NewDense(n, c, nil)
		}
		for j := range c {
			gaussian(q, seed, 3, c0+j)
			b.SetCol(j, q)
		}
		if _, err := sv.SolveBlock(xs, b); err != nil {
			return err
		}
		for j := range c {
			mat.Col(q, j, b)
			mat.Col(x, j, xs)
			visit(c0 + j)
		}
	}
	return nil
}
