package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSpinCoversOnce(t *testing.T) {
	// Every index of [0, n) is handed to fn exactly once, in runs that
	// start at multiples of the grain and end at a multiple or n, for any
	// number of goroutines; a panic in fn reaches the caller.
	const grain = 64
	for _, w := range []int{1, 2, 3, 8} {
		for _, n := range []int{0, 1, 7, 8, 63, 64, 65, 1000, 1003} {
			var mu sync.Mutex
			seen := make([]int, n)
			Spin(n, w, grain, func(lo, hi int) {
				assert.Zero(t, lo%grain, "piece starts at %d", lo)
				assert.True(t, hi > lo && (hi%grain == 0 || hi == n), "run [%d, %d)", lo, hi)
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
			Spin(1000, w, grain, func(lo, hi int) {
				if lo <= 5*grain && 5*grain < hi {
					panic("boom")
				}
			})
		}()
	}
	assert.Panics(t, func() { Spin(10, 2, 0, func(int, int) {}) })
}

func TestWorkers(t *testing.T) {
	assert.Equal(t, 1, Workers(9, 10))
	assert.GreaterOrEqual(t, Workers(10, 10), 1)
}

func TestSpinCallerParks(t *testing.T) {
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
		Spin(n, 2, grain, func(lo, hi int) {
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
