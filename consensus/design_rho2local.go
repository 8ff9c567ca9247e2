package consensus

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/internal/solve"
	"github.com/loadlab/loadlab/wgraph"
)

// The local path of the ρ₂ designs (spec §13.14, "Local path"):
// multiplicative updates from local Chebyshev moments, certified by the
// polynomial certificate of design_rho2poly.go.

// rho2LocalStep is the damping exponent θ of the local path's
// multiplicative update, and rho2LocalPatience the iterations in a row
// without the certificate rising by Tol/50 after which it stops (near
// the optimum ρ₂ is flat while the certificate is still first order in
// the distance from it, spec §13.12).
const (
	rho2LocalStep     = 0.5
	rho2LocalPatience = 3
)

// rho2LocalIterate runs the local path's multiplicative updates (spec
// §13.14, "Local path") from w (updated in place): at each iterate the
// moments of L(w) at degree h give s_e ≈ ‖L†b_e‖², t_e ≈ ‖Qb_e‖², the
// moments' estimate f of ρ₂ and the polynomial certificate, and
//
//	w_e ← clip(w_e · [(s_e/γ) / (γt_e + 2νc_e)]^θ),
//
// ν ≥ 0 the least that keeps the budget (the KKT conditions of ρ₂ over
// the polytope are the fixed points). A step that raises f by more than
// Tol/100 (f moves by the interval's refit near the optimum), or whose
// iterate is not certified stable, is pulled halfway back and θ halved
// (the overall scale can oscillate when the budget does not bind). It
// stops when the certificate is within Tol/4 of f, when the certificate
// has not risen by Tol/50 in rho2LocalPatience accepted steps, when θ
// falls below 1/64, or at MaxIter. It returns the record, f at w and the
// best certificate met (over the cycle gamma only).
func (p TraceWeightProblem) rho2LocalIterate(gamma float64, w []float64, h int, set ScaleDesignSettings, seed uint64) (solve.Record, float64, float64, error) {
	var rec solve.Record
	m := len(w)
	st := rho2LocalState{p: p, gamma: gamma, h: h, seed: seed, s: make([]float64, m), t: make([]float64, m)}
	acc, s, t := slices.Clone(w), make([]float64, m), make([]float64, m)
	fAcc, lower, prevLower, still, theta := math.Inf(1), 0.0, 0.0, 0, rho2LocalStep
	for {
		rec.Evals++
		f, mom, tt, err := st.at(w)
		if err != nil {
			return rec, fAcc, lower, err
		}
		if math.IsInf(f, 1) || !(f <= fAcc*(1+set.Tol/100)) { // unstable or uphill beyond the moments' noise
			if rec.Iter == 0 {
				return rec, fAcc, lower, errRho2Unstable
			}
			if theta /= 2; theta < 1.0/64 {
				copy(w, acc)
				rec.Status = loadlab.Stagnated
				return rec, fAcc, lower, nil
			}
			for i := range w {
				w[i] = (w[i] + acc[i]) / 2
			}
			continue
		}
		copy(acc, w)
		copy(s, st.s)
		copy(t, st.t)
		fAcc = f
		lower = max(lower, p.rho2PolyBound(mom, tt, w, gamma, 0))
		if lower-prevLower <= set.Tol/50*lower {
			still++
		} else {
			still = 0
		}
		switch {
		case f-lower <= set.Tol/4*f || still >= rho2LocalPatience:
			rec.Status = loadlab.Success
			return rec, f, lower, nil
		case rec.Iter >= set.MaxIter:
			rec.Status = loadlab.IterationLimit
			return rec, f, lower, nil
		}
		prevLower = lower
		p.rho2Multiplicative(w, s, t, gamma, theta)
		rec.Iter++
	}
}

// rho2LocalState evaluates the local path's iterates.
type rho2LocalState struct {
	p     TraceWeightProblem
	gamma float64
	h     int
	seed  uint64
	s, t  []float64 // the last iterate's s_e and t_e
}

// at returns the moments' estimate f of ρ₂ at w (+Inf when L(w) is
// disconnected or not certified stable at γ), the moments and traces,
// and sets s and t.
func (st *rho2LocalState) at(w []float64) (float64, *linkMoments, []float64, error) {
	g := st.p.graph(w)
	if !wgraph.IsConnected(g) {
		return math.Inf(1), nil, nil, nil
	}
	br, err := stableBracket(g, st.gamma, st.seed)
	if err != nil || !(br.Hi < 2/st.gamma) {
		return math.Inf(1), nil, nil, err
	}
	pl, err := newLocalPlan(g, st.h)
	if err != nil {
		return 0, nil, nil, err
	}
	mom, tt, err := st.p.rho2Local(g, pl.upTo(br.Hi))
	if err != nil {
		return 0, nil, nil, err
	}
	return st.p.rho2LocalParts(mom, tt, w, st.gamma, st.s, st.t), mom, tt, nil
}

// rho2LocalParts sets s_e = ‖p(L)b_e‖² and t_e = ‖q(L)b_e‖² (p, q the
// interpolants of 1/λ and 1/(2 − γλ) on the moments' interval) and
// returns ½[Σ_{i≥2} p(λ_i)/γ + Σ_{i≥2} q(λ_i)], the moments' estimate
// of ρ₂.
func (p TraceWeightProblem) rho2LocalParts(mom *linkMoments, tt, w []float64, gamma float64, s, t []float64) float64 {
	pl := mom.plan
	q := kpm.Interp(func(x float64) float64 { return 1 / (2 - gamma*x) }, pl.a, pl.b, pl.h)
	mom.quads(quadCoef(pl.inv), w, s)
	mom.quads(quadCoef(q), w, t)
	h := pl.h
	return 0.5 * (dense.Dot(pl.inv, tt[:h+1])/gamma + dense.Dot(q, tt[:h+1]))
}

