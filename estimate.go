package loadlab

import "math"

// Estimate is a stochastic estimate: a sample mean with its two-sided
// 95 % confidence interval [Lo, Hi] and the number N of independent
// observations (runs, probes) behind it. Every Monte Carlo and
// stochastic-trace result of the toolkit uses it. With N < 2 the
// interval is NaN.
type Estimate struct {
	Mean   float64 `json:"mean"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	StdErr float64 `json:"stderr"`
	N      int     `json:"n"`
}

// Contains reports whether x lies in the closed interval [Lo, Hi].
func (e Estimate) Contains(x float64) bool { return x >= e.Lo && x <= e.Hi }

// HalfWidth returns (Hi − Lo)/2.
func (e Estimate) HalfWidth() float64 { return (e.Hi - e.Lo) / 2 }

// RelHalfWidth returns the half-width relative to |Mean|, the relative
// accuracy the estimate reaches at 95 % confidence: +Inf for a zero mean
// with a non-zero interval (or none: N < 2), and 0 for an exact zero, a
// zero mean with a zero-width interval from N ≥ 2 observations (every
// observation 0, as for the Kirchhoff index of a single node).
func (e Estimate) RelHalfWidth() float64 {
	if e.Mean == 0 {
		if e.N >= 2 && e.Lo == 0 && e.Hi == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return e.HalfWidth() / math.Abs(e.Mean)
}
