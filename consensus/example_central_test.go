package consensus_test

import (
	"fmt"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// A centralized throttler splitting 12 requests per cycle in proportion
// to demand: without delay it accepts the ideal min{r_total, l_total}
// every cycle; one cycle late it over-throttles when demand moves.
func ExampleSimulateCentral() {
	demand := consensus.TraceDemand{{2, 2, 2, 2}, {6, 1, 1, 1}, {1, 6, 1, 1}, {1, 1, 6, 1}}
	x0 := []float64{3, 3, 3, 3} // l_total = 12
	for _, d := range []int{0, 1} {
		tr, err := consensus.SimulateCentral(&consensus.Central{Rule: consensus.Proportional, Delay: d}, demand, x0, 4, nil)
		if err != nil {
			panic(err)
		}
		fmt.Printf("delay %d: accepted %.3g, ideal %.3g, over-throttling %.3g\n", d, tr.ATotal, tr.Ideal, tr.Over)
	}
	// Output:
	// delay 0: accepted [8 9 9 9], ideal [8 9 9 9], over-throttling [0 0 0 0]
	// delay 1: accepted [8 6 4.33 4.33], ideal [8 9 9 9], over-throttling [0 3 4.67 4.67]
}

// The expected over-throttling of the distributed throttler on a path of
// four servers in the Gaussian stationary regime (Case 1), exact, with
// the update cycle that minimises it under random-walk demand (Case 2,
// at r_total = l_total) beside γ*_H2.
func ExampleExpectedOver() {
	g, err := gen.Path(4)
	if err != nil {
		panic(err)
	}
	th := &consensus.Throttler{Graph: g, Gamma: 0.4}
	o, err := consensus.ExpectedOver(th, consensus.Case1, 1, 0) // σ = 1, r̄_total = l_total
	if err != nil {
		panic(err)
	}
	fmt.Printf("E O = %.4f per cycle, servers %.4f\n", o.Total, o.Server)
	s, err := consensus.NewSpectral(g)
	if err != nil {
		panic(err)
	}
	gh, _, _ := s.GammaH2(1)
	gov, over, _ := s.GammaOver(1, 0)
	fmt.Printf("γ*_H2 = %.4f, γ minimising over-throttling = %.4f (E O = %.4f)\n", gh, gov, over.Total)
	// Output:
	// E O = 1.2947 per cycle, servers [0.2693 0.3780 0.3780 0.2693]
	// γ*_H2 = 0.4287, γ minimising over-throttling = 0.4237 (E O = 1.7006)
}

// DST against CST on the same demand: eight servers on a ring with
// unequal mean demands, σ = 2, and a total limit just below the mean
// total demand. The CST's runs see the same draws as the DST's.
func ExampleEstimateCentralOver() {
	g, err := gen.Cycle(8)
	if err != nil {
		panic(err)
	}
	regime := consensus.Regime{Mean: []float64{10, 20, 30, 40, 10, 20, 30, 40}, Sigma: 2, LTotal: 196}
	m := consensus.MonteCarlo{Runs: 20, Steps: 200, Burn: 50, Seed: 1}
	dst, err := consensus.EstimateOver(&consensus.Throttler{Graph: g, Gamma: 0.3}, regime, m)
	if err != nil {
		panic(err)
	}
	th := &consensus.Throttler{Graph: g, Gamma: 0.3}
	exact, err := consensus.ExpectedOver(th, consensus.Case1, 2, 200-196) // r̄_total − l_total
	if err != nil {
		panic(err)
	}
	fmt.Printf("DST (γ = 0.3):       E O = %.2f ± %.2f (exact %.2f)\n", dst.Total.Mean, dst.Total.HalfWidth(), exact.Total)
	for _, c := range []consensus.Central{{Delay: 1}, {Delay: 4}, {Rule: consensus.Equal}} {
		e, err := consensus.EstimateCentralOver(&c, regime, m)
		if err != nil {
			panic(err)
		}
		fmt.Printf("CST %-12v d = %d: E O = %.2f ± %.2f\n", c.Rule, c.Delay, e.Total.Mean, e.Total.HalfWidth())
	}
	// Output:
	// DST (γ = 0.3):       E O = 5.41 ± 0.07 (exact 5.39)
	// CST proportional d = 1: E O = 6.13 ± 0.07
	// CST proportional d = 4: E O = 6.05 ± 0.07
	// CST equal        d = 0: E O = 37.24 ± 0.09
}
