package consensus

import (
	"math"
	"sync"

	"github.com/loadlab/loadlab/internal/lanczos"
)

// delayPoles is the partial-fraction form of the regular part of a
// mode's stationary variance under delay τ (spec throttlers.md §12.13,
// §12.14):
//
//	R_τ(x) = Σ_{j=0}^{τ} c_j/(a_j − x),   a_j = (−1)^j 2 sin((2j+1)π/(2(2τ+1))),
//	c_j = 2/((2τ+1) a_j) for j < τ,  c_τ = 1/((2τ+1) a_τ),
//
// the a_j the real values at which the mode's autocovariance system is
// singular (spec deployed §2.3), a_0 = a*(τ), and no constant term.
// On (a_1, a*) every term of R_τ is positive, so the sum is accurate to
// a few units of rounding per term (§12.14); R'_τ = Σ c_j/(a_j − x)².
// ok is false when the form does not reproduce the dense solve (then
// the estimators use modeWork and do not bracket).
type delayPoles struct {
	a, c []float64
	ok   bool
}

// delayPoleCache holds the checked forms by τ: each check costs two
// dense solves of size τ + 2, which a sweep over γ need not repeat.
var delayPoleCache sync.Map

// newDelayPoles returns the partial fractions of R_τ for 1 ≤ τ ≤
// MaxDelay in closed form (spec throttlers.md §12.14), O(τ), checked
// against R_τ(0) = ¼ + τ/2 to 10⁻¹² relative (a sum of τ + 1 positive
// terms, within (τ + 3)ε ≤ 2.3·10⁻¹³ of it up to MaxDelay) and against
// the dense solve (modeWork) at x = a*/2 and 0.9a* to 10⁻¹⁰ relative
// (the terms are positive there, so R_τ is its own scale; the two
// differ by at most 0.47(τ + 2)ε·a*/(a* − x) ≤ 10⁻¹² at MaxDelay).
// τ = 0 has the form too (R₀ = ½/(2 − x)) but gets ok = false: the
// delay-free mode keeps its 2 × 2 solve and the estimators' τ = 0 path
// is unchanged.
func newDelayPoles(tau int) *delayPoles {
	if tau < 1 {
		return &delayPoles{}
	}
	if v, ok := delayPoleCache.Load(tau); ok {
		return v.(*delayPoles)
	}
	dp := closedDelayPoles(tau)
	w := newModeWork(tau)
	astar := delayLimit(tau)
	r0, _, _ := dp.r(0)
	dp.ok = math.Abs(r0-(0.25+float64(tau)/2)) <= 1e-12*r0
	for _, f := range []float64{0.5, 0.9} {
		x := f * astar
		want, _, ok1 := w.r(x)
		got, _, ok2 := dp.r(x)
		dp.ok = dp.ok && ok1 && ok2 && math.Abs(got-want) <= 1e-10*got
	}
	v, _ := delayPoleCache.LoadOrStore(tau, dp)
	return v.(*delayPoles)
}

// closedDelayPoles returns the poles and residues of R_τ (spec
// throttlers.md §12.14), unchecked.
func closedDelayPoles(tau int) *delayPoles {
	dp := &delayPoles{a: make([]float64, tau+1), c: make([]float64, tau+1)}
	m := float64(2*tau + 1)
	for j := range dp.a {
		aj := 2 * math.Sin(float64(2*j+1)*math.Pi/(2*m))
		if j%2 == 1 {
			aj = -aj
		}
		w := 2.0
		if j == tau {
			w = 1 // the single root z = −1 on the unit circle
		}
		dp.a[j], dp.c[j] = aj, w/(m*aj)
	}
	return dp
}

// r returns R_τ(x) and R'_τ(x) from the partial fractions, O(τ), and
// false unless a_1 < x < a*(τ) (the interval of regularity holding
// [0, a*), on which every term of R_τ is positive; for τ = 0, x < 2).
func (dp *delayPoles) r(x float64) (r, dr float64, ok bool) {
	if !(x < dp.a[0]) || (len(dp.a) > 1 && !(x > dp.a[1])) {
		return math.NaN(), math.NaN(), false
	}
	for j, aj := range dp.a {
		u := 1 / (aj - x)
		t := dp.c[j] * u
		r += t
		dr += t * u
	}
	return r, dr, true
}

// sum returns Σ_j c_j/(a_j − x) = R_τ(x).
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
//	R_τ(x)       = Σ c_j/(a_j − x)                          → c_j·[0, e_j],
//	x² R_τ(x)    = poly₁(x) + Σ c_j a_j²/(a_j − x)          → c_j a_j²·[0, e_j],
//	λ R'_τ(γλ)   = Σ (c_j/γ)[a_j/(a_j − γλ)² − 1/(a_j − γλ)] → (c_j a_j/γ)·[0, e²_j] − (c_j/γ)·[0, e_j],
//
// [0, x] meaning the interval between 0 and x, and the polynomial part
// (degree 1) integrated exactly by every Gauss rule.
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
	// The polynomial part of x²R_τ, −Σ_j c_j (x + a_j) (R_τ has none),
	// whose Gauss value is exact (e₁ᵀTe₁ = α₁).
	if len(p.Alpha) > 0 {
		wt, a1 := p.Weight(), gamma*p.Alpha[0]
		var cs, ca float64
		for j, aj := range dp.a {
			cs += dp.c[j]
			ca += dp.c[j] * aj
		}
		b.gr1 += wt * (-cs*a1 - ca)
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
