package linalg

import (
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the user plus system CPU time of the process. The
// benchmark machine is shared, so CPU time per operation is reported
// beside wall time (the kernels use both cores, so on a quiet machine
// CPU time exceeds wall time by up to 2×).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Benchmark graphs are built once per process.
var (
	benchRegOnce, benchTorusOnce sync.Once
	benchReg, benchTorus         *Graph
)

func benchRegular6(b *testing.B) *Graph {
	benchRegOnce.Do(func() {
		g, err := RandomRegular(1_000_000, 6, rand.NewPCG(2026, 12))
		if err != nil {
			b.Fatal(err)
		}
		benchReg = g
	})
	return benchReg
}

func benchTorus1000(b *testing.B) *Graph {
	benchTorusOnce.Do(func() { benchTorus = Torus(1000, 1000) })
	return benchTorus
}

// benchRHS returns a fixed right-hand side e_0 − e_{n/2} plus noise.
func benchRHS(n int) []float64 {
	rng := rand.New(rand.NewPCG(7, 7))
	b := make([]float64, n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	return b
}

func benchSolve(b *testing.B, g *Graph, pc Preconditioner, setup bool) {
	set := &SolverSettings{Tol: 1e-8, Preconditioner: pc, MaxIter: 100000}
	rhs := benchRHS(g.Order())
	x := make([]float64, g.Order())
	s, err := NewLaplacianSolver(g, set, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var res SolveResult
	c0 := cpuTime()
	for b.Loop() {
		if setup {
			if s, err = NewLaplacianSolver(g, set, rand.NewPCG(1, 1)); err != nil {
				b.Fatal(err)
			}
		}
		if res, err = s.Solve(x, rhs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Iterations), "iters")
}

func BenchmarkSolve_Regular6_1e6_Jacobi(b *testing.B) { benchSolve(b, benchRegular6(b), Jacobi, false) }
func BenchmarkSolve_Regular6_1e6_ApproxChol(b *testing.B) {
	benchSolve(b, benchRegular6(b), ApproxCholesky, false)
}
func BenchmarkSolve_Regular6_1e6_ApproxCholSetup(b *testing.B) {
	benchSolve(b, benchRegular6(b), ApproxCholesky, true)
}
func BenchmarkSolve_Torus1000_Jacobi(b *testing.B) { benchSolve(b, benchTorus1000(b), Jacobi, false) }
func BenchmarkSolve_Torus1000_ApproxChol(b *testing.B) {
	benchSolve(b, benchTorus1000(b), ApproxCholesky, false)
}
func BenchmarkSolve_Torus1000_ApproxCholSetup(b *testing.B) {
	benchSolve(b, benchTorus1000(b), ApproxCholesky, true)
}
