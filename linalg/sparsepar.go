package linalg

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"
)

// The sparse kernels (operator.go, pcg.go) run on a small pool of
// long-lived worker goroutines so that a call allocates nothing. Work is
// split into contiguous ranges of fixed blocks of blockLen rows: a row is
// always computed by exactly one goroutine, and a reduction keeps one
// partial sum per block, added in block order by the caller, so every
// result is bit-for-bit independent of the number of goroutines.

// blockLen is the number of rows per block of a parallel kernel. It is a
// constant, not a function of GOMAXPROCS, because reductions are summed
// per block.
const blockLen = 4096

// rangeFunc processes the blocks [lo, hi).
type rangeFunc func(lo, hi int)

type poolJob struct {
	fn     rangeFunc
	lo, hi int
	b      *batch
}

// batch collects the completion and the first panic of one parallel call.
type batch struct {
	wg  sync.WaitGroup
	mu  sync.Mutex
	pan any
}

func (b *batch) run(fn rangeFunc, lo, hi int) {
	defer func() {
		if p := recover(); p != nil {
			b.mu.Lock()
			if b.pan == nil {
				b.pan = fmt.Sprintf("%v\n\nworker stack:\n%s", p, debug.Stack())
			}
			b.mu.Unlock()
		}
	}()
	fn(lo, hi)
}

var (
	poolOnce  sync.Once
	poolJobs  chan poolJob
	batchPool = sync.Pool{New: func() any { return new(batch) }}
)

func startPool() {
	poolJobs = make(chan poolJob)
	for range runtime.NumCPU() {
		go func() {
			for j := range poolJobs {
				j.b.run(j.fn, j.lo, j.hi)
				j.b.wg.Done()
			}
		}()
	}
}

// numBlocks returns the number of blocks covering n rows.
func numBlocks(n int) int { return (n + blockLen - 1) / blockLen }

// blockRows returns the rows [lo, hi) of block i of n rows.
func blockRows(i, n int) (lo, hi int) { return i * blockLen, min((i+1)*blockLen, n) }

// parallelBlocks calls fn on contiguous ranges of the nb blocks, one range
// per worker (GOMAXPROCS of them), and waits. A panic in a worker is
// re-raised on the caller's goroutine with the worker's stack.
func parallelBlocks(nb int, fn rangeFunc) {
	w := min(runtime.GOMAXPROCS(0), nb)
	if w <= 1 {
		fn(0, nb)
		return
	}
	poolOnce.Do(startPool)
	b := batchPool.Get().(*batch)
	b.wg.Add(w - 1)
	for i := 1; i < w; i++ {
		poolJobs <- poolJob{fn: fn, lo: i * nb / w, hi: (i + 1) * nb / w, b: b}
	}
	b.run(fn, 0, nb/w)
	b.wg.Wait()
	p := b.pan
	b.pan = nil
	batchPool.Put(b)
	if p != nil {
		panic(p)
	}
}

// hugeFloats returns make([]float64, n) with adviseHuge applied.
func hugeFloats(n int) []float64 {
	v := make([]float64, n)
	if n > 0 {
		adviseHuge(unsafe.Pointer(&v[0]), 8*n)
	}
	return v
}
