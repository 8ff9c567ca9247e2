package mc

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSourceDeterministicAndDistinct(t *testing.T) {
	a, b := Source(7, 1, 2), Source(7, 1, 2)
	for i := 0; i < 10; i++ {
		assert.Equal(t, a.Uint64(), b.Uint64())
	}
	seen := map[uint64]bool{}
	for p := uint64(0); p < 1000; p++ {
		v := Source(7, p).Uint64()
		assert.False(t, seen[v], "stream %d collides", p)
		seen[v] = true
	}
	assert.NotEqual(t, Source(7, 1, 2).Uint64(), Source(7, 2, 1).Uint64())
}

func TestForWorkersIndependent(t *testing.T) {
	run := func(workers int) []uint64 {
		out := make([]uint64, 257)
		For(len(out), workers, func(i int) { out[i] = Source(3, uint64(i)).Uint64() })
		return out
	}
	ref := run(1)
	for _, w := range []int{2, 8, 0} {
		assert.Equal(t, ref, run(w))
	}
}

func TestSummarize(t *testing.T) {
	// Hand computation: mean 2, sample variance 1, t_{0.975,2} = 4.302652729911275.
	s := Summarize([]float64{1, 2, 3})
	assert.InDelta(t, 2, s.Mean, 1e-15)
	assert.InDelta(t, 1, s.Std, 1e-15)
	half := 4.302652729911275 / math.Sqrt(3)
	assert.InDelta(t, 2-half, s.Lo, 1e-9)
	assert.InDelta(t, 2+half, s.Hi, 1e-9)
	assert.True(t, math.IsNaN(Summarize([]float64{5}).Std))
}

// TestForReraisesWorkerPanic: a panic in a worker goroutine must reach
// the caller's goroutine (where recover can see it) with the worker's
// stack, instead of killing the process (docs/conventions.md §6). Before
// the fix the panic escaped the worker and the test binary died.
func TestForReraisesWorkerPanic(t *testing.T) {
	prev := runtime.GOMAXPROCS(4) // several workers even on a 1-core machine
	defer runtime.GOMAXPROCS(prev)
	for _, workers := range []int{0, 2, 8} {
		var got any
		func() {
			defer func() { got = recover() }()
			For(100, workers, func(i int) {
				if i == 37 {
					panic(fmt.Sprintf("boom at %d", i))
				}
			})
		}()
		pe, ok := got.(*PanicError)
		require.True(t, ok, "workers = %d: recovered %T %v", workers, got, got)
		assert.Equal(t, 37, pe.Index)
		assert.Equal(t, "boom at 37", pe.Value)
		assert.Contains(t, pe.Error(), "boom at 37")
		assert.Contains(t, pe.Error(), "mc.TestForReraisesWorkerPanic", "the message carries the worker's stack")
	}
	// A runtime error stays visible to errors.As through the re-raise.
	var got any
	func() {
		defer func() { got = recover() }()
		var s []int
		For(8, 4, func(i int) { _ = s[i] })
	}()
	var re runtime.Error
	require.ErrorAs(t, got.(error), &re)
	// With one worker the panic propagates unchanged on the caller.
	assert.PanicsWithValue(t, "serial", func() { For(3, 1, func(int) { panic("serial") }) })
}

// Finite values whose sum overflows still have a finite mean and spread
// (guards: Summarize([1e308, 1e308]) with Mean = +Inf and
// Summarize([1e308, -1e308]) with Std = +Inf). Hand values: the mean of
// {1e308, 1e308} is 1e308 with Std 0; {1e308, −1e308} has mean 0 and
// Std √2·1e308 (n − 1 = 1); scaling by max|x| costs a few ulps, hence
// the relative tolerance 1e-15.
func TestSummarizeOverflow(t *testing.T) {
	s := Summarize([]float64{1e308, 1e308})
	assert.InEpsilon(t, 1e308, s.Mean, 1e-15)
	assert.Equal(t, 0.0, s.Std)
	s = Summarize([]float64{1e308, -1e308})
	assert.Equal(t, 0.0, s.Mean)
	assert.InEpsilon(t, math.Sqrt2*1e308, s.Std, 1e-15)
	assert.True(t, math.IsInf(Summarize([]float64{math.Inf(1), 1}).Mean, 1), "a real infinity stays")
}
