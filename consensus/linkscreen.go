package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// screenCV is the control variate of the screening sketches (spec
// §13.13, "Screening control variate"): with Q the Rademacher rows of
// Z = Q L_k† and p(L) the Chebyshev interpolant of 1/λ of the input
// graph (§13.12, "Local path"), a candidate's
//
//	‖L_k†b‖² ≈ ‖Zb‖² + (‖p(L)b‖² − ‖Q p(L) b‖²),
//	R = bᵀL_k†b ≈ (Qb)ᵀ(Zb) + (bᵀp(L)b − (Qb)ᵀ(Q p(L) b)),
//
// both unbiased, the bracketed corrections fixed per candidate (exact
// parts from its local moments, sketched parts from Q p(L), which is
// formed once and dropped). The ρ₂ sketches of Q_k get the same with
// q(L), the interpolant of 1/(2 − γλ) (rhoSketch.cq, cb).
type screenCV struct {
	pl    localPlan
	m     int
	qs    []float64 // Q, node-major n × m (Rademacher/√m): Z's rows
	pnorm []float64 // ‖p(L)b_e‖ per candidate (also the certificate's, linkCV)
	cz    []float32 // ‖p(L)b_e‖² − ‖Q p(L)b_e‖²
	cr    []float32 // b_eᵀp(L)b_e − (Qb_e)ᵀ(Q p(L)b_e)
	mu    []float32 // the candidates' moments μ_0..μ_2H (LinkRho2Star: each re-tune's q)
}

// screenCVOff switches the screening control variate off (for the
// tests' and the benchmarks' comparison).
var screenCVOff bool

// screenPlan returns the local plan of the input graph g and whether
// the screening control variate applies there: by the certificate's
// rule (linkCVWork, linkCVRate), so not on tori or grids.
func screenPlan(g *wgraph.Graph) (localPlan, bool, error) {
	if screenCVOff {
		return localPlan{}, false, nil
	}
	pl, err := newLocalPlan(g, kpm.Depth(g, linkCVWork, localMaxDepth))
	if err != nil {
		return pl, false, err
	}
	return pl, pl.h >= 2 && pl.rate() <= linkCVRate, nil
}

// cvTarget is one sketch and polynomial of the screening control
// variate: the Rademacher rows s (node-major, m columns) and the
// coefficients f of a polynomial in the plan's basis. The moments' pass
// and the sketch pass (sf = S f(L), formed for it and dropped) set
// norm_e = ‖f(L)b‖² − ‖S f(L)b‖² and quad_e = bᵀf(L)b − (Sb)ᵀ(S f(L)b).
type cvTarget struct {
	s, f, d, sf []float64
	norm, quad  []float32
}

func newCVTarget(s, f []float64, count int) *cvTarget {
	return &cvTarget{s: s, f: f, d: quadCoef(f), norm: make([]float32, count), quad: make([]float32, count)}
}

// exact stores candidate i's exact parts ‖f(L)b‖² and bᵀf(L)b from its
// moments mu in norm and quad and returns the first (spec §13.13:
// bᵀT_j T_k b = (μ_{j+k} + μ_{|j−k|})/2).
func (t *cvTarget) exact(i int, mu []float64) float64 {
	var fn2, fq float64
	for k, x := range mu {
		fn2 += t.d[k] * x
		if k < len(t.f) {
			fq += t.f[k] * x
		}
	}
	fn2 = max(fn2, 0)
	t.norm[i], t.quad[i] = float32(fn2), float32(fq)
	return fn2
}

// sketch subtracts candidate i's sketched parts ‖S f(L)b‖² and
// (Sb)ᵀ(S f(L)b) from its exact parts.
func (t *cvTarget) sketch(i, u, v, m int) {
	var pn, cross float64
	su, sv, fu, fv := t.s[u*m:(u+1)*m], t.s[v*m:(v+1)*m], t.sf[u*m:(u+1)*m], t.sf[v*m:(v+1)*m]
	for j := range m {
		a := fu[j] - fv[j]
		pn += a * a
		cross += (su[j] - sv[j]) * a
	}
	t.norm[i], t.quad[i] = float32(float64(t.norm[i])-pn), float32(float64(t.quad[i])-cross)
}

// sketchPass forms S f(L) of the target t and runs sketch for every
// candidate, in the candidates' order (the moments' pass visits them in
// the order of the renumbered graph, where the sketch's rows would be
// read at random), then drops S f(L).
func (r *linkRun) sketchPass(t *cvTarget) {
	m := r.scv.m
	t.sf = applyPoly(r.g, r.scv.pl.basis, t.f, t.s, m)
	par.Range(len(r.cands), 4096, 256, 0, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			c := r.cands[i]
			t.sketch(i, c.U, c.V, m)
		}
	})
	t.sf = nil
}

