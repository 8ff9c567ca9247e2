package consensus

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestSimulateRhoNetworkIdeal: without a network, SimulateRhoNetwork is
// SimulateRho bit for bit.
func TestSimulateRhoNetworkIdeal(t *testing.T) {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	a, err := SimulateRhoNetwork(th, Case2, 1, 300, 50, nil, loadlab.Stream(3, 1))
	if err != nil {
		t.Fatal(err)
	}
	b, err := SimulateRho(th, Case2, 1, 300, 50, loadlab.Stream(3, 1))
	if err != nil || a != b {
		t.Fatalf("with nil network %v, SimulateRho %v (%v)", a, b, err)
	}
}

// TestEstimateRhoNetworkCoversSecondMoment ties the simulator of the
// imperfect network (spec deployed §1, Joint protocol) to the exact
// second-moment recursion (§2.6): with a uniform delay, independent
// loss and random ticks, EstimateRho's 95 % interval covers
// SecondMomentRho's ρ₂ in most of 40 seeds. A different ticking rule
// (a link applied when one end ticks) moves ρ₂ by about 40 % here, far
// outside the intervals (half-width about 3 %), so the check can fail.
// Coverage is binomial(40, 0.95) up to the bias of the burn-in (500
// steps, the mean contraction per step about 0.99): at least 33 of 40
// (P ≈ 0.005 of fewer under 95 % coverage).
func TestEstimateRhoNetworkCoversSecondMoment(t *testing.T) {
	g, err := gen.Cycle(6)
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: 0.15}
	const tau, q, pi = 1, 0.2, 0.8
	exact, err := SecondMomentRho(th, Case2, tau, 1, q, pi)
	if err != nil {
		t.Fatal(err)
	}
	ticks := make([]float64, g.Order())
	for i := range ticks {
		ticks[i] = pi
	}
	nw := &Network{Delay: tau, Loss: q, Tick: ticks}
	covered := 0
	for seed := range uint64(40) {
		e, err := EstimateRho(th, Case2, 1, MonteCarlo{Runs: 10, Steps: 2000, Burn: 500, Seed: seed, Network: nw})
		if err != nil {
			t.Fatal(err)
		}
		if e.Contains(exact.Rho) {
			covered++
		}
	}
	if covered < 33 {
		t.Errorf("%d of 40 intervals cover the second-moment ρ₂ = %v", covered, exact.Rho)
	}
}

// TestMonteCarloNetworkErrors: a bad network is an error of
// MonteCarlo.Validate naming the field; a network unstable under its
// delay is ErrUnstable from the runs.
func TestMonteCarloNetworkErrors(t *testing.T) {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	_, err := EstimateRho(th, Case2, 1, MonteCarlo{Runs: 2, Steps: 5, Network: &Network{Loss: 1}})
	if !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("loss 1: %v", err)
	}
	_, err = EstimateRho(&Throttler{Graph: path5(), Gamma: 0.5}, Case2, 1, MonteCarlo{Runs: 2, Steps: 5, Network: &Network{Delay: 4}})
	if !errors.Is(err, loadlab.ErrUnstable) {
		t.Errorf("γ = 0.5 with delay 4 on a path (a* = 0.347 < 0.5·λ_n): %v", err)
	}
	_, err = SimulateRhoNetwork(th, Case2, 1, 0, 0, &Network{}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("steps 0: %v", err)
	}
}

// TestEstimateOverDelayCoversExact: over-throttling of the delayed
// throttler (spec deployed §4.2 with the delayed nodal ρ): EstimateOver
// on a network with a uniform delay covers Spectral.OverDelay in most of
// 30 seeds (at least 25: P ≈ 0.002 of fewer under 95 % coverage), and
// the delay costs (the closed form at τ = 2 exceeds the one at τ = 0 by
// far more than the intervals' width).
func TestEstimateOverDelayCoversExact(t *testing.T) {
	g, err := gen.Cycle(8)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSpectral(g)
	if err != nil {
		t.Fatal(err)
	}
	const tau, gamma, sigma = 2, 0.1, 2.0
	mean := []float64{5, 6, 7, 8, 9, 8, 7, 6}
	reg := Regime{Mean: mean, Sigma: sigma, LTotal: 56}
	exact, err := sp.OverDelay(Case1, tau, gamma, sigma, 0)
	if err != nil {
		t.Fatal(err)
	}
	undelayed, err := sp.Over(Case1, gamma, sigma, 0)
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: gamma}
	covered := 0
	var hw float64
	for seed := range uint64(30) {
		e, err := EstimateOver(th, reg, MonteCarlo{Runs: 10, Steps: 1500, Burn: 300, Seed: seed, Network: &Network{Delay: tau}})
		if err != nil {
			t.Fatal(err)
		}
		if e.Total.Contains(exact.Total) {
			covered++
		}
		hw = max(hw, e.Total.HalfWidth())
	}
	if covered < 25 {
		t.Errorf("%d of 30 intervals cover E O = %v under delay %d", covered, exact.Total, tau)
	}
	if !(exact.Total-undelayed.Total > 4*hw) {
		t.Errorf("E O %v with delay, %v without: the delay should cost more than the intervals' width %v", exact.Total, undelayed.Total, hw)
	}
	if _, err := EstimateCentralOver(&Central{}, reg, MonteCarlo{Runs: 2, Steps: 5, Network: &Network{Delay: 1}}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("a network for the centralized throttler: %v", err)
	}
}
