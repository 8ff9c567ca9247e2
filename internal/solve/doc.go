// Package solve holds the pieces that the iterative methods of loadlab
// share (docs/conventions.md §4): one backtracking line search with the
// Armijo sufficient-decrease test, and a small record of an iteration's
// outcome (a loadlab.Status and the work done) that turns into the
// ErrNotConverged error of the contract.
//
// The line search serves three solvers: the spectral projected gradient
// of consensus.DesignWeights (a non-monotone reference value along a
// ray), the barrier Newton method of the λ₂-floor solver (a ray, a
// decrement model) and the projected Newton method of dual.Primal
// (a projection arc, where the predicted decrease depends on the step).
// The caller builds and evaluates the trial point; the search only
// decides the step. It never allocates.
//
// Nothing here panics on data: an infeasible trial point (the caller
// returns ok = false) or a non-finite value is a rejected step.
package solve
