package spectral

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// tolExact bounds the error of a Cholesky-based solve on these tiny,
// well-conditioned graphs: a few hundred ulps of numbers of order 1.
const tolExact = 1e-12

func weightedTriangle() *wgraph.Graph {
	g, err := wgraph.FromEdges(3, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 2}, {U: 0, V: 2, W: 3}})
	if err != nil {
		panic(err)
	}
	return g
}

func TestPseudoInverseHandChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *wgraph.Graph
		want []float64 // row-major L†
		div  float64
	}{
		// spec throttlers.md §9: P3 has L† = (1/9)[5 −1 −4; −1 2 −1; −4 −1 5].
		{"P3", graphtest.Must(gen.Path(3)), []float64{5, -1, -4, -1, 2, -1, -4, -1, 5}, 9},
		// spec §9: weighted triangle w12=1, w23=2, w13=3: L† = (1/33)[4 −3 −1; −3 5 −2; −1 −2 3].
		{"triangle", weightedTriangle(), []float64{4, -3, -1, -3, 5, -2, -1, -2, 3}, 33},
	} {
		p, err := PseudoInverse(tc.g)
		require.NoError(t, err)
		for i := range 3 {
			for j := range 3 {
				assert.InDelta(t, tc.want[3*i+j]/tc.div, p.At(i, j), tolExact, "%s [%d][%d]", tc.name, i, j)
			}
		}
	}
}

func TestResistanceHandChecked(t *testing.T) {
	// spec §9: weighted triangle r12 = 5/11, r23 = 4/11, r13 = 3/11, K_f = 12/11.
	r, err := NewResistance(weightedTriangle())
	require.NoError(t, err)
	assert.InDelta(t, 5.0/11, r.Between(0, 1), tolExact)
	assert.InDelta(t, 4.0/11, r.Between(1, 2), tolExact)
	assert.InDelta(t, 3.0/11, r.Between(2, 0), tolExact)
	assert.InDelta(t, 12.0/11, r.Kirchhoff(), tolExact)

	// spec §9: C6 row 0 = 0, 5/6, 4/3, 3/2, 4/3, 5/6; K_f = 35/2.
	rm, err := ResistanceMatrix(graphtest.Must(gen.Cycle(6)))
	require.NoError(t, err)
	for j, want := range []float64{0, 5.0 / 6, 4.0 / 3, 1.5, 4.0 / 3, 5.0 / 6} {
		assert.InDelta(t, want, rm.At(0, j), tolExact, "C6 R[0][%d]", j)
	}
	k, err := KirchhoffIndex(graphtest.Must(gen.Cycle(6)))
	require.NoError(t, err)
	assert.InDelta(t, 17.5, k, tolExact)

	// spec §9: grid 2×3, corner 0 to nodes 0..5: 0, 11/15, 4/3, 11/15, 14/15, 7/5; K_f = 71/5.
	g := graphtest.Must(gen.Grid(2, 3))
	for v, want := range []float64{0, 11.0 / 15, 4.0 / 3, 11.0 / 15, 14.0 / 15, 7.0 / 5} {
		got, err := EffectiveResistance(g, 0, v)
		require.NoError(t, err)
		assert.InDelta(t, want, got, tolExact, "grid R(0,%d)", v)
	}
	k, err = KirchhoffIndex(g)
	require.NoError(t, err)
	assert.InDelta(t, 71.0/5, k, tolExact)
}

func TestNetworkXExample(t *testing.T) {
	// NetworkX resistance_distance documentation: edges (1,2),(1,3),(1,4),
	// (3,4),(3,5),(4,5) with unit weights give R(1,3) = 0.625 and the
	// Kirchhoff index 10.25. Nodes shifted to 0-based.
	var es []wgraph.Edge
	for _, e := range [][2]int{{1, 2}, {1, 3}, {1, 4}, {3, 4}, {3, 5}, {4, 5}} {
		es = append(es, wgraph.Edge{U: e[0] - 1, V: e[1] - 1, W: 1})
	}
	g := graphtest.GraphOf(t, 5, es...)
	r, err := EffectiveResistance(g, 0, 2)
	require.NoError(t, err)
	assert.InDelta(t, 0.625, r, tolExact)
	k, err := KirchhoffIndex(g)
	require.NoError(t, err)
	assert.InDelta(t, 10.25, k, tolExact)
}

