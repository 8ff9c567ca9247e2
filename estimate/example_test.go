package estimate_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Every edge of the hypercube Q₁₀ has resistance (n − 1)/m = 1023/5120
// (Foster's theorem and symmetry); the projections estimate each to
// ε = 0.3 with probability ≥ 95 % with k = 85 solves.
func ExampleEdgeResistances() {
	g, err := gen.Hypercube(10)
	if err != nil {
		panic(err)
	}
	er, err := estimate.EdgeResistances(g, &estimate.SketchSettings{Eps: 0.3}, rand.NewPCG(3, 4))
	if err != nil {
		panic(err)
	}
	var mean float64
	for _, r := range er.R {
		mean += r / float64(len(er.R))
	}
	// Foster's sum estimates n − 1 = 1023 with relative spread √(2/(k(n−1))) ≈ 0.5 %.
	fmt.Printf("k = %d, mean R̃ = %.3f (exact %.3f), Foster Σ w R̃ = %.0f\n", er.K, mean, 1023.0/5120, er.Foster)
	// Output:
	// k = 85, mean R̃ = 0.196 (exact 0.200), Foster Σ w R̃ = 1004
}

// The Kirchhoff index of the hypercube Q₁₂ (4096 nodes, above
// spectral.DenseMaxNodes, where spectral.KirchhoffIndex refuses) estimated
// to 1 % at 95 %, against its closed form.
func ExampleKirchhoff() {
	g, err := gen.Hypercube(12)
	if err != nil {
		panic(err)
	}
	r, err := estimate.Kirchhoff(g, nil, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	exact, err := spectral.HypercubeKirchhoff(12)
	if err != nil {
		panic(err)
	}
	e := r.Estimate
	fmt.Printf("%v, %v: K_f ≈ %.4g, within 1 %%: %v, interval holds %.6g: %v\n",
		r.Estimator, r.Status, e.Mean, e.RelHalfWidth() <= 0.01, exact, e.Contains(exact))
	// Output:
	// Lanczos quadrature, Success: K_f ≈ 1.554e+06, within 1 %: true, interval holds 1.56e+06: true
}
