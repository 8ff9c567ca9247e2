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
)

// minLinear returns min_{v∈S} gᵀv over the polytope S (every link at
// its lower bound, then the budget to the links in increasing order of
// g_e/c_e while g_e < 0, each up to its upper bound); −Inf when a
// negative g_e meets no bound.
func (p TraceWeightProblem) minLinear(g []float64, idx []int) float64 {
	return p.minVertex(g, idx, nil)
}

// minVertex is minLinear that also hands visit (when not nil) each link
// the minimising vertex raises above its lower bound, with the weight
// added (not called when the minimum is −Inf).
func (p TraceWeightProblem) minVertex(g []float64, idx []int, visit func(i int, add float64)) float64 {
	var val, spent float64
	for i, l := range p.Links {
		lo, _ := p.bounds(i)
		val += lo * g[i]
		spent += lo * l.Cost
	}
	rem := max(p.Budget-spent, 0)
	if p.Hi == nil {
		best, arg := 0.0, -1
		for i, l := range p.Links {
			if r := g[i] / l.Cost; r < best {
				best, arg = r, i
			}
		}
		if arg < 0 {
			return val
		}
		if visit != nil && !math.IsInf(rem, 1) {
			visit(arg, rem/p.Links[arg].Cost)
		}
		return val + rem*best // −Inf with an infinite budget
	}
	idx = idx[:0]
	for i := range g {
		if g[i] < 0 {
			idx = append(idx, i)
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Compare(g[a]/p.Links[a].Cost, g[b]/p.Links[b].Cost)
	})
	for _, i := range idx {
		if rem <= 0 {
			break
		}
		lo, hi := p.bounds(i)
		add := min(hi-lo, rem/p.Links[i].Cost)
		if math.IsInf(add, 1) {
			return math.Inf(-1)
		}
		if visit != nil {
			visit(i, add)
		}
		val += add * g[i]
		rem -= add * p.Links[i].Cost
	}
	return val
}

// rho2Bound returns the certificate of spec §13.14 at w,
//
//	max_{τ ≥ 0} τ a/γ + C₂ + min_{v∈S} Σ_e v_e (½γ t_e − τ² s_e/(2γ)),
//
// C₂ = ½ q2 − ½γ Σ_e w_e t_e, for lower bounds a, C₂, t and upper
// bounds s (c2 given) by golden-section search on the concave function
// of τ over [0, τ_max], τ_max = 4 (or the largest τ with a finite inner
// minimum when the budget is infinite: the least γ√(t_e/s_e) over the
// links without an upper bound). With gmax > 0 it bounds the
// optimum over every cycle in (0, gmax] instead: the inner minimum
// γ·m(τ) becomes min(0, gmax·m(τ)).
func (p TraceWeightProblem) rho2Bound(gamma, a, c2 float64, s, t []float64, gmax float64) float64 {
	g := make([]float64, len(s))
	idx := make([]int, 0, len(s))
	tmax := 4.0
	if math.IsInf(p.Budget, 1) {
		for i := range s {
			if _, hi := p.bounds(i); s[i] > 0 && math.IsInf(hi, 1) {
				tmax = min(tmax, gamma*math.Sqrt(t[i]/s[i]))
			}
		}
	}
	lb := func(tau float64) float64 {
		for i := range g {
			g[i] = 0.5*gamma*t[i] - tau*tau*s[i]/(2*gamma)
		}
		inner := p.minLinear(g, idx)
		if gmax > 0 {
			inner = min(0, gmax/gamma*inner)
		}
		return tau*a/gamma + c2 + inner
	}
	_, _, _, neg := solve.Golden(func(x float64) float64 { return -lb(x) }, 0, tmax, 1e-6*tmax)
	return max(-neg, lb(0), lb(tmax))
}

// c2Of returns C₂ = ½ q2 − ½γ Σ_e w_e t_e.
func c2Of(r rho2Parts, w []float64, gamma float64) float64 {
	return 0.5*r.q2 - 0.5*gamma*dense.Dot(w, r.t)
}

// rho2State is the state of the projected gradient on ρ₂.
type rho2State struct {
	p       TraceWeightProblem
	gamma   float64
	o       rho2Oracle
	w, g, c []float64 // iterate (the caller's slice), gradient and the trial's gradient
	spgStep
	y, dir, trial []float64
	stalls        int
}

