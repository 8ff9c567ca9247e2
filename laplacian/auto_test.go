package laplacian

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/mat"
)

// solveWith solves L x = BenchRHS with preconditioner pc (seed fixed) and
// returns the solver and the result, failing the test unless it converges
// to tol.
func solveWith(t *testing.T, g *wgraph.Graph, pc Preconditioner, tol float64) (*Solver, SolveResult) {
	t.Helper()
	s, err := NewSolver(g, &Settings{Tol: tol, Preconditioner: pc, MaxIter: 100000}, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, g.Order())
	b := graphtest.BenchRHS(g.Order())
	res, err := s.Solve(x, b)
	if err != nil {
		t.Fatalf("%v: %v", pc, err)
	}
	if r := trueResidual(g, x, b); r > tol {
		t.Fatalf("%v: residual %g > %g", pc, r, tol)
	}
	return s, res
}

// TestAutoChoosesMeasuredFaster solves with each explicit preconditioner,
// prices the measured iteration counts with the cost model (Jacobi
// iterations; the factorisation and each factor iteration at their
// measured Jacobi-iteration equivalents), and checks that Auto takes the
// cheaper one from the start: it then repeats that solve iteration for
// iteration (same factor seed). The graphs are chosen with the winner at
// least 25 % cheaper, so the test checks the choice, not a tie.
func TestAutoChoosesMeasuredFaster(t *testing.T) {
	const tol = 1e-10
	for _, c := range []struct {
		name string
		g    *wgraph.Graph
	}{
		{"RandomRegular(4000, 6)", graphtest.Must(gen.RandomRegular(4000, 6, rand.NewPCG(1, 2)))},
		{"RandomRegular(4000, 3)", graphtest.Must(gen.RandomRegular(4000, 3, rand.NewPCG(1, 2)))},
		{"Torus(64, 64)", graphtest.Must(gen.Torus(64, 64))},
		{"Torus(150, 150)", graphtest.Must(gen.Torus(150, 150))},
		{"Grid(64, 64)", graphtest.Must(gen.Grid(64, 64))},
		{"Cycle(2000)", graphtest.Must(gen.Cycle(2000))},
	} {
		_, rj := solveWith(t, c.g, Jacobi, tol)
		_, ra := solveWith(t, c.g, ApproxCholesky, tol)
		costJ := float64(rj.Iterations)
		costAC := acSetupIters + acIterCost*float64(ra.Iterations)
		if r := costJ / costAC; r > 0.8 && r < 1.25 {
			t.Fatalf("%s: Jacobi %.0f against approximate Cholesky %.0f: too close to test the choice", c.name, costJ, costAC)
		}
		want := Jacobi
		if costAC < costJ {
			want = ApproxCholesky
		}
		s, res := solveWith(t, c.g, Auto, tol)
		got := Jacobi
		if s.ac != nil {
			got = ApproxCholesky
		}
		wantIters := rj.Iterations
		if want == ApproxCholesky {
			wantIters = ra.Iterations
		}
		if got != want || res.Iterations != wantIters {
			t.Errorf("%s: Auto took %v in %d iterations; measured cost Jacobi %.0f (%d iterations), approximate Cholesky %.0f (%d), want %v",
				c.name, got, res.Iterations, costJ, rj.Iterations, costAC, ra.Iterations, want)
		}
		t.Logf("%s: κ ≥ %.4g, Jacobi predicted %.0f measured %.0f, approximate Cholesky %.0f (predicted %.0f): %v",
			c.name, s.auto.kappaLo, s.auto.jacobiIters(tol), costJ, costAC, breakEven(c.g.Order(), tol), got)
	}
}

