package beacon_test

import (
	"fmt"

	"github.com/loadlab/loadlab/anycast/beacon"
)

// Two regions' beacons: region 0 landed 80 times at proxy 0 and 20 at
// proxy 1; region 1 landed 50 times at each.
func ExampleEstimateC() {
	n, err := beacon.NewCounts(2, 2, []int{0, 0, 1, 1}, []int{0, 1, 0, 1}, []int64{80, 20, 50, 50})
	if err != nil {
		panic(err)
	}
	h, err := beacon.EstimateC(n, nil)
	if err != nil {
		panic(err)
	}
	for j := 0; j < 2; j++ {
		for i := 0; i < 2; i++ {
			e := h.Estimate(j, i)
			fmt.Printf("C[%d][%d] = %.2f  95%% [%.3f, %.3f]\n", j, i, e.Mean, e.Lo, e.Hi)
		}
	}
	_, lo, hi, _ := h.Set.Row(0)
	fmt.Printf("simultaneous 95%% set, row 0: [%.3f, %.3f] and [%.3f, %.3f]\n", lo[0], hi[0], lo[1], hi[1])
	// Output:
	// C[0][0] = 0.80  95% [0.708, 0.873]
	// C[0][1] = 0.20  95% [0.127, 0.292]
	// C[1][0] = 0.50  95% [0.398, 0.602]
	// C[1][1] = 0.50  95% [0.398, 0.602]
	// simultaneous 95% set, row 0: [0.683, 0.889] and [0.111, 0.317]
}

// An unseen pair is not known to be zero: with n beacons its interval is
// [0, 1 − 0.025^{1/n}].
func ExampleClopperPearson() {
	for _, n := range []int64{10, 100, 1000} {
		lo, hi := beacon.ClopperPearson(0, n, 0.05)
		fmt.Printf("0 of %d: [%g, %.4f]\n", n, lo, hi)
	}
	// Output:
	// 0 of 10: [0, 0.3085]
	// 0 of 100: [0, 0.0362]
	// 0 of 1000: [0, 0.0037]
}
