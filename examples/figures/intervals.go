package main

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
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
	m.pLo, m.pHi = 0, 1 // no runs: nothing known
	if n > 0 {
		m.pLo, m.pHi = mc.ClopperPearson(int64(m.off), int64(n), 0.05)
	}
	m.trustsMean = m.off >= loadlab.MinOffMode
	return m
}

// shownInterval returns the interval of e that a figure may show: e's
// own when m trusts the mean, NaN otherwise.
func shownInterval(e loadlab.Estimate, m modeStats) (lo, hi float64) {
	if !m.trustsMean || e.N < 2 {
		return math.NaN(), math.NaN()
	}
	return e.Lo, e.Hi
}
