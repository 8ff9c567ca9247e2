package beacon

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/badarg"
)

var inv = loadlab.ErrInvalid

// TestBadInput probes every entry point with bad data (spec §15 and
// docs/conventions.md §1–§3).
func TestBadInput(t *testing.T) {
	good := must(NewCounts(2, 2, []int{0, 1}, []int{0, 1}, []int64{3, 4}))
	newC := badarg.Probe{Func: "NewCounts", Err: inv}
	nc := func(r, p int, rows, cols []int, cnt []int64) func() error {
		return func() error { _, err := NewCounts(r, p, rows, cols, cnt); return err }
	}
	est := badarg.Probe{Func: "EstimateC", Err: inv}
	ec := func(c *Counts, s *Settings) func() error {
		return func() error { _, err := EstimateC(c, s); return err }
	}
	c4 := knownC()
	cs := []badarg.Case{
		newC.Fails("negative count", "n[1][0] = -2", nc(2, 2, []int{0, 1}, []int{0, 0}, []int64{1, -2})),
		newC.Fails("region out of range", "region 2", nc(2, 2, []int{2}, []int{0}, []int64{1})),
		newC.Fails("proxy out of range", "proxy -1", nc(2, 2, []int{0}, []int{-1}, []int64{1})),
		newC.Fails("lengths differ", "len(rows)", nc(2, 2, []int{0}, []int{0, 1}, []int64{1})),
		newC.Fails("no regions", "0 regions", nc(0, 2, nil, nil, nil)),
		newC.Fails("row total overflows", "overflow", nc(1, 2, []int{0, 0}, []int{0, 1}, []int64{math.MaxInt64, 1})),
		est.Fails("region with no beacons", "region 1 has no beacons", ec(must(NewCounts(2, 2, []int{0}, []int{0}, []int64{3})), nil)),
		est.Fails("zero counts only", "region 0 has no beacons", ec(must(NewCounts(1, 2, []int{0}, []int{1}, []int64{0})), nil)),
		est.Fails("below MinCount", "region 0 has 3 beacons", ec(good, &Settings{MinCount: 4})),
		est.Fails("support contradicted", "Settings.Support = 1", ec(must(NewCounts(1, 2, []int{0, 0}, []int{0, 1}, []int64{1, 1})), &Settings{Support: 1})),
		est.Panics("nil counts", "nil", func() { _, _ = EstimateC(nil, nil) }),
		est.Fails("Prior of other size", "Settings.Prior is 4 × 4", ec(good, &Settings{Prior: c4})),
		est.Fails("MinCount without prior", "region 0 has 3 beacons", ec(good, &Settings{MinCount: 4})),
		{Func: "ClopperPearson", Name: "k > n", Panic: true, Text: "0 ≤ k ≤ n", Call: func() error { ClopperPearson(3, 2, 0.05); return nil }},
		{Func: "ClopperPearson", Name: "a = NaN", Panic: true, Text: "0 < a < 1", Call: func() error { ClopperPearson(1, 2, math.NaN()); return nil }},
		{Func: "Draw", Name: "len(beacons)", Err: inv, Text: "len(beacons) = 1", Call: func() error { _, err := Draw(c4, []int64{1}, loadlab.Stream(1)); return err }},
		{Func: "Draw", Name: "beacons[2] < 0", Err: inv, Text: "beacons[2] = -1", Call: func() error { _, err := Draw(c4, []int64{1, 1, -1, 1}, loadlab.Stream(1)); return err }},
		{Func: "Draw", Name: "nil src", Panic: true, Text: "non-nil", Call: func() error { _, err := Draw(c4, []int64{1, 1, 1, 1}, nil); return err }},
		{Func: "Drift", Name: "ε = NaN", Err: inv, Text: "ε = NaN", Call: func() error { _, err := Drift(c4, c4, math.NaN(), 1); return err }},
		{Func: "Drift", Name: "ε = 1.5", Err: inv, Text: "ε = 1.5", Call: func() error { _, err := Drift(c4, c4, 1.5, 1); return err }},
		{Func: "Drift", Name: "days < 0", Err: inv, Text: "days = -1", Call: func() error { _, err := Drift(c4, c4, 0.1, -1); return err }},
		{Func: "Drift", Name: "sizes differ", Err: inv, Text: "C′ is 1×1", Call: func() error {
			_, err := Drift(c4, must(anycast.NewSparseC(1, []int{0}, []int{0}, []float64{1})), 0.1, 1)
			return err
		}},
		{Func: "Drift", Name: "nil c1", Panic: true, Text: "non-nil", Call: func() error { _, err := Drift(c4, nil, 0.1, 1); return err }},
	}
	cs = append(cs, badarg.Fields(badarg.Probe{Func: "Settings.Validate", Err: inv}, Settings{}, badarg.NonNegative,
		func(s *Settings) error { return s.Validate() }, "Alpha", "Support")...)
	cs = append(cs,
		badarg.Case{Func: "Settings.Validate", Name: "Alpha = 1", Err: inv, Text: "Settings.Alpha = 1", Call: func() error { return (&Settings{Alpha: 1}).Validate() }},
		badarg.Case{Func: "Settings.Validate", Name: "MinCount = -1", Err: inv, Text: "Settings.MinCount = -1", Call: func() error { return (&Settings{MinCount: -1}).Validate() }},
		badarg.Case{Func: "Settings.Validate", Name: "Support = -1", Err: inv, Text: "Settings.Support = -1", Call: func() error { return (&Settings{Support: -1}).Validate() }},
		est.Fails("Settings.Alpha = NaN", "Settings.Alpha = NaN", ec(good, &Settings{Alpha: math.NaN()})),
	)
	h := must(EstimateC(good, nil))
	cs = append(cs,
		badarg.Case{Func: "Counts.Row", Name: "j = 2", Panic: true, Call: func() error { good.Row(2); return nil }},
		badarg.Case{Func: "Counts.Total", Name: "j = -1", Panic: true, Call: func() error { good.Total(-1); return nil }},
		badarg.Case{Func: "Counts.At", Name: "i = 2", Panic: true, Text: "proxy index", Call: func() error { good.At(0, 2); return nil }},
		badarg.Case{Func: "CHat.Estimate", Name: "i = 5", Panic: true, Text: "proxy index", Call: func() error { h.Estimate(0, 5); return nil }},
		badarg.Case{Func: "CHat.Matrix", Name: "2 × 3 table", Err: inv, Text: "square", Call: func() error {
			_, err := must(EstimateC(must(NewCounts(1, 3, []int{0}, []int{0}, []int64{1})), nil)).Matrix()
			return err
		}},
		badarg.Case{Func: "Box.Row", Name: "j = 3", Panic: true, Call: func() error { h.Set.Row(3); return nil }},
		badarg.Case{Func: "Box.Contains", Name: "4 × 4 against 2 × 2", Panic: true, Text: "dimensions", Call: func() error { h.Set.Contains(c4, 0); return nil }},
	)
	badarg.Run(t, cs)
	badarg.Coverage(t, ".", cs, nil)
}
