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

// MonteCarlo sets up EstimateRho.
type MonteCarlo struct {
	Runs    int    // independent runs, ≥ 2
	Steps   int    // steps averaged per run, ≥ 1
	Burn    int    // steps discarded at the start of each run, ≥ 0
	Seed    uint64 // root seed; run i is SimulateRho on the stream loadlab.Stream(Seed, i)
	Workers int    // goroutines; ≤ 0 means GOMAXPROCS (par.Workers)
	// Network, if not nil, runs every run on that imperfect network
	// (SimulateRhoNetwork; spec deployed §1): the estimate of the
	// expected ρ under delay, loss and asynchrony at any size, where
	// SecondMomentRho stops (spec deployed §2.6). Its Src is not used:
	// each run draws the network's randomness from its own stream. Nil:
	// the ideal network.
	Network *Network
	// Precision, if not zero, makes Runs the pilot: runs are added until
	// ρ's 95 % half-width is ≤ Abs or ≤ Rel·ρ̂ (docs/specs/monte-carlo.md
	// §2), at most Precision.MaxRuns, which must be ≥ Runs. Zero: Runs
	// runs.
	Precision loadlab.Precision
}

// EstimateRho's result is the shared loadlab.Estimate: the mean over runs
// with its 95 % Student-t interval, standard error and N = Runs.

// Validate checks the settings: Runs ≥ 2 (and within the memory
// budget), Steps ≥ 1, Burn ≥ 0, Burn + Steps without overflow, and a
// valid Precision whose cap is at least Runs (and within the memory
// budget). Errors wrap loadlab.ErrInvalid and name the field.
func (m MonteCarlo) Validate() error {
	if err := m.Precision.Validate(); err != nil {
		return fmt.Errorf("consensus: MonteCarlo: %w", err)
	}
	runs, what := m.Runs, "MonteCarlo.Runs"
	if !m.Precision.IsZero() {
		if m.Runs > m.Precision.Cap() {
			return loadlab.Invalid("consensus", "MonteCarlo.Runs = %d (the pilot), above Precision.MaxRuns = %d", m.Runs, m.Precision.Cap())
		}
		runs, what = m.Precision.Cap(), "MonteCarlo.Precision.MaxRuns"
	}
	switch {
	case m.Runs < 2:
		return loadlab.Invalid("consensus", "MonteCarlo.Runs = %d, want ≥ 2", m.Runs)
	case m.Steps < 1:
		return loadlab.Invalid("consensus", "MonteCarlo.Steps = %d, want ≥ 1", m.Steps)
	case m.Burn < 0:
		return loadlab.Invalid("consensus", "MonteCarlo.Burn = %d, want ≥ 0", m.Burn)
	case m.Burn > math.MaxInt-m.Steps:
		return loadlab.TooLarge("consensus", "MonteCarlo.Burn + Steps = %d + %d overflows int", m.Burn, m.Steps)
	}
	if err := validateRunNetwork(m.Network); err != nil {
		return fmt.Errorf("consensus: MonteCarlo: %w", err)
	}
	return size.Check("consensus", what, runs, 8+16) // a mean and an error per run
}

// validateRunNetwork validates a network whose randomness each run draws
// from its own stream: its Src, unused, may be nil.
func validateRunNetwork(nw *Network) error {
	if nw == nil {
		return nil
	}
	own := *nw
	if own.Src == nil {
		own.Src = rand.NewPCG(0, 0)
	}
	return own.Validate()
}

