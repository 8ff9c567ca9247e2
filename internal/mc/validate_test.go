package mc

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"

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
		badarg.Probe{Func: "ClopperPearson"}.Panics("k > n", "mc: ClopperPearson: want 0 ≤ k ≤ n", func() { ClopperPearson(3, 2, 0.05) }),
		badarg.Probe{Func: "ClopperPearson"}.Panics("k < 0", "mc: ClopperPearson: want 0 ≤ k ≤ n", func() { ClopperPearson(-1, 2, 0.05) }),
		badarg.Probe{Func: "ClopperPearson"}.Panics("a = 1", "0 < a < 1", func() { ClopperPearson(1, 2, 1) }),
		badarg.Probe{Func: "Grid"}.Panics("run = nil", "mc: Grid: run is nil", func() { Grid[int](1, 1, 0, nil) }),
		badarg.Probe{Func: "Binomial"}.Panics("k > n", "mc: Binomial: want 0 ≤ k ≤ n", func() { Binomial(3, 2) }),
		badarg.Probe{Func: "Binomial"}.Panics("k = -1", "mc: Binomial: want 0 ≤ k ≤ n", func() { Binomial(-1, 2) }),
	}
	// Until's arguments come from the entry points, which validate the
	// user's precision and pilots first: anything else is a programmer
	// error.
	one := func(int, int) (int, []float64, error) { return 0, []float64{1}, nil }
	p := Plan{Precision: loadlab.Precision{Rel: 0.1}}
	u := badarg.Probe{Func: "Until"}
	cs = append(cs,
		u.Panics("run = nil", "mc: Until: run is nil", func() { Until[int](1, p, nil) }),
		u.Panics("series = -1", "mc: Until: series = -1", func() { Until(-1, p, one) }),
		u.Panics("zero precision", "mc: Until: Plan.Precision is zero", func() { Until(1, Plan{}, one) }),
		u.Panics("Rel = NaN", "mc: Until: loadlab: Precision.Rel = NaN", func() { Until(1, Plan{Precision: loadlab.Precision{Rel: math.NaN()}}, one) }),
		u.Panics("pilot = 0", "mc: Until: Pilot(0) = 0, want in [1, 10000]", func() { Until(1, Plan{Precision: p.Precision, Pilot: func(int) int { return 0 }}, one) }),
		u.Panics("pilot above the cap", "mc: Until: Pilot(1) = 21", func() {
			Until(2, Plan{Precision: loadlab.Precision{Rel: 0.1, MaxRuns: 20}, Pilot: func(s int) int { return 20 + s }}, one)
		}),
		u.Panics("values change", "mc: Until: run returned 2 values after 1", func() {
			Until(1, p, func(_, r int) (int, []float64, error) { return 0, make([]float64, 1+r%2), nil })
		}),
	)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, map[string]string{
		"Source":         "every seed and path names a stream",
		"Estimate":       "the summary of any sample, as Summarize",
		"Summarize":      "a summary of any sample: fewer than two values give a NaN spread, as documented",
		"SumIndependent": "arithmetic on the caller's estimates: a part with DF < 1 gives a NaN interval, as documented",
	})
}
