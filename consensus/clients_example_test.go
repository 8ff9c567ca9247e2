package consensus_test

import (
	"fmt"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Three servers on a path share a limit of 9 among six clients that ask
// 12 in all; each server splits its limit by water-filling. At the
// equilibrium of the Amount measure every server is throttled by the
// same amount, 1: servers 0, 1 and 2 keep limits 1, 3 and 5. Server 2
// serves its smallest client in full and gives the others 2 each; the
// ratio index is that of the ratios (1/2, 1/2, 3/4, 2/3, 1, 1), the
// amount index that of the grants (1/2, 1/2, 3, 2, 2, 1): 81/111.
func ExampleSimulateClients() {
	g, err := gen.Path(3)
	if err != nil {
		panic(err)
	}
	th := &consensus.Throttler{Graph: g, Gamma: 0.2}
	cl := &consensus.Clients{Server: []int{0, 0, 1, 2, 2, 2}, Split: consensus.WaterFillSplit}
	d := &consensus.ClientStationary{Mean: []float64{1, 1, 4, 3, 2, 1}} // no noise
	ct, err := consensus.SimulateClients(th, cl, d, []float64{3, 3, 3}, 300, nil)
	if err != nil {
		panic(err)
	}
	k := ct.Servers.Steps - 1
	fmt.Printf("limits: %.2f\n", ct.Servers.Final)
	fmt.Printf("last cycle: ratio index %.2f, amount index %.2f\n", ct.JainRatio[k], ct.JainAmount[k])
	// Over the run, the transient from x0 included:
	for j := range ct.Requested {
		fmt.Printf("client %d on server %d: throttled share %.2f\n", j, cl.Server[j], 1-ct.Granted[j]/ct.Requested[j])
	}
	// Output:
	// limits: [1.00 3.00 5.00]
	// last cycle: ratio index 0.93, amount index 0.73
	// client 0 on server 0: throttled share 0.49
	// client 1 on server 0: throttled share 0.49
	// client 2 on server 1: throttled share 0.25
	// client 3 on server 2: throttled share 0.34
	// client 4 on server 2: throttled share 0.01
	// client 5 on server 2: throttled share 0.00
}
