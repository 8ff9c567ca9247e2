package laplacian

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// denseSolve returns L† b from the dense pseudoinverse.
func denseSolve(t *testing.T, g *wgraph.Graph, b []float64) []float64 {
	t.Helper()
	// L† = (L + J/n)⁻¹ − J/n (spec throttlers.md §2), by gonum's dense
	// inverse: a reference independent of the package's factorisations.
	l, err := g.Laplacian()
	if err != nil {
		t.Fatal(err)
	}
	n := len(b)
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			a.Set(i, j, l.At(i, j)+1/float64(n))
		}
	}
	var inv mat.Dense
	if err := inv.Inverse(a); err != nil {
		t.Fatal(err)
	}
	var x mat.VecDense
	x.MulVec(&inv, mat.NewVecDense(n, b))
	var mean float64
	for _, v := range b {
		mean += v / float64(n)
	}
	// (L + J/n)⁻¹ b = L† b + mean(b)·1: remove the constant part.
	d := x.RawVector().Data
	for i := range d {
		d[i] -= mean
	}
	return d
}

// trueResidual returns ‖Pb − L x‖/‖Pb‖ computed independently of the solver.
func trueResidual(g *wgraph.Graph, x, b []float64) float64 {
	n := len(b)
	pb := append([]float64(nil), b...)
	floats.AddConst(-floats.Sum(pb)/float64(n), pb)
	lx := make([]float64, n)
	g.LaplacianMulVec(lx, x)
	floats.Sub(lx, pb)
	return floats.Norm(lx, 2) / floats.Norm(pb, 2)
}

var preconditioners = []Preconditioner{Auto, ApproxCholesky, Jacobi}

func TestSolverAgreesWithDense(t *testing.T) {
	for _, spread := range []float64{0, 10} {
		g := graphtest.SparseWeighted(t, 400, 0.03, spread, 7)
		rng := rand.New(rand.NewPCG(8, 9))
		b := make([]float64, g.Order())
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		want := denseSolve(t, g, b)
		for _, pc := range preconditioners {
			s, err := NewSolver(g, &Settings{Preconditioner: pc, MaxIter: 100000}, rand.NewPCG(1, 2))
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

func TestSolverErrors(t *testing.T) {
	two := graphtest.GraphOf(t, 4, wgraph.Edge{U: 0, V: 1, W: 1}, wgraph.Edge{U: 2, V: 3, W: 1})
	for _, pc := range preconditioners {
		if _, err := NewSolver(two, &Settings{Preconditioner: pc}, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrDisconnected) {
			t.Errorf("%v: disconnected graph: err = %v, want ErrDisconnected", pc, err)
		}
	}
	bad := []Settings{{Tol: -1}, {Tol: math.NaN()}, {Tol: 1}, {Tol: 1e-16}, {MaxIter: -1}, {Preconditioner: 7}, {Preconditioner: -1}}
	for _, s := range bad {
		if _, err := NewSolver(graphtest.Must(gen.Path(3)), &s, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", s, err)
		}
	}
	if _, err := NewSolver(graphtest.GraphOf(t, 0), nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("empty graph: err = %v, want ErrInvalid", err)
	}
	s, err := NewSolver(graphtest.Must(gen.Path(3)), nil, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 3)
	if _, err := s.Solve(x, []float64{1, math.Inf(1), 0}); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("Inf in b: err = %v, want ErrInvalid", err)
	}
}

func TestSolverNotConverged(t *testing.T) {
	g := graphtest.Must(gen.Torus(30, 30))
	s, err := NewSolver(g, &Settings{Preconditioner: Jacobi, MaxIter: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := graphtest.BenchRHS(g.Order())
	x := make([]float64, len(b))
	res, err := s.Solve(x, b)
	if !errors.Is(err, loadlab.ErrNotConverged) || res.Status != loadlab.IterationLimit || res.Iterations != 5 {
		t.Fatalf("err = %v, result %+v: want ErrNotConverged after 5 iterations", err, res)
	}
	// The partial result is the 5th iterate: its residual is the one
	// reported, and CG has reduced it below that of x = 0 (which is 1).
	if r := trueResidual(g, x, b); math.Abs(r-res.Residual) > 1e-12 || r >= 1 {
		t.Errorf("partial residual %g, reported %g", r, res.Residual)
	}
}

func TestSolverDeterministic(t *testing.T) {
	g := graphtest.SparseWeighted(t, 3000, 0.003, 4, 11)
	b := graphtest.BenchRHS(g.Order())
	solve := func(procs int) []float64 {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		s, err := NewSolver(g, nil, rand.NewPCG(9, 9))
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, len(b))
		if _, err := s.Solve(x, b); err != nil {
			t.Fatal(err)
		}
		return x
	}
	x1, x2 := solve(1), solve(4)
	for i := range x1 {
		if x1[i] != x2[i] {
			t.Fatalf("x[%d] differs between 1 and 4 goroutines", i)
		}
	}
}

// A single node is a connected graph with L = [0]: L† = 0.
func TestSolverSingleNode(t *testing.T) {
	g := graphtest.Must(wgraph.NewBuilder(1)).Build()
	s, err := NewSolver(g, nil, graphtest.PCG(1))
	if err != nil {
		t.Fatal(err)
	}
	x := []float64{7}
	res, err := s.Solve(x, []float64{0})
	if err != nil || x[0] != 0 || res.Status != loadlab.Success {
		t.Errorf("Solve: x = %v, %+v, err %v: want x = [0], Success", x, res, err)
	}
}
