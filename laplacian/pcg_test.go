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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func TestLaplacianOperatorMatchesDense(t *testing.T) {
	g := graphtest.SparseWeighted(t, 300, 0.05, 6, 1)
	op := NewOperator(g)
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, g.Order())
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	l := graphtest.Must(g.Laplacian())
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
	g, err := gen.RandomRegular(9000, 6, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	g = graphtest.SpreadWeights(t, g, 4, rand.New(rand.NewPCG(1, 1)))
	op := NewOperator(g)
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

func TestLaplacianSolverAgreesWithDense(t *testing.T) {
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

func TestLaplacianSolverErrors(t *testing.T) {
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

func TestLaplacianSolverNotConverged(t *testing.T) {
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

// Approximate Cholesky is exact when no eliminated vertex has more than
// two neighbours (a path, a cycle, a tree eliminated leaves first): then
// the preconditioner is L† up to rounding and one iteration suffices
// (two when rounding leaves the first just above 1e-10). Unit weights
// keep κ(L) ≤ 1.7e4 so that rounding does not stop the solve first; the
// star is reweighted (κ = ratio of its weights, 1e4).
func TestApproxCholExactOnLowDegree(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for name, g := range map[string]*wgraph.Graph{"path": graphtest.Must(gen.Path(200)), "cycle": graphtest.Must(gen.Cycle(200)), "star": graphtest.SpreadWeights(t, graphtest.Must(gen.Star(50)), 4, rng)} {
		s, err := NewSolver(g, &Settings{Preconditioner: ApproxCholesky}, rand.NewPCG(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		b := graphtest.BenchRHS(g.Order())
		x := make([]float64, len(b))
		res, err := s.Solve(x, b)
		if err != nil || res.Iterations > 2 {
			t.Errorf("%s: %d iterations, err %v: want ≤ 2", name, res.Iterations, err)
		}
	}
}

// Two complete graphs K_a joined by one bridge of conductance 1e-12
// between x ∈ A and y ∈ B. The bridge is a cut edge, so R_xy = 1e12, and
// for u ∈ A∖{x}, v ∈ B∖{y}: R_uv = 2/a + 1e12 + 2/a and R_ux = 2/a
// (K_a has R = 2/a between any two nodes).
func TestLaplacianSolverTinyBridge(t *testing.T) {
	const a, bridge = 40, 1e-12
	var es []wgraph.Edge
	for i := range a {
		for j := i + 1; j < a; j++ {
			es = append(es, wgraph.Edge{U: i, V: j, W: 1}, wgraph.Edge{U: a + i, V: a + j, W: 1})
		}
	}
	es = append(es, wgraph.Edge{U: 0, V: a, W: bridge})
	g := graphtest.GraphOf(t, 2*a, es...)
	for _, pc := range preconditioners {
		s, err := NewSolver(g, &Settings{Preconditioner: pc}, rand.NewPCG(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		cases := []struct {
			u, v int
			want float64
		}{{0, a, 1 / bridge}, {1, a + 1, 1/bridge + 4.0/a}, {1, 0, 2.0 / a}, {a + 3, a + 5, 2.0 / a}}
		for i, c := range cases {
			got, res, err := s.Resistance(c.u, c.v)
			// Within a cluster no current crosses the bridge, x = L† b is
			// O(1) and the solve meets Tol = 1e-10, so R is right to ~1e-10.
			// Across it x ≈ ±5e11, whose ulp (6e-5) floors the residual near
			// 1e-3: the solve may stop Stagnated, but R = x_u − x_v is then
			// right to ~1e-16 relative (6e-5 absolute on 1e12).
			cross := i < 2
			if err != nil && !(cross && errors.Is(err, loadlab.ErrNotConverged) && res.Status == loadlab.Stagnated) {
				t.Errorf("%v: R(%d, %d): %v", pc, c.u, c.v, err)
			}
			if math.Abs(got-c.want) > 1e-9*c.want {
				t.Errorf("%v: R(%d, %d) = %.12g, want %.12g (%+v)", pc, c.u, c.v, got, c.want, res)
			}
		}
	}
}

func TestLaplacianSolverDeterministic(t *testing.T) {
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

// From acSplitMin nodes the factorisation eliminates the interiors of two
// halves in parallel: on a 130 × 130 torus (16900 nodes) the factor must
// still precondition well, and the solution must be bitwise the same for
// one goroutine and for two (the halves touch disjoint lists, each with
// its own stream).
func TestApproxCholSplitDeterministic(t *testing.T) {
	g := graphtest.Must(gen.Torus(130, 130))
	if g.Order() < acSplitMin {
		t.Fatalf("torus of %d nodes is below the split threshold %d", g.Order(), acSplitMin)
	}
	b := graphtest.BenchRHS(g.Order())
	solve := func(procs int) ([]float64, SolveResult) {
		prev := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(prev)
		s, err := NewSolver(g, &Settings{Preconditioner: ApproxCholesky}, rand.NewPCG(9, 9))
		if err != nil {
			t.Fatal(err)
		}
		if s.ac.split[2]-s.ac.split[1] < g.Order()/4 || s.ac.split[1] < g.Order()/4 {
			t.Errorf("halves of %d and %d steps of %d: the split did not happen", s.ac.split[1], s.ac.split[2]-s.ac.split[1], g.Order())
		}
		x := make([]float64, len(b))
		res, err := s.Solve(x, b)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("GOMAXPROCS %d: %d iterations, halves of %d and %d steps, boundary %d", procs, res.Iterations, s.ac.split[1], s.ac.split[2]-s.ac.split[1], g.Order()-s.ac.split[2])
		return x, res
	}
	x1, res := solve(1)
	x2, _ := solve(2)
	// The split factor needs 43 iterations to 1e-10 here (47 to 1e-8 on
	// 1000 × 1000); Jacobi, i.e. unpreconditioned CG on this regular
	// graph, needs several hundred.
	if res.Iterations > 60 {
		t.Errorf("%d iterations with the split factor, want ≤ 60", res.Iterations)
	}
	if r := trueResidual(g, x1, b); r > DefaultSolveTol {
		t.Errorf("residual %g", r)
	}
	for i := range x1 {
		if x1[i] != x2[i] {
			t.Fatalf("x[%d] differs between 1 and 2 goroutines", i)
		}
	}
}

// A single node is a connected graph with L = [0]: L† = 0.
func TestSolverSingleNode(t *testing.T) {
	g := graphtest.Must(wgraph.NewBuilder(1)).Build()
	s, err := NewSolver(g, nil, graphtest.PCG(1))
	require.NoError(t, err)
	x := []float64{7}
	res, err := s.Solve(x, []float64{0})
	require.NoError(t, err)
	assert.Equal(t, []float64{0}, x)
	assert.Equal(t, loadlab.Success, res.Status)
}
