package dual_test

import (
	"fmt"
	"log"
	"reflect"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
)

// A Sweep split into its runs, as separate processes would compute them
// (package sweep): P* once, each run alone, then the summary.
func ExampleSweepRun() {
	nw, err := anycast.NewNetwork(
		[]float64{2, 1.5, 1},
		mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2, 0.7}),
		[]float64{0.8, 0.9, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	p, err := dual.Quadratic(nw, 1, 4)
	if err != nil {
		log.Fatal(err)
	}
	fc, windows, s, runs := dual.FastControl{Gamma: 10}, []float64{0.1, 10}, &dual.Settings{Step: 0.05, MaxIter: 500}, 3
	pstar, err := dual.SweepOptimum(p, fc, windows, nil, s, runs)
	if err != nil {
		log.Fatal(err)
	}
	var samples []dual.SweepSample
	for k := range windows { // one loss rate: point k is window k
		for r := range runs {
			x, err := dual.SweepRun(p, fc, windows, nil, s, pstar, runs, 1, k, r)
			if err != nil {
				log.Fatal(err)
			}
			samples = append(samples, x)
		}
	}
	whole, err := dual.Sweep(p, fc, windows, nil, s, runs, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("P* = %.4f\n", pstar)
	fmt.Println("same as Sweep:", reflect.DeepEqual(dual.SweepSummary(fc, windows, nil, runs, samples), whole))
	// Output:
	// P* = 0.4319
	// same as Sweep: true
}
