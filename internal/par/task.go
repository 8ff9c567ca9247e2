package par

import "sync"

// Task is work started by Go beside the caller's own.
type Task struct {
	done    chan struct{}
	once    sync.Once
	crashed firstPanic
}

// Go starts fn on a goroutine of its own and returns at once, for work
// that runs beside the caller's for a long time and at its own pace (the
// throttler's demand drawn steps ahead into a ring of buffers), which the
// caller joins with Wait. It does not use the pool, so it runs even while
// every helper is busy, and it does not hold a helper for the length of
// a run.
//
// Go panics if fn is nil.
func Go(fn func()) *Task {
	if fn == nil {
		panic("par: Go: fn is nil")
	}
	t := &Task{done: make(chan struct{})}
	go func() {
		defer close(t.done)
		defer func() {
			if v := recover(); v != nil {
				t.crashed.record(0, v)
			}
		}()
		fn()
	}()
	return t
}

// Wait returns when the task has finished. If it panicked, the first
// Wait re-raises the panic on the caller as a *PanicError (Index 0, the
// value and the task's stack); later calls return.
func (t *Task) Wait() {
	<-t.done
	var err *PanicError
	t.once.Do(func() { err = t.crashed.take() })
	if err != nil {
		panic(err)
	}
}