// EstimateRho estimates the H2 measure ρ of traffic t (spec §4.3) by
// simulating th end to end (Simulate with StationaryDemand for Case1,
// RandomWalkDemand for Case2 and Case2T) from x = 0 and zero mean demand,
// averaging the dispersion ‖M_n p(k)‖² over Steps steps after Burn
// steps in each run. The runs are independent, so the interval over
// run means is a valid confidence interval for the stationary mean (up
// to the bias of an unfinished burn-in, which decays like ς(γ)^{2·Burn}).
// Results do not depend on Workers. The closed forms hold for the linear
// measure, so th.Measure must be Amount.
//
// With m.Precision not zero, m.Runs is the pilot and runs m.Runs, m.Runs
// + 1, … are added, looked at one by one in run order, until the
// interval's half-width is ≤ Abs or ≤ Rel·|mean| with at least
// loadlab.MinOffMode run means off the most frequent one (the rule of
// docs/specs/monte-carlo.md §2); N is the runs used, and the estimate is
// the fixed one with Runs = N, whatever the workers or Precision.Batch.
// At Precision.MaxRuns it returns the estimate over those runs with an
// error wrapping loadlab.ErrNotConverged.
//
// Errors: those of Throttler.Validate and Rho (Measure must be Amount),
// of MonteCarlo.Validate, an error wrapping loadlab.ErrTooLarge when
// the trajectories of the runs in flight (Burn + Steps steps of 48
// bytes, once per worker) exceed the memory budget, and the first error
// of a run. It panics if th is nil.
func EstimateRho(th *Throttler, t Traffic, sigma float64, m MonteCarlo) (loadlab.Estimate, error) {
	if err := th.validateLinear("EstimateRho"); err != nil {
		return loadlab.Estimate{}, err
	}
	if err := validateRhoArgs(t, th.Gamma, sigma); err != nil {
		return loadlab.Estimate{}, err
	}
	if err := m.Validate(); err != nil {
		return loadlab.Estimate{}, err
	}
	inFlight := m.Runs
	if !m.Precision.IsZero() {
		inFlight = m.Precision.Cap()
	}
	workers := min(par.Workers(m.Workers), inFlight)
	if err := size.Check("consensus", "EstimateRho: MonteCarlo.Burn + Steps", m.Burn+m.Steps, trajectoryBytes*workers); err != nil {
		return loadlab.Estimate{}, err
	}
	if !m.Precision.IsZero() {
		return estimateRhoPrecise(th, t, sigma, m)
	}
	means := make([]float64, m.Runs)
	errs := make([]error, m.Runs)
	mc.For(m.Runs, m.Workers, func(i int) {
		means[i], errs[i] = simulateRho(th, t, sigma, m.Steps, m.Burn, m.Network, loadlab.Stream(m.Seed, uint64(i)))
	})
	for _, err := range errs {
		if err != nil {
			return loadlab.Estimate{}, err
		}
	}
	return mc.Estimate(means), nil
}

// estimateRhoPrecise is EstimateRho with m.Precision not zero: one
// series of mc.Until watching ρ.
func estimateRhoPrecise(th *Throttler, t Traffic, sigma float64, m MonteCarlo) (loadlab.Estimate, error) {
	plan := mc.Plan{Precision: m.Precision, Workers: m.Workers, Pilot: func(int) int { return m.Runs }}
	_, oc := mc.Until(1, plan, func(_, i int) (struct{}, []float64, error) {
		x, err := simulateRho(th, t, sigma, m.Steps, m.Burn, m.Network, loadlab.Stream(m.Seed, uint64(i)))
		return struct{}{}, []float64{x}, err
	})
	switch o := oc[0]; o.Status {
	case loadlab.Failure:
		return loadlab.Estimate{}, o.Err
	case loadlab.IterationLimit:
		e := o.Est[0]
		return e, loadlab.Wrap(loadlab.ErrNotConverged, "consensus", "EstimateRho: ρ = %.6g ± %.3g after Precision.MaxRuns = %d runs, short of Precision (Rel = %g, Abs = %g)",
			e.Mean, e.HalfWidth(), o.Runs, m.Precision.Rel, m.Precision.Abs)
	}
	return oc[0].Est[0], nil
}

