package solve

import (
	"fmt"

	"github.com/loadlab/loadlab"
)

// Record is the outcome of an iterative method: why it stopped and the
// work it did. Solvers embed it or copy its fields into their result
// (docs/conventions.md §4).
type Record struct {
	Status loadlab.Status
	Iter   int // iterations done
	Evals  int // function evaluations (including line-search trials)
}

// Stop sets the status once: the first reason recorded is the one kept,
// so an inner step that gives up (StepLimit) is not overwritten by the
// loop's exit (IterationLimit). It returns true, so a loop can write
// `if cond && r.Stop(loadlab.Success) { break }`.
func (r *Record) Stop(s loadlab.Status) bool {
	if r.Status == loadlab.NotTerminated {
		r.Status = s
	}
	return true
}

// Err returns nil if the status is Success and otherwise an error
// wrapping loadlab.ErrNotConverged, prefixed by pkg and stating the
// status, the iteration count and the formatted detail, for example
//
//	dual: Primal: IterationLimit after 500 iterations: gap 1e-3 > 1e-9: not converged
//
// A NotTerminated record is reported the same way (a method that did not
// run did not converge).
func (r Record) Err(pkg, format string, args ...any) error {
	if r.Status == loadlab.Success {
		return nil
	}
	msg := fmt.Sprintf("%v after %d iterations", r.Status, r.Iter)
	if format != "" {
		msg += ": " + fmt.Sprintf(format, args...)
	}
	return loadlab.Wrap(loadlab.ErrNotConverged, pkg, "%s", msg)
}
