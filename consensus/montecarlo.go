package consensus

import (
	"fmt"

	"github.com/loadlab/loadlab/internal/mc"
)

// MonteCarlo sets up EstimateRho.
type MonteCarlo struct {
	Runs    int    // independent runs, ≥ 2
	Steps   int    // steps averaged per run, ≥ 1
	Burn    int    // steps discarded at the start of each run, ≥ 0
	Seed    uint64 // root seed; run i uses the stream mc.Source(Seed, i)
	Workers int    // goroutines; ≤ 0 means GOMAXPROCS
}

// Estimate is a Monte Carlo estimate with a 95% Student-t confidence
// interval over independent runs.
type Estimate struct {
	Mean, StdErr, Lo, Hi float64
	Runs                 int
}

// EstimateRho estimates the H2 measure ρ of traffic t (spec §4.3) by
// simulating net end to end (Simulate with StationaryDemand for Case1,
// RandomWalkDemand for Case2 and Case2T) from x = 0 and zero mean demand,
// averaging the dispersion ‖M_n p(k)‖² over Steps steps after Burn
// steps in each run. The runs are independent, so the interval over
// run means is a valid confidence interval for the stationary mean (up
// to the bias of an unfinished burn-in, which decays like ς(γ)^{2·Burn}).
// Results do not depend on Workers. The closed forms hold for the linear
// measure, so net.Measure must be Amount.
func EstimateRho(net *Network, t Traffic, sigma float64, m MonteCarlo) (Estimate, error) {
	if err := net.validate(); err != nil {
		return Estimate{}, err
	}
	if err := checkRhoArgs(t, net.Gamma, sigma); err != nil {
		return Estimate{}, err
	}
	if net.Measure != Amount {
		return Estimate{}, fmt.Errorf("consensus: EstimateRho: Measure = %v: the H2 measures are defined for Amount", net.Measure)
	}
	if m.Runs < 2 || m.Steps < 1 || m.Burn < 0 {
		return Estimate{}, fmt.Errorf("consensus: EstimateRho: Runs = %d, Steps = %d, Burn = %d: want ≥ 2, ≥ 1, ≥ 0", m.Runs, m.Steps, m.Burn)
	}
	n := net.Graph.Order()
	means := make([]float64, m.Runs)
	errs := make([]error, m.Runs)
	mc.For(m.Runs, m.Workers, func(i int) {
		src := mc.Source(m.Seed, uint64(i))
		zero := make([]float64, n)
		var d Demand
		switch t {
		case Case1:
			d = &StationaryDemand{Mean: zero, Sigma: sigma, Src: src}
		case Case2:
			d = &RandomWalkDemand{Start: zero, Sigma: sigma, Src: src}
		case Case2T:
			d = &RandomWalkDemand{Start: zero, Sigma: sigma, Dt: net.Gamma, Src: src}
		}
		tr, err := Simulate(net, d, zero, m.Burn+m.Steps, nil)
		if err != nil {
			errs[i] = err
			return
		}
		var s float64
		for _, v := range tr.Dispersion[m.Burn:] {
			s += v
		}
		means[i] = s / float64(m.Steps)
	})
	for _, err := range errs {
		if err != nil {
			return Estimate{}, err
		}
	}
	sum := mc.Summarize(means)
	return Estimate{Mean: sum.Mean, StdErr: sum.StdErr, Lo: sum.Lo, Hi: sum.Hi, Runs: sum.N}, nil
}