// rho2Multiplicative applies the damped multiplicative update to w, ν
// found by bisection when ν = 0 overspends the budget.
func (p TraceWeightProblem) rho2Multiplicative(w, s, t []float64, gamma, theta float64) {
	next := make([]float64, len(w))
	spend := func(nu float64) float64 {
		var cw float64
		for i, l := range p.Links {
			lo, hi := p.bounds(i)
			r := (s[i] / gamma) / (gamma*t[i] + 2*nu*l.Cost)
			next[i] = min(max(w[i]*math.Pow(max(r, 0), theta), lo), hi)
			cw += l.Cost * next[i]
		}
		return cw
	}
	if spend(0) > p.Budget {
		hi := 1.0
		for spend(hi) > p.Budget && hi < 1e300 {
			hi *= 2
		}
		spend(p.budgetRoot(spend, hi))
	}
	copy(w, next)
}

// upTo returns the plan on [a, min(b, hi)] (a tighter upper end of the
// spectrum: a certified Lanczos bracket's).
func (pl localPlan) upTo(hi float64) localPlan {
	if !(hi < pl.b) || !(hi > pl.a) {
		return pl
	}
	pl.b = hi
	pl.basis = kpm.NewBasis(pl.a, pl.b)
	pl.inv = kpm.Interp(func(x float64) float64 { return 1 / x }, pl.a, pl.b, pl.h)
	return pl
}

// rho2LocalPlan returns the depth of the local path at the start w, or
// 0 when it does not run (the sketched path does): it runs when forced
// or when its polynomials fit (spec §13.12's rule).
func rho2LocalPlan(p TraceWeightProblem, w []float64, set ScaleDesignSettings) (int, error) {
	if set.Sketch {
		return 0, nil
	}
	pl, err := newLocalPlan(p.graph(w), set.Depth)
	if err != nil {
		return 0, err
	}
	if !set.Local && !pl.fits() {
		return 0, nil
	}
	return pl.h, nil
}

// rho2LocalCertify fills d's value and the polynomial certificate at w
// of degree h (the iterations' own at the given cycle, d.Lower on entry;
// computed here over every cycle up to gmax > 0); without a set Depth, a
// gap above Tol is certified again one degree deeper while the balls
// stay within localWorkMax (spec §13.14, "Local path"). The value is exact up to DenseMax nodes (the
// local path forced there), else estimateH2's ρ₂ at RelAcc Tol/8 with
// its 95 % interval; the λ_n bracket is certified against 2/γ.
func rho2LocalCertify(p TraceWeightProblem, gamma float64, w []float64, h int, set ScaleDesignSettings, seed uint64, gmax float64, d *Rho2WeightDesign) error {
	if err := rho2LocalValue(p, gamma, w, set, seed, d); err != nil {
		return err
	}
	maxH := h
	if set.Depth == 0 {
		maxH = max(h, kpm.Depth(d.Graph, localWorkMax, localMaxDepth))
	}
	d.Depth = h
	if gmax == 0 { // d.Lower is the iterations' certificate at degree h already
		d.Lower = min(d.Lower, d.Value.Hi)
		if d.Gap = d.Value.Hi - d.Lower; d.Gap <= set.Tol*d.Value.Hi || h >= maxH {
			return nil
		}
		h++
	}
	for ; ; h++ {
		pl, err := newLocalPlan(d.Graph, h)
		if err != nil {
			return err
		}
		mom, tt, err := p.rho2Local(d.Graph, pl.upTo(d.LambdaMax.Hi))
		if err != nil {
			return err
		}
		d.Depth = h
		d.Lower = min(max(d.Lower, p.rho2PolyBound(mom, tt, w, gamma, gmax)), d.Value.Hi)
		d.Gap = d.Value.Hi - d.Lower
		if d.Gap <= set.Tol*d.Value.Hi || h >= maxH {
			return nil
		}
	}
}

// rho2NoOracle stands for the oracle of the local path, which counts no
// solves.
type rho2NoOracle struct{}

func (rho2NoOracle) eval([]float64) (rho2Parts, bool, error) { return rho2Parts{}, false, nil }
func (rho2NoOracle) solves() int                             { return 0 }
func (rho2NoOracle) shiftedSolves() int                      { return 0 }

// rho2LocalValue sets the local path's value, stability bracket and
// confidence (see rho2LocalCertify).
func rho2LocalValue(p TraceWeightProblem, gamma float64, w []float64, set ScaleDesignSettings, seed uint64, d *Rho2WeightDesign) error {
	d.Local = true
	if p.Nodes <= set.DenseMax {
		br, err := stableBracket(d.Graph, gamma, seed)
		if err != nil {
			return err
		}
		r, ok, err := newDenseRho2Oracle(p, gamma).eval(w)
		if err != nil {
			return err
		}
		if !ok || !(br.Hi < 2/gamma) {
			return loadlab.Wrap(loadlab.ErrUnstable, "consensus", "DesignRho2AtScale: the design's λ_n is not certified below 2/γ (bracket [%g, %g])", br.Lo, br.Hi)
		}
		f := r.value(gamma)
		d.Value, d.LambdaMax, d.Confidence = loadlab.Estimate{Mean: f, Lo: f, Hi: f}, br, 1
		return nil
	}
	ts := &estimate.TraceSettings{RelAcc: set.Tol / 8, Solver: set.Solver}
	e, err := estimateH2(d.Graph, gamma, ts, rand.New(loadlab.Stream(seed, 6)))
	if err != nil {
		return err
	}
	d.Value, d.LambdaMax, d.Confidence = e.Rho2, e.LambdaMax, 0.95
	d.Solves += e.Solves
	return nil
}
