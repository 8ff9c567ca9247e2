package consensus

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
)

// Regime is the Gaussian stationary regime in which over-throttling is
// estimated (spec deployed §4): demand r(k) = Mean + v(k) with
// v(k) ~ N(0, Sigma² I) i.i.d. (throttlers §4.2 Case 1) and the total
// limit LTotal, from the limits x* = Mean − (Σ Mean − LTotal)/n · 1
// (the Amount equilibrium).
type Regime struct {
	Mean   []float64 // the mean demand r̄ of every server, finite
	Sigma  float64   // the noise level σ, finite and ≥ 0
	LTotal float64   // the total limit l_total, finite and ≥ 0
}

// Validate checks the regime: Mean not empty and finite, Sigma and
// LTotal finite and ≥ 0. The errors wrap loadlab.ErrInvalid and name the
// field.
func (g Regime) Validate() error {
	if len(g.Mean) == 0 {
		return loadlab.Invalid("consensus", "Regime.Mean is empty, want the servers' mean demands")
	}
	for i, m := range g.Mean {
		if math.IsNaN(m) || math.IsInf(m, 0) {
			return loadlab.Invalid("consensus", "Regime.Mean[%d] = %v, want finite", i, m)
		}
	}
	if !(g.Sigma >= 0) || math.IsInf(g.Sigma, 1) {
		return loadlab.Invalid("consensus", "Regime.Sigma = %v, want finite and ≥ 0", g.Sigma)
	}
	if !(g.LTotal >= 0) || math.IsInf(g.LTotal, 1) {
		return loadlab.Invalid("consensus", "Regime.LTotal = %v, want finite and ≥ 0", g.LTotal)
	}
	return nil
}

// OverEstimate is the Monte Carlo estimate of over-throttling per cycle
// (spec deployed §4.1): the network total E O and the per-server parts
// E O_i (see Overthrottling), each the mean over runs with its 95 %
// Student-t interval.
type OverEstimate struct {
	Total  loadlab.Estimate
	Server []loadlab.Estimate
}

// EstimateOver estimates the over-throttling of th in the regime g by
// simulation (Simulate from the limits x* under StationaryDemand),
// averaging O(k) and O_i(k) over m.Steps cycles after m.Burn in each of
// m.Runs independent runs; run i is SimulateOver on the stream
// loadlab.Stream(m.Seed, i), so the result does not depend on
// m.Workers. Each run records the states of max{16, 2¹⁸/n} cycles at a
// time (8 MiB up to 16384 servers, 512 bytes per server above). The
// interval is over run means, valid up to the bias of an unfinished
// burn-in (spec deployed §4.1). It applies to every Measure; for
// Amount, ExpectedOver(th, Case1, g.Sigma, Σ g.Mean − g.LTotal) is its
// exact value.
//
// With m.Network set, every run simulates that imperfect network (spec
// deployed §1) in one segment, its randomness keyed by the run's stream;
// for a uniform delay, Spectral.OverDelay is the exact value.
//
// With m.Precision not zero, m.Runs is the pilot and runs are added
// until the 95 % half-width of Total meets it (the rule of
// docs/specs/monte-carlo.md §2, as EstimateRho); at Precision.MaxRuns
// the estimate over those runs comes with an error wrapping
// loadlab.ErrNotConverged.
//
// Errors: those of Throttler.Validate, Regime.Validate and
// MonteCarlo.Validate, an error wrapping loadlab.ErrInvalid when
// len(g.Mean) ≠ n, one wrapping loadlab.ErrTooLarge when the per-server
// record of the runs or the recorded states of the concurrent runs
// exceed the memory budget, and the first error of a run. It panics if
// th is nil.
func EstimateOver(th *Throttler, g Regime, m MonteCarlo) (OverEstimate, error) {
	if err := validateOverThrottler(th, g); err != nil {
		return OverEstimate{}, err
	}
	if err := validateOverMC(len(g.Mean), m); err != nil {
		return OverEstimate{}, err
	}
	inFlight := m.Runs
	if !m.Precision.IsZero() {
		inFlight = m.Precision.Cap()
	}
	seg := overSegment(len(g.Mean))
	if m.Network != nil {
		seg = m.Burn + m.Steps // one segment: a segment boundary would restart the delays
	}
	if err := validateSegments("EstimateOver", len(g.Mean), seg, min(par.Workers(m.Workers), inFlight)); err != nil {
		return OverEstimate{}, err
	}
	return estimateOver(m, func(steps, burn int, src rand.Source) (float64, []float64, error) {
		return simulateOver(th, g, steps, burn, m.Network, src)
	})
}

