package spectral_test

import (
	"fmt"
	"log"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/spectral"
)

// The Internet AS graph (22 963 nodes) takes the sparse exact path: one
// sparse Cholesky factorisation of the grounded Laplacian and its
// selected inverse give the Kirchhoff index and the resistance of every
// edge, in a fraction of a second. Foster's theorem, Σ w_e R_e = n − 1,
// checks the edge resistances.
func ExampleResistance_EdgeResistances() {
	g := datasets.InternetAS().Graph
	r, err := spectral.NewResistance(g)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("path:", r.Path(), "ordering:", r.Report().Ordering)
	fmt.Printf("Kirchhoff index %.10g\n", r.Kirchhoff())
	rs := r.EdgeResistances(nil)
	foster := 0.0
	for k, e := range g.Edges() {
		foster += e.W * rs[k]
	}
	fmt.Printf("Σ w_e R_e = %.6f, n − 1 = %d\n", foster, g.Order()-1)
	// Output:
	// path: sparse ordering: amd
	// Kirchhoff index 365839474.1
	// Σ w_e R_e = 22962.000000, n − 1 = 22962
}
