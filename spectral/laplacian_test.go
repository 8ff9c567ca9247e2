package spectral

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestSpectrumTinyAndHugeWeights(t *testing.T) {
	// gonum's eigensolver panics ("lapack: insufficient length of a") on
	// a path whose weights are all ≲ 1e-122, unless Spectrum scales L
	// first. The spectrum of c·L is c times that of L; the scaling by a
	// power of two is exact, so
	// the eigenvalues agree with the unit path's to the eigensolver's
	// accuracy, a few ulps of λ_n = 4c: 64 n ε λ_n absolute.
	p := graphtest.Must(gen.Path(6))
	ref := graphtest.Must(PathSpectrum(6))
	for _, c := range []float64{1e-100, 1e-122, 1e-130, 1e-140, wgraph.MinWeight, 1e100, wgraph.MaxWeight} {
		g := graphtest.Reweight(t, p, func(wgraph.Edge) float64 { return c })
		ev, err := Spectrum(g)
		require.NoError(t, err, "c = %g", c)
		for i := range ev {
			assert.InDelta(t, ref[i], ev[i]/c, 64*6*eps*4, "c = %g, λ_%d", c, i+1)
		}
		l2, f, err := AlgebraicConnectivity(g)
		require.NoError(t, err, "c = %g", c)
		assert.InEpsilon(t, ref[1], l2/c, 1e-12, "c = %g", c)
		assert.InDelta(t, 1, f.Norm(2), 1e-14)
	}
	// Weights spanning the whole range: no panic, λ₂ of the weak link
	// cannot be resolved but the call returns.
	g := graphtest.GraphOf(t, 3, wgraph.Edge{U: 0, V: 1, W: wgraph.MaxWeight}, wgraph.Edge{U: 1, V: 2, W: wgraph.MinWeight})
	_, err := Spectrum(g)
	require.NoError(t, err)
	_, _, err = AlgebraicConnectivity(g)
	require.NoError(t, err)
}

func TestDenseTooLarge(t *testing.T) {
	// A million-node path is cheap as a graph but its dense Laplacian
	// needs 8 TB: an error, not an out-of-memory crash (AlgebraicConnectivity
	// takes its sparse path at this size instead).
	g := graphtest.Must(gen.Path(1 << 20))
	_, err := Spectrum(g)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, _, err = LiftedLaplacian(g)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}

func TestSpectrumHandChecked(t *testing.T) {
	// spec §9 closed forms; the eigen solver is backward stable, so errors
	// are a few ulps of ‖L‖ ≤ 2·max degree.
	const tol = 1e-12
	for _, tc := range []struct {
		name string
		g    *wgraph.Graph
		want []float64
	}{
		{"C6", graphtest.Must(gen.Cycle(6)), []float64{0, 1, 1, 3, 3, 4}},
		{"grid 2x3", graphtest.Must(gen.Grid(2, 3)), []float64{0, 1, 2, 3, 3, 5}},
		{"triangle", weightedTriangle(), []float64{0, 6 - math.Sqrt(3), 6 + math.Sqrt(3)}},
	} {
		got, err := Spectrum(tc.g)
		require.NoError(t, err)
		assert.InDeltaSlice(t, tc.want, got, tol, tc.name)
	}
	l2, f, err := AlgebraicConnectivity(graphtest.Must(gen.Path(5)))
	require.NoError(t, err)
	assert.InDelta(t, 0.381966011250105, l2, 1e-12) // 2 − 2cos(π/5), spec §9
	var lf mat.VecDense
	lf.MulVec(graphtest.Must(graphtest.Must(gen.Path(5)).Laplacian()), f)
	for i := range 5 {
		// AlgebraicConnectivity accepts the vector at a residual norm
		// ≤ 64·n·ε·λ_n ≈ 2.6e-13 here (fiedler in laplacian.go).
		assert.InDelta(t, l2*f.AtVec(i), lf.AtVec(i), 1e-12)
	}
}
