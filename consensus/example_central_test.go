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
