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

// blockRHS returns an n × k block whose columns converge at different
// iterations: Gaussian noise, the dipole e_{2j} − e_{n−1−j} (a few
// iterations on a local neighbourhood less than noise), the smooth
// sin(2π(j+1)u/n) (its energy is in the small eigenvalues), the product
// L·noise (little energy there), and a zero column at j = 4.
func blockRHS(g *wgraph.Graph, k int, seed uint64) *mat.Dense {
	n := g.Order()
	rng := rand.New(rand.NewPCG(seed, 3))
	b := mat.NewDense(n, k, nil)
	col := make([]float64, n)
	tmp := make([]float64, n)
	for j := range k {
		clear(col)
		switch j % 5 {
		case 0:
			for u := range col {
				col[u] = rng.NormFloat64()
			}
		case 1:
			col[(2*j)%n], col[n-1-j%n] = 1, -1
		case 2:
			for u := range col {
				col[u] = math.Sin(2 * math.Pi * float64((j+1)*u) / float64(n))
			}
		case 3:
			for u := range tmp {
				tmp[u] = rng.NormFloat64()
			}
			g.LaplacianMulVec(col, tmp)
		case 4: // zero, except in the 17-column block, where it is noise × 1e-3
			if j > 4 {
				for u := range col {
					col[u] = 1e-3 * rng.NormFloat64()
				}
			}
		}
		b.SetCol(j, col)
	}
	return b
}

// bridgeGraph is two K_40 joined by one edge of conductance 1e-12.
func bridgeGraph(t *testing.T) *wgraph.Graph {
	const a = 40
	var es []wgraph.Edge
	for i := range a {
		for j := i + 1; j < a; j++ {
			es = append(es, wgraph.Edge{U: i, V: j, W: 1}, wgraph.Edge{U: a + i, V: a + j, W: 1})
		}
	}
	return graphtest.GraphOf(t, 2*a, append(es, wgraph.Edge{U: 0, V: a, W: 1e-12})...)
}

// Each column of a block solve is the solve of that column alone: the
// same status, the same iteration count (the kernels do each column's
// arithmetic in Solve's order), and solutions x_blk, x_one that both meet
// the tolerance. Their difference d satisfies L d = r_one − r_blk, so
// ‖L d‖ ≤ 2 Tol ‖Pb‖ whatever κ(L) is: the test compares in that norm,
// with 1e-3 Tol of slack for the rounding of the two residual
// computations. On the 1e-12 bridge the cross-bridge columns may stop
// Stagnated (x ≈ 1e12, whose ulp floors the residual near 1e-3); such a
// column must then stagnate alone too, with the same residual to 1 %.
func TestSolveBlockMatchesSolve(t *testing.T) {
	graphs := map[string]*wgraph.Graph{
		"uniform":    graphtest.SparseWeighted(t, 400, 0.03, 0, 7),
		"10 decades": graphtest.SparseWeighted(t, 400, 0.03, 10, 8),
		"bridge":     bridgeGraph(t),
	}
	for name, g := range graphs {
		for _, pc := range preconditioners {
			for _, k := range []int{1, 3, 8, 17} {
				checkBlockAgainstSolve(t, name, g, pc, k)
			}
		}
	}
}

