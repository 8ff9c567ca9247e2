package spectral_test

import (
	"fmt"
	"log"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
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

// A weight design's loop on the US power grid: the links are analysed
// once (AnalyzeResistance), each weighting is factored on that analysis
// (ResistanceAnalysis.Factor; a link of weight zero would stay in the
// pattern as an explicit zero), and
// ‖L† b_e‖² is taken for a link e with ApplyTo, whose vectors are reused
// across solves. Doubling every weight halves L†, so tr L† = K_f/n halves
// and ‖L† b_e‖² falls fourfold.
func ExampleAnalyzeResistance() {
	support := datasets.PowerGrid().Graph
	ra, err := spectral.AnalyzeResistance(support)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("path:", ra.Path())
	n := support.Order()
	e := support.Edges()[0]
	b, x, work := make([]float64, n), make([]float64, n), make([]float64, n)
	b[e.U], b[e.V] = 1, -1
	for _, scale := range []float64{1, 2} {
		edges := support.Edges()
		for k := range edges {
			edges[k].W *= scale
		}
		g, err := wgraph.FromEdges(n, edges)
		if err != nil {
			log.Fatal(err)
		}
		r, err := ra.Factor(g)
		if err != nil {
			log.Fatal(err)
		}
		r.ApplyTo(x, b, work)
		s := 0.0
		for _, v := range x {
			s += v * v
		}
		fmt.Printf("weights ×%g: tr L† = %.6g, ‖L† b_e‖² = %.6g\n", scale, r.Kirchhoff()/float64(n), s)
	}
	// Output:
	// path: sparse
	// weights ×1: tr L† = 12906.2, ‖L† b_e‖² = 2.24709
	// weights ×2: tr L† = 6453.11, ‖L† b_e‖² = 0.561771
}
