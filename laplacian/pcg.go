package laplacian

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// Preconditioner selects the preconditioner of a Solver.
type Preconditioner int

const (
	// Auto, the default, chooses from a probe of the graph made by
	// NewSolver (a lower bound on κ(D⁻¹L) from test vectors over
	// breadth-first levels) and a cost model: NewSolver factors at once
	// when Jacobi is predicted to cost more than the factorisation and its
	// iterations at the solver's tolerance (meshes), and otherwise solves
	// run Jacobi, switching to
	// ApproxCholesky from the current iterate once Jacobi has run the
	// break-even number of iterations (graphs the probe misjudges, such
	// as widely spread weights). The factor, once built, is kept for
	// later solves.
	Auto Preconditioner = iota
	// ApproxCholesky is the randomized approximate Cholesky factorisation
	// of Kyng and Sachdeva (spec throttlers.md §12.9): O(m log n) setup, an
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

// DefaultSolveTol is the relative residual a Solver solves to
// when Settings.Tol is zero.
const DefaultSolveTol = 1e-10

// DefaultSolveMaxIter is the iteration budget when Settings.MaxIter
// is zero.
const DefaultSolveMaxIter = 10000

// Settings configures a Solver. A nil *Settings
// means all defaults; a zero field means that field's default.
type Settings struct {
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
func (s *Settings) Validate() error {
	if s == nil {
		return nil
	}
	if s.Tol != 0 && !(s.Tol >= 1e-15 && s.Tol < 1) {
		return loadlab.Invalid("laplacian", "Settings.Tol = %v, want 0 (default) or in [1e-15, 1)", s.Tol)
	}
	if s.MaxIter < 0 {
		return loadlab.Invalid("laplacian", "Settings.MaxIter = %d, want ≥ 0", s.MaxIter)
	}
	if s.Preconditioner < Auto || s.Preconditioner > Jacobi {
		return loadlab.Invalid("laplacian", "Settings.Preconditioner = %d, want Auto, ApproxCholesky or Jacobi", int(s.Preconditioner))
	}
	return nil
}

// Resolved returns the settings with defaults filled in.
func (s *Settings) Resolved() Settings {
	var r Settings
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

// SolveResult reports one solve of a Solver.
type SolveResult struct {
	Iterations int            // conjugate-gradient iterations
	Residual   float64        // ‖b − L x‖₂ / ‖b‖₂ of the returned x, recomputed, b projected onto 1⊥
	Status     loadlab.Status // Success, IterationLimit, Stagnated or Failure
}

// Solver solves L x = b for the Laplacian of a connected graph by
// preconditioned conjugate gradients on 1⊥ (the complement of the
// constants), returning x = L† b to a requested relative residual (spec
// throttlers.md §12.9). The preconditioner is built once, by NewSolver
// or, with Auto, by NewSolver or the first solve that needs the factor, and reused by
// every later solve. A solver holds its workspace: Solve is not safe for
// concurrent use (make one solver per goroutine).
type Solver struct {
	op   *Operator
	mat  *lapmat.Matrix // the Laplacian renumbered for the solver's products
	set  Settings
	ac   *approxChol // in mat's numbering; built by NewSolver, or by the first Auto solve that needs it
	seed uint64      // of the factorisation's sampling
	auto autoProbe   // Auto's probe of the graph
	w    pcgWork
	bw   *blockWork // SolveBlock's workspace, allocated on first use
}

// NewSolver builds the solver and its preconditioner for g.
// src drives the sampling of the approximate Cholesky factorisation (one
// number is drawn from it here; the same source state gives the same
// factor and the same solutions); Jacobi does not use it.
// It returns an error wrapping loadlab.ErrDisconnected for a disconnected
// graph, loadlab.ErrInvalid for a graph with no nodes or bad settings, and
// loadlab.ErrTooLarge when the workspace would not fit. It panics if g is
// nil, or if src is nil and the preconditioner is not Jacobi.
func NewSolver(g *wgraph.Graph, settings *Settings, src rand.Source) (*Solver, error) {
	if g == nil {
		panic("laplacian: NewSolver: nil graph g")
	}
	if err := settings.Validate(); err != nil {
		return nil, err
	}
	set := settings.Resolved()
	if set.Preconditioner != Jacobi && src == nil {
		panic("laplacian: NewSolver: nil rand.Source src")
	}
	if g.Order() == 0 {
		return nil, wgraph.CheckConnected(g)
	}
	if err := size.Check("laplacian", "NewSolver: nodes", g.Order(), 8*8); err != nil {
		return nil, err
	}
	mat, err := lapmat.New(g)
	if err != nil {
		return nil, err
	}
	if mat == nil {
		return nil, wgraph.CheckConnected(g)
	}
	s := &Solver{op: NewOperator(g), mat: mat, set: set}
	if src != nil {
		s.seed = src.Uint64()
	}
	var inv []float64
	if set.Preconditioner == Auto {
		s.auto = autoProbe{kappaLo: probeKappa(mat), n: mat.N}
	}
	// Auto factors here, as ApproxCholesky does, when the probe already
	// chooses the factor at the solver's tolerance: building it inside the
	// first solve instead cost 1.4 × the CPU time of ApproxCholesky on the
	// 1000 × 1000 torus, solve and setup, under the default garbage
	// collector (with the collector off the two took the same time): the
	// order of the allocations alone.
	if set.Preconditioner == ApproxCholesky || (set.Preconditioner == Auto && s.auto.autoJacobiBudget(set.Tol) == 0) {
		if err := s.factor(); err != nil {
			return nil, err
		}
	} else {
		inv = mat.InvDegrees()
	}
	s.w.init(s, inv)
	return s, nil
}

// factor builds the approximate Cholesky factor from the solver's seed.
func (s *Solver) factor() error {
	off, adj, w := s.mat.Csr()
	ac, err := newApproxChol(off, adj, w, rand.NewPCG(s.seed, 0x5eed))
	if err != nil {
		return err
	}
	s.ac = ac
	return nil
}

// Order returns the number of nodes.
func (s *Solver) Order() int { return s.mat.N }

// Settings returns the settings in force, defaults filled in.
func (s *Solver) Settings() Settings { return s.set }

// Operator returns the sparse Laplacian operator of the solver's graph
// (in the graph's own node order).
func (s *Solver) Operator() *Operator { return s.op }

// SetTol sets the relative residual at which later solves stop (the
// settings' Tol), for callers whose accuracy needs change between solves,
// such as a loose solve inside an estimator. It returns an error
// wrapping loadlab.ErrInvalid, and keeps the tolerance, unless tol is in
// (0, 1).
func (s *Solver) SetTol(tol float64) error {
	if !(tol > 0 && tol < 1) {
		return loadlab.Invalid("laplacian", "Solver.SetTol: tol = %v, want in (0, 1)", tol)
	}
	s.set.Tol = tol
	return nil
}

// ApplyPreconditioner sets dst ≈ L† src by one application of the
// approximate Cholesky factor (building it on first use unless the
// preconditioner is Jacobi), or, for a Jacobi solver, by a solve to
// relative residual 0.1. src is projected onto 1⊥ first and dst is
// orthogonal to the constants. It is the cheap approximate inverse of a
// Hutch++ sketch (the subspace iteration needs L† only roughly). It
// panics if len(dst) or len(src) is not the order.
// A src with a NaN or infinite entry is an error wrapping loadlab.ErrInvalid.
func (s *Solver) ApplyPreconditioner(dst, src []float64) error {
	n := s.mat.N
	if len(dst) != n || len(src) != n {
		panic(fmt.Sprintf("laplacian: Solver.ApplyPreconditioner: len(dst) = %d, len(src) = %d, want %d", len(dst), len(src), n))
	}
	for u, x := range src {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return loadlab.Invalid("laplacian", "Solver.ApplyPreconditioner: src[%d] = %v, want finite", u, x)
		}
	}
	if s.ac == nil && s.set.Preconditioner != Jacobi {
		if err := s.factor(); err != nil {
			return err
		}
	}
	if s.ac == nil {
		saved := s.set.Tol
		s.set.Tol = 0.1
		_, err := s.Solve(dst, src)
		s.set.Tol = saved
		return err
	}
	s.mat.Gather(s.w.z, src)
	s.ac.solve(s.w.z)
	s.mat.Scatter(dst, s.w.z)
	dense.Center(dst)
	return nil
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
func (s *Solver) Solve(dst, b []float64) (SolveResult, error) {
	return s.solve(dst, b, false, "Solve")
}

// Perm returns the solver's node order: internal position i holds node
// Perm()[i] of the graph. The solver renumbers the graph in a
// breadth-first order so that its products read nearby memory; callers
// that keep their vectors in that order (a sketch that makes many
// right-hand sides from the edges) solve with SolveOrdered and skip the
// two permutations of Solve. The slice is the solver's own: do not
// modify it.
func (s *Solver) Perm() []int32 { return s.mat.Perm }

// SolveOrdered is Solve with dst and b in the solver's node order (Perm):
// dst[i] and b[i] belong to node Perm()[i]. Its results, errors and
// panics are those of Solve.
func (s *Solver) SolveOrdered(dst, b []float64) (SolveResult, error) {
	return s.solve(dst, b, true, "SolveOrdered")
}

// solve is Solve (ordered false) and SolveOrdered.
func (s *Solver) solve(dst, b []float64, ordered bool, fn string) (SolveResult, error) {
	n := s.mat.N
	if len(dst) != n || len(b) != n {
		panic(fmt.Sprintf("laplacian: Solver.%s: len(dst) = %d, len(b) = %d, want %d", fn, len(dst), len(b), n))
	}
	for u, x := range b {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return SolveResult{Status: loadlab.Failure}, loadlab.Invalid("laplacian", "Solver.%s: b[%d] = %v, want finite", fn, u, x)
		}
	}
	if e := rhsExponent(b); e != 0 {
		return s.solveScaled(dst, b, e, ordered) // |b| beyond 2^±200
	}
	return s.checked(s.w.pcg(dst, b, ordered))
}

// checked wraps a result short of the tolerance in ErrNotConverged.
func (s *Solver) checked(res SolveResult, err error) (SolveResult, error) {
	if err != nil {
		return res, err
	}
	if res.Status != loadlab.Success {
		return res, loadlab.Wrap(loadlab.ErrNotConverged, "laplacian",
			"Solver.Solve: relative residual %.3g > Tol = %.3g after %d iterations (%v)", res.Residual, s.set.Tol, res.Iterations, res.Status)
	}
	return res, nil
}
