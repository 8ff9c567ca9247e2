package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
)

// Against exact resistances on a random weighted graph (n = 1000, weights
// over 4 decades): the fraction of edges whose estimate misses by more
// than ε must not exceed the normal-approximation rate 2Φ(−ε√(k/2)) by
// more than the binomial noise of that many edges (4 standard
// deviations; the edges' errors are positively correlated, so the
// realised fraction varies somewhat more than a binomial, hence also a
// floor of 2 percentage points), and Foster's sum must be n − 1 within
// ε (it is a Hutchinson estimate with relative sd √(2/(k(n−1))) ≈ 0.5 %
// plus solve error).
func TestApproxEdgeResistancesAgainstExact(t *testing.T) {
	g := sparseWeighted(t, 1000, 0.006, 4, 21)
	exact, err := NewResistance(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, eps := range []float64{0.3, 0.5} {
		er, err := ApproxEdgeResistances(g, &SketchSettings{Eps: eps}, rand.NewPCG(3, uint64(eps*10)))
		if err != nil {
			t.Fatal(err)
		}
		if er.K != must(SketchProjections(1000, eps, 1)) || len(er.R) != g.Size() {
			t.Fatalf("ε %v: K = %d, %d estimates", eps, er.K, len(er.R))
		}
		miss := 0
		for e, edge := range er.Edges {
			if r := exact.Between(edge.U, edge.V); math.Abs(er.R[e]/r-1) > eps {
				miss++
			}
		}
		m := float64(len(er.R))
		approx, bound, err := SketchAccuracy(er.K, eps)
		if err != nil {
			t.Fatal(err)
		}
		frac := float64(miss) / m
		if slack := max(4*math.Sqrt(approx*(1-approx)/m), 0.02); frac > approx+slack || frac > bound {
			t.Errorf("ε %v, k %d: %.3f of edges off by > ε, expected ≈ %.3f (bound %.3f)", eps, er.K, frac, approx, bound)
		}
		if sd := math.Sqrt(2 / (float64(er.K) * 999)); er.FosterRelErr > min(eps, 5*sd+1e-3) {
			t.Errorf("ε %v: Foster Σ w R̃ = %g, want 999 (rel. err %.2g, sd %.2g)", eps, er.Foster, er.FosterRelErr, sd)
		}
		t.Logf("ε %v k %d: miss %.3f (approx %.3f, bound %.3f), Foster rel err %.2g, %d iterations", eps, er.K, frac, approx, bound, er.FosterRelErr, er.Iterations)
	}
}

func TestResistanceSketchPairs(t *testing.T) {
	g := sparseWeighted(t, 600, 0.01, 3, 22)
	exact, err := NewResistance(g)
	if err != nil {
		t.Fatal(err)
	}
	const eps = 0.3
	rs, err := NewResistanceSketch(g, &SketchSettings{Eps: eps}, rand.NewPCG(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 6))
	const pairs = 2000
	miss := 0
	for range pairs {
		u, v := rng.IntN(600), rng.IntN(600)
		if u == v {
			continue
		}
		if math.Abs(rs.Between(u, v)/exact.Between(u, v)-1) > eps {
			miss++
		}
	}
	approx, _, err := SketchAccuracy(rs.K, eps)
	if err != nil {
		t.Fatal(err)
	}
	// Same rate and slack as for the edges above.
	if frac := float64(miss) / pairs; frac > approx+max(4*math.Sqrt(approx*(1-approx)/pairs), 0.02) {
		t.Errorf("%.3f of pairs off by > ε, expected ≈ %.3f", frac, approx)
	}
	if rs.FosterRelErr > eps {
		t.Errorf("Foster rel. err %g > ε", rs.FosterRelErr)
	}
}

// On the hypercube Q_d every edge has R = (2^d − 1)/(d 2^{d−1}) (Foster
// with edge transitivity: m R = n − 1, m = d 2^{d−1}).
func TestApproxEdgeResistancesHypercube(t *testing.T) {
	const d, eps = 9, 0.3
	g := must(Hypercube(d))
	er, err := ApproxEdgeResistances(g, &SketchSettings{Eps: eps}, rand.NewPCG(8, 8))
	if err != nil {
		t.Fatal(err)
	}
	want := float64(g.Order()-1) / float64(g.Size())
	miss := 0
	for _, r := range er.R {
		if math.Abs(r/want-1) > eps {
			miss++
		}
	}
	approx, _, err := SketchAccuracy(er.K, eps)
	if err != nil {
		t.Fatal(err)
	}
	if frac := float64(miss) / float64(len(er.R)); frac > approx+0.02 {
		t.Errorf("%.3f of edges off by > ε, expected ≈ %.3f", frac, approx)
	}
}

func TestSketchSettingsErrors(t *testing.T) {
	for _, s := range []SketchSettings{{Eps: -0.1}, {Eps: 1}, {Eps: math.NaN()}, {C: -1}, {C: math.Inf(1)}, {Solver: &SolverSettings{Tol: -1}}} {
		if _, err := ApproxEdgeResistances(must(Path(4)), &s, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", s, err)
		}
	}
	if _, err := ApproxEdgeResistances(graphOf(t, 4, Edge{0, 1, 1}, Edge{2, 3, 1}), nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrDisconnected) {
		t.Errorf("disconnected: err = %v", err)
	}
}

// The lockstep block solver runs, per column, the same Jacobi-PCG
// iteration as LaplacianSolver: its solutions agree with single solves
// to the tolerance (both within Tol·‖b‖·‖L†‖ of L† b), and each column's
// reported residual is its true one.
func TestBlockCGMatchesSingleSolves(t *testing.T) {
	g, err := RandomRegular(3000, 5, rand.NewPCG(1, 9))
	if err != nil {
		t.Fatal(err)
	}
	g = spreadWeights(t, g, 2, rand.New(rand.NewPCG(2, 9)))
	s, err := NewLaplacianSolver(g, &SolverSettings{Preconditioner: Jacobi, Tol: 1e-9}, nil)
	if err != nil {
		t.Fatal(err)
	}
	bc := newBlockCG(s.op, s.op.invDegrees())
	rng := rand.New(rand.NewPCG(3, 9))
	n := g.Order()
	cols := make([][]float64, blockWidth)
	for c := range cols {
		cols[c] = make([]float64, n)
		for u := range cols[c] {
			cols[c][u] = rng.NormFloat64()
			bc.b[u*blockWidth+c] = cols[c][u]
		}
	}
	ok := bc.solve(1e-9, 1000)
	x := make([]float64, n)
	for c, b := range cols {
		res, err := s.Solve(x, b)
		if err != nil || !ok[c] {
			t.Fatalf("column %d: %v, block ok %v", c, err, ok[c])
		}
		col := make([]float64, n)
		for u := range col {
			col[u] = bc.x[u*blockWidth+c]
		}
		if r := trueResidual(g, col, b); r > 1e-9 || math.Abs(r-bc.resid[c]) > 1e-12 {
			t.Errorf("column %d: true residual %g, reported %g", c, r, bc.resid[c])
		}
		var d, nx float64
		for u := range x {
			d = max(d, math.Abs(x[u]-col[u]))
			nx = max(nx, math.Abs(x[u]))
		}
		// κ(L) ≲ 1e3 here (2 decades of weights on an expander), so both
		// are within 1e-9·κ ≈ 1e-6 of L† b.
		if d > 1e-6*nx {
			t.Errorf("column %d: block and single solves differ by %g (max |x| %g)", c, d, nx)
		}
		if bc.iters[c] < res.Iterations-2 || bc.iters[c] > res.Iterations+2 {
			t.Errorf("column %d: %d block iterations, %d single", c, bc.iters[c], res.Iterations)
		}
	}
}
