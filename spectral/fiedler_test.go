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

// fiedlerResidual returns ‖L f − λ f‖ and |1ᵀf|.
func fiedlerCheck(g *wgraph.Graph, l float64, f *mat.VecDense) (res, mean float64) {
	x := f.RawVector().Data
	lx := make([]float64, len(x))
	g.LaplacianMulVec(lx, x)
	for i, v := range x {
		d := lx[i] - l*v
		res += d * d
		mean += v
	}
	return math.Sqrt(res), math.Abs(mean)
}

// The certified sparse path of AlgebraicConnectivity (used above
// DenseMaxNodes) against closed forms and the dense path, on graphs small
// enough to check: it certifies λ₂ to 1e-12 relative (Kato–Temple), so
// it must agree with the closed forms to that plus their rounding (a few
// ulps), and with the dense eigensolver to its backward error, about
// n ε ‖L‖ absolute.
func TestAlgebraicConnectivitySparseExact(t *testing.T) {
	grid, _ := GridSpectrum(30, 70)
	path, _ := PathSpectrum(800)
	for _, c := range []struct {
		name string
		g    *wgraph.Graph
		want float64
	}{
		{"grid 30×70", graphtest.Must(gen.Grid(30, 70)), grid[1]},
		{"path 800", graphtest.Must(gen.Path(800)), path[1]},
	} {
		l2, f, err := algebraicConnectivitySparse(c.g)
		require.NoError(t, err, c.name)
		assert.InDelta(t, c.want, l2, 2e-12*c.want, "%s: λ₂", c.name)
		// The vector's residual is what certifies λ₂: ρ² ≤ 1e-12 λ₂ (λ₃ − λ₂).
		res, mean := fiedlerCheck(c.g, l2, f)
		assert.LessOrEqual(t, res, 1e-5*c.want, "%s: residual", c.name)
		assert.LessOrEqual(t, mean, 1e-12, "%s: 1ᵀf", c.name)
		assert.InDelta(t, 1, mat.Norm(f, 2), 1e-14, "%s: ‖f‖", c.name)
	}
	g := graphtest.SparseWeighted(t, 600, 0.02, 10, 7)
	ev, err := Spectrum(g)
	require.NoError(t, err)
	l2, _, err := algebraicConnectivitySparse(g)
	require.NoError(t, err)
	_, norm := newOperator(g, nil).edgeBounds()
	assert.InDelta(t, ev[1], l2, 600*0x1p-52*norm, "weighted 600: sparse against dense")
}

// A multiple λ₂ (the square torus: four-fold) cannot be separated from
// λ₃ by one vector: an error naming Lambda2Bracket, not a number. A
// disconnected graph has λ₂ = 0 exactly and a centred component
// indicator as its vector.
func TestAlgebraicConnectivitySparseEdges(t *testing.T) {
	_, _, err := algebraicConnectivitySparse(graphtest.Must(gen.Torus(40, 40)))
	assert.ErrorIs(t, err, loadlab.ErrNotConverged, "torus 40×40")
	b := graphtest.Must(wgraph.NewBuilder(3000))
	for u := range 2999 {
		if u != 1499 {
			_ = b.SetEdge(u, u+1, 1)
		}
	}
	g := b.Build()
	l2, f, err := AlgebraicConnectivity(g)
	require.NoError(t, err)
	require.Equal(t, 0.0, l2, "two paths: λ₂")
	res, mean := fiedlerCheck(g, 0, f)
	assert.Equal(t, 0.0, res, "two paths: residual")
	assert.LessOrEqual(t, mean, 1e-12, "two paths: 1ᵀf")
}
