package loadlab

import (
	"errors"
	"fmt"
)

// The named errors of the contract (docs/conventions.md §1). Packages
// wrap them with the parameter and the value:
//
//	fmt.Errorf("%w: Runs = %d, want ≥ 2", loadlab.ErrInvalid, runs)
//
// A package may define its own named errors for conditions that only it
// knows; a condition that two packages share uses the value here.
var (
	// ErrInvalid: an argument or a settings field is outside its domain
	// (negative, NaN, infinite, out of range, wrong length).
	ErrInvalid = errors.New("invalid argument")

	// ErrTooLarge: a size or count would need more memory or more
	// indices than the machine has; reported before anything is allocated.
	ErrTooLarge = errors.New("size too large")

	// ErrDisconnected: a graph that must be connected is not.
	ErrDisconnected = errors.New("graph is disconnected")

	// ErrUnstable: an iteration or a dynamical system is unstable at the
	// given parameters (for example γλ_n ≥ 2 in an update cycle).
	ErrUnstable = errors.New("unstable")

	// ErrIllConditioned: the problem is too ill conditioned for the
	// result to have correct digits (a factorisation failed, or a value
	// lies within its own error bound of a boundary).
	ErrIllConditioned = errors.New("ill conditioned")

	// ErrNotConverged: an iterative method stopped before meeting its
	// tolerance; the partial result comes with it, and its Status says
	// why it stopped.
	ErrNotConverged = errors.New("not converged")
)

// Invalid returns an error wrapping ErrInvalid whose text is the package
// prefix followed by the formatted message, for example
//
//	loadlab.Invalid("consensus", "Runs = %d, want ≥ 2", runs)
//
// gives "consensus: Runs = 1, want ≥ 2: invalid argument".
func Invalid(pkg, format string, args ...any) error {
	return wrap(ErrInvalid, pkg, format, args...)
}

// TooLarge returns an error wrapping ErrTooLarge, formatted as Invalid.
func TooLarge(pkg, format string, args ...any) error {
	return wrap(ErrTooLarge, pkg, format, args...)
}

// Wrap returns an error wrapping sentinel, formatted as Invalid. It
// panics if sentinel is nil.
func Wrap(sentinel error, pkg, format string, args ...any) error {
	if sentinel == nil {
		panic("loadlab: Wrap: sentinel is nil")
	}
	return wrap(sentinel, pkg, format, args...)
}

func wrap(sentinel error, pkg, format string, args ...any) error {
	return &wrapped{sentinel: sentinel, msg: pkg + ": " + fmt.Sprintf(format, args...)}
}

type wrapped struct {
	sentinel error
	msg      string
}

func (e *wrapped) Error() string { return e.msg + ": " + e.sentinel.Error() }
func (e *wrapped) Unwrap() error { return e.sentinel }