func TestDisconnectedErrors(t *testing.T) {
	g := graphtest.GraphOf(t, 4, wgraph.Edge{U: 0, V: 1, W: 1}, wgraph.Edge{U: 2, V: 3, W: 1})
	assert.False(t, wgraph.IsConnected(g))
	// Everything that needs L† names the first unreachable node and the
	// size of node 0's component.
	const want = "node 2 is not reachable from node 0 (component of node 0 has 2 of 4 nodes): graph is disconnected"
	_, err := KirchhoffIndex(g)
	assert.ErrorIs(t, err, loadlab.ErrDisconnected)
	assert.ErrorContains(t, err, want)
	_, err = PseudoInverse(g)
	assert.ErrorContains(t, err, want)
	_, err = EffectiveResistance(g, 0, 3)
	assert.ErrorContains(t, err, want)
	_, err = ResistanceMatrix(g)
	assert.ErrorContains(t, err, want)
	_, err = NewResistance(g)
	assert.ErrorContains(t, err, want)
	_, err = KirchhoffIndex(graphtest.GraphOf(t, 0))
	assert.ErrorContains(t, err, "no nodes")
	// Node out of range, either end, named with its value and the range.
	_, err = EffectiveResistance(graphtest.Must(gen.Path(3)), 0, 3)
	assert.ErrorContains(t, err, "node v = 3 out of range [0, 3)")
	_, err = EffectiveResistance(graphtest.Must(gen.Path(3)), -1, 2)
	assert.ErrorContains(t, err, "node u = -1 out of range [0, 3)")
	r, err := NewResistance(graphtest.Must(gen.Path(3)))
	require.NoError(t, err)
	assert.PanicsWithError(t, "spectral: node v = 7 out of range [0, 3)", func() { r.Between(0, 7) })
}

func TestIllConditioned(t *testing.T) {
	// Path 0–1–2 with weights 2^500 and 2^-500: R(0,2) = 2^500 + 2^-500,
	// but the small weight vanishes against the large one in L + αJ/n.
	// This must be an error, not a number.
	g := graphtest.GraphOf(t, 3, wgraph.Edge{U: 0, V: 1, W: wgraph.MaxWeight}, wgraph.Edge{U: 1, V: 2, W: wgraph.MinWeight})
	_, err := KirchhoffIndex(g)
	assert.ErrorContains(t, err, "condition number")
	_, err = EffectiveResistance(g, 0, 2)
	assert.ErrorContains(t, err, "condition number")

	// Weights 1e-5 and 1e5 (κ ≈ 1e10) are still fine: R(0,2) = 1e5 + 1e-5,
	// to relative accuracy κ·ε ≈ 2e-6.
	g = graphtest.GraphOf(t, 3, wgraph.Edge{U: 0, V: 1, W: 1e5}, wgraph.Edge{U: 1, V: 2, W: 1e-5})
	r, err := EffectiveResistance(g, 0, 2)
	require.NoError(t, err)
	assert.InEpsilon(t, 1e5+1e-5, r, 1e10*eps)
}

func TestResistanceClosedForms(t *testing.T) {
	// spec throttlers.md §9: path r_ij = |i−j|; cycle r_ij = d(n−d)/n with
	// d = |i−j|; star hub–leaf 1, leaf–leaf 2; complete r_ij = 2/n; for
	// n = 2..12. Every R is at most n, and κ(A) ≤ 0.5 n² for these
	// graphs, so the absolute error is below κ·n·ε·n ≈ 1e-12.
	const tol = 1e-12
	for n := 2; n <= 12; n++ {
		for _, tc := range []struct {
			name string
			g    *wgraph.Graph
			r    func(i, j int) float64
		}{
			{"path", graphtest.Must(gen.Path(n)), func(i, j int) float64 { return math.Abs(float64(i - j)) }},
			{"star", graphtest.Must(gen.Star(n)), func(i, j int) float64 {
				if i == j {
					return 0
				}
				if i == 0 || j == 0 {
					return 1
				}
				return 2
			}},
			{"complete", graphtest.Must(gen.Complete(n)), func(i, j int) float64 {
				if i == j {
					return 0
				}
				return 2 / float64(n)
			}},
			{"cycle", cycleOrNil(n), func(i, j int) float64 {
				d := math.Abs(float64(i - j))
				return d * (float64(n) - d) / float64(n)
			}},
		} {
			if tc.g == nil {
				continue
			}
			rm, err := ResistanceMatrix(tc.g)
			require.NoError(t, err)
			for i := range n {
				for j := range n {
					assert.InDelta(t, tc.r(i, j), rm.At(i, j), tol, "%s n=%d (%d, %d)", tc.name, n, i, j)
				}
			}
		}
	}
}

