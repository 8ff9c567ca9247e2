package laplacian

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Solve is linear, so a right-hand side of any finite scale must give
// the same digits: b = c(e₀ − e₄) on the unit path of 5 nodes has
// x₀ − x₄ = c R₀₄ = 4c. Unscaled, the squared norm of b underflows at
// c = 1e-300 (a zero x reported as converged) and overflows at c = 1e308
// (an iteration stagnating at NaN).
func TestSolveScaleInvariant(t *testing.T) {
	g := graphtest.Must(gen.Path(5))
	for _, prec := range []Preconditioner{ApproxCholesky, Jacobi} {
		s, err := NewSolver(g, &Settings{Preconditioner: prec}, graphtest.PCG(7))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []float64{1, 1e-300, 1e-200, 1e200, 1e300, 0x1p1020} {
			x := make([]float64, 5)
			res, err := s.Solve(x, []float64{c, 0, 0, 0, -c})
			if err != nil || res.Status != loadlab.Success {
				t.Fatalf("%v, c = %v: %+v, %v", prec, c, res, err)
			}
			// Relative residual ≤ Tol = 1e-10 gives R to about
			// √(2κ)·1e-10 ≲ 1e-9 on this path (κ ≈ 10).
			if r := (x[0] - x[4]) / c; !(math.Abs(r-4) <= 4e-9) {
				t.Errorf("%v, c = %v: R = %v, want 4", prec, c, r)
			}
		}
		// A subnormal scale keeps the digits of a subnormal: 1e-320 has
		// about 11 significant bits, so the answer is good to 2⁻¹⁰.
		c := 1e-320
		x := make([]float64, 5)
		if _, err = s.Solve(x, []float64{c, 0, 0, 0, -c}); err != nil {
			t.Fatal(err)
		}
		if r := (x[0] - x[4]) / c; !(math.Abs(r-4) <= 4*0x1p-10) {
			t.Errorf("%v, c = %v: R = %v, want 4", prec, c, r)
		}
		// A solution beyond float64 is refused, not returned as ±Inf.
		x = make([]float64, 5)
		if _, err = s.Solve(x, []float64{math.MaxFloat64, 0, 0, 0, -math.MaxFloat64}); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%v: L†b beyond float64: err = %v, want ErrInvalid", prec, err)
		}
	}
}
