package laplacian_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Effective resistance between opposite points of a 100 × 100 torus by one
// sparse solve. The spectral sum (1/n) Σ |φ_jk(u) − φ_jk(v)|²/λ_jk over the
// torus's Fourier modes gives 1.673747 as well.
func ExampleSolver_Resistance() {
	g, err := gen.Torus(100, 100)
	if err != nil {
		panic(err)
	}
	s, err := laplacian.NewSolver(g, nil, rand.NewPCG(1, 2))
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

// A solve of L x = b on the 1000-node path, whose solution is known: for
// b = e₀ − e_{n−1}, x_u − x_v is the effective resistance n − 1.
func ExampleSolver_Solve() {
	g, err := gen.Path(1000)
	if err != nil {
		panic(err)
	}
	s, err := laplacian.NewSolver(g, nil, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	b, x := make([]float64, 1000), make([]float64, 1000)
	b[0], b[999] = 1, -1
	res, err := s.Solve(x, b)
	if err != nil {
		panic(err)
	}
	fmt.Printf("x₀ − x₉₉₉ = %.9f after %d iterations (%v)\n", x[0]-x[999], res.Iterations, res.Status)
	// Output:
	// x₀ − x₉₉₉ = 999.000000000 after 1 iterations (Success)
}
