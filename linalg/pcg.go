package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Preconditioner selects the preconditioner of a LaplacianSolver.
type Preconditioner int

const (
	// Auto, the default, starts with Jacobi and switches to
	// ApproxCholesky, continuing from the current iterate, when Jacobi has
	// not converged within AutoJacobiIters iterations; the factor is then
	// kept for later solves. Expanders (κ(L) a small constant) finish in
	// the Jacobi phase and never pay for the factorisation; meshes and
	// graphs with widely spread weights pay at most AutoJacobiIters cheap
	// iterations more than ApproxCholesky alone.
	Auto Preconditioner = iota
	// ApproxCholesky is the randomized approximate Cholesky factorisation
	// of Kyng and Sachdeva (approxchol.go): O(m log n) setup, an
	// iteration count that grows slowly with n and not with the weights'
	// spread.
	ApproxCholesky
	// Jacobi divides by the weighted degrees: no setup, but the iteration
	// count grows with √κ(L) (about n^{1/2} on a 2-D torus). It wins on
	// expanders, where κ is a small constant.
	Jacobi
)

// String returns the name of p.
func (p Preconditioner) String() string {
	switch p {
	case Auto:
		return "Auto"
	case ApproxCholesky:
		return "ApproxCholesky"
	case Jacobi:
		return "Jacobi"
	}
	return fmt.Sprintf("Preconditioner(%d)", int(p))
}

// DefaultSolveTol is the relative residual a LaplacianSolver solves to
// when SolverSettings.Tol is zero.
const DefaultSolveTol = 1e-10

// AutoJacobiIters is the number of Jacobi iterations after which the Auto
// preconditioner switches to approximate Cholesky.
const AutoJacobiIters = 50

// DefaultSolveMaxIter is the iteration budget when SolverSettings.MaxIter
// is zero.
const DefaultSolveMaxIter = 10000

// SolverSettings configures a LaplacianSolver. A nil *SolverSettings
// means all defaults; a zero field means that field's default.
type SolverSettings struct {
	// Tol is the relative residual ‖b − L x‖₂ / ‖b‖₂ to reach, with b
	// projected onto 1⊥; 0 means DefaultSolveTol. It must lie in
	// [1e-15, 1).
	Tol float64
	// MaxIter bounds the conjugate-gradient iterations of one solve;
	// 0 means DefaultSolveMaxIter.
	MaxIter int
	// Preconditioner is Auto (the zero value), ApproxCholesky or Jacobi.
	Preconditioner Preconditioner
}

// Validate reports a field outside its domain.
func (s *SolverSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.Tol != 0 && !(s.Tol >= 1e-15 && s.Tol < 1) {
		return loadlab.Invalid("linalg", "SolverSettings.Tol = %v, want 0 (default) or in [1e-15, 1)", s.Tol)
	}
	if s.MaxIter < 0 {
		return loadlab.Invalid("linalg", "SolverSettings.MaxIter = %d, want ≥ 0", s.MaxIter)
	}
	if s.Preconditioner < Auto || s.Preconditioner > Jacobi {
		return loadlab.Invalid("linalg", "SolverSettings.Preconditioner = %d, want Auto, ApproxCholesky or Jacobi", int(s.Preconditioner))
	}
	return nil
}

// resolved returns the settings with defaults filled in.
func (s *SolverSettings) resolved() SolverSettings {
	var r SolverSettings
	if s != nil {
		r = *s
	}
	if r.Tol == 0 {
		r.Tol = DefaultSolveTol
	}
	if r.MaxIter == 0 {
		r.MaxIter = DefaultSolveMaxIter
	}
	return r
}

// SolveResult reports one solve of a LaplacianSolver.
type SolveResult struct {
	Iterations int            // conjugate-gradient iterations
	Residual   float64        // ‖b − L x‖₂ / ‖b‖₂ of the returned x, recomputed, b projected onto 1⊥
	Status     loadlab.Status // Success, IterationLimit, Stagnated or Failure
}

// LaplacianSolver solves L x = b for the Laplacian of a connected graph by
// preconditioned conjugate gradients on 1⊥ (the complement of the
// constants), returning x = L† b to a requested relative residual. The
// preconditioner is built once by NewLaplacianSolver and reused by every
// Solve. A solver holds its workspace: Solve is not safe for concurrent
// use (make one solver per goroutine).
type LaplacianSolver struct {
	op   *LaplacianOperator
	mat  *lapMatrix // the Laplacian renumbered for the solver's products
	set  SolverSettings
	ac   *approxChol // in mat's numbering; built by NewLaplacianSolver, or by the first Auto solve that needs it
	seed uint64      // of the factorisation's sampling
	w    pcgWork
	bw   *blockWork // SolveBlock's workspace, allocated on first use
}

