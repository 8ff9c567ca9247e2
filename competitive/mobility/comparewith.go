package mobility

import (
	"fmt"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
)

// CompareSettings tunes CompareWith; a nil *CompareSettings means the
// defaults (Compare's behaviour).
type CompareSettings struct {
	// Workers is the number of goroutines; 0 means GOMAXPROCS. Results
	// do not depend on it. Negative values are an error.
	Workers int
	// Precision, if not zero, makes runs the pilot and goes on until
	// every algorithm's mean Cost (OPT's included) and every contender's
	// Ratio meet it (spec docs/specs/monte-carlo.md); zero means runs
	// runs.
	Precision loadlab.Precision
}

// Validate returns an error wrapping loadlab.ErrInvalid that names the
// field if Workers is negative or Precision is invalid. A nil
// *CompareSettings is valid.
func (s *CompareSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.Workers < 0 {
		return loadlab.Invalid(pkg, "CompareSettings.Workers = %d, want ≥ 0 (0: GOMAXPROCS)", s.Workers)
	}
	if err := s.Precision.Validate(); err != nil {
		return fmt.Errorf("%s: CompareSettings: %w", pkg, err)
	}
	return nil
}

// CompareWith is Compare with settings: the same runs (run r is
// Play(sc, cs, seed, point, r)) on set.Workers goroutines and, with
// set.Precision not zero, as many runs as the precision needs, runs
// being the pilot: the runs go on, looked at one by one in run order,
// until every algorithm's mean cost (OPT's included) and every
// contender's mean ratio cost/OPT have a 95 % half-width ≤ Abs or
// ≤ Rel·|mean|, each with at least loadlab.MinOffMode runs off its most
// frequent value (the rule of docs/specs/monte-carlo.md §2; OPT's ratio,
// 1 by definition, is not watched). The runs used are each Estimate's
// N; with N runs the result is Compare's with runs = N, whatever the
// workers or Precision.Batch. A contender whose ratio is the same in
// every run (one that always plays optimally) never meets a precision.
//
// Errors are Compare's, and those of set.Validate; with a precision, a
// pilot above Precision.MaxRuns or MaxRuns·(contenders+1) results too
// many to hold are errors too, and at the cap CompareWith returns the
// results over MaxRuns runs with an error wrapping
// loadlab.ErrNotConverged. Panics are Compare's, named CompareWith.
func CompareWith(sc Scenario, cs []Contender, runs int, seed, point uint64, set *CompareSettings) ([]Result, error) {
	return compare("CompareWith", sc, cs, runs, seed, point, set)
}

// compare is Compare and CompareWith (named fn in errors and panics).
func compare(fn string, sc Scenario, cs []Contender, runs int, seed, point uint64, set *CompareSettings) ([]Result, error) {
	if err := validateCompare(fn, sc, cs, runs); err != nil {
		return nil, err
	}
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if set == nil {
		set = &CompareSettings{}
	}
	if !set.Precision.IsZero() {
		return comparePrecise(fn, sc, cs, runs, seed, point, set)
	}
	cost := make([][]float64, len(cs)+1) // [0] is OPT
	ratio := make([][]float64, len(cs)+1)
	for i := range cost {
		cost[i] = make([]float64, runs)
		ratio[i] = make([]float64, runs)
	}
	errs := make([]error, runs)
	mc.For(runs, set.Workers, func(r int) {
		errs[r] = play(sc, cs, r, seed, point, cost, ratio)
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results(cs, cost, ratio), nil
}

// results forms the Results of OPT (first) and of every contender from
// their per-run costs and ratios.
func results(cs []Contender, cost, ratio [][]float64) []Result {
	out := make([]Result, len(cs)+1)
	out[0] = Result{"OPT", estimate(cost[0]), estimate(ratio[0])}
	for i, c := range cs {
		out[i+1] = Result{c.Name, estimate(cost[i+1]), estimate(ratio[i+1])}
	}
	return out
}

// comparePrecise is compare with a precision: one series of mc.Until
// whose watched quantities are the costs of OPT and the contenders and
// the contenders' ratios.
func comparePrecise(fn string, sc Scenario, cs []Contender, pilot int, seed, point uint64, set *CompareSettings) ([]Result, error) {
	p := set.Precision
	if pilot > p.Cap() {
		return nil, loadlab.Invalid(pkg, "%s: runs = %d (the pilot), above Precision.MaxRuns = %d", fn, pilot, p.Cap())
	}
	if err := validateCompare(fn, sc, cs, p.Cap()); err != nil {
		return nil, err
	}
	type run struct{ cost, ratio []float64 }
	plan := mc.Plan{Precision: p, Workers: set.Workers, Pilot: func(int) int { return pilot }}
	out, oc := mc.Until(1, plan, func(_, r int) (run, []float64, error) {
		c, q, err := playRun(sc, cs, seed, []uint64{point, uint64(r)})
		if err != nil {
			return run{}, nil, err
		}
		return run{c, q}, append(c[:len(c):len(c)], q[1:]...), nil
	})
	if oc[0].Status == loadlab.Failure {
		return nil, oc[0].Err
	}
	n := oc[0].Runs
	cost, ratio := make([][]float64, len(cs)+1), make([][]float64, len(cs)+1)
	for i := range cost {
		cost[i], ratio[i] = make([]float64, n), make([]float64, n)
		for r, x := range out[0] {
			cost[i][r], ratio[i][r] = x.cost[i], x.ratio[i]
		}
	}
	res := results(cs, cost, ratio)
	if q := oc[0].Short; oc[0].Status == loadlab.IterationLimit {
		what := "cost of " + res[min(q, len(cs))].Name
		if q > len(cs) {
			what = "ratio of " + res[q-len(cs)].Name
		}
		return res, loadlab.Wrap(loadlab.ErrNotConverged, pkg, "%s: short of Precision (Rel = %g, Abs = %g) after Precision.MaxRuns = %d runs (first short: %s, %.4g ± %.3g)",
			fn, p.Rel, p.Abs, n, what, oc[0].Est[q].Mean, oc[0].Est[q].HalfWidth())
	}
	return res, nil
}
