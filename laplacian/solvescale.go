package laplacian

import (
	"math"

	"github.com/loadlab/loadlab"
)

// solveScaleMax bounds the binary exponent of max|b_u| that Solve passes
// to the iteration unscaled: n·(2²⁰⁰)² and (2⁻²⁰⁰)² are far from the
// overflow and underflow of float64, so the squared norms of the
// residual and of the search directions stay normal numbers.
const solveScaleMax = 200

// rhsExponent returns e such that max|b_u|·2⁻ᵉ lies in [½, 1), or 0 when
// b is zero or already within 2^±solveScaleMax.
func rhsExponent(b []float64) int {
	var m float64
	for _, x := range b {
		m = math.Max(m, math.Abs(x))
	}
	if m == 0 {
		return 0
	}
	_, e := math.Frexp(m)
	if e >= -solveScaleMax && e <= solveScaleMax {
		return 0
	}
	return e
}

// solveScaled solves L x = b for a b far from unit scale: L† is linear
// and multiplying by a power of two is exact (except below the normal
// range, where b itself has only the digits of a subnormal), so it
// solves for b·2⁻ᵉ and scales x back by 2ᵉ. It returns an error wrapping
// loadlab.ErrInvalid if the solution overflows float64.
func (s *Solver) solveScaled(dst, b []float64, e int, ordered bool) (SolveResult, error) {
	bs := make([]float64, len(b))
	for u, x := range b {
		bs[u] = math.Ldexp(x, -e)
	}
	res, err := s.checked(s.w.pcg(dst, bs, ordered))
	over := -1
	for u, x := range dst {
		dst[u] = math.Ldexp(x, e)
		if over < 0 && math.IsInf(dst[u], 0) {
			over = u
		}
	}
	if over >= 0 {
		return SolveResult{Iterations: res.Iterations, Residual: res.Residual, Status: loadlab.Failure}, loadlab.Invalid("laplacian",
			"Solver.Solve: b of scale 2^%d: x[%d] = L†b overflows float64", e, over)
	}
	return res, err
}
