package estimate_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/laplacian"
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
	// Lanczos quadrature, Success: K_f ≈ 1.557e+06, within 1 %: true, interval holds 1.56e+06: true
}

// Trace takes any symmetric operator as a function. Here it is L† of
// the hypercube Q₁₀, applied by the Laplacian solver (to 1e-10, far
// below the 1 % asked): n tr L† is the Kirchhoff index, against its
// closed form.
func ExampleTrace() {
	g, err := gen.Hypercube(10)
	if err != nil {
		panic(err)
	}
	s, err := laplacian.NewSolver(g, nil, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	pinv := func(dst, x []float64) (int, error) {
		r, err := s.Solve(dst, x)
		return r.Iterations, err
	}
	r, err := estimate.Trace(g.Order(), pinv, &estimate.TraceSettings{RelAcc: 0.01}, rand.NewPCG(3, 4))
	if err != nil {
		panic(err)
	}
	exact, err := spectral.HypercubeKirchhoff(10)
	if err != nil {
		panic(err)
	}
	n := float64(g.Order())
	e := r.Estimate
	fmt.Printf("%d probes: K_f ≈ %.4g ± %.1f %%, interval holds %.6g: %v\n",
		r.Probes, n*e.Mean, 100*e.RelHalfWidth(), exact, e.Contains(exact/n))
	// Output:
	// 18 probes: K_f ≈ 1.203e+05 ± 1.0 %, interval holds 120002: true
}
