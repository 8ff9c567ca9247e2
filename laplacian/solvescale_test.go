package laplacian

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Solve is linear, so a right-hand side of any finite scale must give
// the same digits: b = c(e₀ − e₄) on the unit path of 5 nodes has
// x₀ − x₄ = c R₀₄ = 4c. At c = 1e-300 the squared norm of b underflowed
// and Solve returned x = 0 with Status Success; at c = 1e308 it
// overflowed and Solve stagnated at NaN.
func TestSolveScaleInvariant(t *testing.T) {
	g := graphtest.Must(gen.Path(5))
	for _, prec := range []Preconditioner{ApproxCholesky, Jacobi} {
		s, err := NewSolver(g, &Settings{Preconditioner: prec}, graphtest.PCG(7))
		require.NoError(t, err)
		for _, c := range []float64{1, 1e-300, 1e-200, 1e200, 1e300, 0x1p1020} {
			x := make([]float64, 5)
			res, err := s.Solve(x, []float64{c, 0, 0, 0, -c})
			require.NoError(t, err, "c = %v", c)
			assert.Equal(t, loadlab.Success, res.Status)
			// Relative residual ≤ Tol = 1e-10 gives R to about
			// √(2κ)·1e-10 ≲ 1e-9 on this path (κ ≈ 10).
			assert.InDelta(t, 4, (x[0]-x[4])/c, 4e-9, "c = %v (%v)", c, prec)
		}
		// A subnormal scale keeps the digits of a subnormal: 1e-320 has
		// about 11 significant bits, so the answer is good to 2⁻¹⁰.
		c := 1e-320
		x := make([]float64, 5)
		_, err = s.Solve(x, []float64{c, 0, 0, 0, -c})
		require.NoError(t, err)
		assert.InDelta(t, 4, (x[0]-x[4])/c, 4*0x1p-10, "c = %v", c)
		// A solution beyond float64 is refused, not returned as ±Inf.
		x = make([]float64, 5)
		_, err = s.Solve(x, []float64{math.MaxFloat64, 0, 0, 0, -math.MaxFloat64})
		assert.ErrorIs(t, err, loadlab.ErrInvalid)
	}
}
