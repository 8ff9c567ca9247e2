// Package par runs loops over a fixed partition of an index range on
// several goroutines, and work beside the caller on a goroutine of its
// own. It is not API, and it holds every go statement of the module.
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
// # Two mechanisms
//
// Every loop (Loop, and For, Range and Blocks on it) runs on the caller
// and on a process-wide pool of GOMAXPROCS − 1 helper goroutines,
// started on first use and kept. The caller claims pieces from the
// front, the helpers from the back, in runs that shrink as fewer pieces
// are left; the caller never waits for a helper that has not claimed a
// piece, and at most four loops per helper wait for one, so nested loops
// and loops from several goroutines at once run on their callers when
// the pool is busy. After a loop a helper polls for the next one for
// 500 µs, then blocks. Each choice is there for a measured reason:
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
//     throttler's passes, docs/benchmarks.md, "One fixed partition";
//     anycast's sparse product at N = 10⁴ in about 64 pieces took
//     0.36–0.42× the time of the two fixed halves it had, and 0.2× that of
//     two fixed halves on this pool, with the cores contended,
//     docs/perf-kernels.md).
//
// Go starts one goroutine for work that runs beside the caller at its
// own pace for a whole run: the throttler's demand drawn up to 16 steps
// ahead into a ring of buffers (package consensus). Drawing the next
// step's demand instead as one more piece of a loop of the current step
// ties the two to each other at every step; on the loaded 2-core machine
// that made Simulate at n = 10⁴ 1.23× as slow (1.48× with a demand that
// only copies) and cost 1.46× the CPU, against 1.09× and 1.00× with the
// ring on Go (docs/perf-kernels.md).
//
// What this package replaced (goroutines started per call, a separate
// pool of parked workers with fixed ranges, hand-written futures in
// package consensus) is measured against it in docs/perf-kernels.md. The
// throttler checks connectivity as the second piece of a two-piece loop
// beside its setup, and takes its stability decision before the first
// update: on its own goroutine beside the run it gained nothing
// measurable at 10⁶ nodes (wall 1.02× as long).
package par
