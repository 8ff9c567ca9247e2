package lanczos

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"gonum.org/v1/gonum/stat/distuv"
)

// Probe holds what one Rademacher probe q contributes to the H2
// functions of every γ: the resistance term a (independent of γ) and the
// Lanczos tridiagonal T of L started from v = Pq/‖Pq‖ (P the projection
// onto 1⊥), from which the Gauss quadratures
//
//	(n − 1) vᵀ f(L) v ≈ (n − 1) e₁ᵀ f(T) e₁
//
// of f(λ) = 1/λ, 1/(2 − γλ) and 1/(2 − γλ)² follow in O(k) for any γ
// (stochastic Lanczos quadrature; Golub and Meurant, Matrices, Moments and
// Quadrature, 2010, ch. 7). The weight is n − 1, not ‖Pq‖²: the law of
// the probes is invariant under permutations, so E[(n − 1) v vᵀ] = P and
// (n − 1) vᵀ f(L) v is unbiased for tr_{1⊥} f(L), without the
// fluctuation of ‖Pq‖² = n − (Σq)²/n, a skewed χ²₁-type term that
// dominated the spread on stars and complete graphs (spec throttlers.md
// §12.12). a is (n − 1) vᵀ L† v. T's eigenvalues (the nodes) lie in
// [λ₂, λ_n] and its weights are positive, so every per-probe value below
// is a positive combination of the scalar function at points of the
// spectrum: the monotonicity in γ of each spectral sum holds for each
// probe's estimate too (spec throttlers.md §12.9).
type Probe struct {
	Seed   uint64    // the probe's stream, so that it can be regenerated
	A      float64   // (n − 1) vᵀ L† v: the midpoint of its bracket, or a solve's value of qᵀL†q
	AHalf  float64   // half-width of the bracket of a around A (0 from a solve)
	AFinal bool      // A is fixed (settled quadrature or a solve)
	Exact  bool      // the recurrence reached an invariant subspace: T's quadratures are exact
	wt     float64   // n − 1: the weight of the quadratures of v = Pq/‖Pq‖
	Alpha  []float64 // diagonal of T
	Beta   []float64 // off-diagonal of T, len(Alpha) − 1 entries
}

// Weight returns the weight n − 1 of the probe's quadratures: each is
// Weight()·e₁ᵀf(T)e₁.
func (p *Probe) Weight() float64 { return p.wt }

// QuadWork is scratch space for the tridiagonal solves of Probe.
type QuadWork struct{ c, y []float64 }

// triSolve solves (σI + τT_k) y = e₁, T_k the leading k × k block of T,
// by the Thomas algorithm and returns y₁ and ‖y‖². The matrices used
// here are symmetric positive definite:
// 2I − γT for γ < 2/λ_n (eigenvalues 2 − γθ, Ritz values θ ≤ λ_n) and T
// itself (θ ≥ λ₂ > 0 on 1⊥), so no pivoting is needed.
func (p *Probe) triSolve(k int, sigma, tau float64, w *QuadWork) (y1, yy float64) {
	if cap(w.c) < k {
		w.c, w.y = make([]float64, k), make([]float64, k)
	}
	cp, y := w.c[:k], w.y[:k]
	var prevC, prevY float64
	for j := range k {
		m := sigma + tau*p.Alpha[j]
		rhs := 0.0
		if j == 0 {
			rhs = 1
		} else {
			e := tau * p.Beta[j-1]
			m -= e * prevC
			rhs -= e * prevY
		}
		if j < k-1 {
			cp[j] = tau * p.Beta[j] / m
		}
		y[j] = rhs / m
		prevC, prevY = cp[j], y[j]
	}
	return backSubstitute(cp, y)
}

// backSubstitute finishes a Thomas solve: y_j −= c_j y_{j+1} from the
// bottom up, and returns y₁ and ‖y‖².
func backSubstitute(cp, y []float64) (y1, yy float64) {
	for j := len(y) - 2; j >= 0; j-- {
		y[j] -= cp[j] * y[j+1]
	}
	for _, v := range y {
		yy += v * v
	}
	return y[0], yy
}

// Shifted returns b = (n − 1) vᵀ(2I − γL)⁻¹v and c = (n − 1)‖(2I − γL)⁻¹v‖²
// by quadrature on T: y = (2I − γT)⁻¹ e₁, b = (n − 1) y₁, c = (n − 1) ‖y‖².
func (p *Probe) Shifted(gamma float64, w *QuadWork) (b, c float64) {
	return p.shiftedK(len(p.Alpha), gamma, w)
}

// shiftedK is Shifted with the leading k × k block of T (the quadrature
// after k steps).
func (p *Probe) shiftedK(k int, gamma float64, w *QuadWork) (b, c float64) {
	if k == 0 {
		return 0, 0
	}
	y1, yy := p.triSolve(k, 2, -gamma, w)
	return p.wt * y1, p.wt * yy
}

