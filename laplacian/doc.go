// Package laplacian solves with the Laplacian of a graph at scale: the
// sparse operator L and a preconditioned conjugate-gradient solver for
// L x = b on the complement of the constants, x = L† b.
//
// # Entry points
//
//	op := laplacian.NewOperator(g)          // dst = L x, in parallel, no allocation
//	s, err := laplacian.NewSolver(g, nil, src)
//	res, err := s.Solve(x, b)               // x ≈ L† b to Settings.Tol (relative residual)
//	res, err := s.SolveBlock(X, B)          // k right-hand sides iterated together
//	r, res, err := s.Resistance(u, v)       // R_uv = (e_u − e_v)ᵀ L† (e_u − e_v) by one solve
//
// A Solver renumbers the graph in breadth-first order for its products
// and keeps its workspace: a Solve allocates nothing and a Solver is not
// safe for concurrent use (make one per goroutine). Results do not depend
// on the number of goroutines.
//
// # Preconditioners
//
// Settings.Preconditioner is Auto (the default), ApproxCholesky (the
// randomized factorisation of Kyng and Sachdeva, as Laplacians.jl's
// approxchol: about m + n nonzeros, iteration counts that depend little
// on n or on the weights' spread) or Jacobi (the degrees). src drives the
// factorisation's sampling; the same source gives the same factor.
//
// Auto decides from a probe of the graph, not from trial iterations:
// measured, Jacobi's first iterations say little about its rate on a mesh
// (its slow modes show only after about √κ iterations), and a trial of the
// factor costs its whole setup, 30 s on the 10⁶-node expander where
// Jacobi solves in 0.6 s. The probe bounds κ(D⁻¹L) from below by Rayleigh
// quotients of smooth functions of the breadth-first levels, in one pass;
// a cost model in Jacobi iterations then factors at once when Jacobi is
// predicted to cost more, and otherwise runs Jacobi until it has spent
// what the factor would cost before switching. The probe is the whole of
// Auto's overhead: 0.011 CPU-s on the 1000 × 1000 torus (under 1 % of a
// solve with its factorisation) and 0.06–0.09 CPU-s on the 10⁶-node
// random 6-regular graph (about 5 % of the solver's setup, which is
// mostly the breadth-first renumbering of the matrix).
//
// # Seams for estimators
//
// Stochastic estimators (package estimate, consensus) reuse a solver
// through ApplyPreconditioner (one cheap approximate L† application),
// SetTol (a per-call tolerance), ReserveBlock (the block workspace ahead of
// time), PreferredBlockCols (the widest block that runs at full speed:
// 16 columns at 10⁶ nodes, 1 at 10⁷), Perm and SolveOrdered (vectors kept in the solver's order), and
// Operator.
//
// # Accuracy
//
// A solve stops at a relative residual ‖b − L x‖/‖b‖ ≤ Tol (default
// 1e-10) with b projected onto 1⊥; SolveResult reports the recomputed
// residual. The error in a quadratic form bᵀx is at most κ(L)·Tol²
// relative. Residuals below about ε·w_max‖x‖/‖b‖ cannot be represented:
// a right-hand side that drives current across a 1e-12 bridge stops with
// Stagnated. Derivations and measurements: spec throttlers.md §12.9.
//
// # Errors and panics
//
// A disconnected graph wraps loadlab.ErrDisconnected; bad settings, a
// graph with no nodes, or a NaN or infinite right-hand side wrap
// loadlab.ErrInvalid; a workspace that would not fit wraps
// loadlab.ErrTooLarge; a solve that stops short returns its last iterate
// with an error wrapping loadlab.ErrNotConverged and Status
// IterationLimit or Stagnated. Nil graphs, nil sources (unless the
// preconditioner is Jacobi), vectors of the wrong length and nodes out of
// range panic.
//
// # Cost
//
// On the 10⁶-node random 6-regular graph a solve to 1e-8 takes about 23
// Jacobi iterations, a fraction of a second on two cores; on the
// 1000 × 1000 torus approximate Cholesky needs about 47 iterations where
// Jacobi needs 2000 (docs/benchmarks.md).
package laplacian
