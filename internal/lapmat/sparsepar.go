package lapmat

import (
	"unsafe"

	"github.com/loadlab/loadlab/internal/par"
)

// The sparse kernels of laplacian, estimate and consensus run on
// internal/par's pool of long-lived worker goroutines so that a call
// allocates nothing. Work is
// split into contiguous ranges of fixed blocks of BlockLen rows: a row is
// always computed by exactly one goroutine, and a reduction keeps one
// partial sum per block, added in block order by the caller, so every
// result is bit-for-bit independent of the number of goroutines.

// BlockLen is the number of rows per block of a parallel kernel. It is a
// constant, not a function of GOMAXPROCS, because reductions are summed
// per block.
const BlockLen = 4096

// RangeFunc processes the blocks [lo, hi).
type RangeFunc func(lo, hi int)

// NumBlocks returns the number of blocks covering n rows.
func NumBlocks(n int) int { return (n + BlockLen - 1) / BlockLen }

// BlockRows returns the rows [lo, hi) of block i of n rows.
func BlockRows(i, n int) (lo, hi int) { return i * BlockLen, min((i+1)*BlockLen, n) }

// ParallelBlocks calls fn on contiguous ranges of the nb blocks, one range
// per worker (GOMAXPROCS of them), on internal/par's pool of parked
// workers (par.Blocks: no allocation per call), and waits. A panic in a
// worker is re-raised on the caller as a *par.PanicError.
func ParallelBlocks(nb int, fn RangeFunc) { par.Blocks(nb, fn) }

// HugeFloats returns make([]float64, n) with AdviseHuge applied. It
// panics if n < 0.
func HugeFloats(n int) []float64 {
	v := make([]float64, n)
	if n > 0 {
		AdviseHuge(unsafe.Pointer(&v[0]), 8*n)
	}
	return v
}
