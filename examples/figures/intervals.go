package main

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/loadlab/loadlab"
)

// A figure shows the Student-t 95 % interval of a Monte Carlo mean only
// when the runs can support it: when at least loadlab.MinOffMode of them
// differ from their most frequent value, the condition of the precision
// mode (docs/specs/monte-carlo.md §2). A maximum load is an integer (or
// a multiple of 1/ℓ), and a handful of runs that all give the same value
// has s = 0 and a zero-width interval that is no 95 % interval at all.
// Such a quantity is described instead by its most frequent value and
// the Clopper–Pearson 95 % interval of the probability that a run
// differs from it (modeStats).

// modeStats describes a sample by its most frequent value.
type modeStats struct {
	mode       float64 // the most frequent value (the smallest of ties)
	off        int     // the number of values that differ from it
	n          int     // the number of values
	pLo, pHi   float64 // Clopper–Pearson 95 % interval of P(value ≠ mode)
	trustsMean bool    // off ≥ loadlab.MinOffMode: the t interval may be shown
}

// newModeStats returns the mode statistics of xs (NaN values are left
// out; an empty sample has mode NaN).
func newModeStats(xs []float64) modeStats {
	count := map[float64]int{}
	n := 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			count[x]++
			n++
		}
	}
	m := modeStats{mode: math.NaN(), n: n}
	best := 0
	for v, c := range count {
		if c > best || c == best && v < m.mode {
			m.mode, best = v, c
		}
	}
	m.off = n - best
	m.pLo, m.pHi = clopperPearson(m.off, n)
	m.trustsMean = m.off >= loadlab.MinOffMode
	return m
}

// clopperPearson returns the exact two-sided 95 % interval of a binomial
// probability from k successes in n trials: the quantiles 0.025 of
// Beta(k, n−k+1) and 0.975 of Beta(k+1, n−k), with 0 and 1 at the ends
// (Clopper and Pearson, Biometrika 26, 1934). With n = 0 it is [0, 1].
func clopperPearson(k, n int) (lo, hi float64) {
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

// shownInterval returns the interval of e that a figure may show: e's
// own when m trusts the mean, NaN otherwise.
func shownInterval(e loadlab.Estimate, m modeStats) (lo, hi float64) {
	if !m.trustsMean || e.N < 2 {
		return math.NaN(), math.NaN()
	}
	return e.Lo, e.Hi
}