// EstimateCentralOver is EstimateOver for the centralized throttler c
// (SimulateCentral from the same limits x*, under the same demand), so
// that DST and CST compare on the same runs: run i is
// SimulateCentralOver on the stream loadlab.Stream(m.Seed, i). Errors:
// those of Central.Validate, Regime.Validate and MonteCarlo.Validate,
// ErrTooLarge as EstimateOver's, and the first error of a run. It
// panics if c is nil.
func EstimateCentralOver(c *Central, g Regime, m MonteCarlo) (OverEstimate, error) {
	if err := validateOverCentral(c, g); err != nil {
		return OverEstimate{}, err
	}
	if m.Network != nil {
		return OverEstimate{}, loadlab.Invalid("consensus", "EstimateCentralOver: MonteCarlo.Network is set: the centralized throttler exchanges nothing between servers (its lateness is Central.Delay)")
	}
	if err := validateOverMC(len(g.Mean), m); err != nil {
		return OverEstimate{}, err
	}
	return estimateOver(m, func(steps, burn int, src rand.Source) (float64, []float64, error) {
		return simulateCentralOver(c, g, steps, burn, src)
	})
}

// SimulateOver is one run of EstimateOver: it simulates th in the regime
// g from the limits x* for burn + steps cycles, drawing the demand from
// src, and returns the means over the last steps cycles of O(k) and of
// every O_i(k) (spec deployed §4.1). The simulation runs on one
// goroutine. Errors: those of EstimateOver for th and g, an error
// wrapping loadlab.ErrInvalid for steps < 1 or burn < 0 (ErrTooLarge when
// burn + steps overflows), and Simulate's. It panics if th or src is nil.
func SimulateOver(th *Throttler, g Regime, steps, burn int, src rand.Source) (float64, []float64, error) {
	if src == nil {
		panic("consensus: SimulateOver: nil rand.Source src")
	}
	if err := validateOverThrottler(th, g); err != nil {
		return 0, nil, err
	}
	if err := validateOverRun("SimulateOver", steps, burn); err != nil {
		return 0, nil, err
	}
	if err := validateSegments("SimulateOver", len(g.Mean), overSegment(len(g.Mean)), 1); err != nil {
		return 0, nil, err
	}
	return simulateOver(th, g, steps, burn, nil, src)
}

// SimulateCentralOver is one run of EstimateCentralOver: SimulateOver
// for the centralized throttler c. Errors: those of EstimateCentralOver
// for c and g, and SimulateOver's for steps and burn. It panics if c or
// src is nil.
func SimulateCentralOver(c *Central, g Regime, steps, burn int, src rand.Source) (float64, []float64, error) {
	if src == nil {
		panic("consensus: SimulateCentralOver: nil rand.Source src")
	}
	if err := validateOverCentral(c, g); err != nil {
		return 0, nil, err
	}
	if err := validateOverRun("SimulateCentralOver", steps, burn); err != nil {
		return 0, nil, err
	}
	return simulateCentralOver(c, g, steps, burn, src)
}

func validateOverThrottler(th *Throttler, g Regime) error {
	if err := th.Validate(); err != nil {
		return err
	}
	if err := g.Validate(); err != nil {
		return err
	}
	if n := th.Graph.Order(); len(g.Mean) != n {
		return loadlab.Invalid("consensus", "len(Regime.Mean) = %d, want %d", len(g.Mean), n)
	}
	return nil
}

func validateOverCentral(c *Central, g Regime) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := g.Validate(); err != nil {
		return err
	}
	return c.validateRecord(len(g.Mean))
}

