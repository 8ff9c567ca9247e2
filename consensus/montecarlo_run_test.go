package consensus

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestEstimateRhoRun checks that EstimateRho is the summary of its runs
// in run order, bit for bit, and that a run index out of range is refused.
func TestEstimateRhoRun(t *testing.T) {
	g, err := gen.Cycle(6)
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: 0.3}
	m := MonteCarlo{Runs: 5, Steps: 40, Burn: 10, Seed: 3}
	want, err := EstimateRho(th, Case1, 1, m)
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]float64, m.Runs)
	for i := range xs {
		if xs[i], err = EstimateRhoRun(th, Case1, 1, m, i); err != nil {
			t.Fatal(err)
		}
	}
	s := mc.Summarize(xs)
	if math.Float64bits(s.Mean) != math.Float64bits(want.Mean) || math.Float64bits(s.StdErr) != math.Float64bits(want.StdErr) {
		t.Fatalf("runs give %+v, EstimateRho %+v", s, want)
	}
	for _, i := range []int{-1, 5} {
		if _, err := EstimateRhoRun(th, Case1, 1, m, i); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("run %d: err = %v, want ErrInvalid", i, err)
		}
	}
}
