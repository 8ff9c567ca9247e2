// Package badarg drives the exported entry points of a package with bad
// inputs and checks each outcome against what the documentation promises
// (docs/conventions.md §1–§3, §7). It is used by tests only.
//
// # Cases
//
// A Case is one call with one bad input and the documented outcome: an
// error e with errors.Is(e, Case.Err), or a panic (Case.Panic). When
// Case.Text is set, the error message or the panic value must contain it
// (the argument's name and value, such as "Settings.Step = NaN"). Every
// other outcome fails the test: a silent success, another error, a panic
// where an error is documented, or no panic where one is.
//
// # Generators
//
// A Probe names the entry point and its documented error (or panic). Its methods
// build the standard cases: Scalar and Int (NaN, ±Inf, negative, zero,
// as the Domain excludes them), Entries (one bad entry of a slice),
// Lengths (nil, one short, one long) and Slice (both); Fields sets each
// named field of a settings struct to each bad value and expects an
// error naming Type.Field. Fails and Panics state one case by hand.
//
// # Coverage
//
// Coverage lists the exported functions and methods of a package that
// take at least one argument and fails for each one that no case probes
// and no exemption explains, so a new entry point cannot go unprobed.
package badarg
