package laplacian

import (
	"math"

	"github.com/loadlab/loadlab"
)

// Resistance returns the effective resistance R_uv = (e_u − e_v)ᵀ L† (e_u − e_v)
// (spec throttlers.md §2 eq. (2)) by one solve, to the solver's tolerance:
// with relative residual δ, |R̃ − R| ≤ δ √2 ‖L†(e_u − e_v)‖ ≲ δ R √(2κ)
// in the worst case and about δ R in practice. It returns the solve's
// result and its error (ErrNotConverged with the partial value). It
// panics if u or v is out of range.
func (s *Solver) Resistance(u, v int) (float64, SolveResult, error) {
	n := s.mat.N
	if u < 0 || u >= n || v < 0 || v >= n {
		panic(loadlab.Invalid("laplacian", "Solver.Resistance: nodes (%d, %d) out of range [0, %d)", u, v, n))
	}
	if u == v {
		return 0, SolveResult{Status: loadlab.Success}, nil
	}
	if s.w.rhs == nil {
		s.w.rhs, s.w.sol = make([]float64, n), make([]float64, n)
	}
	b := s.w.rhs
	clear(b)
	b[u], b[v] = 1, -1
	res, err := s.Solve(s.w.sol, b)
	r := s.w.sol[u] - s.w.sol[v]
	if math.IsNaN(r) {
		r = math.Inf(1)
	}
	return r, res, err
}
