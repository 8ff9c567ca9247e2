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

// TestBinomialClopperPearson checks the exact interval against its
// definition through the identity P[Beta(k, n−k+1) ≤ p] = P[Bin(n, p) ≥ k]:
// at Lo the binomial upper tail P[Bin(n, Lo) ≥ k] is 0.025, at Hi the
// lower tail P[Bin(n, Hi) ≤ k] is 0.025, both summed term by term here.
// The 1e-9 tolerance on a tail probability is far above the rounding of
// a sum of at most 101 terms (~1e-15) and of gonum's Beta quantile
// (~1e-12 relative), and a wrong quantile (a wrong shape parameter)
// moves a tail by more than 1e-3. Closed forms: at k = 0, Hi solves
// (1−p)^n = 0.025; at k = n, Lo solves p^n = 0.025.
func TestBinomialClopperPearson(t *testing.T) {
	tail := func(n, lo, hi int, p float64) float64 { // P[lo ≤ Bin(n, p) ≤ hi]
		s := 0.0
		for j := lo; j <= hi; j++ {
			lg, _ := math.Lgamma(float64(n + 1))
			la, _ := math.Lgamma(float64(j + 1))
			lb, _ := math.Lgamma(float64(n - j + 1))
			s += math.Exp(lg - la - lb + float64(j)*math.Log(p) + float64(n-j)*math.Log1p(-p))
		}
		return s
	}
	for _, c := range [][2]int{{1, 10}, {3, 10}, {9, 10}, {50, 100}, {2, 1000}} {
		k, n := c[0], c[1]
		e := Binomial(k, n)
		assert.InDelta(t, 0.025, tail(n, k, n, e.Lo), 1e-9, "k, n = %d, %d: Lo", k, n)
		assert.InDelta(t, 0.025, tail(n, 0, k, e.Hi), 1e-9, "k, n = %d, %d: Hi", k, n)
		assert.Equal(t, float64(k)/float64(n), e.Mean)
		assert.Equal(t, n, e.N)
	}
	e := Binomial(0, 10)
	assert.Equal(t, 0.0, e.Lo)
	assert.InDelta(t, 1-math.Pow(0.025, 0.1), e.Hi, 1e-12)
	e = Binomial(10, 10)
	assert.Equal(t, 1.0, e.Hi)
	assert.InDelta(t, math.Pow(0.025, 0.1), e.Lo, 1e-12)
	assert.True(t, math.IsNaN(Binomial(0, 0).Mean))
	assert.Panics(t, func() { Binomial(3, 2) })
	assert.Panics(t, func() { Binomial(-1, 2) })
}
