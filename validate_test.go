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
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Invalid":           "a package name and a format: any text",
		"TooLarge":          "a package name and a format: any text",
		"Estimate.Contains": "any x: NaN lies in no interval, and an interval of NaN (N < 2) holds nothing",
		"Stream":            "every seed and path names a stream",
	})
}