// rho2SPG minimises the oracle's ρ₂ from w (updated in place) by
// spectral projected gradient until the oracle's own certified relative
// gap (spec §13.14) is Tol (Tol/4 on the sketched path). An unstable or
// disconnected start is errRho2Unstable. With a held-out guard h (the
// sketched path) w ends at the guarded iterate, and the value returned
// is the oracle's there.
func rho2SPG(p TraceWeightProblem, gamma float64, o rho2Oracle, w []float64, set ScaleDesignSettings, exact bool, h *holdout) (solve.Record, float64, error) {
	rec, f, err := rho2Iterate(p, gamma, o, w, set, exact, h)
	if h != nil && err == nil {
		f = h.restore(w, f)
	}
	return rec, f, err
}

// rho2Iterate runs rho2SPG's iterations and returns the value at the
// last iterate.
func rho2Iterate(p TraceWeightProblem, gamma float64, o rho2Oracle, w []float64, set ScaleDesignSettings, exact bool, h *holdout) (solve.Record, float64, error) {
	var rec solve.Record
	r, ok, err := o.eval(w)
	rec.Evals++
	if err != nil {
		return rec, 0, err
	}
	if !ok {
		return rec, 0, errRho2Unstable
	}
	if h != nil {
		if _, err := h.observe(w, r.value(gamma)); err != nil {
			return rec, 0, err
		}
	}
	m := len(w)
	st := &rho2State{p: p, gamma: gamma, o: o, w: w, g: make([]float64, m), c: make([]float64, m),
		spgStep: spgStep{f: r.value(gamma), hist: []float64{r.value(gamma)}},
		y:       make([]float64, m), dir: make([]float64, m), trial: make([]float64, m)}
	r.grad(st.g, gamma)
	var gmax float64
	for _, x := range st.g {
		gmax = max(gmax, math.Abs(x))
	}
	st.alpha = 0.1 * slices.Max(w) / max(gmax, math.SmallestNonzeroFloat64)
	tol := set.Tol
	if !exact {
		tol /= 4
	}
	for rec.Iter = 0; rec.Iter < set.MaxIter; rec.Iter++ {
		if st.f-p.rho2Bound(gamma, r.a, c2Of(r, w, gamma), r.s, r.t, 0) <= tol*st.f {
			rec.Stop(loadlab.Success)
			return rec, st.f, nil
		}
		next, done, err := st.step(&rec)
		if err != nil || done {
			return rec, st.f, err
		}
		if next.s == nil { // a stalled step evaluates nothing
			continue
		}
		r = next
		if h != nil {
			if stop, err := h.observe(w, st.f); err != nil || stop {
				rec.Stop(loadlab.Success) // converged at the sketch's resolution
				return rec, st.f, err
			}
		}
	}
	rec.Stop(loadlab.IterationLimit)
	return rec, st.f, nil
}

// step takes one projected-gradient step and returns the parts at the
// new iterate; done reports a stop (its status in rec).
func (st *rho2State) step(rec *solve.Record) (r rho2Parts, done bool, err error) {
	for i := range st.y {
		st.y[i] = st.w[i] - st.alpha*st.g[i]
	}
	st.p.project(st.dir, st.y)
	var gd float64
	for i := range st.dir {
		st.dir[i] -= st.w[i]
		gd += st.g[i] * st.dir[i]
	}
	if gd >= 0 {
		if st.stalls++; st.stalls > 40 {
			return r, rec.Stop(loadlab.Stagnated), nil
		}
		st.alpha = min(st.alpha*10, 1e30)
		return r, false, nil
	}
	st.stalls = 0
	var evalErr error
	ls := solve.Armijo{}.Search(slices.Max(st.hist), func(t float64) (float64, float64, bool) {
		for i := range st.trial {
			st.trial[i] = st.w[i] + t*st.dir[i]
		}
		rt, ok, err := st.o.eval(st.trial)
		if err != nil {
			evalErr = err
			return math.NaN(), 0, false
		}
		if !ok {
			return math.NaN(), 0, false
		}
		r = rt
		return rt.value(st.gamma), -t * gd, true
	})
	rec.Evals += ls.Trials
	if evalErr != nil {
		return r, true, evalErr
	}
	if ls.Status != loadlab.Success {
		return r, rec.Stop(ls.Status), nil
	}
	r.grad(st.c, st.gamma)
	var ss, sy float64
	for i := range st.w {
		di := st.trial[i] - st.w[i]
		ss += di * di
		sy += di * (st.c[i] - st.g[i])
		st.w[i] = st.trial[i]
		st.g[i] = st.c[i]
	}
	st.advance(ls.F, ss, sy)
	return r, false, nil
}

