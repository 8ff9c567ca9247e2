package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/solve"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// The polynomial certificate of ρ₂ (spec §13.14, "Polynomial
// certificate"): with X = p(L)², Y = q(L)² on 1⊥ for polynomials p =
// Σ c_k T_k(S), q = Σ d_k T_k(S) of degree h of the design's L = L(w),
//
//	ρ₂* ≥ ½[2α cᵀt/γ + 2β dᵀt − 2β² dᵀT₂d + min_{v∈S} Σ_e v_e(γβ² y_e − α² x_e/γ)]
//
// for all α, β ≥ 0, with x_e = cᵀG_e c, y_e = dᵀG_e d, t_k = Σ_{i≥2}
// T_k(λ_i) and T₂,jk = (t_{j+k} + t_{|j−k|})/2: every term exact from
// the local moments. With r = α²/β² the best β is closed-form and the
// bound is ½K(r)²/D(r), K = √r cᵀt/γ + dᵀt, D = 2dᵀT₂d − M(r), M(r) =
// min_{v∈S} Σ_e v_e(γy_e − r x_e/γ), quasi-concave in r. (c, d) come
// from Frank–Wolfe on φ(v) = ½[tᵀG(v)⁻¹t/γ + tᵀ(2T₂ − γG(v))⁻¹t], the
// polynomial dual's value at fixed v (convex in v, +Inf where 2T₂ −
// γG(v) is not positive definite), c = G(v)⁻¹t and d = (2T₂ −
// γG(v))⁻¹t at each iterate.

// rho2PolyRMax is the largest r = α²/β² searched when the polytope is
// bounded (the Frank–Wolfe iterates' own scaling is r = 1).
const rho2PolyRMax = 16

// rho2PolyBound returns the best polynomial certificate of ρ₂ at cycle
// gamma over localFWIter Frank–Wolfe iterations from v = w (each at the
// iterate's own scaling r = 1, the best one then at its best r), where the
// moments mom are those of L(w) and tt holds t_0..t_{2h} (with gmax > 0,
// the bound over every cycle up to gmax). It returns 0 when no iterate
// gives a positive bound.
func (p TraceWeightProblem) rho2PolyBound(mom *linkMoments, tt []float64, w []float64, gamma, gmax float64) float64 {
	h := mom.h
	fw := &rho2FW{p: p, mom: mom, t: tt[:h+1], gamma: gamma, t2: polyGram(tt, h)}
	x, y, grad := make([]float64, len(w)), make([]float64, len(w)), make([]float64, len(w))
	idx := make([]int, 0, len(w))
	var best float64
	var bestC, bestD []float64
	mom.frankWolfe(w, p.Lo, func(mv []float64) func(visit func(int, float64)) bool {
		c, d, phi, ok := fw.duals(mv)
		if !ok {
			return nil
		}
		mom.quads(quadCoef(c), w, x)
		mom.quads(quadCoef(d), w, y)
		if b := fw.scaled(c, d, x, y, idx, gmax); b > best {
			best, bestC, bestD = b, c, d
		}
		if phi-best <= localFWGap*phi {
			return nil
		}
		for i := range grad { // ∂φ/∂v_e, up to the factor ½
			grad[i] = gamma*y[i] - x[i]/gamma
		}
		return func(visit func(int, float64)) bool {
			return !math.IsInf(p.minVertex(grad, idx, visit), -1) // unbounded: no vertex to step to
		}
	}, func(mv []float64) float64 {
		_, _, f, ok := fw.duals(mv)
		if !ok {
			return math.Inf(1)
		}
		return f
	})
	if bestC == nil {
		return best
	}
	mom.quads(quadCoef(bestC), w, x)
	mom.quads(quadCoef(bestD), w, y)
	return max(best, fw.bound(bestC, bestD, x, y, idx, gmax))
}

// rho2FW is the data of the polynomial certificate of ρ₂.
type rho2FW struct {
	p     TraceWeightProblem
	mom   *linkMoments
	t     []float64     // t_0..t_h
	t2    *mat.SymDense // T₂
	gamma float64
}

// polyGram returns T₂,jk = (t_{j+k} + t_{|j−k|})/2, j, k ≤ h: the Gram
// matrix of T_0..T_h under the spectral measure of L on 1⊥.
func polyGram(tt []float64, h int) *mat.SymDense {
	g := mat.NewSymDense(h+1, nil)
	for j := 0; j <= h; j++ {
		for k := j; k <= h; k++ {
			g.SetSym(j, k, (tt[j+k]+tt[k-j])/2)
		}
	}
	return g
}