// validateOverMC checks m and the memory of the per-server run means of
// n servers (m.Runs, or the cap with a Precision).
func validateOverMC(n int, m MonteCarlo) error {
	if err := m.Validate(); err != nil {
		return err
	}
	runs, what := m.Runs, "EstimateOver: MonteCarlo.Runs"
	if !m.Precision.IsZero() {
		runs, what = m.Precision.Cap(), "EstimateOver: MonteCarlo.Precision.MaxRuns"
	}
	per, ok := size.Product(n+1, 8)
	if !ok {
		return loadlab.TooLarge("consensus", "EstimateOver: %d servers overflow the run record", n)
	}
	return size.Check("consensus", what, runs, per)
}

func validateOverRun(fn string, steps, burn int) error {
	switch {
	case steps < 1:
		return loadlab.Invalid("consensus", "%s: steps = %d, want ≥ 1", fn, steps)
	case burn < 0:
		return loadlab.Invalid("consensus", "%s: burn = %d, want ≥ 0", fn, burn)
	case burn > math.MaxInt-steps:
		return loadlab.TooLarge("consensus", "%s: burn + steps = %d + %d overflows int", fn, burn, steps)
	}
	return validateTrajectorySize(1, burn+steps, false)
}

// overRun is one run: the mean O and the mean O_i over its steps.
type overRun func(steps, burn int, src rand.Source) (float64, []float64, error)

// estimateOver runs the runs of m (after its checks) and summarises
// them: Total over the run means of O, Server over those of each O_i.
func estimateOver(m MonteCarlo, run overRun) (OverEstimate, error) {
	var outs [][]float64
	var totals []float64
	var err error
	if m.Precision.IsZero() {
		outs = make([][]float64, m.Runs)
		totals = make([]float64, m.Runs)
		errs := make([]error, m.Runs)
		mc.For(m.Runs, m.Workers, func(i int) {
			totals[i], outs[i], errs[i] = run(m.Steps, m.Burn, loadlab.Stream(m.Seed, uint64(i)))
		})
		for _, e := range errs {
			if e != nil {
				return OverEstimate{}, e
			}
		}
	} else {
		plan := mc.Plan{Precision: m.Precision, Workers: m.Workers, Pilot: func(int) int { return m.Runs }}
		kept, oc := mc.Until(1, plan, func(_, i int) ([]float64, []float64, error) {
			t, srv, err := run(m.Steps, m.Burn, loadlab.Stream(m.Seed, uint64(i)))
			return append(srv, t), []float64{t}, err
		})
		switch o := oc[0]; o.Status {
		case loadlab.Failure:
			return OverEstimate{}, o.Err
		case loadlab.IterationLimit:
			e := o.Est[0]
			err = loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "EstimateOver: O = %.6g ± %.3g after Precision.MaxRuns = %d runs, short of Precision (Rel = %g, Abs = %g)",
				e.Mean, e.HalfWidth(), o.Runs, m.Precision.Rel, m.Precision.Abs)
		}
		for _, v := range kept[0] {
			outs = append(outs, v[:len(v)-1])
			totals = append(totals, v[len(v)-1])
		}
	}
	return summariseOver(totals, outs), err
}

// summariseOver is the estimate of the run means: totals[i] and
// outs[i][j] are run i's mean O and mean O_j.
func summariseOver(totals []float64, outs [][]float64) OverEstimate {
	est := OverEstimate{Total: mc.Estimate(totals)}
	if len(outs) == 0 {
		return est
	}
	col := make([]float64, len(outs))
	est.Server = make([]loadlab.Estimate, len(outs[0]))
	for j := range est.Server {
		for i, o := range outs {
			col[i] = o[j]
		}
		est.Server[j] = mc.Estimate(col)
	}
	return est
}

// overStateBytes is the memory of the states SimulateOver records at a
// time (a variable so that the tests can make segments short).
var overStateBytes = 1 << 23

