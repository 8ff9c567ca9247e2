package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestLoopCoversOnce(t *testing.T) {
	// Every index of [0, n) is handed to fn exactly once, in pieces that
	// start at multiples of the grain and end at the next or at n, for any
	// number of goroutines; a panic in fn reaches the caller.
	const grain = 64
	for _, w := range []int{1, 2, 3, 8} {
		for _, n := range []int{0, 1, 7, 8, 63, 64, 65, 1000, 1003} {
			var mu sync.Mutex
			seen := make([]int, n)
			Loop(n, w, grain, func(lo, hi int) {
				assert.Zero(t, lo%grain, "piece starts at %d", lo)
				assert.True(t, hi == min(lo+grain, n), "piece [%d, %d)", lo, hi)
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("w = %d, n = %d: index %d covered %d times", w, n, i, c)
				}
			}
		}
		func() {
			defer func() {
				v := recover()
				if pe, ok := v.(*PanicError); ok {
					v = pe.Value // w ≥ 2: wrapped, with the worker's stack
					assert.NotEmpty(t, pe.Stack)
				}
				assert.Equal(t, "boom", v, "w = %d", w)
			}()
			Loop(1000, w, grain, func(lo, hi int) {
				if lo <= 5*grain && 5*grain < hi {
					panic("boom")
				}
			})
		}()
	}
	assert.Panics(t, func() { Loop(10, 2, 0, func(int, int) {}) })
}

func TestWorkers(t *testing.T) {
	assert.Equal(t, 3, Workers(3))
	assert.Equal(t, runtime.GOMAXPROCS(0), Workers(0))
	assert.Equal(t, runtime.GOMAXPROCS(0), Workers(-2))
}

func TestLoopCallerParks(t *testing.T) {
	// A piece that outlasts waitSpin on a helper makes the caller block on
	// the loop's end; it is woken when the piece ends and every piece has
	// run once. (The helper then yields its P to the woken caller; the
	// effect on latency is measured in docs/benchmarks.md, not here.)
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs a helper: GOMAXPROCS ≥ 2")
	}
	const n, grain = 8, 1
	for range 20 {
		var ran [n]atomic.Int32
		Loop(n, 2, grain, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if i == n-1 { // the helpers claim from the back
					time.Sleep(3 * waitSpin)
				}
				ran[i].Add(1)
			}
		})
		for i := range ran {
			assert.Equal(t, int32(1), ran[i].Load(), "piece %d", i)
		}
	}
}

func TestLoopNestedAndConcurrent(t *testing.T) {
	// Loops inside the pieces of a loop, and loops from several goroutines
	// at once, each cover their pieces once: a loop is handed only to idle
	// helpers, so a busy pool leaves the pieces to their callers.
	const outer, inner = 16, 100
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			var seen [outer][inner]atomic.Int32
			Loop(outer, 0, 1, func(i, _ int) {
				Loop(inner, 0, 7, func(lo, hi int) {
					for j := lo; j < hi; j++ {
						seen[i][j].Add(1)
					}
				})
			})
			for i := range seen {
				for j := range seen[i] {
					assert.Equal(t, int32(1), seen[i][j].Load(), "piece %d, index %d", i, j)
				}
			}
		})
	}
	wg.Wait()
}

func TestLoopAndBlocksAllocateNothing(t *testing.T) {
	// Once the pool has warmed up, a loop allocates nothing: the sparse
	// solver's kernels run thousands of them per solve.
	var sink [64]float64
	fn := func(lo, hi int) {
		for i := lo; i < hi; i++ {
			sink[i%64]++
		}
	}
	Loop(64, 0, 4, fn)
	Blocks(64, fn)
	assert.Zero(t, testing.AllocsPerRun(200, func() { Loop(64, 0, 4, fn) }), "Loop")
	assert.Zero(t, testing.AllocsPerRun(200, func() { Blocks(64, fn) }), "Blocks")
}
