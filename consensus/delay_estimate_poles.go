package consensus

import (
	"math"

	"github.com/loadlab/loadlab/internal/lanczos"
)

// maxPoleDelay is the largest τ for which the delayed quadratures are
// bracketed: the residues cost 2(τ + 1) dense solves of size τ + 2,
// O(τ⁴) in all (measured 6 ms at τ = 64, 57 ms at 128, 0.5 s at 256).
const maxPoleDelay = 128

// delayPoles is the partial-fraction form of the regular part of a
// mode's stationary variance under delay τ (spec throttlers.md §12.13):
//
//	R_τ(x) = c_∞ + Σ_{j=0}^{τ} c_j/(a_j − x),   a_j = (−1)^j 2 sin((2j+1)π/(2(2τ+1))),
//
// the a_j the real values at which the mode's autocovariance system is
// singular (spec deployed §2.3), a_0 = a*(τ). ok is false when the form
// does not reproduce R_τ (then the quadratures are not bracketed).
type delayPoles struct {
	a, c []float64
	cInf float64
	ok   bool
}

// newDelayPoles returns the partial fractions of R_τ for 1 ≤ τ ≤
// maxPoleDelay: each residue c_j = lim (a_j − x) R_τ(x) by the
// symmetric difference h(R(a_j − h) − R(a_j + h))/2 (its error is O(h²)
// relative, the regular part cancelling), c_∞ from R_τ(0), and the form
// checked against R_τ at six points of [0, a*) to 10⁻⁷ relative.
func newDelayPoles(tau int) *delayPoles {
	dp := &delayPoles{}
	if tau < 1 || tau > maxPoleDelay {
		return dp
	}
	w := newModeWork(tau)
	astar := delayLimit(tau)
	h := 1e-5 * astar
	for j := 0; j <= tau; j++ {
		aj := 2 * math.Sin(float64(2*j+1)*math.Pi/float64(2*(2*tau+1)))
		if j%2 == 1 {
			aj = -aj
		}
		lo, _, ok1 := w.r(aj - h)
		hi, _, ok2 := w.r(aj + h)
		if !ok1 || !ok2 {
			return dp
		}
		dp.a, dp.c = append(dp.a, aj), append(dp.c, h*(lo-hi)/2)
	}
	r0, _, ok := w.r(0)
	if !ok {
		return dp
	}
	dp.cInf = r0 - dp.sum(0)
	for _, f := range []float64{0.1, 0.3, 0.5, 0.7, 0.9, 0.99} {
		x := f * astar
		r, _, ok := w.r(x)
		scale := math.Abs(dp.cInf)
		for j, aj := range dp.a {
			scale += math.Abs(dp.c[j] / (aj - x))
		}
		if !ok || !(math.Abs(r-dp.cInf-dp.sum(x)) <= 1e-7*scale) {
			return dp
		}
	}
	dp.ok = true
	return dp
}

// sum returns Σ_j c_j/(a_j − x).
func (dp *delayPoles) sum(x float64) float64 {
	var s float64
	for j, aj := range dp.a {
		s += dp.c[j] / (aj - x)
	}
	return s
}

// delayBounds are one probe's delayed quadratures at one γ (spec
// throttlers.md §12.13), each as the Gauss value g of its partial
// fractions and the interval [lo, hi] that holds the exact value minus
// the Gauss value:
//
//	r:  (n − 1) vᵀ R_τ(γL) v                         (ρ₂'s delayed part)
//	r1: (n − 1) vᵀ (γL)² R_τ(γL) v                   (ρ₁'s delayed part)
//	d:  (n − 1) vᵀ L R'_τ(γL) v                      (dρ₂/dγ's delayed part)
type delayBounds struct {
	r, r1, d    [2]float64
	gr, gr1, gd float64
}

// bounds returns the brackets of p's delayed quadratures at γ, with
// γλ_n⁺ < a*(τ) (lmaxHi = λ_n⁺), and false when some pole's Gauss–Radau
// rule is not available (before the second step, or a node inside the
// Ritz values). Pole j contributes c_j/(a_j − γλ): its Gauss value G_j
// and Gauss–Radau value R_j (node λ_n⁺ for a_j > 0, 0 for a_j < 0,
// lanczos.Probe.ResolventQuads) hold the exact value between them, and
// those of its square G²_j ≤ exact ≤ R²_j, so with e_j = R_j − G_j and
// e²_j = R²_j − G²_j
//
//	R_τ(x)       = c_∞ + Σ c_j/(a_j − x)                   → c_j·[0, e_j],
//	x² R_τ(x)    = poly₁(x) + Σ c_j a_j²/(a_j − x)          → c_j a_j²·[0, e_j],
//	λ R'_τ(γλ)   = Σ (c_j/γ)[a_j/(a_j − γλ)² − 1/(a_j − γλ)] → (c_j a_j/γ)·[0, e²_j] − (c_j/γ)·[0, e_j],
//
// [0, x] meaning the interval between 0 and x, and the polynomial parts
// (degree ≤ 1) integrated exactly by every Gauss rule.
func (dp *delayPoles) bounds(p *lanczos.Probe, gamma, lmaxHi float64, w *lanczos.QuadWork) (delayBounds, bool) {
	var b delayBounds
	add := func(iv *[2]float64, x float64) {
		if x < 0 {
			iv[0] += x
		} else {
			iv[1] += x
		}
	}
	for j, aj := range dp.a {
		node := 0.0
		if aj > 0 {
			node = lmaxHi
		}
		g, r, ok := p.ResolventQuads(aj, -gamma, node, w)
		if !ok {
			return b, false
		}
		c := dp.c[j]
		e, e2 := r[0]-g[0], r[1]-g[1]
		add(&b.r, c*e)
		add(&b.r1, c*aj*aj*e)
		add(&b.d, c*aj*e2/gamma)
		add(&b.d, -c*e/gamma)
		b.gr += c * g[0]
		b.gr1 += c * aj * aj * g[0]
		b.gd += c * (aj*g[1] - g[0]) / gamma
	}
	// The polynomial parts: c_∞ in R_τ; c_∞x² − Σ_j c_j (x + a_j) in x²R_τ,
	// whose Gauss values are exact (e₁ᵀTe₁ = α₁, e₁ᵀT²e₁ = α₁² + β₁²).
	if len(p.Alpha) > 0 {
		wt, a1 := p.Weight(), gamma*p.Alpha[0]
		x2 := a1 * a1
		if len(p.Alpha) > 1 {
			x2 += gamma * gamma * p.Beta[0] * p.Beta[0]
		}
		var cs, ca float64
		for j, aj := range dp.a {
			cs += dp.c[j]
			ca += dp.c[j] * aj
		}
		b.gr += dp.cInf * wt
		b.gr1 += wt * (dp.cInf*x2 - cs*a1 - ca)
	}
	return b, true
}

// relWidth returns the relative half-width of the delayed brackets that
// must settle: r's and, with deriv, d's (else r1's), each relative to
// its Gauss value; +Inf when they are not available.
func (dp *delayPoles) relWidth(p *lanczos.Probe, gamma, lmaxHi float64, deriv bool, w *lanczos.QuadWork) float64 {
	b, ok := dp.bounds(p, gamma, lmaxHi, w)
	if !ok {
		return math.Inf(1)
	}
	other, g := b.r1, b.gr1
	if deriv {
		other, g = b.d, b.gd
	}
	return max((b.r[1]-b.r[0])/(2*math.Abs(b.gr)), (other[1]-other[0])/(2*math.Abs(g)))
}
