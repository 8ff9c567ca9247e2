package linalg

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestLaplacianOperatorMatchesDense(t *testing.T) {
	g := sparseWeighted(t, 300, 0.05, 6, 1)
	op := NewLaplacianOperator(g)
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, g.Order())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	l := g.Laplacian()
	for _, shift := range []float64{0, 0.7} {
		var want mat.VecDense
		want.MulVec(l, mat.NewVecDense(len(x), x))
		want.AddScaledVec(&want, shift, mat.NewVecDense(len(x), x))
		got := make([]float64, len(x))
		op.ApplyShifted(got, x, shift)
		// Same sums in a different order: a few ulps of the largest term.
		if !floats.EqualApprox(got, want.RawVector().Data, 1e-9) {
			t.Errorf("shift %v: operator differs from dense L x", shift)
		}
	}
}

func TestLaplacianOperatorNoAllocDeterministic(t *testing.T) {
	g, err := RandomRegular(20000, 6, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	g = reweight(t, g, 4, rand.New(rand.NewPCG(1, 1)))
	op := NewLaplacianOperator(g)
	x := make([]float64, g.Order())
	for i := range x {
		x[i] = math.Sin(float64(i))
	}
	y1, y2 := make([]float64, len(x)), make([]float64, len(x))
	op.Apply(y1, x) // warm the pool
	if a := testing.AllocsPerRun(20, func() { op.ApplyShifted(y1, x, 0.5) }); a != 0 {
		t.Errorf("ApplyShifted allocates %v times per call", a)
	}
	prev := runtime.GOMAXPROCS(1)
	op.ApplyShifted(y2, x, 0.5)
	runtime.GOMAXPROCS(prev)
	for i := range y1 {
		if y1[i] != y2[i] {
			t.Fatalf("row %d differs between 1 and %d goroutines", i, prev)
		}
	}
}

// denseSolve returns L† b from the dense pseudoinverse.
func denseSolve(t *testing.T, g *Graph, b []float64) []float64 {
	t.Helper()
	p, err := PseudoInverse(g)
	if err != nil {
		t.Fatal(err)
	}
	var x mat.VecDense
	x.MulVec(p, mat.NewVecDense(len(b), b))
	return x.RawVector().Data
}

// trueResidual returns ‖Pb − L x‖/‖Pb‖ computed independently of the solver.
func trueResidual(g *Graph, x, b []float64) float64 {
	n := len(b)
	pb := append([]float64(nil), b...)
	floats.AddConst(-floats.Sum(pb)/float64(n), pb)
	lx := make([]float64, n)
	g.LaplacianMulVec(lx, x)
	floats.Sub(lx, pb)
	return floats.Norm(lx, 2) / floats.Norm(pb, 2)
}

var preconditioners = []Preconditioner{ApproxCholesky, Jacobi}

func TestLaplacianSolverAgreesWithDense(t *testing.T) {
	for _, spread := range []float64{0, 10} {
		g := sparseWeighted(t, 400, 0.03, spread, 7)
		rng := rand.New(rand.NewPCG(8, 9))
		b := make([]float64, g.Order())
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		want := denseSolve(t, g, b)
		for _, pc := range preconditioners {
			s, err := NewLaplacianSolver(g, &SolverSettings{Preconditioner: pc, MaxIter: 100000}, rand.NewPCG(1, 2))
			if err != nil {
				t.Fatal(err)
			}
			x := make([]float64, len(b))
			res, err := s.Solve(x, b)
			if err != nil {
				t.Fatalf("spread %v %v: %v", spread, pc, err)
			}
			if r := trueResidual(g, x, b); r > DefaultSolveTol || math.Abs(r-res.Residual) > 1e-3*DefaultSolveTol+1e-15 {
				t.Errorf("spread %v %v: residual %g, reported %g", spread, pc, r, res.Residual)
			}
			// ‖x − x*‖/‖x*‖ ≤ κ(L)·residual; κ ≲ 1e12 for 10 decades, and the
			// dense reference itself carries κ·ε: compare to 1e-4 relative.
			d := append([]float64(nil), x...)
			floats.Sub(d, want)
			if e := floats.Norm(d, 2) / floats.Norm(want, 2); e > 1e-4 {
				t.Errorf("spread %v %v: relative error %g against dense", spread, pc, e)
			}
			t.Logf("spread %v %v: %d iterations, residual %.2g", spread, pc, res.Iterations, res.Residual)
		}
	}
}
