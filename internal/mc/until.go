package mc

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/par"
)

// Plan sets up Until: the precision asked for, each series' pilot and
// the number of goroutines.
type Plan struct {
	// Precision is the target; it must be valid and not zero.
	Precision loadlab.Precision
	// Pilot returns the runs of series s before its first look, in
	// [1, Precision.Cap()]; nil means one run.
	Pilot func(s int) int
	// Workers is the number of goroutines (≤ 0: GOMAXPROCS).
	Workers int
	// Round, if not nil, is called on the caller's goroutine after each
	// parallel round with the runs kept so far over all series and the
	// number of series still running.
	Round func(kept, open int)
}

// Outcome is how one series of Until ended.
type Outcome struct {
	// Runs is the number of runs kept: the stop, the cap, or the runs
	// before the first failing one.
	Runs int
	// Status is Success (the target was met), IterationLimit (Runs is
	// the cap) or Failure (Err is the error of run Runs).
	Status loadlab.Status
	// Est holds the estimate of each watched quantity over the Runs
	// runs (Estimate of the values in run order).
	Est []loadlab.Estimate
	// Short is, with Status IterationLimit, the first watched quantity
	// that fails the rule at the cap (too few values off its mode, or
	// its half-width); −1 otherwise.
	Short int
	Err   error
}

// Until runs series independent sequences of runs to the precision of
// p (spec docs/specs/monte-carlo.md §2): run(s, r) computes run r of
// series s and returns its output and the values of its watched
// quantities (the same number every time). Each series looks at its
// estimates after its pilot and then after every run, in run order, and
// stops at the first n at which every watched quantity has at least
// loadlab.MinOffMode of its n values off its most frequent value and a
// Student-t 95 % half-width ≤ Abs or ≤ Rel·|mean| (loadlab.Precision.Met
// on Estimate of its n values); or at the cap. The runs are computed in
// parallel rounds (every open series' next batch in one loop); runs
// beyond a series' stop or failure are discarded, so with run a pure
// function of (s, r) the result does not depend on the workers or the
// batches. A run's error ends its series with Status Failure. It returns
// the kept outputs of every series in run order and their outcomes.
// It panics if run is nil, series < 0, a pilot is outside [1, cap], the
// number of values changes between runs of a series, or p.Precision is
// zero or invalid (programmer errors); a panic in run is re-raised as
// For does.
func Until[T any](series int, p Plan, run func(s, r int) (T, []float64, error)) ([][]T, []Outcome) {
	switch err := p.Precision.Validate(); {
	case run == nil:
		panic("mc: Until: run is nil")
	case series < 0:
		panic(fmt.Sprintf("mc: Until: series = %d, want ≥ 0", series))
	case err != nil:
		panic("mc: Until: " + err.Error())
	case p.Precision.IsZero():
		panic("mc: Until: Plan.Precision is zero, want a target")
	}
	ss := make([]*sequence[T], series)
	for s := range ss {
		pilot := 1
		if p.Pilot != nil {
			pilot = p.Pilot(s)
		}
		if pilot < 1 || pilot > p.Precision.Cap() {
			panic(fmt.Sprintf("mc: Until: Pilot(%d) = %d, want in [1, %d]", s, pilot, p.Precision.Cap()))
		}
		ss[s] = &sequence[T]{pilot: pilot, oc: Outcome{Status: loadlab.NotTerminated}}
	}
	tq := tQuantiles{}
	for open := series; open > 0; {
		var jobs [][2]int
		for s, sq := range ss {
			if sq.oc.Status == loadlab.NotTerminated {
				for r := range sq.batch(p.Precision, p.Workers, open) {
					jobs = append(jobs, [2]int{s, len(sq.out) + r})
				}
			}
		}
		outs, vals, errs := make([]T, len(jobs)), make([][]float64, len(jobs)), make([]error, len(jobs))
		For(len(jobs), p.Workers, func(j int) { outs[j], vals[j], errs[j] = run(jobs[j][0], jobs[j][1]) })
		kept := 0
		for j, job := range jobs {
			if sq := ss[job[0]]; sq.oc.Status == loadlab.NotTerminated {
				sq.take(outs[j], vals[j], errs[j], p.Precision, tq)
			}
		}
		open = 0
		for _, sq := range ss {
			kept += len(sq.out)
			if sq.oc.Status == loadlab.NotTerminated {
				open++
			}
		}
		if p.Round != nil {
			p.Round(kept, open)
		}
	}
	out, oc := make([][]T, series), make([]Outcome, series)
	for s, sq := range ss {
		out[s], oc[s] = sq.out, sq.oc
		oc[s].Runs = len(sq.out)
		oc[s].Est, oc[s].Short = make([]loadlab.Estimate, len(sq.vals)), -1
		for q, v := range sq.vals {
			oc[s].Est[q] = Estimate(v)
			if sq.oc.Status == loadlab.IterationLimit && oc[s].Short < 0 && !(sq.tr[q].off && p.Precision.Met(oc[s].Est[q])) {
				oc[s].Short = q
			}
		}
	}
	return out, oc
}

// sequence is the state of one series of Until: its kept outputs and
// values, a running summary per quantity, and its outcome (NotTerminated
// while it runs).
type sequence[T any] struct {
	pilot int
	out   []T
	vals  [][]float64 // [quantity][run]
	tr    []tracker
	oc    Outcome
}

