package spectral

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sparseAndDense returns the sparse and the dense Resistance of g.
func sparseAndDense(t *testing.T, g *wgraph.Graph) (*Resistance, *Resistance) {
	t.Helper()
	ga, err := analyzeGrounded(g, nil)
	require.NoError(t, err)
	sp, err := newSparsePinv(ga)
	require.NoError(t, err)
	d, err := newDenseResistance(g)
	require.NoError(t, err)
	return &Resistance{n: g.Order(), g: g, sp: sp}, d
}

// TestSparseAgainstDense compares every exact value of the sparse path
// with the dense path on random sparse and dense weighted graphs.
// Tolerance: both are backward stable with condition numbers below
// about 1e6 here (weights spread over two decades), so each is within
// ~1e-10 of the truth relative to the largest entry of L†.
func TestSparseAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	graphs := map[string]*wgraph.Graph{
		"sparse 300":  graphtest.Must(gen.RandomConnectedSparse(300, 4, 0.1, 10, graphtest.PCG(1))),
		"sparse 1500": graphtest.Must(gen.RandomConnectedSparse(1500, 3, 0.1, 10, graphtest.PCG(2))),
		"dense 200":   graphtest.DenseWeighted(200, 3),
		"grid 20×30":  graphtest.SpreadWeights(t, graphtest.Must(gen.Grid(20, 30)), 2, rng),
		"star 50":     graphtest.Must(gen.Star(50)),
	}
	for name, g := range graphs {
		s, d := sparseAndDense(t, g)
		n := g.Order()
		ds, dd := s.PseudoInverseDiag(nil), d.PseudoInverseDiag(nil)
		scale := 0.0
		for _, x := range dd {
			scale = math.Max(scale, math.Abs(x))
		}
		for u := range n {
			assert.InDelta(t, dd[u], ds[u], 1e-10*scale, "%s: L†_%d%d", name, u, u)
		}
		assert.InEpsilon(t, d.Kirchhoff(), s.Kirchhoff(), 1e-10, name)
		es, ed := s.EdgeResistances(nil), d.EdgeResistances(nil)
		for k := range es {
			assert.InEpsilon(t, ed[k], es[k], 1e-10, "%s: edge %d", name, k)
		}
		for range 20 { // pairs mostly off the factor's pattern: by a solve
			u, v := rng.IntN(n), rng.IntN(n)
			assert.InDelta(t, d.Between(u, v), s.Between(u, v), 1e-10*scale, "%s: R_%d,%d", name, u, v)
		}
		if n <= 300 {
			ps, pd := s.PseudoInverse(), d.PseudoInverse()
			for i := range n {
				for j := range n {
					assert.InDelta(t, pd.At(i, j), ps.At(i, j), 1e-10*scale, "%s: L†_%d,%d", name, i, j)
				}
			}
		}
	}
}

// TestSparseClosedForms checks the sparse path against the closed forms
// of spec throttlers.md §2 on graphs far beyond the dense path: paths and
// stars (trees: no fill), cycles, grids, tori and a hypercube. The
// closed forms are sums of n terms, so 1e-9 relative covers their
// rounding and the factorisation's (condition ≤ 1e9 on these graphs).
func TestSparseClosedForms(t *testing.T) {
	cases := []struct {
		name string
		g    *wgraph.Graph
		want float64
	}{
		{"path 5000", graphtest.Must(gen.Path(5000)), graphtest.Must(PathKirchhoff(5000))},
		{"star 4000", graphtest.Must(gen.Star(4000)), graphtest.Must(StarKirchhoff(4000))},
		{"cycle 3000", graphtest.Must(gen.Cycle(3000)), graphtest.Must(CycleKirchhoff(3000))},
		{"grid 60×70", graphtest.Must(gen.Grid(60, 70)), graphtest.Must(GridKirchhoff(60, 70))},
		{"torus 50×64", graphtest.Must(gen.Torus(50, 64)), graphtest.Must(TorusKirchhoff(50, 64))},
		{"hypercube 12", graphtest.Must(gen.Hypercube(12)), graphtest.Must(HypercubeKirchhoff(12))},
	}
	for _, c := range cases {
		r, err := NewResistance(c.g)
		require.NoError(t, err, c.name)
		assert.Equal(t, Sparse, r.Path(), c.name)
		assert.InEpsilon(t, c.want, r.Kirchhoff(), 1e-9, c.name)
		kf, err := KirchhoffIndex(c.g)
		require.NoError(t, err, c.name)
		assert.Equal(t, r.Kirchhoff(), kf, c.name)
		// Foster's theorem: Σ_edges w_e R_e = n − 1.
		es := r.EdgeResistances(nil)
		sum := 0.0
		for k, e := range c.g.Edges() {
			sum += e.W * es[k]
		}
		assert.InEpsilon(t, float64(c.g.Order()-1), sum, 1e-10, "%s: Foster", c.name)
	}
	// A tree has no fill: the factor has one entry per node and per edge
	// of the grounded forest (the ground r, of largest degree, removed
	// with its edges).
	for _, g := range []*wgraph.Graph{graphtest.Must(gen.Path(5000)), graphtest.Must(gen.Star(4000))} {
		r, err := NewResistance(g)
		require.NoError(t, err)
		n, m := g.Order(), g.Size()
		assert.Equal(t, (n-1)+(m-maxDegree(g)), r.Report().Factor)
	}
}

