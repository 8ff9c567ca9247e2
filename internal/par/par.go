// Package par runs loops over a fixed partition of an index range on
// several goroutines. It is not API.
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
// Three ways of running the pieces, for three kinds of loop:
//
//   - For and Range start their goroutines at each call and claim pieces
//     one at a time from a shared counter. For loops of a millisecond or
//     more (a throttler step over 10⁶ nodes, a product with a sparse C):
//     the goroutines' start-up is negligible, and when a core is busy
//     with other work the free cores take over its pieces instead of
//     waiting for it at the end of the loop.
//   - Spin hands pieces, in runs, to the caller and a persistent pool of
//     busy-waiting helpers, for the short (10–100 µs), frequently
//     repeated loops of the dense load products of package anycast and
//     the fused Runge–Kutta stages of package ode, where waking an idle
//     goroutine would cost as much as the loop. Runs are claimed one at a
//     time, shorter as fewer pieces are left, so a descheduled core does
//     not hold the others up, few claims are made, and the goroutines
//     finish within about one piece of each other.
//   - Blocks splits a count of blocks into one fixed contiguous range per
//     processor for a pool of parked workers, allocating nothing per
//     call: the kernels of laplacian's sparse solver (products, reductions
//     per block), a few milliseconds each at 10⁶ nodes and called
//     thousands of times per solve.
//
// Every mode re-raises a panic of a piece on the caller as a *PanicError
// (the piece, the value and the worker's stack), or unchanged when the
// loop ran serially on the caller.
package par

import (
	"sync"
	"sync/atomic"
)

// For runs job(0), …, job(pieces−1), each exactly once, on the calling
// goroutine and up to workers−1 more, each goroutine claiming the next
// unclaimed piece until none is left, and returns when all have
// finished. With workers ≤ 1 or a single piece the jobs run in order on
// the caller. A goroutine started after every piece was claimed returns
// at once.
//
// A panic of a job stops the claiming of new pieces, so some jobs may
// not run; once every goroutine has stopped, the first panic recovered
// is re-raised on the caller as a *PanicError (with one worker the panic
// propagates unchanged).
func For(pieces, workers int, job func(piece int)) {
	workers = min(workers, pieces)
	if workers <= 1 {
		for i := range pieces {
			job(i)
		}
		return
	}
	var (
		next    atomic.Int64
		stop    atomic.Bool
		wg      sync.WaitGroup
		crashed firstPanic
	)
	run := func() {
		i := -1
		defer func() {
			if v := recover(); v != nil {
				stop.Store(true)
				crashed.record(i, v)
			}
		}()
		for !stop.Load() {
			i = int(next.Add(1) - 1)
			if i >= pieces {
				return
			}
			job(i)
		}
	}
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer wg.Done()
			run()
		}()
	}
	run()
	wg.Wait()
	crashed.reraise()
}

// Bounds returns the range [lo, hi) of piece i of the partition of
// [0, n) into pieces ranges of sizes differing by at most one:
// lo = i·n/pieces, hi = (i+1)·n/pieces. It needs n·pieces to fit an int.
func Bounds(n, pieces, i int) (lo, hi int) {
	return i * n / pieces, (i + 1) * n / pieces
}

// Pieces returns the number of pieces of the fixed partition of n items
// into pieces of at least grain items (grain ≥ 1), at most maxPieces of
// them and at least one: min(maxPieces, max(1, n/grain)). It depends
// only on its arguments, so a caller that passes constants gets a
// partition that depends only on n.
func Pieces(n, grain, maxPieces int) int {
	return max(1, min(maxPieces, n/max(grain, 1)))
}

// Range runs fn(lo, hi) over the pieces of the partition of [0, n) into
// Pieces(n, grain, maxPieces) ranges (see Bounds), on up to workers
// goroutines as For does.
func Range(n, grain, maxPieces, workers int, fn func(lo, hi int)) {
	p := Pieces(n, grain, maxPieces)
	For(p, workers, func(i int) {
		fn(Bounds(n, p, i))
	})
}