// batch returns the number of runs to compute for the sequence in the
// next round (open sequences share it): the pilot first, then Batch, or,
// with Batch 0, 1.1 times the runs projected to reach the target by the
// normal approximation (n·(w/h)² − n), at least n/16 (so that a
// projection that keeps falling short costs few rounds) and enough to
// occupy the workers, at most n; never beyond the cap.
func (sq *sequence[T]) batch(p loadlab.Precision, workers, open int) int {
	n := len(sq.out)
	if n < sq.pilot {
		return sq.pilot - n
	}
	b := p.Batch
	if b == 0 {
		lo := (par.Workers(workers) + open - 1) / open
		b = n
		more := 0.0
		for q := range sq.tr {
			more = math.Max(more, sq.tr[q].projected(p))
		}
		if more < float64(n) { // a finite projection below doubling
			b = int(math.Ceil(1.1 * more))
		}
		b = max(b, lo, (n+15)/16)
	}
	return min(b, p.Cap()-n)
}

// take consumes run len(sq.out) of the sequence and looks at the
// estimates when the pilot is done.
func (sq *sequence[T]) take(out T, vals []float64, err error, p loadlab.Precision, tq tQuantiles) {
	if err != nil {
		sq.oc.Status, sq.oc.Err = loadlab.Failure, err
		return
	}
	if sq.tr == nil {
		sq.tr = make([]tracker, len(vals))
		sq.vals = make([][]float64, len(vals))
		for q := range sq.tr {
			sq.tr[q].counts = map[float64]int{}
		}
	}
	if len(vals) != len(sq.tr) {
		panic(fmt.Sprintf("mc: Until: run returned %d values after %d", len(vals), len(sq.tr)))
	}
	sq.out = append(sq.out, out)
	for q, x := range vals {
		sq.vals[q] = append(sq.vals[q], x)
		sq.tr[q].push(x)
	}
	n := len(sq.out)
	switch {
	case n >= sq.pilot && sq.met(p, tq):
		sq.oc.Status = loadlab.Success
	case n >= p.Cap():
		sq.oc.Status = loadlab.IterationLimit
	}
}

// met applies the stopping rule to the runs so far: the running
// summaries screen (off-mode count, then the half-width with the normal
// and then the Student-t quantile), and Estimate of the kept values
// decides, so that a stop always reports an interval that meets the
// target.
func (sq *sequence[T]) met(p loadlab.Precision, tq tQuantiles) bool {
	for q := range sq.tr {
		if !sq.tr[q].screen(p, tq) {
			return false
		}
	}
	for _, v := range sq.vals {
		if !p.Met(Estimate(v)) {
			return false
		}
	}
	return true
}

// tracker is the running summary of one watched quantity: Welford's
// mean and sum of squared deviations, and the count of values off the
// most frequent one (counts is dropped once off reaches
// loadlab.MinOffMode: the count never decreases).
type tracker struct {
	n        int
	mean, m2 float64
	counts   map[float64]int
	best     int
	off      bool // at least MinOffMode values differ from the most frequent
}

func (t *tracker) push(x float64) {
	t.n++
	d := x - t.mean
	t.mean += d / float64(t.n)
	t.m2 += d * (x - t.mean)
	if t.off {
		return
	}
	t.counts[x]++
	t.best = max(t.best, t.counts[x])
	if t.n-t.best >= loadlab.MinOffMode {
		t.off, t.counts = true, nil
	}
}

// target returns the half-width the quantity must reach at its current
// mean: the larger of Abs and Rel·|mean| (those set).
func (t *tracker) target(p loadlab.Precision) float64 {
	return math.Max(p.Abs, p.Rel*math.Abs(t.mean))
}

// sd returns the running sample standard deviation (NaN below two runs).
func (t *tracker) sd() float64 {
	if t.n < 2 {
		return math.NaN()
	}
	return math.Sqrt(t.m2 / float64(t.n-1))
}

// screen reports whether the running summary passes the rule: enough
// values off the mode and t_{0.975,n−1}·s/√n ≤ target (tried with the
// normal quantile 1.96 < t first, which spares most quantile
// evaluations).
func (t *tracker) screen(p loadlab.Precision, tq tQuantiles) bool {
	if !t.off {
		return false
	}
	h, se := t.target(p), t.sd()/math.Sqrt(float64(t.n))
	if !(1.959963984540054*se <= h) {
		return false
	}
	return tq.at(t.n-1)*se <= h
}

// projected returns the further runs the normal approximation says the
// quantity needs for its target, n·(z·s/√n / h)² − n, or +Inf while it
// is not off its mode or has no finite projection.
func (t *tracker) projected(p loadlab.Precision) float64 {
	if !t.off {
		return math.Inf(1)
	}
	w := 1.959963984540054 * t.sd() / math.Sqrt(float64(t.n))
	r := w / t.target(p)
	need := float64(t.n) * r * r
	if math.IsNaN(need) {
		return math.Inf(1)
	}
	return need - float64(t.n)
}

// tQuantiles caches t_{0.975,ν} by degrees of freedom ν for one call
// of Until (the screen asks for the same few values many times).
type tQuantiles map[int]float64

func (c tQuantiles) at(df int) float64 {
	q, ok := c[df]
	if !ok {
		q = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
		c[df] = q
	}
	return q
}
