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

// Part is one of several independent estimates to be added: its mean,
// standard error and degrees of freedom (N − 1 for a mean of N runs).
type Part struct {
	Mean, StdErr, DF float64
}

// SumIndependent returns the sum of independent estimates with its 95 %
// interval: mean Σ m_i, standard error √(Σ s_i²) and the Student-t
// quantile at the Welch–Satterthwaite degrees of freedom
// ν = (Σ s_i²)² / Σ (s_i⁴/ν_i) (Satterthwaite, Biometrics Bull. 2, 1946;
// Welch, Biometrika 34, 1947), which is exact for one part and for equal
// ν_i with proportional variances, and a close approximation otherwise.
// A part with zero standard error adds its mean only; when every part's
// is zero the interval is the point. N of the result is the smallest
// ν_i + 1 over the parts with spread. Parts with DF < 1 and a positive
// standard error give a NaN interval, as Summarize does for one value.
func SumIndependent(parts ...Part) Summary {
	var mean, v, den float64
	minDF := math.Inf(1)
	for _, p := range parts {
		mean += p.Mean
		if p.StdErr == 0 {
			continue
		}
		s2 := p.StdErr * p.StdErr
		v += s2
		den += s2 * s2 / p.DF
		minDF = min(minDF, p.DF)
	}
	s := Summary{Mean: mean, Lo: mean, Hi: mean, Min: math.NaN(), Max: math.NaN(), Std: math.NaN()}
	if v == 0 {
		return s
	}
	s.StdErr, s.N = math.Sqrt(v), int(minDF)+1
	nu := v * v / den
	if !(minDF >= 1) || math.IsNaN(nu) {
		s.Lo, s.Hi = math.NaN(), math.NaN()
		return s
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}.Quantile(0.975)
	s.Lo, s.Hi = mean-q*s.StdErr, mean+q*s.StdErr
	return s
}
