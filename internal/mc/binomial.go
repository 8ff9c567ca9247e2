package mc

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/loadlab/loadlab"
)

// ClopperPearson returns the exact two-sided binomial interval [lo, hi]
// for a proportion with k successes in n trials at miss probability a
// (spec anycast-cdn.md §15.2; Clopper and Pearson, Biometrika 26, 1934):
//
//	lo = B⁻¹(a/2; k, n − k + 1),  hi = B⁻¹(1 − a/2; k + 1, n − k),
//
// B⁻¹ the quantile of the Beta law, with lo = 0 at k = 0 and hi = 1 at
// k = n; the closed forms hi = 1 − (a/2)^{1/n} at k = 0, lo = (a/2)^{1/n}
// at k = n, lo = 1 − (1 − a/2)^{1/n} at k = 1 and hi = (1 − a/2)^{1/n} at
// k = n − 1 are used where they apply. It
// covers the true proportion with probability ≥ 1 − a for every p. It
// panics unless 0 ≤ k ≤ n, n ≥ 1 and 0 < a < 1 (a programmer error:
// EstimateC checks its input).
func ClopperPearson(k, n int64, a float64) (lo, hi float64) {
	if n < 1 || k < 0 || k > n || !(a > 0 && a < 1) {
		panic("mc: ClopperPearson: want 0 ≤ k ≤ n, n ≥ 1, 0 < a < 1")
	}
	fk, fn := float64(k), float64(n)
	switch {
	case k == 0:
		lo = 0
	case k == n:
		lo = math.Pow(a/2, 1/fn)
	case k == 1:
		lo = -math.Expm1(math.Log1p(-a/2) / fn) // 1 − (1 − a/2)^{1/n}
	default:
		lo = distuv.Beta{Alpha: fk, Beta: fn - fk + 1}.Quantile(a / 2)
	}
	switch {
	case k == n:
		hi = 1
	case k == 0:
		hi = -math.Expm1(math.Log(a/2) / fn) // 1 − (a/2)^{1/n} without cancellation
	case k == n-1:
		hi = math.Exp(math.Log1p(-a/2) / fn) // (1 − a/2)^{1/n}
	default:
		hi = distuv.Beta{Alpha: fk + 1, Beta: fn - fk}.Quantile(1 - a/2)
	}
	return lo, hi
}

// Binomial returns the estimate of a probability from k successes in n
// independent trials: the mean k/n, its ClopperPearson 95 % interval
// (coverage at least 95 % at every probability) and the standard error
// √(p̂(1−p̂)/n), with N = n. With n = 0 every field but N is NaN. It
// panics unless 0 ≤ k ≤ n.
func Binomial(k, n int) loadlab.Estimate {
	if k < 0 || k > n {
		panic("mc: Binomial: want 0 ≤ k ≤ n")
	}
	if n == 0 {
		nan := math.NaN()
		return loadlab.Estimate{Mean: nan, Lo: nan, Hi: nan, StdErr: nan}
	}
	lo, hi := ClopperPearson(int64(k), int64(n), 0.05)
	p := float64(k) / float64(n)
	return loadlab.Estimate{Mean: p, Lo: lo, Hi: hi, StdErr: math.Sqrt(p * (1 - p) / float64(n)), N: n}
}
