package consensus_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Six servers on a ring whose exchanges arrive two cycles late and are
// lost 20 % of the time in bursts of mean length 3, under the Joint
// protocol (spec deployed §1): the total limit stays exactly 600, and the
// limits still reach the demand (γλ_n = 0.4 is below the limit
// 2 sin(π/10) ≈ 0.618 of delay 2). 1788 = 6 links × 298 cycles: none is
// due before the first measures arrive.
func ExampleSimulate_network() {
	g, err := gen.Cycle(6)
	if err != nil {
		panic(err)
	}
	th := &consensus.Throttler{Graph: g, Gamma: 0.1}
	r := []float64{200, 40, 150, 60, 100, 50}
	x0 := []float64{100, 100, 100, 100, 100, 100}
	d := make(consensus.TraceDemand, 300)
	for k := range d {
		d[k] = r
	}
	nw := &consensus.Network{Delay: 2, Loss: 0.2, Burst: 3, Src: rand.NewPCG(1, 2)}
	tr, err := consensus.Simulate(th, d, x0, 300, &consensus.Settings{Network: nw})
	if err != nil {
		panic(err)
	}
	var due, lost int
	for k := range tr.Steps {
		due += tr.Exchanges.Due[k]
		lost += tr.Exchanges.Lost[k]
	}
	var total float64
	for _, x := range tr.Final {
		total += x
	}
	fmt.Printf("lost %.0f %% of %d exchanges\n", 100*float64(lost)/float64(due), due)
	fmt.Printf("total limit %v\n", total)
	fmt.Printf("limits %.1f\n", tr.Final) // x* = r: the demand total is 600 too
	// Output:
	// lost 20 % of 1788 exchanges
	// total limit 600
	// limits [200.0 40.0 150.0 60.0 100.0 50.0]
}
