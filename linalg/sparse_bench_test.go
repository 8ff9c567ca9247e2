package linalg

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"gonum.org/v1/gonum/mat"
)

// scipyDirEnv names the environment variable that makes the solve
// benchmarks write their graph and right-hand side for the SciPy
// comparison (testdata/scipy_cg.py; run both with testdata/bench_sparse.sh).
const scipyDirEnv = "LOADLAB_SCIPY_DIR"

// writeForSciPy writes name.edges (int32 u, int32 v, float64 w per edge,
// little-endian, u < v) and name.rhs (float64 per node) into the
// directory named by LOADLAB_SCIPY_DIR, once per graph.
func writeForSciPy(b *testing.B, name string, g *Graph, rhs []float64) {
	dir := os.Getenv(scipyDirEnv)
	if dir == "" {
		return
	}
	path := filepath.Join(dir, name+".edges")
	if _, err := os.Stat(path); err == nil {
		return
	}
	type rec struct {
		U, V int32
		W    float64
	}
	es := g.Edges()
	recs := make([]rec, len(es))
	for i, e := range es {
		recs[i] = rec{int32(e.U), int32(e.V), e.W}
	}
	write := func(p string, data any) {
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := binary.Write(f, binary.LittleEndian, data); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
	}
	write(filepath.Join(dir, name+".rhs"), rhs)
	write(path, recs)
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
	benchTorusOnce.Do(func() { benchTorus = must(Torus(1000, 1000)) })
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

func benchSolve(b *testing.B, name string, g *Graph, pc Preconditioner, setup bool) {
	set := &SolverSettings{Tol: 1e-8, Preconditioner: pc, MaxIter: 100000}
	rhs := benchRHS(g.Order())
	writeForSciPy(b, name, g, rhs)
	x := make([]float64, g.Order())
	s, err := NewLaplacianSolver(g, set, rand.NewPCG(1, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var res SolveResult
	c0 := cputime.Process()
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
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Iterations), "iters")
}

func BenchmarkSolve_Regular6_1e6(b *testing.B) {
	g := benchRegular6(b)
	for _, c := range []struct {
		name  string
		pc    Preconditioner
		setup bool
	}{{"Auto", Auto, true}, {"Jacobi", Jacobi, false}, {"ApproxChol", ApproxCholesky, false}, {"ApproxCholSetup", ApproxCholesky, true}} {
		b.Run(c.name, func(b *testing.B) { benchSolve(b, "regular6_1e6", g, c.pc, c.setup) })
	}
}

func BenchmarkSolve_Torus1000(b *testing.B) {
	g := benchTorus1000(b)
	for _, c := range []struct {
		name  string
		pc    Preconditioner
		setup bool
	}{{"Auto", Auto, true}, {"Jacobi", Jacobi, false}, {"ApproxChol", ApproxCholesky, false}, {"ApproxCholSetup", ApproxCholesky, true}} {
		b.Run(c.name, func(b *testing.B) { benchSolve(b, "torus1000", g, c.pc, c.setup) })
	}
}

// benchSolveBlock times SolveBlock on k = 8 right-hand sides (the first
// is benchRHS, the others its cyclic shifts), relative residual 1e-8, the
// solver and its factor reused.
func benchSolveBlock(b *testing.B, g *Graph, pc Preconditioner) {
	const k = 8
	set := &SolverSettings{Tol: 1e-8, Preconditioner: pc, MaxIter: 100000}
	n := g.Order()
	rhs := benchRHS(n)
	bm := mat.NewDense(n, k, nil)
	for j := range k {
		for u := range n {
			bm.Set(u, j, rhs[(u+j*n/k)%n])
		}
	}
	s, err := NewLaplacianSolver(g, set, rand.NewPCG(1, 1))
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
	benchSolveBlock(b, benchRegular6(b), Jacobi)
}

// BenchmarkSolveBlock_Torus1000 solves 8 right-hand sides together on the
// 1000 × 1000 torus with the approximate Cholesky factor; compare with 8 ×
// BenchmarkSolve_Torus1000/ApproxChol.
func BenchmarkSolveBlock_Torus1000(b *testing.B) {
	benchSolveBlock(b, benchTorus1000(b), ApproxCholesky)
}

// BenchmarkEdgeResistances_Regular6_1e6_Eps0.3 estimates the resistance
// of all 3·10⁶ edges of the 10⁶-node random 6-regular graph to ε = 0.3.
func BenchmarkEdgeResistances_Regular6_1e6_Eps03(b *testing.B) {
	g := benchRegular6(b)
	var er *EdgeResistances
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if er, err = ApproxEdgeResistances(g, &SketchSettings{Eps: 0.3}, rand.NewPCG(3, 3)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(er.K), "solves")
	b.ReportMetric(float64(er.Iterations), "iters")
	b.ReportMetric(er.FosterRelErr, "foster-relerr")
}

// BenchmarkEstimateKirchhoff_Regular6_1e6 estimates K_f of the 10⁶-node
// random 6-regular graph to 1 % (95 %).
func BenchmarkEstimateKirchhoff_Regular6_1e6(b *testing.B) {
	g := benchRegular6(b)
	var res TraceResult
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = EstimateKirchhoff(g, nil, rand.NewPCG(5, 5)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(res.Estimate.RelHalfWidth(), "relhw")
}

// BenchmarkEstimateH2_Regular6_1e6 estimates ρ₁ and ρ₂ of the 10⁶-node
// random 6-regular graph to 1 % (95 %) at γ = 1.5/λ_n^Gershgorin = 1.5/12.
func BenchmarkEstimateH2_Regular6_1e6(b *testing.B) {
	g := benchRegular6(b)
	var res H2Estimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = EstimateH2(g, 1.5/12, nil, rand.NewPCG(6, 6)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(res.Rho2.RelHalfWidth(), "relhw")
}

// BenchmarkEstimatePinvDiag_Regular6_1e6 estimates diag(L†) of the
// 10⁶-node random 6-regular graph to the default 1 % per node (95 %).
func BenchmarkEstimatePinvDiag_Regular6_1e6(b *testing.B) {
	g := benchRegular6(b)
	var res DiagEstimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = EstimatePinvDiag(g, nil, rand.NewPCG(7, 7)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(float64(res.Degree), "degree")
	b.ReportMetric(res.MaxRelHW, "max-relhw")
}

// BenchmarkEstimateNodalH2_Regular6_1e6 estimates ρ₁,j and ρ₂,j of the
// 10⁶-node random 6-regular graph at γ = 1.5/12 to the default 1 % per
// node (95 %).
func BenchmarkEstimateNodalH2_Regular6_1e6(b *testing.B) {
	g := benchRegular6(b)
	var res NodalH2Estimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = EstimateNodalH2(g, 1.5/12, nil, rand.NewPCG(8, 8)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Rho2.Probes), "probes")
	b.ReportMetric(float64(res.Rho2.Degree), "degree")
	b.ReportMetric(max(res.Rho1.MaxRelHW, res.Rho2.MaxRelHW), "max-relhw")
}
