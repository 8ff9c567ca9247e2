package par

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestForRunsEachPieceOnce checks that every piece runs exactly once for
// worker counts below, at and above the number of pieces (and with no
// pieces at all), on one and two processors.
func TestForRunsEachPieceOnce(t *testing.T) {
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		for _, pieces := range []int{0, 1, 7, 64} {
			for _, workers := range []int{-1, 0, 1, 2, 3, 100} {
				count := make([]atomic.Int32, pieces)
				For(pieces, workers, func(i int) { count[i].Add(1) })
				for i := range count {
					if c := count[i].Load(); c != 1 {
						t.Errorf("GOMAXPROCS %d, %d pieces, %d workers: piece %d ran %d times", procs, pieces, workers, i, c)
					}
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestForSerialOrder checks that one worker runs the pieces in order on
// the caller.
func TestForSerialOrder(t *testing.T) {
	var got []int
	For(5, 1, func(i int) { got = append(got, i) })
	for i, v := range got {
		if v != i {
			t.Fatalf("serial order %v, want 0, 1, 2, 3, 4", got)
		}
	}
	if len(got) != 5 {
		t.Fatalf("ran %d pieces, want 5", len(got))
	}
}

// TestForPanic checks that a panic of a job reaches the caller, from a
// helper goroutine as well as from the caller's own: unchanged with one
// worker, as a *PanicError naming the piece and carrying the value and
// the stack with several; and that For still waits for the other
// goroutines.
func TestForPanic(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		for _, at := range []int{0, 5, 31} {
			var running atomic.Int32
			func() {
				defer func() {
					checkPanic(t, recover(), workers, at)
					if r := running.Load(); r != 0 {
						t.Errorf("workers %d: %d jobs still running after the re-raise", workers, r)
					}
				}()
				For(32, workers, func(i int) {
					running.Add(1)
					defer running.Add(-1)
					if i == at {
						panic("boom")
					}
				})
			}()
		}
	}
	// A runtime error stays visible to errors.As through the re-raise.
	var got any
	func() {
		defer func() { got = recover() }()
		var s []int
		For(8, 4, func(i int) { _ = s[i] })
	}()
	var re runtime.Error
	if err, ok := got.(error); !ok || !errors.As(err, &re) {
		t.Errorf("recovered %T %v, want an error wrapping a runtime.Error", got, got)
	}
}

// checkPanic checks a value recovered from a loop whose piece at
// panicked with "boom": the value itself with one worker, else a
// *PanicError with the piece, the value and a stack.
func checkPanic(t *testing.T, v any, workers, at int) {
	t.Helper()
	if workers == 1 {
		if v != "boom" {
			t.Errorf("one worker, panic at %d: recovered %v, want boom", at, v)
		}
		return
	}
	pe, ok := v.(*PanicError)
	if !ok || pe.Value != "boom" || pe.Index != at || len(pe.Stack) == 0 || !strings.Contains(pe.Error(), "boom") {
		t.Errorf("workers %d, panic at %d: recovered %T %v, want a *PanicError at %d with value boom and a stack", workers, at, v, v, at)
	}
}

// TestBoundsPartition checks that the pieces tile [0, n) in order with
// sizes differing by at most one, for sizes below, at and above the
// number of pieces.
func TestBoundsPartition(t *testing.T) {
	for _, n := range []int{0, 1, 5, 64, 1000, 1<<20 + 3} {
		for _, pieces := range []int{1, 3, 64} {
			next, small, large := 0, n, 0
			for i := range pieces {
				lo, hi := Bounds(n, pieces, i)
				if lo != next || hi < lo {
					t.Fatalf("n %d, %d pieces: piece %d is [%d, %d), want to start at %d", n, pieces, i, lo, hi, next)
				}
				small, large = min(small, hi-lo), max(large, hi-lo)
				next = hi
			}
			if next != n || large-small > 1 {
				t.Errorf("n %d, %d pieces: cover [0, %d), sizes %d to %d", n, pieces, next, small, large)
			}
		}
	}
}

// TestPieces checks the piece count: at least one, at most maxPieces,
// and n/grain in between.
func TestPieces(t *testing.T) {
	for _, c := range []struct{ n, grain, max, want int }{
		{0, 100, 64, 1}, {99, 100, 64, 1}, {250, 100, 64, 2}, {1 << 20, 4096, 64, 64}, {10, 0, 64, 10},
	} {
		if got := Pieces(c.n, c.grain, c.max); got != c.want {
			t.Errorf("Pieces(%d, %d, %d) = %d, want %d", c.n, c.grain, c.max, got, c.want)
		}
	}
}

// TestRangeReduction checks the intended use: a sum kept per piece and
// added in piece order is bitwise the same for every worker count, on
// terms whose sum depends on the order of addition.
func TestRangeReduction(t *testing.T) {
	const n = 100000
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(i%977+1) * float64(1-2*(i%3%2))
	}
	sum := func(workers int) float64 {
		p := Pieces(n, 1000, 64)
		part := make([]float64, p)
		For(p, workers, func(i int) {
			lo, hi := Bounds(n, p, i)
			for _, v := range x[lo:hi] {
				part[i] += v
			}
		})
		s := 0.0
		for _, v := range part {
			s += v
		}
		return s
	}
	want := sum(1)
	for _, w := range []int{2, 3, 8} {
		if got := sum(w); got != want {
			t.Errorf("%d workers: sum %v, want %v (one worker)", w, got, want)
		}
	}
	covered := make([]int32, n)
	Range(n, 1000, 64, 3, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			covered[i]++
		}
	})
	for i, c := range covered {
		if c != 1 {
			t.Fatalf("Range covered index %d %d times", i, c)
		}
	}
}

