package codedload_test

import (
	"fmt"
	"log"
	"reflect"

	"github.com/loadlab/loadlab/codedload"
)

// A Sweep split into its (point, run) pairs, as separate processes would
// compute them (package sweep), then summarised point by point.
func ExampleSweepRun() {
	pts, err := codedload.SizePoints([]int{64, 256}, codedload.Config{Files: 20, Cache: 2, Strategy: codedload.Coded{}}, codedload.HypercubeFamily, false, codedload.LogEll)
	if err != nil {
		log.Fatal(err)
	}
	counts, err := codedload.SweepCounts(pts, 3)
	if err != nil {
		log.Fatal(err)
	}
	var res []codedload.PointResult
	for i, c := range counts {
		rs := make([]*codedload.Result, c)
		for r := range rs {
			if rs[r], err = codedload.SweepRun(pts, 3, 7, i, r); err != nil {
				log.Fatal(err)
			}
		}
		res = append(res, codedload.SummarizePoint(pts[i].X, rs))
	}
	whole, err := codedload.Sweep(pts, 3, 7, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("runs per point:", counts)
	fmt.Println("same as Sweep:", reflect.DeepEqual(res, whole))
	// Output:
	// runs per point: [3 3]
	// same as Sweep: true
}
