package par

import (
	"sync"
	"testing"
)

// goroutinesPerCall is the mechanism Loop replaced, kept for the
// benchmark that justifies the pool (doc.go): w − 1 goroutines started
// for the call, claiming pieces of one index from a shared counter.
func goroutinesPerCall(n, w int, fn func(lo, hi int)) {
	var mu sync.Mutex
	next := 0
	claim := func() int {
		mu.Lock()
		defer mu.Unlock()
		next++
		return next - 1
	}
	var wg sync.WaitGroup
	work := func() {
		for i := claim(); i < n; i = claim() {
			fn(i, i+1)
		}
	}
	for range w - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

var benchSink [64]float64

// pieceWork is about 1 µs of arithmetic per index.
func pieceWork(lo, hi int) {
	for i := lo; i < hi; i++ {
		s := 0.0
		for k := range 600 {
			s += float64(k) * 1e-3
		}
		benchSink[i%64] += s
	}
}

// BenchmarkLoop_32x1us is a loop of 32 pieces of about 1 µs on
// GOMAXPROCS goroutines, as short as a stage pass of the dense N = 1000
// ODE: on the pool (Loop), on goroutines started per call, and serial.
func BenchmarkLoop_32x1us(b *testing.B) {
	b.Run("pool", func(b *testing.B) {
		for b.Loop() {
			Loop(32, 0, 1, pieceWork)
		}
	})
	b.Run("goroutines", func(b *testing.B) {
		for b.Loop() {
			goroutinesPerCall(32, Workers(0), pieceWork)
		}
	})
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			pieceWork(0, 32)
		}
	})
}
