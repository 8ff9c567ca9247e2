package mc

import "github.com/loadlab/loadlab/internal/par"

// For calls fn(i) for i in [0, n) on up to workers goroutines
// (par.Workers: workers ≤ 0 means GOMAXPROCS). Each call must write only
// its own result slot; with per-index random streams (Source) the
// results are then independent of the number of workers.
//
// It runs on internal/par's For (the caller is one of the workers). A
// panic in fn is re-raised on the caller's goroutine once every worker
// has stopped (docs/conventions.md §6): with one worker it propagates as
// it is, with several the caller panics with a *PanicError carrying the
// index, the value and the worker's stack. After a panic the workers take
// no new indices, so some fn(i) may not run. For panics if fn is nil.
func For(n, workers int, fn func(i int)) {
	if fn == nil {
		panic("mc: For: fn is nil")
	}
	par.For(n, workers, fn)
}

// PanicError is the value For panics with on the caller's goroutine
// when fn panicked while several workers ran: internal/par's, shared by
// every parallel loop of the module.
type PanicError = par.PanicError
