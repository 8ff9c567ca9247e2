package loadlab

import (
	"errors"
	"math"
	"testing"
)

func TestWrapped(t *testing.T) {
	err := Invalid("consensus", "Runs = %d, want ≥ 2", 1)
	if !errors.Is(err, ErrInvalid) || errors.Is(err, ErrTooLarge) {
		t.Fatalf("errors.Is wrong for %v", err)
	}
	if got, want := err.Error(), "consensus: Runs = 1, want ≥ 2: invalid argument"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if err := TooLarge("pkg", "n = %d", 1<<40); !errors.Is(err, ErrTooLarge) {
		t.Errorf("TooLarge does not wrap ErrTooLarge")
	}
	if err := Wrap(ErrDisconnected, "pkg", "node 3 unreachable"); !errors.Is(err, ErrDisconnected) {
		t.Errorf("Wrap does not wrap its sentinel")
	}
}

func TestStatus(t *testing.T) {
	if !Success.Converged() || IterationLimit.Converged() {
		t.Error("Converged wrong")
	}
	if Success.String() != "Success" || Status(99).String() != "Status(?)" {
		t.Error("String wrong")
	}
}

func TestEstimate(t *testing.T) {
	e := Estimate{Mean: 10, Lo: 9, Hi: 11, N: 5}
	if !e.Contains(9) || !e.Contains(11) || e.Contains(11.5) {
		t.Error("Contains wrong")
	}
	if e.HalfWidth() != 1 || e.RelHalfWidth() != 0.1 {
		t.Error("half widths wrong")
	}
	if !math.IsInf(Estimate{}.RelHalfWidth(), 1) {
		t.Error("zero mean should give +Inf relative half-width")
	}
	if !math.IsInf(Estimate{N: 5, Lo: -1, Hi: 1}.RelHalfWidth(), 1) {
		t.Error("zero mean with an interval should give +Inf relative half-width")
	}
	// Every observation 0: an exact zero, relative half-width 0 (guards:
	// +Inf, on which a stopping rule never stops).
	if (Estimate{N: 5}).RelHalfWidth() != 0 {
		t.Error("an exact zero should give relative half-width 0")
	}
}
