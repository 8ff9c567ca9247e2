package mc

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/loadlab/loadlab"
)

// ClopperPearson returns the exact two-sided 95 % interval of a binomial
// probability from k successes in n trials: the 0.025 quantile of
// Beta(k, n−k+1) and the 0.975 quantile of Beta(k+1, n−k), with 0 and 1
// at the ends (Clopper and Pearson, Biometrika 26, 1934). Its coverage is
// at least 95 % for every p. With n = 0 it is [0, 1]. It panics unless
// 0 ≤ k ≤ n.
func ClopperPearson(k, n int) (lo, hi float64) {
	if k < 0 || k > n {
		panic("mc: ClopperPearson: want 0 ≤ k ≤ n")
	}
	if n == 0 {
		return 0, 1
	}
	lo, hi = 0, 1
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(0.025)
	}
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(0.975)
	}
	return lo, hi
}

// Binomial returns the proportion k/n with its Clopper–Pearson 95 %
// interval as an Estimate (StdErr is the plug-in √(p̂(1−p̂)/n); N = n).
// It panics unless 0 ≤ k ≤ n and n ≥ 1.
func Binomial(k, n int) loadlab.Estimate {
	if n < 1 {
		panic("mc: Binomial: n < 1")
	}
	lo, hi := ClopperPearson(k, n)
	p := float64(k) / float64(n)
	return loadlab.Estimate{Mean: p, Lo: lo, Hi: hi, StdErr: math.Sqrt(p * (1 - p) / float64(n)), N: n}
}