func checkBlockAgainstSolve(t *testing.T, name string, g *wgraph.Graph, pc Preconditioner, k int) {
	t.Helper()
	set := &Settings{Preconditioner: pc, MaxIter: 100000}
	sb, err := NewSolver(g, set, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	b := blockRHS(g, k, uint64(k))
	var x mat.Dense
	res, errBlk := sb.SolveBlock(&x, b)
	if len(res) != k {
		t.Fatalf("%s %v k=%d: %d results", name, pc, k, len(res))
	}
	n := g.Order()
	iters := map[int]bool{}
	chunks := (k + MaxBlockCols - 1) / MaxBlockCols
	factored := false // Auto: some column of the first chunk switched to the factor
	for j := range k {
		bj, xj := mat.Col(nil, j, b), mat.Col(nil, j, &x)
		// A fresh solver per column: Auto keeps the factor it switches
		// to, so the columns of a later chunk start with it when some
		// column of the first chunk built it.
		s1, err := NewSolver(g, set, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		if j >= k/chunks && factored && s1.ac == nil {
			if err := s1.factor(); err != nil {
				t.Fatal(err)
			}
		}
		one := make([]float64, n)
		r1, err1 := s1.Solve(one, bj)
		factored = factored || (j < k/chunks && s1.ac != nil)
		rb := res[j]
		iters[rb.Iterations] = true
		if rb.Status != r1.Status || rb.Iterations != r1.Iterations {
			t.Errorf("%s %v k=%d col %d: block %+v, alone %+v", name, pc, k, j, rb, r1)
			continue
		}
		if (err1 == nil) != (rb.Status == loadlab.Success) {
			t.Errorf("%s %v k=%d col %d: status %v but Solve err %v", name, pc, k, j, rb.Status, err1)
		}
		if floats.Norm(bj, 2) == 0 {
			if rb.Iterations != 0 || floats.Norm(xj, 2) != 0 {
				t.Errorf("%s %v k=%d col %d: zero column gave %+v, |x| = %g", name, pc, k, j, rb, floats.Norm(xj, 2))
			}
			continue
		}
		if rb.Status != loadlab.Success {
			if math.Abs(rb.Residual-r1.Residual) > 0.01*r1.Residual {
				t.Errorf("%s %v k=%d col %d: stagnated at %g, alone at %g", name, pc, k, j, rb.Residual, r1.Residual)
			}
			continue
		}
		if r := trueResidual(g, xj, bj); r > DefaultSolveTol*(1+1e-3) || math.Abs(r-rb.Residual) > 1e-3*DefaultSolveTol {
			t.Errorf("%s %v k=%d col %d: residual %g, reported %g", name, pc, k, j, r, rb.Residual)
		}
		d := append([]float64(nil), xj...)
		floats.Sub(d, one)
		ld := make([]float64, n)
		g.LaplacianMulVec(ld, d)
		pb := append([]float64(nil), bj...)
		floats.AddConst(-floats.Sum(pb)/float64(n), pb)
		if e := floats.Norm(ld, 2) / floats.Norm(pb, 2); e > 2.001*DefaultSolveTol {
			t.Errorf("%s %v k=%d col %d: ‖L(x_blk − x_one)‖/‖Pb‖ = %g > 2 Tol", name, pc, k, j, e)
		}
	}
	if errBlk != nil && !errors.Is(errBlk, loadlab.ErrNotConverged) {
		t.Errorf("%s %v k=%d: %v", name, pc, k, errBlk)
	}
	if name == "10 decades" && k >= 8 && len(iters) < 3 {
		t.Errorf("%s %v k=%d: iteration counts %v: the columns should converge at different iterations", name, pc, k, iters)
	}
}

// The block solve is bitwise the same for 1, 2 and 4 goroutines (fixed
// blocks, partial sums added in block order), on a graph large enough to
// have many blocks: Jacobi on a weighted expander, the factor on a torus,
// where it splits into two halves substituted in parallel.
func TestSolveBlockDeterministic(t *testing.T) {
	reg := graphtest.SpreadWeights(t, graphtest.Must(gen.RandomRegular(20000, 4, rand.NewPCG(2, 1))), 4, rand.New(rand.NewPCG(2, 2)))
	torus := graphtest.SpreadWeights(t, graphtest.Must(gen.Torus(130, 130)), 2, rand.New(rand.NewPCG(2, 3)))
	for _, c := range []struct {
		g  *wgraph.Graph
		pc Preconditioner
	}{{reg, Jacobi}, {reg, ApproxCholesky}, {torus, ApproxCholesky}} {
		g, pc := c.g, c.pc
		b := blockRHS(g, 5, 9)
		var ref *mat.Dense
		for _, procs := range []int{1, 2, 4} {
			prev := runtime.GOMAXPROCS(procs)
			s, err := NewSolver(g, &Settings{Preconditioner: pc, MaxIter: 100000, Tol: 1e-8}, rand.NewPCG(9, 9))
			if err != nil {
				t.Fatal(err)
			}
			var x mat.Dense
			_, err = s.SolveBlock(&x, b)
			runtime.GOMAXPROCS(prev)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = &x
				continue
			}
			if !mat.Equal(ref, &x) {
				t.Errorf("%v: GOMAXPROCS %d differs from 1", pc, procs)
			}
		}
	}
}

// Stopped by MaxIter, SolveBlock returns ErrNotConverged with each
// column's last iterate, whose true residual is the one reported; bad
// entries are ErrInvalid; a column of scale 2^300 is solved (scaled) with
// the digits of its unit-scale copy (Jacobi: Auto would keep the factor
// of the first call and iterate differently in the second); dst may be b.
func TestSolveBlockErrors(t *testing.T) {
	g := graphtest.Must(gen.Torus(30, 30))
	s, err := NewSolver(g, &Settings{Preconditioner: Jacobi, MaxIter: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := blockRHS(g, 3, 1)
	var x mat.Dense
	res, err := s.SolveBlock(&x, b)
	if !errors.Is(err, loadlab.ErrNotConverged) {
		t.Fatalf("err = %v, want ErrNotConverged", err)
	}
	for j, r := range res {
		got := trueResidual(g, mat.Col(nil, j, &x), mat.Col(nil, j, b))
		if r.Status != loadlab.IterationLimit || r.Iterations != 5 || math.Abs(got-r.Residual) > 1e-12 {
			t.Errorf("col %d: %+v, true residual %g", j, r, got)
		}
	}
	bad := mat.DenseCopyOf(b)
	bad.Set(7, 2, math.NaN())
	if res, err := s.SolveBlock(&x, bad); !errors.Is(err, loadlab.ErrInvalid) || res[0].Status != loadlab.Failure {
		t.Errorf("NaN entry: err = %v, %+v", err, res)
	}

	s, err = NewSolver(g, &Settings{Preconditioner: Jacobi}, nil)
	if err != nil {
		t.Fatal(err)
	}
	huge := mat.DenseCopyOf(b)
	col := mat.Col(nil, 0, b)
	floats.Scale(math.Ldexp(1, 300), col)
	huge.SetCol(0, col)
	var want mat.Dense
	if _, err := s.SolveBlock(&want, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SolveBlock(huge, huge); err != nil { // in place
		t.Fatal(err)
	}
	for u := range g.Order() {
		if w := math.Ldexp(want.At(u, 0), 300); huge.At(u, 0) != w || huge.At(u, 1) != want.At(u, 1) {
			t.Fatalf("row %d: scaled column %g, want %g; column 1 %g, want %g", u, huge.At(u, 0), w, huge.At(u, 1), want.At(u, 1))
		}
	}
}

func TestSolveBlockPanics(t *testing.T) {
	g := graphtest.Must(gen.Path(4))
	s, err := NewSolver(g, nil, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"nil b":        func() { s.SolveBlock(&mat.Dense{}, nil) },
		"nil dst":      func() { s.SolveBlock(nil, mat.NewDense(4, 2, nil)) },
		"empty b":      func() { s.SolveBlock(&mat.Dense{}, &mat.Dense{}) },
		"rows of b":    func() { s.SolveBlock(&mat.Dense{}, mat.NewDense(3, 2, nil)) },
		"shape of dst": func() { s.SolveBlock(mat.NewDense(4, 3, nil), mat.NewDense(4, 2, nil)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// A solver reuses its block storage for a narrower block: after an
// 8-column solve, a 3-column one (with a zero column, whose direction is
// never set) must give bitwise what a fresh solver gives, for Jacobi and
// for the factor.
func TestSolveBlockReusesStorage(t *testing.T) {
	g := graphtest.SparseWeighted(t, 300, 0.04, 3, 5)
	for _, pc := range []Preconditioner{Jacobi, ApproxCholesky} {
		set := &Settings{Preconditioner: pc}
		used, err := NewSolver(g, set, rand.NewPCG(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := NewSolver(g, set, rand.NewPCG(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		var x8, x3, want mat.Dense
		if _, err := used.SolveBlock(&x8, blockRHS(g, 8, 1)); err != nil {
			t.Fatal(err)
		}
		b3 := blockRHS(g, 5, 2).Slice(0, g.Order(), 2, 5).(*mat.Dense) // columns 2, 3, 4: smooth, L·noise, zero
		if _, err := used.SolveBlock(&x3, b3); err != nil {
			t.Fatal(err)
		}
		if _, err := fresh.SolveBlock(&want, b3); err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(&x3, &want) {
			t.Errorf("%v: a 3-column solve after an 8-column one differs from a fresh solver's", pc)
		}
	}
}

// With the factor, a block whose scratch exceeds acBlockBytes is
// substituted in groups of columns: forcing groups of 3 (and of 1) must
// give bitwise the solutions of one group of all 8 columns.
func TestSolveBlockFactorGroups(t *testing.T) {
	g := graphtest.SparseWeighted(t, 500, 0.02, 4, 6)
	b := blockRHS(g, 8, 3)
	solve := func(groupCols int) *mat.Dense {
		prev := acBlockBytes
		defer func() { acBlockBytes = prev }()
		if groupCols > 0 {
			acBlockBytes = 8 * g.Order() * groupCols
		}
		s, err := NewSolver(g, &Settings{Preconditioner: ApproxCholesky}, rand.NewPCG(3, 3))
		if err != nil {
			t.Fatal(err)
		}
		var x mat.Dense
		if _, err := s.SolveBlock(&x, b); err != nil {
			t.Fatal(err)
		}
		return &x
	}
	all := solve(0)
	for _, gc := range []int{3, 1} {
		if !mat.Equal(all, solve(gc)) {
			t.Errorf("groups of %d columns differ from one group of 8", gc)
		}
	}
}

// PreferredBlockCols: MaxBlockCols on a small graph; with the factor's
// scratch bound forced to 3 columns' worth, 3, and to less than one, 1;
// a Jacobi solver does not use the factor's bound.
func TestPreferredBlockCols(t *testing.T) {
	g := graphtest.Must(gen.Torus(20, 20))
	prev := acBlockBytes
	defer func() { acBlockBytes = prev }()
	for _, c := range []struct {
		pc    Preconditioner
		bytes int
		want  int
	}{{Auto, prev, MaxBlockCols}, {ApproxCholesky, 8 * 400 * 3, 3}, {ApproxCholesky, 100, 1}, {Auto, 100, 1}, {Jacobi, 100, MaxBlockCols}} {
		acBlockBytes = c.bytes
		s := graphtest.Must(NewSolver(g, &Settings{Preconditioner: c.pc}, rand.NewPCG(1, 1)))
		if got := s.PreferredBlockCols(); got != c.want {
			t.Errorf("%v, scratch bound %d bytes: PreferredBlockCols() = %d, want %d", c.pc, c.bytes, got, c.want)
		}
	}
}
