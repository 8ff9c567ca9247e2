package stability_test

import (
	"fmt"
	"log"
	"math/rand/v2"
	"reflect"

	"gonum.org/v1/gonum/mat"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/stability"
)

// Attractors split into its starts, as separate processes would run
// them (package sweep): the starts are drawn in order from one stream,
// each is integrated alone, and the end states are grouped.
func ExampleLaw_AttractorRun() {
	// The seed network of spec §2 with C_ba = 0.3: every start ends in
	// the uncontrollable overload x = (1, 0).
	nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.3, 0.7}), []float64{0.7, 0.7})
	if err != nil {
		log.Fatal(err)
	}
	l, err := stability.NewLaw(nw, 1)
	if err != nil {
		log.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	ends := make([][]float64, 6)
	for k := range ends {
		if ends[k], err = l.AttractorRun(stability.AttractorStart(rng, 2), 200, nil); err != nil {
			log.Fatal(err)
		}
	}
	found, unresolved, err := l.GroupAttractors(ends)
	if err != nil {
		log.Fatal(err)
	}
	whole, wholeU, err := l.Attractors(6, 200, rand.NewPCG(1, 1), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(found[0].X, found[0].Starts, unresolved)
	fmt.Println("same as Attractors:", reflect.DeepEqual(found, whole) && unresolved == wholeU)
	// Output:
	// [1 0] 6 0
	// same as Attractors: true
}
