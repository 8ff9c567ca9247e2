// Package loadlab holds what every package of the toolkit shares: the
// named errors of the public contract, the status an iterative method
// reports, the estimate type of every Monte Carlo or stochastic result,
// and Stream, the rule that gives every Monte Carlo run its random
// stream. It imports no other package of the module, so every package may
// import it (docs/architecture.md). The packages themselves implement the
// four specifications of docs/specs: throttlers and graphs (consensus and
// the graph packages), anycast CDNs (anycast, dual, stability, ode),
// coded load balancing (codedload) and nomadic service (competitive).
//
// # Errors
//
// The contract is written in docs/conventions.md. In short: bad data
// returns an error that names the parameter and its value and wraps one of
// ErrInvalid, ErrTooLarge, ErrDisconnected, ErrUnstable,
// ErrIllConditioned or ErrNotConverged, so callers test it with
// errors.Is:
//
//	if errors.Is(err, loadlab.ErrInvalid) { … }
//
// Packages build these errors with Invalid, TooLarge and Wrap, which
// prefix the package name: "consensus: Runs = 1, want ≥ 2: invalid
// argument". Panics are kept for programmer errors (a nil required
// argument, a shape mismatch), each documented on its function.
//
// # Iterative methods and estimates
//
// An iterative method reports a Status (Success, IterationLimit,
// StepLimit, Stagnated, Failure) with the work it did; when it stops
// short it returns its partial result, a Status other than Success, and
// an error wrapping ErrNotConverged. A Monte Carlo or stochastic result
// is an Estimate: its mean, 95 % interval, standard error and count. A
// Monte Carlo entry point given a Precision (a relative or absolute 95 %
// half-width) runs until its estimates meet it, reporting the runs used
// (docs/specs/monte-carlo.md).
package loadlab
