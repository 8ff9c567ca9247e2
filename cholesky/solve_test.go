package cholesky

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/stretchr/testify/require"
)

// groundedLaplacian returns the Laplacian of g with the weights w(k) of
// its edges (in the order of g.Edges), its last node's row and column
// deleted. A zero weight is stored as an explicit zero, so every weight
// vector gives the same pattern.
func groundedLaplacian(g *wgraph.Graph, w func(k int) float64) *Matrix {
	n := g.Order() - 1
	rows := make([]map[int]float64, n+1)
	for i := range rows {
		rows[i] = map[int]float64{i: 0}
	}
	for k, e := range g.Edges() {
		x := w(k)
		rows[e.U][e.U] += x
		rows[e.V][e.V] += x
		rows[e.U][e.V] -= x
		rows[e.V][e.U] -= x
	}
	a := &Matrix{N: n, Ptr: make([]int, n+1)}
	for i := range n {
		cols := make([]int, 0, len(rows[i]))
		for j := range rows[i] {
			if j < n {
				cols = append(cols, j)
			}
		}
		slices.Sort(cols)
		for _, j := range cols {
			a.Ind = append(a.Ind, j)
			a.Val = append(a.Val, rows[i][j])
		}
		a.Ptr[i+1] = len(a.Ind)
	}
	return a
}

// TestSolveToIsSolve checks that SolveTo gives Solve's result bit for
// bit, with dst distinct from b and with dst = b, in every ordering, and
// that it allocates nothing.
func TestSolveToIsSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, o := range []Ordering{Natural, AMD, NestedDissection, Auto} {
		for _, n := range []int{1, 7, 150} {
			a, _ := randomSPD(rng, n, 4)
			sym, err := Analyze(a, &Settings{Ordering: o})
			require.NoError(t, err)
			f, err := sym.Factor(a)
			require.NoError(t, err)
			b := make([]float64, n)
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			want := f.Solve(nil, b)
			got, work := make([]float64, n), make([]float64, n+3) // longer work is allowed
			f.SolveTo(got, b, work)
			require.Equal(t, want, got, "%v, n = %d", o, n)
			inPlace := slices.Clone(b)
			f.SolveTo(inPlace, inPlace, work[:n])
			require.Equal(t, want, inPlace, "%v, n = %d, dst = b", o, n)
			allocs := testing.AllocsPerRun(20, func() { f.SolveTo(got, b, work) })
			require.Zero(t, allocs, "%v, n = %d: SolveTo allocates", o, n)
		}
	}
}

// TestRefactorIsFresh factors a sequence of weightings of the power
// grid's grounded Laplacian on one Symbolic — some weights zero, stored
// as explicit zeros so the pattern stays that of every link — and checks
// that each factor is bit for bit the one a fresh Analyze and Factor
// give: the ordering is deterministic, so the analysis kept is the
// analysis a fresh call makes.
func TestRefactorIsFresh(t *testing.T) {
	g := datasets.PowerGrid().Graph
	m := g.Size()
	rng := rand.New(rand.NewPCG(5, 6))
	sym, err := Analyze(groundedLaplacian(g, func(int) float64 { return 1 }), nil)
	require.NoError(t, err)
	for trial := range 3 {
		w := make([]float64, m)
		for k := range w {
			w[k] = math.Exp(rng.NormFloat64())
		}
		zeros := 0
		if trial > 0 {
			zeros = zeroSomeLinks(t, g, w, rng, 20*trial)
		}
		a := groundedLaplacian(g, func(k int) float64 { return w[k] })
		kept, err := sym.Factor(a)
		require.NoError(t, err, "trial %d (%d zero weights)", trial, zeros)
		fresh, err := freshFactor(a)
		require.NoError(t, err, "trial %d", trial)
		require.Equal(t, fresh.lx, kept.lx, "trial %d: factor values", trial)
		require.Equal(t, fresh.sym.perm, kept.sym.perm, "trial %d: ordering", trial)
		require.Equal(t, fresh.Cond(), kept.Cond(), "trial %d: condition estimate", trial)
	}
	// A pattern change is refused, not silently re-analysed.
	other := groundedLaplacian(graphWithout(t, g, 0), func(int) float64 { return 1 })
	_, err = sym.Factor(other)
	require.ErrorIs(t, err, inv)
	require.ErrorContains(t, err, "pattern differs")
}

// zeroSomeLinks sets up to k random weights to zero, each only if the
// links of positive weight still connect the nodes, and returns how many
// it set.
func zeroSomeLinks(t *testing.T, g *wgraph.Graph, w []float64, rng *rand.Rand, k int) int {
	es := g.Edges()
	done := 0
	for range 10 * k {
		if done == k {
			break
		}
		e := rng.IntN(len(es))
		if w[e] == 0 {
			continue
		}
		old := w[e]
		w[e] = 0
		var kept []wgraph.Edge
		for i, x := range es {
			if w[i] > 0 {
				kept = append(kept, x)
			}
		}
		h, err := wgraph.FromEdges(g.Order(), kept)
		require.NoError(t, err)
		if wgraph.IsConnected(h) {
			done++
		} else {
			w[e] = old
		}
	}
	return done
}

// graphWithout returns g without its edge number k.
func graphWithout(t *testing.T, g *wgraph.Graph, k int) *wgraph.Graph {
	es := g.Edges()
	h, err := wgraph.FromEdges(g.Order(), append(es[:k:k], es[k+1:]...))
	require.NoError(t, err)
	return h
}

func freshFactor(a *Matrix) (*Factor, error) {
	sym, err := Analyze(a, nil)
	if err != nil {
		return nil, err
	}
	return sym.Factor(a)
}

// BenchmarkSolvePowerGrid times one solve with the factor of the US power
// grid's grounded Laplacian: Solve (a workspace allocated per call) and
// SolveTo (the caller's workspace).
func BenchmarkSolvePowerGrid(b *testing.B) {
	a := groundedLaplacian(datasets.PowerGrid().Graph, func(int) float64 { return 1 })
	f, err := freshFactor(a)
	if err != nil {
		b.Fatal(err)
	}
	rhs, x, work := make([]float64, a.N), make([]float64, a.N), make([]float64, a.N)
	rhs[0], rhs[a.N-1] = 1, -1
	b.Run("Solve", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.Solve(x, rhs)
		}
	})
	b.Run("SolveTo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f.SolveTo(x, rhs, work)
		}
	})
}

// BenchmarkFactorPowerGrid times one factorisation of the power grid's
// grounded Laplacian: with a fresh analysis (Analyze, which orders by
// both AMD and nested dissection under Auto, then Factor) and on a
// Symbolic kept from an earlier matrix of the same pattern (Factor
// alone).
func BenchmarkFactorPowerGrid(b *testing.B) {
	a := groundedLaplacian(datasets.PowerGrid().Graph, func(int) float64 { return 1 })
	sym, err := Analyze(a, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Analyze+Factor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := freshFactor(a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Factor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sym.Factor(a); err != nil {
				b.Fatal(err)
			}
		}
	})
}
