package gen_test

import (
	"fmt"
	"log"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

func ExampleRandomGeometric() {
	// The radius of spec coded-load.md §3.1, r = sqrt(1.25 ln n / n). The
	// mean degree falls short of nπr² because discs near the boundary
	// are cut off; with torus = true it would not. Nodes are numbered in
	// the order of the bucket cells, so node 0 lies in the bottom-left
	// cell.
	n := 10000
	r := math.Sqrt(1.25 * math.Log(float64(n)) / float64(n))
	g, pts, err := gen.RandomGeometricPoints(n, r, false, rand.NewPCG(1, 2))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d nodes, mean degree %.3g (nπr² = %.3g), node 0 at (%.3f, %.3f)\n",
		g.Order(), 2*float64(g.Size())/float64(n), float64(n)*math.Pi*r*r, pts[0].X, pts[0].Y)
	// Output:
	// 10000 nodes, mean degree 35.1 (nπr² = 36.2), node 0 at (0.033, 0.019)
}

func ExampleRandomRegular() {
	// A random 3-regular graph on 1000 nodes is connected with high
	// probability and has a large spectral gap (an expander).
	g, err := gen.RandomRegular(1000, 3, rand.NewPCG(7, 7))
	if err != nil {
		log.Fatal(err)
	}
	l2, _, err := spectral.AlgebraicConnectivity(g)
	if err != nil {
		log.Fatal(err)
	}
	// Alon–Boppana: λ₂ ≤ d − 2√(d−1) + o(1) ≈ 0.172 for d = 3, and
	// random regular graphs come close to it (Friedman).
	fmt.Printf("edges %d, connected %v, λ₂ = %.2f\n", g.Size(), wgraph.IsConnected(g), l2)
	// Output:
	// edges 1500, connected true, λ₂ = 0.18
}
