package codedload

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// The exact finite formulas of spec §6.3 and the reference values of §8,
// for use as oracles. All assume the Proportional placement without a chunk
// cap, exactly as Run simulates it. Each returns an error wrapping
// loadlab.ErrInvalid for an argument outside its domain and one wrapping
// loadlab.ErrTooLarge when the sum would need more terms than maxWork.

// maxWork bounds the number of binomial terms one call of the exact formulas
// may evaluate (each costs a few logarithms).
const maxWork = 1e8

// GridBall returns |B_d| = 2d² + 2d + 1, the number of nodes within L1
// distance d on the infinite grid Z², and on a torus while the ball does not
// wrap (spec §6.3); 0 for d < 0 (no node lies within a negative distance).
// It panics if d > 2^31, where the value overflows an int.
func GridBall(d int) int {
	switch {
	case d < 0:
		return 0
	case d > 1<<31:
		panic(pkg + ": GridBall: d > 2^31 overflows")
	}
	return 2*d*d + 2*d + 1
}

// Balls returns the ball sizes |B_d| for d = 0..diameter of the torus under
// its exact metric: Balls()[d] is the number of nodes within distance d of
// any node (the torus is vertex-transitive). The last entry is n. It costs
// O(Side). It panics if t is invalid (see Validate).
func (t *Torus) Balls() []int {
	if err := t.Validate(); err != nil {
		panic(err.Error())
	}
	_, hi := ringRange(t.Side)
	// Per coordinate, the number of offsets at wrapped distance a is
	// 2 − e(a), where e marks the special offsets 0 and, for an even side,
	// hi = s/2 (each a single residue).
	special := []int{0}
	if t.Side%2 == 0 && hi > 0 {
		special = append(special, hi)
	}
	balls := make([]int, 2*hi+1)
	for d := range balls {
		// The shell is Σ_{a+b=d} (2−e(a))(2−e(b)) over a, b in [0, hi]:
		// 4 per pair, −2 for each special coordinate (a and b range over
		// the same interval), +1 for each pair of specials.
		lo, up := max(0, d-hi), min(d, hi)
		shell := 4 * (up - lo + 1)
		for _, x := range special {
			if x >= lo && x <= up {
				shell -= 4
				for _, y := range special {
					if x+y == d {
						shell++
					}
				}
			}
		}
		balls[d] = shell
		if d > 0 {
			balls[d] += balls[d-1]
		}
	}
	return balls
}

// Balls returns the ball sizes |B_d| = Σ_{i≤d} C(Dim, i) for d = 0..Dim. It
// panics if h is invalid (see Validate).
func (h *Hypercube) Balls() []int {
	if err := h.Validate(); err != nil {
		panic(err.Error())
	}
	balls := make([]int, h.Dim+1)
	c := 1
	for d := 0; d <= h.Dim; d++ {
		if d > 0 {
			c = c * (h.Dim - d + 1) / d
			balls[d] = balls[d-1]
		}
		balls[d] += c
	}
	return balls
}

// logBinom returns log P(X = j) for X ~ Bin(n, p), 0 < p < 1, 0 ≤ j ≤ n.
// Above n = 2^32 the difference lgamma(n+1) − lgamma(n−j+1) would lose
// digits to cancellation, so for small j it is summed as Σ_{i<j} log(n−i).
func logBinom(n int64, p float64, j int64) float64 {
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	var lfall float64 // log n!/(n−j)!
	if n > 1<<32 && j <= 64 {
		for i := int64(0); i < j; i++ {
			lfall += math.Log(float64(n - i))
		}
	} else {
		lfall = lg(float64(n)+1) - lg(float64(n-j)+1)
	}
	return lfall - lg(float64(j)+1) + float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p)
}

// binomCDF returns P(X ≤ j) for X ~ Bin(n, p), summing the pmf.
func binomCDF(n int64, p float64, j int64) float64 {
	if j < 0 {
		return 0
	}
	if j >= n || p == 0 {
		return 1
	}
	if p == 1 {
		return 0
	}
	var s float64
	for i := int64(0); i <= j; i++ {
		s += math.Exp(logBinom(n, p, i))
	}
	return min(s, 1)
}

