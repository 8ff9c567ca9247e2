package dual

import (
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Finite but huge multipliers overflowed silently: Eval returned
// D = NaN (A_i β_i = +Inf times x_i* = 0), Rates a rate of +Inf and
// Overhead +Inf, each with no error. Each is now an error naming the
// overflow.
func TestHugeMultipliersOverflow(t *testing.T) {
	p := must(Quadratic(item13(), 1, 4))
	_, err := p.Eval([]float64{1e308, 1e308, 1e308})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "overflow")

	// C_01 = 1e-300 makes r_01 = γ μ_0 C_10/C_01 overflow for μ_0 = 1e10.
	nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{1, 1e-300, 0.5, 0.5}), []float64{1, 1})
	require.NoError(t, err)
	_, err = Rates(nil, nw, []float64{1e10, 0}, 1e10)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "overflow")
	_, err = Overhead(nw, []float64{1e10, 0}, 1e10)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "overflow")

	// Moderate values still give the numbers of (19): with μ = (0, 2),
	// γ = 3: r_10 = γ μ_1 C_01/C_10 = 1.2e-299, and the overhead is
	// γ μ_1 (C_01/C_10 + C_11/C_11) = 6 (to rounding).
	ov, err := Overhead(nw, []float64{0, 2}, 3)
	require.NoError(t, err)
	assert.InDelta(t, 6, ov, 1e-15)
	r, err := Rates(nil, nw, []float64{0, 2}, 3)
	require.NoError(t, err)
	assert.InEpsilon(t, 1.2e-299, r.At(1, 0), 1e-15)
}

// Receptions summed finite rates into +Inf without an error.
func TestReceptionsOverflow(t *testing.T) {
	nw := twoNode()
	_, err := Receptions(nil, nw, mat.NewDense(2, 2, []float64{1.7e308, 1.7e308, 1.7e308, 1.7e308}))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "overflows")
	// R_0 = r_00 C_00 + r_10 C_10 = 0.1 + 0.5 for unit rates (spec §4.7 eq. (20)).
	rec, err := Receptions(nil, nw, mat.NewDense(2, 2, []float64{1, 1, 1, 1}))
	require.NoError(t, err)
	assert.InDelta(t, 0.6, rec[0], 1e-15)
}