// startScreenCV builds the screening control variate when r.scv holds
// its plan and Q (startSketch): one pass of local moments over the
// candidates for p(L) (and q(L) at LinkRho2's γ), keeping the moments
// for LinkRho2Star, whose cycles' q(L) change at each re-tune.
func (r *linkRun) startScreenCV() error {
	cv := r.scv
	if cv == nil {
		return nil
	}
	nc, k1 := len(r.cands), 2*cv.pl.h+1
	// ‖p(L)b‖ (8 bytes) and two corrections (4 each), two more for LinkRho2
	if err := size.Check("consensus", "AddLinks: screening control variate", nc, 24); err != nil {
		return err
	}
	if r.star != nil {
		if err := size.Check("consensus", "AddLinks: candidates' moments", nc, 4*k1); err != nil {
			return err
		}
		cv.mu = make([]float32, nc*k1)
	}
	mc, err := newMomentCtx(r.g)
	if err != nil {
		return err
	}
	pt := newCVTarget(cv.qs, cv.pl.inv, nc)
	var qt *cvTarget
	if r.rho != nil {
		if f := qCoef(cv.pl, r.rho.gamma, r.rho.lmax.Hi); f != nil {
			qt = newCVTarget(r.rho.s, f, nc)
		}
	}
	cv.pnorm = make([]float64, nc)
	mc.pairs(cv.pl, nc, func(i int) (int, int) { return r.cands[i].U, r.cands[i].V }, func(i int, mu []float64) {
		cv.pnorm[i] = math.Sqrt(pt.exact(i, mu))
		if qt != nil {
			qt.exact(i, mu)
		}
		if cv.mu != nil {
			for k, x := range mu {
				cv.mu[i*k1+k] = float32(x)
			}
		}
	})
	r.sketchPass(pt)
	cv.cz, cv.cr = pt.norm, pt.quad
	if qt != nil {
		r.sketchPass(qt)
		r.rho.cq, r.rho.cb = qt.norm, qt.quad
	}
	if r.star != nil {
		for _, rs := range r.star.cycles {
			r.cycleCV(rs)
		}
	}
	return nil
}

// cycleCV sets the corrections of the ρ₂ sketch rs of a LinkRho2Star
// cycle from the stored moments (none when q(L) does not fit there).
func (r *linkRun) cycleCV(rs *rhoSketch) {
	cv := r.scv
	if rs == nil || cv == nil || cv.mu == nil {
		return
	}
	f := qCoef(cv.pl, rs.gamma, rs.lmax.Hi)
	if f == nil {
		return
	}
	nc, k1 := len(r.cands), 2*cv.pl.h+1
	t := newCVTarget(rs.s, f, nc)
	par.Range(nc, 4096, 256, 0, func(lo, hi int) {
		mu := make([]float64, k1)
		for i := lo; i < hi; i++ {
			for k := range mu {
				mu[k] = float64(cv.mu[i*k1+k])
			}
			t.exact(i, mu)
		}
	})
	r.sketchPass(t)
	rs.cq, rs.cb = t.norm, t.quad
}

// qCoef returns the coefficients, in the basis of pl, of q, the
// Chebyshev interpolant of degree pl.h of 1/(2 − γλ) on [pl.a, hi],
// hi = min(pl.b, lmaxHi) ⊇ the spectrum's upper part (re-expressed on
// [pl.a, pl.b] by interpolating q itself at that interval's points,
// exact for a polynomial of degree pl.h); nil when the pole 2/γ lies
// so near hi that the rate ρ^(−h), ρ = x + √(x² − 1) with x the pole's
// place on the interval's scale, exceeds linkCVRate (spec §13.16,
// "Screening control variate").
func qCoef(pl localPlan, gamma, lmaxHi float64) []float64 {
	hi := min(pl.b, lmaxHi)
	pole := 2 / gamma
	if !(hi > pl.a) || !(pole > hi) {
		return nil
	}
	x := (2*pole - pl.a - hi) / (hi - pl.a)
	if math.Pow(x+math.Sqrt(x*x-1), -float64(pl.h)) > linkCVRate {
		return nil
	}
	q0 := kpm.Interp(func(l float64) float64 { return 1 / (2 - gamma*l) }, pl.a, hi, pl.h)
	b0 := kpm.NewBasis(pl.a, hi)
	return kpm.Interp(func(l float64) float64 {
		var v float64
		for k, t := range kpm.T(pl.h, b0.C1*l+b0.C0) {
			v += q0[k] * t
		}
		return v
	}, pl.a, pl.b, pl.h)
}

// applyPoly returns f(L) G for the node-major n × cols block gd, f of
// Chebyshev coefficients coef in the basis bs, column by column
// (kpm.Apply: len(coef) − 1 products with L each), each worker with
// its own workspace.
func applyPoly(g *wgraph.Graph, bs kpm.Basis, coef, gd []float64, cols int) []float64 {
	n := g.Order()
	pg := make([]float64, n*cols)
	workers := min(par.Workers(0), cols)
	type buf struct {
		w       *kpm.Work
		col, pc []float64
	}
	bufs := make(chan buf, workers)
	for range workers {
		bufs <- buf{kpm.NewWork(n), make([]float64, n), make([]float64, n)}
	}
	cs := [][]float64{coef}
	par.For(cols, workers, func(j int) {
		b := <-bufs
		for i := range n {
			b.col[i] = gd[i*cols+j]
		}
		kpm.Apply([][]float64{b.pc}, cs, b.col, bs, g.LaplacianMulVec, b.w)
		for i, x := range b.pc {
			pg[i*cols+j] = x
		}
		bufs <- b
	})
	return pg
}

// screenQuad returns (Qb)ᵀ(Zb) for the candidate's rows of Q and zb =
// Z b (the sketched part of R on the control-variate path).
func (cv *screenCV) screenQuad(u, v int, zb []float64) float64 {
	m := cv.m
	qu, qv := cv.qs[u*m:(u+1)*m], cv.qs[v*m:(v+1)*m]
	var s float64
	for j, z := range zb[:m] {
		s += (qu[j] - qv[j]) * z
	}
	return s
}

// certCV returns the certificate's control variate from the screening's
// moments (the same plan and ‖p(L)b_e‖, no second pass).
func (cv *screenCV) certCV() *linkCV {
	return &linkCV{pl: cv.pl, pnorm: cv.pnorm}
}

// dropScreen releases the screening's control variate but for what the
// certificate reuses (the plan and ‖p(L)b_e‖).
func (r *linkRun) dropScreen() {
	if cv := r.scv; cv != nil {
		cv.qs, cv.cz, cv.cr, cv.mu = nil, nil, nil, nil
	}
}