// binomCDFs fills cdf[i] = binomCDF(n, p, i) for i < len(cdf), with the
// same summation as binomCDF in one pass.
func binomCDFs(cdf []float64, n int64, p float64) {
	var s float64
	for i := range cdf {
		switch {
		case int64(i) >= n || p == 0:
			cdf[i] = 1
		case p == 1:
			cdf[i] = 0
		default:
			s += math.Exp(logBinom(n, p, int64(i)))
			cdf[i] = min(s, 1)
		}
	}
}

// binomPMF returns P(X = j) for X ~ Bin(a, p), 0 ≤ j ≤ a.
func binomPMF(a int64, p float64, j int64) float64 {
	switch p {
	case 0:
		if j == 0 {
			return 1
		}
		return 0
	case 1:
		if j == a {
			return 1
		}
		return 0
	}
	return math.Exp(logBinom(a, p, j))
}

// shortfall returns Σ_{j<ℓ} (ℓ−j)·P(X = j)·P(Y ≥ ℓ−j) for independent
// X ~ Bin(a, p) and Y ~ Bin(b, p); b < 0 stands for an infinite network
// (the second factor is 1). cdf is scratch of length ℓ, unused (nil) when
// b < 0.
func shortfall(a, b int64, p float64, ell int, cdf []float64) float64 {
	if b >= 0 {
		binomCDFs(cdf, b, p)
	}
	var s float64
	for j := 0; j < ell && int64(j) <= a; j++ {
		px := binomPMF(a, p, int64(j))
		if px == 0 {
			continue
		}
		tail := 1.0
		if b >= 0 {
			tail = 1 - cdf[ell-j-1]
		}
		s += float64(ell-j) * px * tail
	}
	return s
}

// FileCost returns the expected hop cost of one request for a file of
// popularity p, in files·hops, under coded delivery of the ℓ nearest chunks
// with Proportional placement of m·ℓ chunk slots per server (spec §6.3):
//
//	c(ℓ) = (1/ℓ) Σ_{d≥0} E[(ℓ − N_d)⁺],   N_d ~ Bin(|B_d|·m·ℓ, p),
//
// since Σ_t D_(t) = Σ_d #{t ≤ ℓ : D_(t) > d}. With ℓ = 1 it is the nearest
// replica cost Σ_d (1−p)^{m|B_d|}. balls lists |B_d| for d = 0..diameter of
// a vertex-transitive topology (Torus.Balls, Hypercube.Balls); then requests
// in outage contribute 0, as in Run, and the formula is exact:
//
//	c(ℓ) = (1/ℓ) Σ_{d<diam} Σ_{j<ℓ} (ℓ−j) P(N_d = j) P(N_total − N_d ≥ ℓ−j).
//
// A nil balls means the infinite grid Z² (|B_d| = GridBall(d)), summed until
// the terms fall below 1e-17; there p = 0 gives +Inf (no copy anywhere). The
// infinite-grid series needs about √(1/(2mp)) terms of O(ℓ) work each.
//
// It returns an error wrapping loadlab.ErrInvalid if m or ell is below 1, p
// is outside [0, 1] or balls is not a non-decreasing list of positive
// counts, and one wrapping loadlab.ErrTooLarge if m·ℓ·|B_d| overflows or the
// sum needs more than 10⁸ terms (p too small on the infinite grid, or ℓ
// times the diameter too large).
func FileCost(p float64, m, ell int, balls []int) (float64, error) {
	per, err := checkCostArgs(p, m, ell, balls)
	if err != nil {
		return 0, err
	}
	if balls != nil {
		cdf := make([]float64, ell) // ℓ ≤ 10⁸/len(balls), checked
		n := int64(balls[len(balls)-1])
		var sum float64
		for d := 0; d < len(balls)-1; d++ {
			a := int64(balls[d]) * per
			sum += shortfall(a, n*per-a, p, ell, cdf)
		}
		return sum / float64(ell), nil
	}
	if p == 0 {
		return math.Inf(1), nil
	}
	return gridCost(p, per, ell)
}

