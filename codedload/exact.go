package codedload

import (
	"fmt"
	"math"
)

// The exact finite formulas of spec §6.3 and the reference values of §8,
// for use as oracles. All assume the Proportional placement without a chunk
// cap, exactly as Run simulates it.

// GridBall returns |B_d| = 2d² + 2d + 1, the number of nodes within L1
// distance d on the infinite grid Z², and on a torus while the ball does not
// wrap (spec §6.3).
func GridBall(d int) int { return 2*d*d + 2*d + 1 }

// Balls returns the ball sizes |B_d| for d = 0..diameter of the torus under
// its exact metric: Balls()[d] is the number of nodes within distance d of
// any node (the torus is vertex-transitive). The last entry is n.
func (t *Torus) Balls() []int {
	s := t.Side
	_, hi := ringRange(s)
	diam := 2 * hi
	// Per coordinate, the number of offsets at wrapped distance a.
	per := make([]int, hi+1)
	for a := 0; a <= hi; a++ {
		switch {
		case a == 0:
			per[a] = 1
		case s%2 == 0 && a == s/2:
			per[a] = 1
		default:
			per[a] = 2
		}
	}
	balls := make([]int, diam+1)
	for a := 0; a <= hi; a++ {
		for b := 0; b <= hi; b++ {
			balls[a+b] += per[a] * per[b]
		}
	}
	for d := 1; d <= diam; d++ {
		balls[d] += balls[d-1]
	}
	return balls
}

// Balls returns the ball sizes |B_d| = Σ_{i≤d} C(Dim, i) for d = 0..Dim.
func (h *Hypercube) Balls() []int {
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

// logBinom returns log P(X = j) for X ~ Bin(n, p), 0 < p < 1.
func logBinom(n int64, p float64, j int64) float64 {
	lg := func(x float64) float64 { v, _ := math.Lgamma(x); return v }
	return lg(float64(n)+1) - lg(float64(j)+1) - lg(float64(n-j)+1) +
		float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p)
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

// shortfall returns Σ_{j<ℓ} (ℓ−j)·P(X = j)·P(Y ≥ ℓ−j) for independent
// X ~ Bin(a, p) and Y ~ Bin(b, p); b < 0 stands for an infinite network
// (the second factor is 1).
func shortfall(a, b int64, p float64, ell int) float64 {
	var s float64
	for j := 0; j < ell && int64(j) <= a; j++ {
		var px float64
		switch {
		case p == 0:
			if j == 0 {
				px = 1
			}
		case p == 1:
			if int64(j) == a {
				px = 1
			}
		default:
			px = math.Exp(logBinom(a, p, int64(j)))
		}
		if px == 0 {
			continue
		}
		tail := 1.0
		if b >= 0 {
			tail = 1 - binomCDF(b, p, int64(ell-j-1))
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
// the terms fall below 1e-17. FileCost panics if m or ell is below 1 or p is
// outside [0, 1].
func FileCost(p float64, m, ell int, balls []int) float64 {
	if m < 1 || ell < 1 || !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("codedload: FileCost(p=%v, m=%d, ell=%d): invalid", p, m, ell))
	}
	per := int64(m) * int64(ell)
	var sum float64
	if balls != nil {
		n := int64(balls[len(balls)-1])
		for d := 0; d < len(balls)-1; d++ {
			a := int64(balls[d]) * per
			sum += shortfall(a, n*per-a, p, ell)
		}
		return sum / float64(ell)
	}
	if p == 0 {
		return math.Inf(1)
	}
	for d := 0; ; d++ {
		term := shortfall(int64(GridBall(d))*per, -1, p, ell)
		sum += term
		// Past the mean ball, the terms decrease geometrically fast.
		if term < 1e-17 && float64(GridBall(d))*float64(per)*p > float64(ell) {
			break
		}
	}
	return sum / float64(ell)
}

// Cost returns the expected communication cost C(ℓ) = Σ_k p_k c_k(ℓ) of
// spec §6.3 for the popularity profile p (see FileCost for m, ell, balls).
// ell = 1 gives the nearest replica cost. It panics as FileCost does.
func Cost(p []float64, m, ell int, balls []int) float64 {
	var c float64
	for _, pk := range p {
		c += pk * FileCost(pk, m, ell, balls)
	}
	return c
}

// Outage returns the expected fraction of requests in outage,
// Σ_k p_k P(Bin(n·m·ℓ, p_k) < ℓ) (spec §6.3), for Proportional placement on n
// servers with m·ℓ slots each.
func Outage(p []float64, n, m, ell int) float64 {
	var o float64
	for _, pk := range p {
		o += pk * binomCDF(int64(n)*int64(m)*int64(ell), pk, int64(ell-1))
	}
	return o
}

// MaxPoissonMean returns E[max of n independent Po(1)] = Σ_{m≥0} (1 − F(m)^n),
// the balls-into-bins reference of spec §8 C: the maximum load when every
// request is served at its origin. The tail is computed directly so that
// 1 − F(m)^n keeps its relative precision.
func MaxPoissonMean(n int) float64 {
	const top = 60 // P(Po(1) > 60) < 1e-80
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
	return sum
}

// MaxBinomialMean returns Σ_{m≥0} (1 − F(m)^n) with F the law of
// Bin(n, 1/n): the expected maximum of the arrival counts when exactly n
// requests fall on n servers, under the approximation that the counts are
// independent (they are negatively correlated, so the true value is
// slightly lower). Spec §8 C gives 4.1942 at n = 100 and 6.6714 at n = 10⁴.
func MaxBinomialMean(n int) float64 {
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
	return sum
}

// DecodeProb returns Π_{j=1}^{ℓ} (1 − q^{−j}), the probability that ℓ coded
// chunks with coefficient vectors uniform over GF(q)^ℓ decode the file
// (spec §4.2, random linear network coding). Run assumes decoding always
// succeeds, as the paper does; this quantifies that assumption.
func DecodeProb(q float64, ell int) float64 {
	prob := 1.0
	for j := 1; j <= ell; j++ {
		prob *= -math.Expm1(-float64(j) * math.Log(q))
	}
	return prob
}
