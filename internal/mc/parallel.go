package mc

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// For calls fn(i) for i in [0, n) on up to workers goroutines
// (workers ≤ 0 means GOMAXPROCS). Each call must write only its own
// result slot; with per-index random streams (Source) the results are
// then independent of the number of workers.
//
// A panic in fn is re-raised on the caller's goroutine once every worker
// has stopped (docs/conventions.md §6): with one worker it propagates as
// it is, with several the caller panics with a *PanicError carrying the
// index, the value and the worker's stack. After a panic the workers take
// no new indices, so some fn(i) may not run.
func For(n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var (
		next    atomic.Int64
		stop    atomic.Bool
		wg      sync.WaitGroup
		once    sync.Once
		crashed *PanicError
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			i := -1
			defer func() {
				if v := recover(); v != nil {
					stop.Store(true)
					once.Do(func() { crashed = &PanicError{Index: i, Value: v, Stack: debug.Stack()} })
				}
			}()
			for !stop.Load() {
				i = int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
	if crashed != nil {
		panic(crashed)
	}
}

// PanicError is the value For panics with on the caller's goroutine
// when fn panicked in a worker goroutine.
type PanicError struct {
	Index int    // the index whose call panicked
	Value any    // the value passed to panic
	Stack []byte // the worker's stack at the panic
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("panic in parallel worker at index %d: %v\n\nworker stack:\n%s", e.Index, e.Value, e.Stack)
}

// Unwrap returns the panic value if it is an error (a runtime error, for
// example), so that errors.As sees through the re-raise.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