// ResistanceK returns the Gauss quadrature (n − 1) e₁ᵀ T_k⁻¹ e₁ of
// a = (n − 1) vᵀ L† v after k steps ((n − 1) vᵀx_k with x_k the iterate of
// k conjugate-gradient steps on L x = v from x = 0, increasing with k to
// its limit).
func (p *Probe) ResistanceK(k int, w *QuadWork) float64 {
	if k == 0 {
		return 0
	}
	y1, _ := p.triSolve(k, 0, 1, w)
	return p.wt * y1
}

// radauSolve solves (σI + τT̃) y = e₁ for the Gauss–Radau matrix T̃
// of the first k steps with the prescribed node ν: T_{k−1} bordered by
// β_{k−1} and the diagonal ω for which ν is an eigenvalue of T̃ (spec
// throttlers.md §12.11). With s = −σ/τ the pole of 1/(σ + τx), the
// pivots of σI + τT are τ d_j(s), d_j(x) the pivots of T − xI, and
// the last pivot of σI + τT̃ is τΔ_k with
//
//	Δ_1 = ν − s,   Δ_j = (ν − s) + β_{j−1}² Δ_{j−1}/(d_{j−1}(ν) d_{j−1}(s)),
//
// a sum of terms of one sign when ν lies between the pole and the
// spectrum, so it carries no cancellation however close ν is to a
// Ritz value. It returns y₁, ‖y‖² and ok = false when some d_j(ν) has
// the sign that puts ν inside the Ritz values (ν not an end of an
// interval holding the spectrum).
func (p *Probe) radauSolve(k int, sigma, tau, node float64, w *QuadWork) (y1, yy float64, ok bool) {
	if cap(w.c) < k {
		w.c, w.y = make([]float64, k), make([]float64, k)
	}
	cp, y := w.c[:k], w.y[:k]
	s := -sigma / tau
	sign := math.Copysign(1, node-s) // the sign of every d_j(ν), d_j(s) and Δ_j
	dn, ds, delta := 0.0, 0.0, node-s
	var prevC, prevY float64
	for j := range k {
		m := sigma + tau*p.Alpha[j]
		rhs := 0.0
		if j == 0 {
			rhs = 1
			dn, ds = p.Alpha[0]-node, p.Alpha[0]-s
		} else {
			b := p.Beta[j-1]
			e := tau * b
			m -= e * prevC
			rhs -= e * prevY
			delta = (node - s) + b*b*delta/(dn*ds)
			dn = p.Alpha[j] - node - b*b/dn
			ds = p.Alpha[j] - s - b*b/ds
		}
		if j == k-1 {
			m = tau * delta
		} else if !(dn*sign > 0) {
			return 0, 0, false
		}
		if j < k-1 {
			cp[j] = tau * p.Beta[j] / m
		}
		y[j] = rhs / m
		prevC, prevY = cp[j], y[j]
	}
	y1, yy = backSubstitute(cp, y)
	return y1, yy, true
}

// exactAt reports whether the quadratures after k steps are exact: the
// recurrence ended there at an invariant subspace.
func (p *Probe) exactAt(k int) bool { return p.Exact && k == len(p.Alpha) }

// ResistanceBounds returns a bracket [lo, hi] of a = (n − 1) vᵀL†v after k steps
// (spec throttlers.md §12.11): lo the Gauss quadrature (n − 1) e₁ᵀT_k⁻¹e₁
// (the derivatives of 1/x of even order are positive), hi the
// Gauss–Radau quadrature with the node lam2Lo, a lower bound on λ₂
// (those of odd order are negative). hi is +Inf when lam2Lo is not
// positive or lies above a Ritz value, or before the second step.
func (p *Probe) ResistanceBounds(k int, lam2Lo float64, w *QuadWork) (lo, hi float64) {
	lo = p.ResistanceK(k, w)
	switch {
	case k == 0 || p.exactAt(k):
		return lo, lo
	case k < 2 || !(lam2Lo > 0):
		return lo, math.Inf(1)
	}
	y1, _, ok := p.radauSolve(k, 0, 1, lam2Lo, w)
	if !ok || !(y1 > 0) {
		return lo, math.Inf(1)
	}
	return lo, max(lo, p.wt*y1)
}

// ShiftedBounds returns brackets of b = (n − 1) vᵀ(2I − γL)⁻¹v and
// c = (n − 1) vᵀ(2I − γL)⁻²v after all the steps taken, for γ < 2/lmaxHi
// (spec throttlers.md §12.11): the lower ends are the Gauss quadratures
// of Shifted (every derivative of 1/(2 − γx) and of its square is
// positive below 2/γ), the upper ends the Gauss–Radau quadratures with
// the node lmaxHi ≥ λ_n (ResolventQuads). The upper ends are +Inf when
// γ·lmaxHi ≥ 2, lmaxHi lies below a Ritz value, or before the second step.
func (p *Probe) ShiftedBounds(gamma, lmaxHi float64, w *QuadWork) (b, c [2]float64) {
	g, r, ok := p.ResolventQuads(2, -gamma, lmaxHi, w)
	if !ok {
		return [2]float64{g[0], math.Inf(1)}, [2]float64{g[1], math.Inf(1)}
	}
	return [2]float64{g[0], max(g[0], r[0])}, [2]float64{g[1], max(g[1], r[1])}
}

