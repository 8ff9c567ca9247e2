package laplacian

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

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