// duals returns c = G⁻¹t, d = (2T₂ − γG)⁻¹t and φ for G built from the
// aggregated moments mv; ok is false where either matrix is not
// numerically positive definite.
func (f *rho2FW) duals(mv []float64) (c, d []float64, phi float64, ok bool) {
	c, phiX, ok := polyDual(mv, f.t)
	if !ok {
		return nil, nil, 0, false
	}
	d, phiY, ok := hankelSolve(mv, f.t, -f.gamma, f.t2, 2) // 2T₂ − γG
	if !ok {
		return nil, nil, 0, false
	}
	return c, d, 0.5 * (phiX/f.gamma + phiY), true
}

// rho2Scale is the data of a certificate's scaling: g_e = ky·y_e −
// r·kx·x_e, K = √r·kx·cᵀt + dᵀt, D = 2dᵀT₂d − M(r).
type rho2Scale struct {
	ax, ay, by, kx, ky, rmax float64
}

// scale returns the scaling data of (c, d) (see bound).
func (f *rho2FW) scale(c, d, x, y []float64, gmax float64) rho2Scale {
	var t2d mat.VecDense
	t2d.MulVec(f.t2, mat.NewVecDense(len(d), d))
	sc := rho2Scale{ax: dense.Dot(c, f.t), ay: dense.Dot(d, f.t), by: dense.Dot(d, t2d.RawVector().Data),
		ky: f.gamma, kx: 1 / f.gamma, rmax: rho2PolyRMax}
	if gmax > 0 {
		sc.ky, sc.kx, sc.rmax = 1, 1, rho2PolyRMax/(f.gamma*f.gamma)
	}
	if math.IsInf(f.p.Budget, 1) {
		for i := range x {
			if _, hi := f.p.bounds(i); x[i] > 0 && math.IsInf(hi, 1) {
				sc.rmax = min(sc.rmax, sc.ky*y[i]/(sc.kx*x[i]))
			}
		}
	}
	return sc
}

// at returns the certificate ½K(r)²/D(r) (0 where K or D is not
// positive), g scratch of the links' length.
func (f *rho2FW) at(sc rho2Scale, x, y, g []float64, idx []int, gmax, r float64) float64 {
	for i := range g {
		g[i] = sc.ky*y[i] - r*sc.kx*x[i]
	}
	k := math.Sqrt(r)*sc.kx*sc.ax + sc.ay
	mr := f.p.minLinear(g, idx)
	if gmax > 0 {
		mr = min(0, gmax*mr)
	}
	den := 2*sc.by - mr
	if !(k > 0) || !(den > 0) || math.IsInf(den, 1) {
		return 0
	}
	return 0.5 * k * k / den
}

// scaled returns the certificate of (c, d) at the iterate's own
// scaling: r = 1 at the cycle (α = β = 1), r = 1/γ² over the cycles,
// capped at r_max.
func (f *rho2FW) scaled(c, d, x, y []float64, idx []int, gmax float64) float64 {
	sc := f.scale(c, d, x, y, gmax)
	r := min(1/(sc.kx*sc.kx*f.gamma*f.gamma), sc.rmax)
	return f.at(sc, x, y, make([]float64, len(x)), idx, gmax, r)
}

// bound returns the certificate of (c, d) at its best scaling: the
// golden-section maximum of ½K(r)²/D(r) over r ∈ [0, r_max], r_max =
// rho2PolyRMax (or the largest r at which M(r) is finite when the
// polytope is unbounded in a link with γy_e − r x_e/γ < 0). With gmax > 0
// it bounds the optimum over every cycle in (0, gmax] instead (spec
// §13.14): X scaled by γ'² at cycle γ', K = √r cᵀt + dᵀt, D = 2dᵀT₂d −
// min(0, gmax·min_{v∈S} Σ_e v_e(y_e − r x_e)), r searched up to
// rho2PolyRMax/γ².
func (f *rho2FW) bound(c, d, x, y []float64, idx []int, gmax float64) float64 {
	sc := f.scale(c, d, x, y, gmax)
	g := make([]float64, len(x))
	val := func(r float64) float64 { return f.at(sc, x, y, g, idx, gmax, r) }
	_, _, _, neg := solve.Golden(func(r float64) float64 { return -val(r) }, 0, sc.rmax, 1e-4*sc.rmax)
	return max(-neg, val(0), val(min(1/(sc.kx*sc.kx*f.gamma*f.gamma), sc.rmax)), val(sc.rmax))
}

// rho2Local computes the moments of the polynomial certificate on g,
// the graph of w: the links' moments and the traces t_0..t_{2h}.
func (p TraceWeightProblem) rho2Local(g *wgraph.Graph, pl localPlan) (*linkMoments, []float64, error) {
	return p.linkMomentsTo(g, pl, 2*pl.h)
}