// ResolventQuads returns, after all the steps taken, the Gauss (g) and
// Gauss–Radau (r) quadratures of f = (n − 1) vᵀ(σI + τL)⁻¹v (index 0)
// and of f₂ = (n − 1) vᵀ(σI + τL)⁻²v (index 1), for a pole s = −σ/τ
// outside the spectrum and the Radau node between the pole and the
// spectrum (at or beyond λ_n when s > λ_n, at or below λ₂ when s < λ₂).
// The exact f lies between g[0] and r[0], whichever is larger, and f₂
// in [g[1], r[1]] (spec throttlers.md §12.11 and §12.13: the Gauss and
// Radau errors of f have opposite signs whichever side the pole is on,
// and those of f₂ make g a lower and r an upper bound). It reports ok =
// false (with g set) before the second step, when σ + τ·node is zero
// or of the other sign than σ + τx on the Ritz values, or when the
// node lies inside them; at an invariant subspace r = g.
func (p *Probe) ResolventQuads(sigma, tau, node float64, w *QuadWork) (g, r [2]float64, ok bool) {
	k := len(p.Alpha)
	if k == 0 {
		return g, g, true
	}
	y1, yy := p.triSolve(k, sigma, tau, w)
	g = [2]float64{p.wt * y1, p.wt * yy}
	sgn := math.Copysign(1, sigma+tau*p.Alpha[0])
	switch {
	case p.exactAt(k):
		return g, g, true
	case k < 2 || !((sigma+tau*node)*sgn > 0):
		return g, g, false
	}
	y1, yy, ok = p.radauSolve(k, sigma, tau, node, w)
	if !ok || !(y1*sgn > 0) || math.IsInf(yy, 0) {
		return g, g, false
	}
	return g, [2]float64{p.wt * y1, p.wt * yy}, true
}

// CheckSteps is the number of Lanczos steps between convergence checks
// of the quadratures (each check costs O(k) per probe).
const CheckSteps = 1

// BracketEstimate returns the 95 % interval for the mean of N probe
// values v_i known only to lie in [mid_i − half_i, mid_i + half_i], and
// the bias bound h̄ = mean half_i it carries (spec throttlers.md §12.11):
// the mean of the midpoints, the standard error of the midpoints
// enlarged by √(Σ half_i²/(N(N − 1))) (by Minkowski's inequality the
// v_i's sample deviation exceeds the midpoints' by at most
// √(Σ half_i²/(N − 1))), and the Student-t interval of that standard
// error widened by h̄ on each side. It contains the Student-t interval
// of the v_i, whatever they are inside their brackets, so it covers at
// least as often. A caller that combines StdErr with other parts must
// widen the result by the returned bias itself (Widen). Each half-width
// is taken at least RoundRel·|mid_i|, the rounding allowance of a
// quadrature that is exact in exact arithmetic (an invariant subspace:
// on a complete graph every probe's value is the same, and an interval
// of width 0 would miss the exact value by its rounding).
func BracketEstimate(mid, half []float64) (loadlab.Estimate, float64) {
	e := mc.Estimate(mid)
	n := len(mid)
	if n < 2 {
		return e, 0
	}
	var hs, h2 float64
	for i, h := range half {
		h = max(h, RoundRel*math.Abs(mid[i]))
		hs += h
		h2 += h * h
	}
	bias := hs / float64(n)
	se := e.StdErr + math.Sqrt(h2/float64(n*(n-1)))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	e.StdErr = se
	e.Lo, e.Hi = e.Mean-t*se-bias, e.Mean+t*se+bias
	return e, bias
}

// RoundRel is the least relative half-width of a probe's bracket in
// BracketEstimate: the rounding of the Lanczos recurrence and of the
// tridiagonal solves, a few units of u·k·κ(T) for k steps, is far below
// it for k·κ(T) up to about 10³, and it adds at most 10⁻¹² of the value
// to an interval.
const RoundRel = 1e-12

// Widen returns e with its interval widened by bias on each side.
func Widen(e loadlab.Estimate, bias float64) loadlab.Estimate {
	e.Lo, e.Hi = e.Lo-bias, e.Hi+bias
	return e
}

// SetA fixes the probe's a from its bracket after all the steps taken
// (ResistanceBounds with the lower bound lam2Lo on λ₂): A the midpoint,
// AHalf the half-width.
func (p *Probe) SetA(lam2Lo float64, w *QuadWork) {
	lo, hi := p.ResistanceBounds(len(p.Alpha), lam2Lo, w)
	p.A, p.AHalf, p.AFinal = (lo+hi)/2, (hi-lo)/2, true
}

// The lower bound on λ₂ behind the upper bounds of a = qᵀL†q: the lower
// end of spectral.Lambda2Bracket at relative width Lam2RelWidth (so
// within a factor 2 of λ₂, which costs a few Gauss–Radau steps at most)
// and failure probability Lam2Delta (about 30 single Lanczos steps on a
// random 6-regular graph, where the default 1e-10 takes about 55).
const (
	Lam2RelWidth = 1
	Lam2Delta    = 1e-3
)
