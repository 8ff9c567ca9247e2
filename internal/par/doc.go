// Package par runs loops over a fixed partition of an index range on
// several goroutines. It is not API, and it holds every go statement of
// the module.
//
// # Determinism
//
// The partition is the caller's: pieces whose boundaries depend only on
// the size of the problem, never on GOMAXPROCS, the number of workers or
// timing. Each piece is run exactly once, by whichever goroutine claims
// it first, so as long as a piece's work reads only data no other piece
// writes, the result is bitwise the same for any number of workers and
// any scheduling. A reduction keeps one partial result per piece and adds
// them in piece order on the caller. A panic in a piece is re-raised on
// the caller as a *PanicError carrying the piece, the value and the
// stack of the goroutine that ran it (docs/conventions.md §6).
//
// # Worker counts
//
// Workers is the one rule for a requested number of goroutines: a
// positive count is taken as it is, zero or a negative count means
// GOMAXPROCS. Every settings field named Workers in the module, and
// every function here, goes through it.
//
// # One mechanism
//
// Every loop (Loop, and For, Range and Blocks on it) runs on the caller
// and on a process-wide pool of GOMAXPROCS − 1 helper goroutines,
// started on first use and kept. The caller claims pieces from the
// front, the helpers from the back, in runs that shrink as fewer pieces
// are left; the caller never waits for a helper that has not claimed a
// piece, and a loop is handed only to idle helpers, so nested loops and
// loops from several goroutines at once run on their callers when the
// pool is busy. After a loop a helper polls for the next one for 500 µs,
// then blocks. Each choice is there for a measured reason:
//
//   - A pool instead of goroutines started per call: the stage passes of
//     the dense N = 1000 ODE (package ode's split stepper, package
//     anycast's products) last 10–100 µs and come back to back, and on
//     this project's virtual machines starting or waking a goroutine
//     costs tens of µs, as much as the pass (docs/benchmarks.md, "Dense
//     N = 1000"); the sparse solver's kernels (Blocks), a few ms each,
//     run thousands of times per solve and must not allocate
//     (TestLoopAndBlocksAllocateNothing; linalg's ApplyShifted test).
//   - Polling before blocking: a polling helper joins the next pass
//     within about a µs, a blocked one after a wake-up; when the dense
//     ODE's caller blocked on a late helper, about 1 % of its stage
//     passes took 0.7 ms instead of 70 µs (docs/benchmarks.md), which
//     is why the goroutine that ends a loop yields its P to a blocked
//     caller at once.
//   - Pieces claimed at run time instead of fixed ranges: on a shared
//     machine a core taken by another process leaves its pieces to the
//     others rather than holding up the loop's end (the 10⁶-node
//     throttler's passes, docs/benchmarks.md, "One fixed partition").
//
// The mechanisms this package replaced were measured against it on the
// workloads that used them; docs/perf-kernels.md has the numbers:
// goroutines started per call (For, Range), a separate pool of parked
// workers with fixed ranges (Blocks), hand-written futures and a
// prefetch ring in package consensus. The throttler now draws the next
// step's demand as one more piece of a pass of the current step, checks
// connectivity as the second piece of a two-piece loop beside its setup,
// and takes its stability decision before the first update.
package par