// NewLaplacianSolver builds the solver and its preconditioner for g.
// src drives the sampling of the approximate Cholesky factorisation (one
// number is drawn from it here; the same source state gives the same
// factor and the same solutions); Jacobi does not use it.
// It returns an error wrapping loadlab.ErrDisconnected for a disconnected
// graph, loadlab.ErrInvalid for a graph with no nodes or bad settings, and
// loadlab.ErrTooLarge when the workspace would not fit. It panics if g is
// nil, or if src is nil and the preconditioner is not Jacobi.
func NewLaplacianSolver(g *Graph, settings *SolverSettings, src rand.Source) (*LaplacianSolver, error) {
	return newLaplacianSolver(g, settings, src, nil)
}

// newLaplacianSolver is NewLaplacianSolver on the renumbered matrix mat of
// g when the caller has already built it (newLapMatrix), else (mat nil)
// building it.
func newLaplacianSolver(g *Graph, settings *SolverSettings, src rand.Source, mat *lapMatrix) (*LaplacianSolver, error) {
	if g == nil {
		panic("linalg: NewLaplacianSolver: nil graph")
	}
	if err := settings.Validate(); err != nil {
		return nil, err
	}
	set := settings.resolved()
	if set.Preconditioner != Jacobi && src == nil {
		panic("linalg: NewLaplacianSolver: nil rand.Source")
	}
	if g.Order() == 0 {
		return nil, CheckConnected(g)
	}
	if err := size.Check("linalg", "LaplacianSolver: nodes", g.Order(), 8*8); err != nil {
		return nil, err
	}
	if mat == nil {
		var err error
		if mat, err = newLapMatrix(g); err != nil {
			return nil, err
		}
		if mat == nil {
			return nil, CheckConnected(g)
		}
	}
	s := &LaplacianSolver{op: NewLaplacianOperator(g), mat: mat, set: set}
	if src != nil {
		s.seed = src.Uint64()
	}
	var inv []float64
	if set.Preconditioner == ApproxCholesky {
		if err := s.factor(); err != nil {
			return nil, err
		}
	} else {
		inv = mat.invDegrees()
	}
	s.w.init(s, inv)
	return s, nil
}

// factor builds the approximate Cholesky factor from the solver's seed.
func (s *LaplacianSolver) factor() error {
	off, adj, w := s.mat.csr()
	ac, err := newApproxChol(off, adj, w, rand.NewPCG(s.seed, 0x5eed))
	if err != nil {
		return err
	}
	s.ac = ac
	return nil
}

// Order returns the number of nodes.
func (s *LaplacianSolver) Order() int { return s.mat.n }

// Settings returns the settings in force, defaults filled in.
func (s *LaplacianSolver) Settings() SolverSettings { return s.set }

// invDegrees returns 1/d_u for the weighted degrees d_u in the internal
// order, or nil when they are all equal: Jacobi is then a multiple of the
// identity, which does not change the iterates of conjugate gradients.
func (m *lapMatrix) invDegrees() []float64 {
	d := m.degrees()
	if !slices.ContainsFunc(d, func(x float64) bool { return x != d[0] }) {
		return nil
	}
	for u, x := range d {
		if x > 0 {
			d[u] = 1 / x
		}
	}
	return d
}

// Solve sets dst ≈ L† b, the solution of L x = b orthogonal to the
// constants, with b replaced by its projection onto 1⊥ (the component
// along 1 has no solution). The relative residual of the result is
// reported; when it does not reach the tolerance within MaxIter
// iterations, dst holds the last iterate and the error wraps
// loadlab.ErrNotConverged. A b with a NaN or infinite entry is an error
// wrapping loadlab.ErrInvalid. Any finite scale of b gives the same
// digits: a b beyond 2^±200 is solved scaled by a power of two (one
// allocation), and a solution that overflows float64 is an error
// wrapping loadlab.ErrInvalid. It panics if len(dst) or len(b) is not the
// order. dst and b may be the same slice.
func (s *LaplacianSolver) Solve(dst, b []float64) (SolveResult, error) {
	n := s.mat.n
	if len(dst) != n || len(b) != n {
		panic(fmt.Sprintf("linalg: LaplacianSolver.Solve: len(dst) = %d, len(b) = %d, want %d", len(dst), len(b), n))
	}
	for u, x := range b {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return SolveResult{Status: loadlab.Failure}, loadlab.Invalid("linalg", "LaplacianSolver.Solve: b[%d] = %v, want finite", u, x)
		}
	}
	if e := rhsExponent(b); e != 0 {
		return s.solveScaled(dst, b, e) // |b| beyond 2^±200
	}
	return s.checked(s.w.pcg(dst, b))
}

// solveInternal solves for the right-hand side in s.w.b into s.w.x, both
// in the matrix's internal order, with the errors of Solve.
func (s *LaplacianSolver) solveInternal() (SolveResult, error) {
	return s.checked(s.w.pcgInternal())
}

// checked wraps a result short of the tolerance in ErrNotConverged.
func (s *LaplacianSolver) checked(res SolveResult, err error) (SolveResult, error) {
	if err != nil {
		return res, err
	}
	if res.Status != loadlab.Success {
		return res, loadlab.Wrap(loadlab.ErrNotConverged, "linalg",
			"LaplacianSolver.Solve: relative residual %.3g > Tol = %.3g after %d iterations (%v)", res.Residual, s.set.Tol, res.Iterations, res.Status)
	}
	return res, nil
}