// TestAutoSwitchesWhenProbeMisjudges hides a torus's slow mode from the
// probe: weight-1e-8 links between random nodes make the breadth-first
// levels those of an expander, while the spectrum stays the torus's.
// Auto then runs Jacobi, which does not converge within the break-even
// count, and switches to the factor there.
func TestAutoSwitchesWhenProbeMisjudges(t *testing.T) {
	const tol = 1e-10
	bld := graphtest.Must(gen.Torus(150, 150)).Builder()
	n := bld.Order()
	rng := rand.New(rand.NewPCG(3, 4))
	for range n / 4 {
		if u, v := rng.IntN(n), rng.IntN(n); u != v {
			if err := bld.SetEdge(u, v, 1e-8); err != nil {
				t.Fatal(err)
			}
		}
	}
	g := bld.Build()
	_, rj := solveWith(t, g, Jacobi, tol)
	s, res := solveWith(t, g, Auto, tol)
	budget := s.auto.autoJacobiBudget(tol)
	if budget == 0 || rj.Iterations <= budget {
		t.Fatalf("probe κ ≥ %.3g: budget %d, Jacobi alone %d iterations: the probe was not misled", s.auto.kappaLo, budget, rj.Iterations)
	}
	if s.ac == nil || res.Iterations <= budget {
		t.Errorf("Auto did not switch after the break-even %d Jacobi iterations: %d iterations, factor %v", budget, res.Iterations, s.ac != nil)
	}
}

// TestProbeKappaIsALowerBound compares the probe's bound with κ(D⁻¹L) =
// λ_max/λ₂ from a dense eigendecomposition of D^{-1/2} L D^{-1/2}: it
// must not exceed it (it is a ratio of Rayleigh quotients), and on the
// meshes it must be within a factor 3 of it (the bound is what makes Auto
// factor there; the smooth level vectors are near the slowest mode).
func TestProbeKappaIsALowerBound(t *testing.T) {
	for _, c := range []struct {
		name  string
		g     *wgraph.Graph
		close bool
	}{
		{"Torus(20, 20)", graphtest.Must(gen.Torus(20, 20)), true},
		{"Grid(15, 25)", graphtest.Must(gen.Grid(15, 25)), true},
		{"Path(300)", graphtest.Must(gen.Path(300)), true},
		{"RandomRegular(300, 6)", graphtest.Must(gen.RandomRegular(300, 6, rand.NewPCG(5, 6))), false},
		{"SparseWeighted(300, spread 10)", graphtest.SparseWeighted(t, 300, 0.03, 10, 9), false},
	} {
		kappa := denseKappa(c.g)
		s, err := NewSolver(c.g, nil, rand.NewPCG(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		lo := s.auto.kappaLo
		// The eigenvalues carry a rounding error of about ε·λ_max relative
		// to λ₂; 1e-8 relative covers it for κ ≲ 1e5.
		if lo > kappa*(1+1e-8) || (c.close && lo < kappa/3) {
			t.Errorf("%s: probe κ ≥ %.6g, dense κ = %.6g", c.name, lo, kappa)
		}
		t.Logf("%s: probe %.4g, κ %.4g", c.name, lo, kappa)
	}
}

// denseKappa returns λ_max/λ₂ of D^{-1/2} L D^{-1/2}.
func denseKappa(g *wgraph.Graph) float64 {
	n := g.Order()
	l := mat.NewSymDense(n, nil)
	deg := make([]float64, n)
	for _, e := range g.Edges() {
		deg[e.U] += e.W
		deg[e.V] += e.W
	}
	for _, e := range g.Edges() {
		l.SetSym(e.U, e.V, -e.W/math.Sqrt(deg[e.U]*deg[e.V]))
	}
	for u := range n {
		l.SetSym(u, u, 1)
	}
	var eig mat.EigenSym
	if !eig.Factorize(l, false) {
		panic("denseKappa: no eigendecomposition")
	}
	ev := eig.Values(nil)
	return ev[n-1] / ev[1]
}

// TestAutoProbeIndependentOfGoroutines: the probe is one sequential pass,
// so the bound, and with it the choice, is the same at any GOMAXPROCS.
func TestAutoProbeIndependentOfGoroutines(t *testing.T) {
	g := graphtest.Must(gen.Torus(120, 90))
	var kappa [2]float64
	var iters [2]int
	for i, procs := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(procs)
		s, res := solveWith(t, g, Auto, 1e-8)
		runtime.GOMAXPROCS(prev)
		kappa[i], iters[i] = s.auto.kappaLo, res.Iterations
	}
	if kappa[0] != kappa[1] || iters[0] != iters[1] {
		t.Errorf("GOMAXPROCS 1 and 2: κ bound %v, iterations %v", kappa, iters)
	}
}