// SimulateRho is one run of EstimateRho: it simulates th from x = 0
// with zero-mean demand of traffic t at noise level σ drawn from src
// (StationaryDemand for Case1, RandomWalkDemand for Case2 and Case2T)
// for burn + steps steps, and returns the mean dispersion ‖M_n p(k)‖²
// over the last steps. Run i of EstimateRho is
// SimulateRho(th, t, σ, m.Steps, m.Burn, loadlab.Stream(m.Seed, i)), and
// EstimateRho's estimate is the summary of its runs in run order, so a
// sweep split across processes (loadlab sweep) reproduces it bit for bit.
// The simulation runs on one goroutine (the runs are the parallel loop).
// Errors are those of EstimateRho for th, t and σ, an error wrapping
// loadlab.ErrInvalid for steps < 1 or burn < 0, one wrapping
// loadlab.ErrTooLarge when the trajectory exceeds the memory budget, and
// Simulate's. It panics if th or src is nil.
func SimulateRho(th *Throttler, t Traffic, sigma float64, steps, burn int, src rand.Source) (float64, error) {
	if src == nil {
		panic("consensus: SimulateRho: nil rand.Source src")
	}
	if err := checkRhoRun("SimulateRho", th, t, sigma, steps, burn); err != nil {
		return 0, err
	}
	return simulateRho(th, t, sigma, steps, burn, nil, src)
}

// SimulateRhoNetwork is SimulateRho on the imperfect network nw (spec
// deployed §1): run r of EstimateRho with MonteCarlo.Network = nw. The
// network's randomness comes from src too (its first draw keys a stream
// of its own; nw.Src is not used), so a run is a function of src alone.
// A nil nw is the ideal network: SimulateRho. Errors: SimulateRho's and
// Network.Validate's; it panics as SimulateRho does.
func SimulateRhoNetwork(th *Throttler, t Traffic, sigma float64, steps, burn int, nw *Network, src rand.Source) (float64, error) {
	if src == nil {
		panic("consensus: SimulateRhoNetwork: nil rand.Source src")
	}
	if err := validateRunNetwork(nw); err != nil {
		return 0, err
	}
	if err := checkRhoRun("SimulateRhoNetwork", th, t, sigma, steps, burn); err != nil {
		return 0, err
	}
	return simulateRho(th, t, sigma, steps, burn, nw, src)
}

// checkRhoRun checks the arguments of one run of EstimateRho (function
// fn): a linear throttler, the traffic case and σ, steps ≥ 1, burn ≥ 0,
// and the run's record within the memory budget.
func checkRhoRun(fn string, th *Throttler, t Traffic, sigma float64, steps, burn int) error {
	if err := th.validateLinear(fn); err != nil {
		return err
	}
	if err := validateRhoArgs(t, th.Gamma, sigma); err != nil {
		return err
	}
	switch {
	case steps < 1:
		return loadlab.Invalid("consensus", "%s: steps = %d, want ≥ 1", fn, steps)
	case burn < 0:
		return loadlab.Invalid("consensus", "%s: burn = %d, want ≥ 0", fn, burn)
	case burn > math.MaxInt-steps:
		return loadlab.TooLarge("consensus", "%s: burn + steps = %d + %d overflows int", fn, burn, steps)
	}
	return size.Check("consensus", fn+": burn + steps", burn+steps, trajectoryBytes)
}

// simulateRho is SimulateRho (on the network nw, nil: ideal) after its
// checks.
func simulateRho(th *Throttler, t Traffic, sigma float64, steps, burn int, nw *Network, src rand.Source) (float64, error) {
	n := th.Graph.Order()
	zero := make([]float64, n)
	if nw != nil {
		own := *nw
		own.Src = rand.NewPCG(src.Uint64(), 0x5eed)
		nw = &own
	}
	var d Demand
	switch t {
	case Case1:
		d = &StationaryDemand{Mean: zero, Sigma: sigma, Src: src}
	case Case2:
		d = &RandomWalkDemand{Start: zero, Sigma: sigma, Src: src}
	case Case2T:
		d = &RandomWalkDemand{Start: zero, Sigma: sigma, Dt: th.Gamma, Src: src}
	}
	tr, err := Simulate(th, d, zero, burn+steps, &Settings{Workers: 1, Network: nw})
	if err != nil {
		return 0, err
	}
	var s float64
	for _, v := range tr.Dispersion[burn:] {
		s += v
	}
	return s / float64(steps), nil
}