// gridCost sums the infinite-grid series of FileCost after bounding its
// number of terms.
func gridCost(p float64, per int64, ell int) (float64, error) {
	// N_d has mean |B_d|·per·p ≈ 2d²·per·p; the terms are negligible once
	// it exceeds 2ℓ + 80 by the Chernoff bound, at about dEst.
	dEst := math.Sqrt((2*float64(ell)+80)/(2*float64(per)*p)) + 1
	if dEst*float64(ell) > maxWork {
		return 0, loadlab.TooLarge(pkg, "FileCost(p = %v, m·ℓ = %d): the infinite-grid series needs about %.3g terms of %d, want ≤ 1e8 in all", p, per, dEst, ell)
	}
	dMax := int(10*dEst) + 1000
	if _, ok := size.Product(GridBall(dMax), int(per)); !ok {
		return 0, loadlab.TooLarge(pkg, "FileCost(p = %v, m·ℓ = %d): ball counts overflow", p, per)
	}
	var sum float64
	for d := 0; d <= dMax; d++ {
		term := shortfall(int64(GridBall(d))*per, -1, p, ell, nil)
		sum += term
		// Past the mean ball, the terms decrease geometrically fast.
		if term < 1e-17 && float64(GridBall(d))*float64(per)*p > float64(ell) {
			return sum / float64(ell), nil
		}
	}
	return sum / float64(ell), loadlab.Wrap(loadlab.ErrNotConverged, pkg, "FileCost(p = %v, m·ℓ = %d): series not below 1e-17 after %d terms", p, per, dMax)
}

// checkCostArgs validates the arguments of FileCost and returns m·ℓ.
func checkCostArgs(p float64, m, ell int, balls []int) (int64, error) {
	switch {
	case m < 1:
		return 0, loadlab.Invalid(pkg, "FileCost: m = %d, want ≥ 1", m)
	case ell < 1:
		return 0, loadlab.Invalid(pkg, "FileCost: ell = %d, want ≥ 1", ell)
	case !(p >= 0 && p <= 1):
		return 0, loadlab.Invalid(pkg, "FileCost: p = %v, want in [0, 1]", p)
	}
	per, ok := size.Mul(m, ell)
	if !ok || ell > maxSlots {
		return 0, loadlab.TooLarge(pkg, "FileCost: m·ℓ = %d·%d, want ℓ ≤ 2^24 and no overflow", m, ell)
	}
	if balls == nil {
		return int64(per), nil
	}
	if len(balls) == 0 || balls[0] < 1 {
		return 0, loadlab.Invalid(pkg, "FileCost: balls = %v, want |B_0| ≥ 1", balls)
	}
	for d := 1; d < len(balls); d++ {
		if balls[d] < balls[d-1] {
			return 0, loadlab.Invalid(pkg, "FileCost: balls[%d] = %d < balls[%d] = %d, want non-decreasing", d, balls[d], d-1, balls[d-1])
		}
	}
	if _, ok := size.Mul(balls[len(balls)-1], per); !ok {
		return 0, loadlab.TooLarge(pkg, "FileCost: n·m·ℓ = %d·%d overflows", balls[len(balls)-1], per)
	}
	if float64(len(balls))*float64(ell) > maxWork {
		return 0, loadlab.TooLarge(pkg, "FileCost: %d balls × ℓ = %d terms, want ≤ 1e8", len(balls), ell)
	}
	return int64(per), nil
}

// Cost returns the expected communication cost C(ℓ) = Σ_k p_k c_k(ℓ) of
// spec §6.3 for the popularity profile p (see FileCost for m, ell, balls);
// a file with p_k = 0 is never requested and adds nothing. ell = 1 gives
// the nearest replica cost. It returns the errors of FileCost, naming the
// index of the offending p_k, and one wrapping loadlab.ErrInvalid for an
// empty p.
func Cost(p []float64, m, ell int, balls []int) (float64, error) {
	if len(p) == 0 {
		return 0, loadlab.Invalid(pkg, "Cost: empty popularity profile")
	}
	var c float64
	for k, pk := range p {
		if !(pk >= 0 && pk <= 1) {
			return 0, loadlab.Invalid(pkg, "Cost: p[%d] = %v, want in [0, 1]", k, pk)
		}
		if pk == 0 {
			continue
		}
		ck, err := FileCost(pk, m, ell, balls)
		if err != nil {
			return 0, loadlab.Wrap(err, pkg, "Cost: p[%d]", k)
		}
		c += pk * ck
	}
	return c, nil
}

