package stability

import (
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// TwoNodeInterior: a singular C, or one singular to rounding, is
// ill-conditioned rather than a huge number.
func TestTwoNodeInteriorSingular(t *testing.T) {
	tt := []float64{0.7, 0.7}
	_, _, err := TwoNodeInterior(twoNode(mat.NewDense(2, 2, []float64{0.3, 0.7, 0.3, 0.7}), tt))
	require.ErrorIs(t, err, loadlab.ErrIllConditioned)
	// det = 0.3·0.7 − 0.7·0.3 may round to ±1e-17 for perturbed rows.
	_, _, err = TwoNodeInterior(twoNode(mat.NewDense(2, 2, []float64{0.1 + 0.2, 0.7, 0.3, 0.7}), tt))
	require.ErrorIs(t, err, loadlab.ErrIllConditioned)
	ya, yb, err := TwoNodeInterior(twoNode(favC, tt))
	require.NoError(t, err)
	// Cᵀ y = T by construction: each side is a two-term sum of products
	// of O(1) numbers, exact to a few ulps of 0.7 (≈ 1.1e-16 each).
	assert.InDelta(t, 0.7, favC.At(0, 0)*ya+favC.At(1, 0)*yb, 1e-15)
	assert.InDelta(t, 0.7, favC.At(0, 1)*ya+favC.At(1, 1)*yb, 1e-15)
}

// TwoNodeMap is deterministic for any number of workers.
func TestTwoNodeMapWorkers(t *testing.T) {
	grid := []float64{0.3, 1, 3}
	seed := seedNet(0.3)
	a, err := TwoNodeMap(seed, grid, grid, &MapSettings{Workers: 1})
	require.NoError(t, err)
	b, err := TwoNodeMap(seed, grid, grid, &MapSettings{Workers: 3})
	require.NoError(t, err)
	assert.Equal(t, a, b)
}
