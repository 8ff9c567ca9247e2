package mobility_test

import (
	"fmt"

	"github.com/loadlab/loadlab/competitive/mobility"
)

// A short mesh run: the performance ratio (cost / OPT) of DTrack-RR and
// of Target-Aware with a 10-slot look-ahead, averaged over 4 walks.
func ExampleCompare() {
	cs := []mobility.Contender{mobility.Baselines()[0], mobility.TargetAware(10, 0)}
	res, err := mobility.Compare(mobility.Mesh{Slots: 600}, cs, 4, 1, 0)
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Printf("%-16s ratio %.2f\n", r.Name, r.Ratio.Mean)
	}
	// Output:
	// OPT              ratio 1.00
	// DTrack-RR        ratio 1.13
	// Target-Aware(10) ratio 1.00
}