// TestBlocks checks that the ranges of Blocks tile [0, nb) once each,
// in at most GOMAXPROCS ranges of equal length (the last shorter), for
// block counts below and above GOMAXPROCS, and that a panic of a range
// reaches the caller as in For, with the range's first block.
func TestBlocks(t *testing.T) {
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		for _, nb := range []int{0, 1, 2, 5, 64} {
			seen := make([]int, nb)
			var mu sync.Mutex
			var ranges int
			w := min(procs, nb)
			Blocks(nb, func(lo, hi int) {
				mu.Lock()
				defer mu.Unlock()
				ranges++
				if step := (nb + w - 1) / w; lo%step != 0 || hi != min(lo+step, nb) {
					t.Errorf("GOMAXPROCS %d, %d blocks: range [%d, %d)", procs, nb, lo, hi)
				}
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			if ranges > max(w, 0) {
				t.Errorf("GOMAXPROCS %d, %d blocks: %d ranges", procs, nb, ranges)
			}
			for i, c := range seen {
				if c != 1 {
					t.Errorf("GOMAXPROCS %d, %d blocks: block %d ran %d times", procs, nb, i, c)
				}
			}
			for _, at := range []int{0, nb - 1} {
				if nb == 0 {
					continue
				}
				func() {
					step := (nb + w - 1) / w
					first := at / step * step // the first block of at's range
					if w == 1 {
						first = 0
					}
					defer func() { checkPanic(t, recover(), w, first) }()
					Blocks(nb, func(lo, hi int) {
						if lo <= at && at < hi {
							panic("boom")
						}
					})
				}()
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

// TestTask checks that Wait returns after the task has run and
// re-raises its panic once as a *PanicError.
func TestTask(t *testing.T) {
	var ran atomic.Bool
	task := Go(func() { ran.Store(true) })
	task.Wait()
	if !ran.Load() {
		t.Fatal("Wait returned before the task ran")
	}
	task.Wait()
	boom := Go(func() { panic("boom") })
	func() {
		defer func() { checkPanic(t, recover(), 2, 0) }()
		boom.Wait()
	}()
	boom.Wait() // the panic is re-raised once
}
