package linalg_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/linalg"
)

// Effective resistance between opposite points of a 100 × 100 torus by one
// sparse solve. The spectral sum (1/n) Σ |φ_jk(u) − φ_jk(v)|²/λ_jk over the
// torus's Fourier modes gives 1.673747 as well.
func ExampleLaplacianSolver_Resistance() {
	g, err := linalg.Torus(100, 100)
	if err != nil {
		panic(err)
	}
	s, err := linalg.NewLaplacianSolver(g, nil, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	r, res, err := s.Resistance(0, 50*100+50)
	if err != nil {
		panic(err)
	}
	fmt.Printf("R = %.6f (%v, residual below 1e-10: %v)\n", r, res.Status, res.Residual <= 1e-10)
	// Output:
	// R = 1.673747 (Success, residual below 1e-10: true)
}

// Every edge of the hypercube Q₁₀ has resistance (n − 1)/m = 1023/5120
// (Foster's theorem and symmetry); the projections estimate each to
// ε = 0.3 with probability ≥ 95 % with k = 85 solves.
func ExampleApproxEdgeResistances() {
	g, err := linalg.Hypercube(10)
	if err != nil {
		panic(err)
	}
	er, err := linalg.ApproxEdgeResistances(g, &linalg.SketchSettings{Eps: 0.3}, rand.NewPCG(3, 4))
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
