package laplacian

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

func benchSolve(b *testing.B, name string, g *wgraph.Graph, pc Preconditioner, setup bool) {
	set := &Settings{Tol: 1e-8, Preconditioner: pc, MaxIter: 100000}
	rhs := graphtest.BenchRHS(g.Order())
	graphtest.WriteForSciPy(b, name, g, rhs)
	x := make([]float64, g.Order())
	s, err := NewSolver(g, set, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	// One untimed solve, so that every preconditioner starts the timed
	// loop from the same state: Auto builds its factor lazily in its first
	// solve, ApproxCholesky in NewSolver, so without it only the latter
	// had factored once before the timed loop.
	if _, err := s.Solve(x, rhs); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var res SolveResult
	c0 := cputime.Process()
	for b.Loop() {
		if setup {
			if s, err = NewSolver(g, set, rand.NewPCG(1, 1)); err != nil {
				b.Fatal(err)
			}
		}
		if res, err = s.Solve(x, rhs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Iterations), "iters")
}

func BenchmarkSolve_Regular6_1e6(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	for _, c := range []struct {
		name  string
		pc    Preconditioner
		setup bool
	}{{"Auto", Auto, true}, {"Jacobi", Jacobi, false}, {"JacobiSetup", Jacobi, true}, {"ApproxChol", ApproxCholesky, false}, {"ApproxCholSetup", ApproxCholesky, true}} {
		b.Run(c.name, func(b *testing.B) { benchSolve(b, "regular6_1e6", g, c.pc, c.setup) })
	}
}

func BenchmarkSolve_Torus1000(b *testing.B) {
	g := graphtest.BenchTorus1000(b)
	for _, c := range []struct {
		name  string
		pc    Preconditioner
		setup bool
	}{{"Auto", Auto, true}, {"Jacobi", Jacobi, false}, {"JacobiSetup", Jacobi, true}, {"ApproxChol", ApproxCholesky, false}, {"ApproxCholSetup", ApproxCholesky, true}} {
		b.Run(c.name, func(b *testing.B) { benchSolve(b, "torus1000", g, c.pc, c.setup) })
	}
}

// benchSolveBlock times SolveBlock on k = 8 right-hand sides (the first
// is benchRHS, the others its cyclic shifts), relative residual 1e-8, the
// solver and its factor reused.
func benchSolveBlock(b *testing.B, g *wgraph.Graph, pc Preconditioner) {
	const k = 8
	set := &Settings{Tol: 1e-8, Preconditioner: pc, MaxIter: 100000}
	n := g.Order()
	rhs := graphtest.BenchRHS(n)
	bm := mat.NewDense(n, k, nil)
	for j := range k {
		for u := range n {
			bm.Set(u, j, rhs[(u+j*n/k)%n])
		}
	}
	s, err := NewSolver(g, set, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	var x mat.Dense
	if _, err := s.SolveBlock(&x, bm); err != nil { // builds the factor and the block workspace
		b.Fatal(err)
	}
	b.ResetTimer()
	var res []SolveResult
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = s.SolveBlock(&x, bm); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	it := 0
	for _, r := range res {
		it = max(it, r.Iterations)
	}
	b.ReportMetric(float64(it), "max-iters")
}

// BenchmarkSolveBlock_Regular6_1e6 solves 8 right-hand sides together on
// the 10⁶-node random 6-regular graph (Jacobi); compare with 8 ×
// BenchmarkSolve_Regular6_1e6/Jacobi.
func BenchmarkSolveBlock_Regular6_1e6(b *testing.B) {
	benchSolveBlock(b, graphtest.BenchRegular6(b), Jacobi)
}

// BenchmarkSolveBlock_Torus1000 solves 8 right-hand sides together on the
// 1000 × 1000 torus with the approximate Cholesky factor; compare with 8 ×
// BenchmarkSolve_Torus1000/ApproxChol.
func BenchmarkSolveBlock_Torus1000(b *testing.B) {
	benchSolveBlock(b, graphtest.BenchTorus1000(b), ApproxCholesky)
}
