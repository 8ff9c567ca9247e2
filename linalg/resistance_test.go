package linalg

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// tolExact bounds the error of a Cholesky-based solve on these tiny,
// well-conditioned graphs: a few hundred ulps of numbers of order 1.
const tolExact = 1e-12

func weightedTriangle() *Graph {
	g, err := FromEdges(3, []Edge{{0, 1, 1}, {1, 2, 2}, {0, 2, 3}})
	if err != nil {
		panic(err)
	}
	return g
}

func TestPseudoInverseHandChecked(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *Graph
		want []float64 // row-major L†
		div  float64
	}{
		// spec throttlers.md §9: P3 has L† = (1/9)[5 −1 −4; −1 2 −1; −4 −1 5].
		{"P3", must(Path(3)), []float64{5, -1, -4, -1, 2, -1, -4, -1, 5}, 9},
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
	rm, err := ResistanceMatrix(must(Cycle(6)))
	require.NoError(t, err)
	for j, want := range []float64{0, 5.0 / 6, 4.0 / 3, 1.5, 4.0 / 3, 5.0 / 6} {
		assert.InDelta(t, want, rm.At(0, j), tolExact, "C6 R[0][%d]", j)
	}
	k, err := KirchhoffIndex(must(Cycle(6)))
	require.NoError(t, err)
	assert.InDelta(t, 17.5, k, tolExact)

	// spec §9: grid 2×3, corner 0 to nodes 0..5: 0, 11/15, 4/3, 11/15, 14/15, 7/5; K_f = 71/5.
	g := must(Grid(2, 3))
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
	var es []Edge
	for _, e := range [][2]int{{1, 2}, {1, 3}, {1, 4}, {3, 4}, {3, 5}, {4, 5}} {
		es = append(es, Edge{e[0] - 1, e[1] - 1, 1})
	}
	g := graphOf(t, 5, es...)
	r, err := EffectiveResistance(g, 0, 2)
	require.NoError(t, err)
	assert.InDelta(t, 0.625, r, tolExact)
	k, err := KirchhoffIndex(g)
	require.NoError(t, err)
	assert.InDelta(t, 10.25, k, tolExact)
}

func TestSpectrumHandChecked(t *testing.T) {
	// spec §9 closed forms; the eigen solver is backward stable, so errors
	// are a few ulps of ‖L‖ ≤ 2·max degree.
	const tol = 1e-12
	for _, tc := range []struct {
		name string
		g    *Graph
		want []float64
	}{
		{"C6", must(Cycle(6)), []float64{0, 1, 1, 3, 3, 4}},
		{"grid 2x3", must(Grid(2, 3)), []float64{0, 1, 2, 3, 3, 5}},
		{"triangle", weightedTriangle(), []float64{0, 6 - math.Sqrt(3), 6 + math.Sqrt(3)}},
	} {
		got, err := Spectrum(tc.g)
		require.NoError(t, err)
		assert.InDeltaSlice(t, tc.want, got, tol, tc.name)
	}
	l2, f, err := AlgebraicConnectivity(must(Path(5)))
	require.NoError(t, err)
	assert.InDelta(t, 0.381966011250105, l2, 1e-12) // 2 − 2cos(π/5), spec §9
	var lf mat.VecDense
	lf.MulVec(must(must(Path(5)).Laplacian()), f)
	for i := range 5 {
		// AlgebraicConnectivity accepts the vector at a residual norm
		// ≤ 64·n·ε·λ_n ≈ 2.6e-13 here (fiedler in laplacian.go).
		assert.InDelta(t, l2*f.AtVec(i), lf.AtVec(i), 1e-12)
	}
}

func TestDisconnectedErrors(t *testing.T) {
	g := graphOf(t, 4, Edge{0, 1, 1}, Edge{2, 3, 1})
	assert.False(t, IsConnected(g))
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
	_, err = KirchhoffIndex(graphOf(t, 0))
	assert.ErrorContains(t, err, "no nodes")
	// Node out of range, either end, named with its value and the range.
	_, err = EffectiveResistance(must(Path(3)), 0, 3)
	assert.ErrorContains(t, err, "node v = 3 out of range [0, 3)")
	_, err = EffectiveResistance(must(Path(3)), -1, 2)
	assert.ErrorContains(t, err, "node u = -1 out of range [0, 3)")
	r, err := NewResistance(must(Path(3)))
	require.NoError(t, err)
	assert.PanicsWithError(t, "linalg: node v = 7 out of range [0, 3)", func() { r.Between(0, 7) })
}

func TestSetEdgeErrors(t *testing.T) {
	g, err := NewBuilder(3)
	require.NoError(t, err)
	assert.ErrorContains(t, g.SetEdge(0, 3, 1), "node v = 3 out of range [0, 3)")
	assert.ErrorContains(t, g.SetEdge(-1, 2, 1), "node u = -1 out of range [0, 3)")
	assert.ErrorContains(t, g.SetEdge(1, 1, 1), "self-loop at node 1")
	assert.ErrorContains(t, g.SetEdge(0, 1, 0), "weight of edge {0, 1} = 0:")
	assert.ErrorContains(t, g.SetEdge(0, 2, -2), "weight of edge {0, 2} = -2:")
	assert.ErrorContains(t, g.SetEdge(2, 1, math.NaN()), "weight of edge {2, 1} = NaN:")
	assert.ErrorContains(t, g.SetEdge(0, 1, math.Inf(1)), "weight of edge {0, 1} = +Inf:")
	assert.ErrorContains(t, g.SetEdge(0, 1, math.Inf(-1)), "weight of edge {0, 1} = -Inf:")
	assert.Equal(t, 0, g.Build().Size())
	require.NoError(t, g.SetEdge(0, 1, 2))
	require.NoError(t, g.SetEdge(1, 0, 5))
	// The last SetEdge of a pair wins, in either orientation.
	h := g.Build()
	assert.Equal(t, 1, h.Size())
	assert.Equal(t, 5.0, h.Weight(0, 1))
	assert.Equal(t, 5.0, h.Weight(1, 0))
	assert.False(t, h.HasEdge(0, 2))
}

