// Package loadlab holds what every package of the toolkit shares: the
// named errors of the public contract, the status an iterative method
// reports, the estimate type of every Monte Carlo or stochastic result,
// and Stream, the rule that gives every Monte Carlo run its random
// stream. It imports no other package of the module, so every package may
// import it (docs/architecture.md).
//
// The contract itself is written in docs/conventions.md. In short:
// bad data returns an error that wraps one of the Err values below and
// names the parameter and its value, so callers test it with errors.Is;
// an iterative method that stops short returns its partial result, a
// Status other than Success, and an error wrapping ErrNotConverged.
package loadlab
