package mc

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/loadlab/loadlab"
)

// Binomial returns the estimate of a probability from k successes in n
// independent trials: the mean k/n, the exact two-sided 95 % interval of
// Clopper and Pearson (Biometrika 26, 1934: the 2.5 % and 97.5 %
// quantiles of Beta(k, n−k+1) and Beta(k+1, n−k), with Lo = 0 at k = 0
// and Hi = 1 at k = n), whose coverage is at least 95 % at every
// probability, and the standard error √(p̂(1−p̂)/n). With n = 0 every
// field but N is NaN. It panics unless 0 ≤ k ≤ n.
func Binomial(k, n int) loadlab.Estimate {
	if k < 0 || k > n {
		panic("mc: Binomial: want 0 ≤ k ≤ n")
	}
	if n == 0 {
		nan := math.NaN()
		return loadlab.Estimate{Mean: nan, Lo: nan, Hi: nan, StdErr: nan}
	}
	p := float64(k) / float64(n)
	e := loadlab.Estimate{Mean: p, Lo: 0, Hi: 1, StdErr: math.Sqrt(p * (1 - p) / float64(n)), N: n}
	if k > 0 {
		e.Lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(0.025)
	}
	if k < n {
		e.Hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(0.975)
	}
	return e
}
