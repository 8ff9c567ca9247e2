package loadlab

import "math"

// DefaultMaxRuns is the cap on the runs of one estimate in precision
// mode when Precision.MaxRuns is 0.
const DefaultMaxRuns = 10000

// MinOffMode is the number of runs whose value differs from the most
// frequent value of the quantity that a precision-mode estimate needs
// before it may stop: below it the sample variance says too little
// about the spread (all runs equal gives a zero-width interval), so no
// half-width is trusted. A stop therefore needs at least MinOffMode + 1
// runs (docs/specs/monte-carlo.md §2).
const MinOffMode = 10

// Precision asks a Monte Carlo estimate for a 95 % half-width instead
// of a fixed number of runs. The zero value asks for none: the entry
// point runs its fixed number of runs. With Rel or Abs set, the entry
// point's run count is the pilot (the runs before the first look), and
// the runs go on, one at a time in run order, until the Student-t 95 %
// interval of every watched quantity has half-width ≤ Abs or
// ≤ Rel·|mean| and at least MinOffMode of its runs differ from its most
// frequent value; or until MaxRuns runs, when the entry point returns
// the partial estimate with an error wrapping ErrNotConverged. Run r
// always draws from its own stream (Stream(seed, …, r)), and the stop is
// decided run by run, so the result is a pure function of the seed,
// whatever the number of goroutines or the Batch. The rule and its
// coverage: docs/specs/monte-carlo.md.
type Precision struct {
	// Rel is the target half-width relative to |mean| (0.01: ±1 %);
	// 0 means no relative target. Negative, NaN or infinite values
	// are an error.
	Rel float64
	// Abs is the target half-width in the quantity's own unit; 0 means
	// no absolute target. When both are set, meeting either suffices.
	Abs float64
	// MaxRuns caps the runs of each estimate; 0 means DefaultMaxRuns.
	// Otherwise it must exceed MinOffMode (no stop comes earlier) and
	// be at least the pilot.
	MaxRuns int
	// Batch is the number of runs of each estimate computed in one
	// parallel round; 0 lets the machine choose (from the projected
	// runs still needed and the number of workers). Runs computed beyond
	// the stop are discarded, so results do not depend on it.
	Batch int
}

// IsZero reports whether p asks for no precision (Rel and Abs are 0):
// the entry point then runs its fixed number of runs.
func (p Precision) IsZero() bool { return p.Rel == 0 && p.Abs == 0 }

// Validate returns an error wrapping ErrInvalid that names the field
// (Precision.Rel, Precision.Abs, Precision.MaxRuns or Precision.Batch)
// when it is negative, NaN or infinite, when MaxRuns is set but not
// above MinOffMode, or when MaxRuns or Batch is set without a target.
// The zero value is valid (fixed runs).
func (p Precision) Validate() error {
	switch {
	case !(p.Rel >= 0) || math.IsInf(p.Rel, 1):
		return Invalid("loadlab", "Precision.Rel = %v, want finite and ≥ 0 (0: no relative target)", p.Rel)
	case !(p.Abs >= 0) || math.IsInf(p.Abs, 1):
		return Invalid("loadlab", "Precision.Abs = %v, want finite and ≥ 0 (0: no absolute target)", p.Abs)
	case p.MaxRuns < 0 || p.MaxRuns > 0 && p.MaxRuns <= MinOffMode:
		return Invalid("loadlab", "Precision.MaxRuns = %d, want 0 (default %d) or > %d (no stop comes earlier)", p.MaxRuns, DefaultMaxRuns, MinOffMode)
	case p.Batch < 0:
		return Invalid("loadlab", "Precision.Batch = %d, want ≥ 0 (0: chosen by the machine)", p.Batch)
	case p.IsZero() && p.MaxRuns != 0:
		return Invalid("loadlab", "Precision.MaxRuns = %d without a target (Rel = Abs = 0), want 0", p.MaxRuns)
	case p.IsZero() && p.Batch != 0:
		return Invalid("loadlab", "Precision.Batch = %d without a target (Rel = Abs = 0), want 0", p.Batch)
	}
	return nil
}

// Cap returns the cap on the runs of one estimate: MaxRuns, or
// DefaultMaxRuns when it is 0.
func (p Precision) Cap() int {
	if p.MaxRuns == 0 {
		return DefaultMaxRuns
	}
	return p.MaxRuns
}

// Met reports whether the interval of e meets the target: a finite
// half-width from N ≥ 2 observations that is ≤ Abs or ≤ Rel·|Mean|. It
// is the half-width half of the stopping rule; the other half (MinOffMode
// runs off the most frequent value) needs the runs themselves. It is
// false for the zero Precision.
func (p Precision) Met(e Estimate) bool {
	h := e.HalfWidth()
	if e.N < 2 || math.IsNaN(h) || math.IsInf(h, 0) {
		return false
	}
	return p.Abs > 0 && h <= p.Abs || p.Rel > 0 && h <= p.Rel*math.Abs(e.Mean)
}
