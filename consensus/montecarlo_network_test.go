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
