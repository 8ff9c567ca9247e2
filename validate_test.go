package loadlab

import (
	"testing"

	"github.com/loadlab/loadlab/internal/badarg"
)

// TestValidate drives the entry points of the contract package: a nil
// sentinel given to Wrap is a programmer error, a documented panic
// (guards: an error whose Error method dereferenced nil).
func TestValidate(t *testing.T) {
	cs := []badarg.Case{
		badarg.Probe{Func: "Wrap"}.Panics("sentinel = nil", "loadlab: Wrap: sentinel is nil", func() { _ = Wrap(nil, "p", "x") }),
	}
	// Precision: each field outside its domain is named; a cap that no
	// stop can reach, and a cap or batch without a target, are refused
	// rather than ignored.
	p := badarg.Probe{Func: "Precision.Validate", Err: ErrInvalid}
	validate := func(q *Precision) error { return q.Validate() }
	good := Precision{Rel: 0.01, Abs: 0.1, MaxRuns: 100, Batch: 8}
	cs = append(cs, badarg.Fields(p, good, badarg.NonNegative, validate, "Rel", "Abs", "MaxRuns", "Batch")...)
	cs = append(cs,
		p.Fails("MaxRuns = MinOffMode", "Precision.MaxRuns = 10, want 0 (default 10000) or > 10", func() error { return Precision{Rel: 0.1, MaxRuns: 10}.Validate() }),
		p.Fails("MaxRuns without a target", "Precision.MaxRuns = 100 without a target", func() error { return Precision{MaxRuns: 100}.Validate() }),
		p.Fails("Batch without a target", "Precision.Batch = 4 without a target", func() error { return Precision{Batch: 4}.Validate() }),
	)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Invalid":           "a package name and a format: any text",
		"TooLarge":          "a package name and a format: any text",
		"Estimate.Contains": "any x: NaN lies in no interval, and an interval of NaN (N < 2) holds nothing",
		"Stream":            "every seed and path names a stream",
		"Precision.IsZero":  "any value: a question about the fields",
		"Precision.Cap":     "any value: MaxRuns or the default",
		"Precision.Met":     "any estimate: NaN, infinite or N < 2 intervals do not meet a target (TestPrecisionMet)",
	})
}