// cycleOrNil returns must(Cycle(n)), or nil below the smallest cycle.
func cycleOrNil(n int) *wgraph.Graph {
	if n < 3 {
		return nil
	}
	return graphtest.Must(gen.Cycle(n))
}

func TestResistanceConcurrent(t *testing.T) {
	// Between computes V lazily under a sync.Once: concurrent first calls
	// must all see the same factor (run with -race).
	r, err := NewResistance(graphtest.Must(gen.Grid(6, 7)))
	require.NoError(t, err)
	const workers = 8
	got := make([]float64, workers)
	tasks := make([]*par.Task, workers)
	for w := range workers {
		tasks[w] = par.Go(func() { got[w] = r.Between(0, 41) + r.PseudoInverseDiag(nil)[w] })
	}
	for _, tk := range tasks {
		tk.Wait()
	}
	d := r.PseudoInverseDiag(nil)
	for w := range workers {
		assert.Equal(t, r.Between(0, 41)+d[w], got[w])
	}
}

func TestTinyGraphs(t *testing.T) {
	// One node: L = [0], L† = [0], K_f = 0. No nodes: an error.
	g := graphtest.GraphOf(t, 1)
	k, err := KirchhoffIndex(g)
	require.NoError(t, err)
	assert.Equal(t, 0.0, k)
	p, err := PseudoInverse(g)
	require.NoError(t, err)
	assert.InDelta(t, 0, p.At(0, 0), tolExact)
	rm, err := ResistanceMatrix(g)
	require.NoError(t, err)
	assert.Equal(t, 0.0, rm.At(0, 0))
	_, err = KirchhoffIndex(graphtest.GraphOf(t, 0))
	assert.ErrorContains(t, err, "no nodes")
	_, err = Spectrum(graphtest.GraphOf(t, 0))
	assert.Error(t, err)
	// Two nodes joined by conductance 4: R = 1/4 (a quarter ohm).
	g = graphtest.GraphOf(t, 2, wgraph.Edge{U: 0, V: 1, W: 4})
	r, err := EffectiveResistance(g, 1, 0)
	require.NoError(t, err)
	assert.InDelta(t, 0.25, r, tolExact)
}

func TestDestinationReuse(t *testing.T) {
	r, err := NewResistance(weightedTriangle())
	require.NoError(t, err)
	var dst mat.SymDense
	r.MatrixTo(&dst) // sized on first use
	assert.InDelta(t, 5.0/11, dst.At(0, 1), tolExact)
	r.PseudoInverseTo(&dst)
	assert.InDelta(t, 4.0/33, dst.At(0, 0), tolExact) // spec §9
	assert.Panics(t, func() { r.MatrixTo(mat.NewSymDense(4, nil)) })
	// Reuse allocates nothing.
	allocs := testing.AllocsPerRun(10, func() { r.MatrixTo(&dst) })
	assert.Zero(t, allocs)
}

// EffectiveResistance above DenseMaxNodes: on a path R(0, n − 1) = n − 1
// exactly, and on a random weighted graph the solve path agrees with the
// dense factorisation to the certified 1e-24 κ(L) plus the dense path's
// κ(A) ε (κ ≲ 10⁴ here).
func TestEffectiveResistanceSparse(t *testing.T) {
	p := graphtest.Must(gen.Path(3000))
	r, err := EffectiveResistance(p, 0, 2999)
	require.NoError(t, err)
	assert.InDelta(t, 2999, r, 1e-12*2999, "path 3000")
	g := graphtest.SparseWeighted(t, 500, 0.02, 10, 3)
	res, err := NewResistance(g)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 1))
	for range 20 {
		u, v := rng.IntN(500), rng.IntN(500)
		got, err := resistanceSparse(g, u, v)
		require.NoError(t, err)
		want := res.Between(u, v)
		assert.InDelta(t, want, got, 1e-11*want, "R(%d, %d): sparse against dense", u, v)
	}
}
