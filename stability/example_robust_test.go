package stability_test

import (
	"fmt"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/stability"
)

// A C measured with 200 beacons per region: node 1 is safe on Ĉ, but
// not for every C the beacons allow.
func ExampleRobustSlack() {
	n, _ := beacon.NewCounts(3, 3,
		[]int{0, 0, 1, 1, 2, 2},
		[]int{0, 1, 1, 2, 1, 2},
		[]int64{120, 80, 160, 40, 50, 150})
	h, _ := beacon.EstimateC(n, &beacon.Settings{Support: 2})
	chat, _ := h.Matrix()
	nw, _ := anycast.NewNetwork([]float64{1, 1, 1}, chat, []float64{0.9, 0.7, 0.5})
	onHat, _ := stability.PolytopeSlack(nw)
	robust, _ := stability.RobustSlack(nw, h.Set)
	for i := range robust {
		fmt.Printf("node %d: slack on Ĉ %+.3f, robust %+.3f\n", i, onHat[i], robust[i])
	}
	// Output:
	// node 0: slack on Ĉ +0.900, robust +0.900
	// node 1: slack on Ĉ +0.050, robust -0.134
	// node 2: slack on Ĉ +0.300, robust +0.216
}