// rho2Certify fills d's value, stability bracket and certificate at w
// (spec §13.14): exactly on the dense path; on the sketched path from a
// fresh sketch of k Gaussian columns (k from estimate.SketchProjections
// for ε and δ/(2m): the envelopes of s and t for every link at once),
// the 95 % intervals of ρ₂, a and C₂ from the same columns, and exact
// solves for the Refine links with the largest s envelope.
func rho2Certify(p TraceWeightProblem, gamma float64, o rho2Oracle, w []float64, set ScaleDesignSettings, seed uint64, gmax float64, d *Rho2WeightDesign) error {
	br, err := stableBracket(d.Graph, gamma, seed)
	if err != nil {
		return err
	}
	d.LambdaMax = br
	if d.Exact {
		r, ok, _ := o.eval(w)
		if !ok {
			return loadlab.Wrap(loadlab.ErrUnstable, "consensus", "DesignRho2AtScale: the design is not stable")
		}
		f := r.value(gamma)
		lower := min(p.rho2Bound(gamma, r.a, c2Of(r, w, gamma), r.s, r.t, gmax), f)
		d.Value = loadlab.Estimate{Mean: f, Lo: f, Hi: f}
		d.Lower, d.Gap, d.Confidence = lower, f-lower, 1
		return nil
	}
	if !(br.Hi < 2/gamma) {
		return loadlab.Wrap(loadlab.ErrUnstable, "consensus", "DesignRho2AtScale: the design's λ_n is not certified below 2/γ (bracket [%g, %g])", br.Lo, br.Hi)
	}
	return rho2SketchCertify(p, gamma, w, set, seed, gmax, d)
}

// rho2SketchCertify is the sketched path of rho2Certify.
func rho2SketchCertify(p TraceWeightProblem, gamma float64, w []float64, set ScaleDesignSettings, seed uint64, gmax float64, d *Rho2WeightDesign) error {
	m, n := len(p.Links), p.Nodes
	k, err := estimate.SketchProjections(1, &estimate.SketchSettings{Eps: set.Eps, Miss: set.Miss / float64(2*m)})
	if err != nil {
		return err
	}
	if err := size.Check("consensus", "certificate sketch blocks (2·16 columns × Nodes)", (2*laplacian.MaxBlockCols+6)*n, 8); err != nil {
		return err
	}
	solver := set.solverSettings()
	sv, err := laplacian.NewSolver(d.Graph, &solver, loadlab.Stream(seed, 4))
	if err != nil {
		return err
	}
	op := laplacian.NewOperator(d.Graph)
	cg := rho2CG(op, gamma, solver.Tol)
	s, t := make([]float64, m), make([]float64, m)
	vals, avals, cvals := make([]float64, k), make([]float64, k), make([]float64, k)
	q, x, y, ly := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	err = sketchColumns(sv, k, seed, q, x, func(j int) {
		if err != nil {
			return
		}
		if _, err = cg.solve(y, q); err != nil {
			return
		}
		op.Apply(ly, y)
		a, q2 := dense.Dot(q, x), dense.Dot(q, y)
		avals[j], cvals[j] = a, 0.5*q2-0.5*gamma*dense.Dot(y, ly)
		vals[j] = 0.5 * (a/gamma + q2)
		accumulateEdges(s, p.Links, x)
		accumulateEdges(t, p.Links, y)
	})
	if err != nil {
		return err
	}
	rho2Envelope(s, t, k, set.Eps)
	if err := p.refine(sv, s, set.Refine, q, x); err != nil {
		return err
	}
	d.Solves += k + min(set.Refine, m)
	d.ShiftedSolves += k
	d.SketchColumns = k
	d.Value = mc.Estimate(vals)
	lower := p.rho2Bound(gamma, mc.Estimate(avals).Lo, mc.Estimate(cvals).Lo, s, t, gmax)
	d.Lower = min(lower, d.Value.Hi)
	d.Gap = d.Value.Hi - d.Lower
	d.Confidence = 1 - set.Miss - 0.075
	return nil
}
