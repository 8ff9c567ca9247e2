package mc

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Summary describes a sample of independent runs.
type Summary struct {
	N        int
	Mean     float64
	Std      float64 // sample standard deviation (n−1 denominator)
	StdErr   float64 // Std/√N
	Lo, Hi   float64 // two-sided 95% Student-t confidence interval for the mean
	Min, Max float64
}

// Summarize returns the summary of xs. With fewer than two values the
// spread and interval are NaN.
func Summarize(xs []float64) Summary {
	s := Summary{N: len(xs), Mean: math.NaN(), Std: math.NaN(), StdErr: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	if len(xs) == 0 {
		return s
	}
	s.Min, s.Max = xs[0], xs[0]
	for _, x := range xs {
		s.Min = math.Min(s.Min, x)
		s.Max = math.Max(s.Max, x)
	}
	s.Mean, s.Std = meanStd(xs)
	if (!finite(s.Mean) || len(xs) >= 2 && !finite(s.Std)) && finite(s.Min) && finite(s.Max) {
		// A sum of finite values overflowed (a sum of squares overflows to
		// +Inf, and +Inf − +Inf inside the variance gives NaN); their mean
		// and spread are finite: compute them on xs/max|x| and scale back.
		scale := math.Max(math.Abs(s.Min), math.Abs(s.Max))
		scaled := make([]float64, len(xs))
		for i, x := range xs {
			scaled[i] = x / scale
		}
		m, sd := meanStd(scaled)
		s.Mean, s.Std = scale*m, scale*sd
	}
	if len(xs) < 2 {
		return s
	}
	s.StdErr = s.Std / math.Sqrt(float64(len(xs)))
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(xs) - 1)}.Quantile(0.975)
	s.Lo, s.Hi = s.Mean-q*s.StdErr, s.Mean+q*s.StdErr
	return s
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// meanStd returns the mean and the sample standard deviation (NaN for
// fewer than two values).
func meanStd(xs []float64) (mean, std float64) {
	mean, std = stat.Mean(xs, nil), math.NaN()
	if len(xs) >= 2 {
		std = stat.StdDev(xs, nil)
	}
	return mean, std
}