// overSegment is the number of cycles SimulateOver records at a time
// (Settings.States, four vectors of n values per cycle) for n servers:
// overStateBytes of states, and at least 16 cycles, so that the set-up
// of each Simulate call (the stability check) stays a small part of a
// segment.
func overSegment(n int) int { return max(16, overStateBytes/(32*n)) }

// validateSegments refuses, before anything is allocated, the recorded
// states of the segments of workers concurrent DST runs on n servers
// beyond the memory budget.
func validateSegments(fn string, n, seg, workers int) error {
	per, ok := size.Product(4, n, seg, 8)
	if !ok {
		return loadlab.TooLarge("consensus", "%s: %d servers overflow the recorded states", fn, n)
	}
	return size.Check("consensus", fn+": the recorded states of concurrent runs", workers, per)
}

// overAccumulator sums O(k) and O_i(k) over the cycles after burn.
type overAccumulator struct {
	burn, k int
	total   float64
	server  []float64
}

// add accounts one cycle with demand r and limits x (spec deployed
// §4.1): O_i = (r_i − x_i)₊ − (r_total − l_total)₊/n.
func (a *overAccumulator) add(r, x []float64) {
	k := a.k
	a.k++
	if k < a.burn {
		return
	}
	var rt, lt float64
	for i, ri := range r {
		rt += ri
		lt += x[i]
	}
	share := max(rt-lt, 0) / float64(len(r))
	for i, ri := range r {
		o := max(ri-x[i], 0) - share
		a.server[i] += o
		a.total += o
	}
}

// means returns the means over the steps accounted.
func (a *overAccumulator) means() (float64, []float64) {
	steps := float64(a.k - a.burn)
	for i := range a.server {
		a.server[i] /= steps
	}
	return a.total / steps, a.server
}

// offsetDemand shifts the steps of a demand model, so that a simulation
// in segments draws one continuous sequence.
type offsetDemand struct {
	d   Demand
	off int
}

func (o offsetDemand) Next(k int, r []float64) error { return o.d.Next(k+o.off, r) }

// simulateOver is SimulateOver after its checks: Simulate in segments
// of overSegment cycles, each continuing from the last one's limits; on
// the imperfect network nw (nil: ideal) in one segment, the network's
// randomness keyed by the first draw of src (nw.Src is not used).
func simulateOver(th *Throttler, g Regime, steps, burn int, nw *Network, src rand.Source) (float64, []float64, error) {
	n := len(g.Mean)
	x, err := Equilibrium(Amount, g.Mean, g.LTotal)
	if err != nil {
		return 0, nil, err
	}
	total, seg := burn+steps, overSegment(n)
	if nw != nil {
		own := *nw
		own.Src = rand.NewPCG(src.Uint64(), 0x5eed)
		nw, seg = &own, total
	}
	d := &StationaryDemand{Mean: g.Mean, Sigma: g.Sigma, Src: src}
	acc := &overAccumulator{burn: burn, server: make([]float64, n)}
	for start := 0; start < total; start += seg {
		cnt := min(seg, total-start)
		tr, err := Simulate(th, offsetDemand{d, start}, x, cnt, &Settings{States: true, Workers: 1, Network: nw})
		if err != nil {
			return 0, nil, fmt.Errorf("consensus: SimulateOver: cycles from %d: %w", start, err)
		}
		for k := range cnt {
			acc.add(tr.R[k], tr.X[k])
		}
		x = tr.Final
	}
	t, s := acc.means()
	return t, s, nil
}

// simulateCentralOver is SimulateCentralOver after its checks.
func simulateCentralOver(c *Central, g Regime, steps, burn int, src rand.Source) (float64, []float64, error) {
	x, err := Equilibrium(Amount, g.Mean, g.LTotal)
	if err != nil {
		return 0, nil, err
	}
	d := &StationaryDemand{Mean: g.Mean, Sigma: g.Sigma, Src: src}
	acc := &overAccumulator{burn: burn, server: make([]float64, len(x))}
	if _, err := c.run(d, x, g.LTotal, burn+steps, false, acc.add); err != nil {
		return 0, nil, fmt.Errorf("consensus: SimulateCentralOver: %w", err)
	}
	t, s := acc.means()
	return t, s, nil
}
