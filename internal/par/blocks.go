// Blocks: the persistent pool of parked workers for the sparse kernels.

package par

import (
	"runtime"
	"sync"
)

// Blocks calls fn(lo, hi) on GOMAXPROCS contiguous ranges of the blocks
// [0, nb) (at most nb ranges, the caller taking the first), each range
// on one goroutine, and returns when all have finished. The ranges are
// fixed, in proportion to the count, and the workers are a pool of
// goroutines started once and parked between calls, so a call allocates
// nothing: the shape for the kernels of a sparse solver at 10⁶ nodes,
// each a few milliseconds and called thousands of times, whose
// reductions keep one partial result per block (the blocks, not the
// ranges, fix the arithmetic, so results do not depend on GOMAXPROCS).
// With one range fn runs on the caller. A panic in fn is re-raised on
// the caller as a *PanicError whose Index is the first block of the
// range (unchanged with one range).
func Blocks(nb int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), nb)
	if w <= 1 {
		fn(0, nb)
		return
	}
	blockPoolOnce.Do(startBlockPool)
	b := batches.Get().(*batch)
	b.wg.Add(w - 1)
	for i := 1; i < w; i++ {
		blockJobs <- blockJob{fn: fn, lo: i * nb / w, hi: (i + 1) * nb / w, b: b}
	}
	b.run(fn, 0, nb/w)
	b.wg.Wait()
	crashed := b.crashed.err
	b.crashed.err = nil
	batches.Put(b)
	if crashed != nil {
		panic(crashed)
	}
}

// blockJob is one range of a Blocks call.
type blockJob struct {
	fn     func(lo, hi int)
	lo, hi int
	b      *batch
}

// batch collects the completion and the first panic of one Blocks call.
type batch struct {
	wg      sync.WaitGroup
	crashed firstPanic
}

func (b *batch) run(fn func(lo, hi int), lo, hi int) {
	defer func() {
		if v := recover(); v != nil {
			b.crashed.record(lo, v)
		}
	}()
	fn(lo, hi)
}

var (
	blockPoolOnce sync.Once
	blockJobs     chan blockJob
	batches       = sync.Pool{New: func() any { return new(batch) }}
)

// startBlockPool starts one parked worker per CPU (GOMAXPROCS may be
// raised later).
func startBlockPool() {
	blockJobs = make(chan blockJob)
	for range runtime.NumCPU() {
		go func() {
			for j := range blockJobs {
				j.b.run(j.fn, j.lo, j.hi)
				j.b.wg.Done()
			}
		}()
	}
}
