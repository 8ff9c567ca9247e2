package par

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// PanicError is the value every loop of this package panics with on the
// caller when a piece panicked while the loop ran on several goroutines
// (docs/conventions.md §6): the piece, the value passed to panic and the
// stack of the goroutine that ran it. A loop run serially on the caller
// lets the panic propagate unchanged.
type PanicError struct {
	Index int    // For: the piece whose call panicked; Loop and Blocks: the lo of that call
	Value any    // the value passed to panic
	Stack []byte // the stack of the goroutine at the panic
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

// firstPanic keeps the first panic of a loop's pieces.
type firstPanic struct {
	mu  sync.Mutex
	err *PanicError
}

// record stores the panic value v of piece i with the current stack,
// unless an earlier one was stored. Call it from the deferred recover of
// the goroutine that panicked.
func (f *firstPanic) record(i int, v any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = &PanicError{Index: i, Value: v, Stack: debug.Stack()}
	}
}

// take returns the stored panic, if any, and clears it.
func (f *firstPanic) take() *PanicError {
	f.mu.Lock()
	defer f.mu.Unlock()
	err := f.err
	f.err = nil
	return err
}