// TestSparseBridgeRefused: a bridge of weight w between two cliques makes
// the Laplacian ill conditioned as w → 0. The sparse path (condition of
// the grounded Laplacian) and the dense path (condition of L + αJ/n)
// refuse together: both accept weights ≥ 1e-11 and refuse weights ≤
// 1e-15, where λ₂ ≈ 2w/5 has no correct digits; in between the two
// condition estimates, within a small factor of each other, may straddle
// MaxCondition.
func TestSparseBridgeRefused(t *testing.T) {
	for _, w := range []float64{1e-3, 1e-8, 1e-11, 1e-15, 1e-18} {
		var es []wgraph.Edge
		for i := range 5 {
			for j := i + 1; j < 5; j++ {
				es = append(es, wgraph.Edge{U: i, V: j, W: 1}, wgraph.Edge{U: 5 + i, V: 5 + j, W: 1})
			}
		}
		g := graphtest.Must(wgraph.FromEdges(10, append(es, wgraph.Edge{U: 4, V: 5, W: w})))
		ga, err := analyzeGrounded(g, nil)
		require.NoError(t, err)
		_, es1 := newSparsePinv(ga)
		_, ed := newDenseResistance(g)
		if w >= 1e-11 {
			assert.NoError(t, es1, "w = %v", w)
			assert.NoError(t, ed, "w = %v", w)
		} else {
			assert.True(t, errors.Is(es1, loadlab.ErrIllConditioned), "w = %v: %v", w, es1)
			assert.True(t, errors.Is(ed, loadlab.ErrIllConditioned), "w = %v: %v", w, ed)
		}
	}
}

// TestSparseDeterministic: the same graph gives the same bits.
func TestSparseDeterministic(t *testing.T) {
	g := graphtest.Must(gen.RandomConnectedSparse(3000, 3, 0.1, 10, graphtest.PCG(9)))
	a, err := KirchhoffIndex(g)
	require.NoError(t, err)
	b, err := KirchhoffIndex(g)
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestSparseBridge1e12: two 200-node paths joined by a bridge of weight
// 1e-12 have λ₂ ≈ 1e-14 against λ_n ≈ 4, a condition number near 4e14:
// both paths refuse, naming the condition.
func TestSparseBridge1e12(t *testing.T) {
	var es []wgraph.Edge
	for i := range 199 {
		es = append(es, wgraph.Edge{U: i, V: i + 1, W: 1}, wgraph.Edge{U: 200 + i, V: 201 + i, W: 1})
	}
	g := graphtest.Must(wgraph.FromEdges(400, append(es, wgraph.Edge{U: 199, V: 200, W: 1e-12})))
	ga, err := analyzeGrounded(g, nil)
	require.NoError(t, err)
	_, es1 := newSparsePinv(ga)
	_, ed := newDenseResistance(g)
	assert.ErrorIs(t, es1, loadlab.ErrIllConditioned)
	assert.ErrorContains(t, es1, "condition number")
	assert.ErrorIs(t, ed, loadlab.ErrIllConditioned)
	_, err = KirchhoffIndex(g)
	assert.ErrorIs(t, err, loadlab.ErrIllConditioned)
}

// TestSparsePowerGridAgainstSciPy: the US power grid's Kirchhoff index on
// the sparse path equals the dense one of SciPy (cho_factor of L + J/n
// and the triangular inverse, spectral/testdata/scipy_exact.py, printed
// to 12 digits: 63769632.8041), an independent implementation; 1e-10
// relative covers the 12 printed digits and both rounding errors
// (κ(L) ≈ 3e4 here).
func TestSparsePowerGridAgainstSciPy(t *testing.T) {
	kf, err := KirchhoffIndex(datasets.PowerGrid().Graph)
	require.NoError(t, err)
	assert.InEpsilon(t, 63769632.8041, kf, 1e-10)
}
