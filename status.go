package loadlab

// Status says why an iterative method stopped (docs/conventions.md §4).
// Every solver result of the toolkit carries one; the zero value,
// NotTerminated, means the method has not run.
type Status int

const (
	NotTerminated  Status = iota // the method has not run or is still running
	Success                      // the tolerance was met (certified where the method can certify)
	IterationLimit               // stopped at the iteration or step budget
	StepLimit                    // the step size fell below its floor (line search or ODE step)
	Stagnated                    // no further progress is possible in floating point
	Failure                      // a numerical failure (a factorisation or a bracket broke down)
)

var statusNames = [...]string{"NotTerminated", "Success", "IterationLimit", "StepLimit", "Stagnated", "Failure"}

// String returns the name of s.
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return "Status(?)"
	}
	return statusNames[s]
}

// Converged reports whether s is Success.
func (s Status) Converged() bool { return s == Success }