// Outage returns the expected fraction of requests in outage,
// Σ_k p_k P(Bin(n·m·ℓ, p_k) < ℓ) (spec §6.3), for Proportional placement on n
// servers with m·ℓ slots each. It returns an error wrapping
// loadlab.ErrInvalid if n, m or ell is below 1 or a p_k is outside [0, 1],
// and one wrapping loadlab.ErrTooLarge if n·m·ℓ overflows or the sum needs
// more than 10⁸ terms (K·ℓ).
func Outage(p []float64, n, m, ell int) (float64, error) {
	switch {
	case n < 1 || m < 1 || ell < 1:
		return 0, loadlab.Invalid(pkg, "Outage: n, m, ell = %d, %d, %d, want ≥ 1 each", n, m, ell)
	case float64(len(p))*float64(ell) > maxWork:
		return 0, loadlab.TooLarge(pkg, "Outage: K·ℓ = %d·%d terms, want ≤ 1e8", len(p), ell)
	}
	slots, ok := size.Product(n, m, ell)
	if !ok {
		return 0, loadlab.TooLarge(pkg, "Outage: n·m·ℓ = %d·%d·%d overflows", n, m, ell)
	}
	var o float64
	for k, pk := range p {
		if !(pk >= 0 && pk <= 1) {
			return 0, loadlab.Invalid(pkg, "Outage: p[%d] = %v, want in [0, 1]", k, pk)
		}
		o += pk * binomCDF(int64(slots), pk, int64(ell-1))
	}
	return o, nil
}

// MaxPoissonMean returns E[max of n independent Po(1)] = Σ_{m≥0} (1 − F(m)^n),
// the balls-into-bins reference of spec §8 C: the maximum load when every
// request is served at its origin. The tail is computed directly so that
// 1 − F(m)^n keeps its relative precision. It returns an error wrapping
// loadlab.ErrInvalid if n < 1.
func MaxPoissonMean(n int) (float64, error) {
	if n < 1 {
		return 0, loadlab.Invalid(pkg, "MaxPoissonMean: n = %d, want ≥ 1", n)
	}
	const top = 60 // P(Po(1) > 60) < 1e-80, and n < 2^63
	pmf := make([]float64, top+1)
	pmf[0] = math.Exp(-1)
	for i := 1; i <= top; i++ {
		pmf[i] = pmf[i-1] / float64(i)
	}
	var sum, tail float64
	tails := make([]float64, top+1) // tails[m] = P(X > m)
	for m := top; m >= 0; m-- {
		tails[m] = tail
		tail += pmf[m]
	}
	for m := 0; m <= top; m++ {
		sum += -math.Expm1(float64(n) * math.Log1p(-tails[m]))
	}
	return sum, nil
}

// MaxBinomialMean returns Σ_{m≥0} (1 − F(m)^n) with F the law of
// Bin(n, 1/n): the expected maximum of the arrival counts when exactly n
// requests fall on n servers, under the approximation that the counts are
// independent (they are negatively correlated, so the true value is
// slightly lower). Spec §8 C gives 4.1942 at n = 100 and 6.6714 at n = 10⁴.
// n = 1 gives 1 exactly. It returns an error wrapping loadlab.ErrInvalid if
// n < 1.
func MaxBinomialMean(n int) (float64, error) {
	switch {
	case n < 1:
		return 0, loadlab.Invalid(pkg, "MaxBinomialMean: n = %d, want ≥ 1", n)
	case n == 1:
		return 1, nil // Bin(1, 1) = 1
	}
	p := 1 / float64(n)
	var sum float64
	for m := 0; m < n; m++ {
		// Upper tail P(X > m) summed directly, for precision near 1.
		var tail float64
		for j := m + 1; j <= n; j++ {
			t := math.Exp(logBinom(int64(n), p, int64(j)))
			tail += t
			if t < 1e-20*tail {
				break
			}
		}
		term := -math.Expm1(float64(n) * math.Log1p(-tail))
		sum += term
		if term < 1e-16 {
			break
		}
	}
	return sum, nil
}
