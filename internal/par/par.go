package par

import "runtime"

// Workers returns the number of goroutines a loop runs on for a
// requested count: requested itself if it is positive, GOMAXPROCS if it
// is zero or negative. It is the one rule of the module: every settings
// field named Workers, and every function of this package, reads its
// count through it.
func Workers(requested int) int {
	if requested > 0 {
		return requested
	}
	return runtime.GOMAXPROCS(0)
}

// For runs job(0), …, job(pieces−1), each exactly once, on the calling
// goroutine and up to Workers(workers) − 1 helpers (see Loop), and
// returns when all have finished. With one worker or one piece the jobs
// run in order on the caller.
//
// A panic of a job stops the claiming of new pieces, so some jobs may
// not run; once the others have stopped, the first panic recovered is
// re-raised on the caller as a *PanicError whose Index is the piece
// (with one worker the panic propagates unchanged).
func For(pieces, workers int, job func(piece int)) {
	Loop(pieces, workers, 1, func(lo, _ int) { job(lo) })
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

// Blocks calls fn(lo, hi) on at most GOMAXPROCS contiguous ranges of
// equal length (the last shorter) that tile the blocks [0, nb), on the
// caller and the helpers (see Loop), and returns when all have finished;
// a call allocates nothing. It is the shape of the kernels of a sparse
// solver at 10⁶ nodes, a few milliseconds each and called thousands of
// times, whose reductions keep one partial result per block: the blocks,
// not the ranges, fix the arithmetic, so results do not depend on
// GOMAXPROCS. With one range fn runs on the caller. A panic in fn is
// re-raised on the caller as a *PanicError whose Index is the first
// block of the range (unchanged with one range).
func Blocks(nb int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), nb)
	if w <= 1 {
		if nb > 0 {
			fn(0, nb)
		}
		return
	}
	Loop(nb, w, (nb+w-1)/w, fn)
}
