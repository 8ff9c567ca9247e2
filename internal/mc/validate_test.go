package mc

import (
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
)

// TestValidate drives the entry points of the package: a nil loop body or
// source is a programmer error, a documented panic naming it (guards: a
// nil dereference inside a worker).
func TestValidate(t *testing.T) {
	cs := []badarg.Case{
		badarg.Probe{Func: "For"}.Panics("fn = nil", "mc: For: fn is nil", func() { For(3, 2, nil) }),
		badarg.Probe{Func: "For"}.Panics("fn = nil, n = 0", "mc: For: fn is nil", func() { For(0, 1, nil) }),
		badarg.Probe{Func: "Seed"}.Panics("src = nil", "mc: Seed: src is nil", func() { Seed(nil) }),
		badarg.Probe{Func: "Rademacher"}.Panics("rng = nil", "", func() { Rademacher(make([]float64, 3), nil) }),
	}
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Source":         "every seed and path names a stream",
		"Estimate":       "the summary of any sample, as Summarize",
		"Summarize":      "a summary of any sample: fewer than two values give a NaN spread, as documented",
		"SumIndependent": "arithmetic on the caller's estimates: a part with DF < 1 gives a NaN interval, as documented",
	})
}