func TestFromAdjacencyErrors(t *testing.T) {
	_, err := FromMatrix(mat.NewDense(2, 3, nil))
	assert.ErrorContains(t, err, "adjacency matrix is 2×3, not square")
	_, err = FromMatrix(mat.NewDense(2, 2, []float64{0, 1, 2, 0}))
	assert.ErrorContains(t, err, "adjacency not symmetric: [0][1] = 1 but [1][0] = 2")
	_, err = FromAdjacency(mat.NewSymDense(2, []float64{1, 1, 1, 0}))
	assert.ErrorContains(t, err, "adjacency[0][0] = 1: self-loops are not allowed")
	for _, c := range []struct {
		w    float64
		want string
	}{
		{-1, "adjacency[0][1] = -1:"},
		{math.NaN(), "adjacency[0][1] = NaN:"},
		{math.Inf(1), "adjacency[0][1] = +Inf:"},
		{math.Inf(-1), "adjacency[0][1] = -Inf:"},
		{MinWeight / 2, "adjacency[0][1] = 1.5"}, // 2^-501 ≈ 1.53e-151
	} {
		_, err = FromAdjacency(mat.NewSymDense(2, []float64{0, c.w, c.w, 0}))
		assert.ErrorContains(t, err, c.want)
	}
	g, err := FromAdjacency(mat.NewSymDense(3, []float64{0, 1, 3, 1, 0, 2, 3, 2, 0}))
	require.NoError(t, err)
	k, err := KirchhoffIndex(g)
	require.NoError(t, err)
	assert.InDelta(t, 12.0/11, k, tolExact) // the weighted triangle again
}

func TestIllConditioned(t *testing.T) {
	// Path 0–1–2 with weights 2^500 and 2^-500: R(0,2) = 2^500 + 2^-500,
	// but the small weight vanishes against the large one in L + αJ/n.
	// This must be an error, not a number.
	g := graphOf(t, 3, Edge{0, 1, MaxWeight}, Edge{1, 2, MinWeight})
	_, err := KirchhoffIndex(g)
	assert.ErrorContains(t, err, "condition number")
	_, err = EffectiveResistance(g, 0, 2)
	assert.ErrorContains(t, err, "condition number")

	// Weights 1e-5 and 1e5 (κ ≈ 1e10) are still fine: R(0,2) = 1e5 + 1e-5,
	// to relative accuracy κ·ε ≈ 2e-6.
	g = graphOf(t, 3, Edge{0, 1, 1e5}, Edge{1, 2, 1e-5})
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
			g    *Graph
			r    func(i, j int) float64
		}{
			{"path", must(Path(n)), func(i, j int) float64 { return math.Abs(float64(i - j)) }},
			{"star", must(Star(n)), func(i, j int) float64 {
				if i == j {
					return 0
				}
				if i == 0 || j == 0 {
					return 1
				}
				return 2
			}},
			{"complete", must(Complete(n)), func(i, j int) float64 {
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
func cycleOrNil(n int) *Graph {
	if n < 3 {
		return nil
	}
	return must(Cycle(n))
}

func TestResistanceConcurrent(t *testing.T) {
	// Between computes V lazily under a sync.Once: concurrent first calls
	// must all see the same factor (run with -race).
	r, err := NewResistance(must(Grid(6, 7)))
	require.NoError(t, err)
	const workers = 8
	got := make([]float64, workers)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			got[w] = r.Between(0, 41) + r.PseudoInverseDiag(nil)[w]
			done <- struct{}{}
		}()
	}
	for range workers {
		<-done
	}
	d := r.PseudoInverseDiag(nil)
	for w := range workers {
		assert.Equal(t, r.Between(0, 41)+d[w], got[w])
	}
}

func TestTinyGraphs(t *testing.T) {
	// One node: L = [0], L† = [0], K_f = 0. No nodes: an error.
	g := graphOf(t, 1)
	k, err := KirchhoffIndex(g)
	require.NoError(t, err)
	assert.Equal(t, 0.0, k)
	p, err := PseudoInverse(g)
	require.NoError(t, err)
	assert.InDelta(t, 0, p.At(0, 0), tolExact)
	rm, err := ResistanceMatrix(g)
	require.NoError(t, err)
	assert.Equal(t, 0.0, rm.At(0, 0))
	_, err = KirchhoffIndex(graphOf(t, 0))
	assert.ErrorContains(t, err, "no nodes")
	_, err = Spectrum(graphOf(t, 0))
	assert.Error(t, err)
	// Two nodes joined by conductance 4: R = 1/4 (a quarter ohm).
	g = graphOf(t, 2, Edge{0, 1, 4})
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
