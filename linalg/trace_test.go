package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
)

// Coverage over many seeds: the 95 % interval of EstimateKirchhoff must
// hold the exact (dense) Kirchhoff index at about its stated rate. With
// 300 seeds the binomial standard deviation of the coverage is 1.3 %;
// we require ≥ 95 % − 3 sd ≈ 91 %. The stopping rule also guarantees the
// requested relative half-width, checked on every run.
func TestEstimateKirchhoffCoverage(t *testing.T) {
	g := sparseWeighted(t, 150, 0.05, 2, 31)
	exact, err := KirchhoffIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	const seeds, relAcc = 300, 0.05
	covered := 0
	for seed := range uint64(seeds) {
		res, err := EstimateKirchhoff(g, &TraceSettings{RelAcc: relAcc}, rand.NewPCG(seed, 77))
		if err != nil {
			t.Fatal(err)
		}
		if res.Estimate.RelHalfWidth() > relAcc || res.Probes != res.Estimate.N {
			t.Fatalf("seed %d: %+v", seed, res)
		}
		if res.Estimate.Contains(exact) {
			covered++
		}
	}
	sd := math.Sqrt(0.95 * 0.05 / seeds)
	if c := float64(covered) / seeds; c < 0.95-3*sd {
		t.Errorf("coverage %.3f, want ≈ 0.95 (≥ %.3f)", c, 0.95-3*sd)
	}
}

// Closed forms (spec §9) on a torus and a hypercube; fixed seeds, so the
// check is deterministic, and the tolerance is the estimate's own 95 %
// interval widened by 1.5 (a miss would be a 3-sigma event).
func TestEstimateKirchhoffClosedForms(t *testing.T) {
	cases := []struct {
		name string
		g    *Graph
		want float64
	}{
		{"torus 24x24", Torus(24, 24), TorusKirchhoff(24, 24)},
		{"hypercube 10", Hypercube(10), HypercubeKirchhoff(10)},
	}
	for _, c := range cases {
		res, err := EstimateKirchhoff(c.g, &TraceSettings{RelAcc: 0.02}, rand.NewPCG(4, 2))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Estimate.Mean-c.want) > 1.5*res.Estimate.HalfWidth() {
			t.Errorf("%s: %v, want %v", c.name, res.Estimate, c.want)
		}
		t.Logf("%s: %d probes, %+v, exact %v", c.name, res.Probes, res.Estimate, c.want)
	}
}

func TestEstimateKirchhoffErrors(t *testing.T) {
	for _, s := range []TraceSettings{{RelAcc: -1}, {RelAcc: math.NaN()}, {RelAcc: 1}, {MinProbes: 1}, {MaxProbes: -1}, {MinProbes: 20, MaxProbes: 10}} {
		if _, err := EstimateKirchhoff(Path(5), &s, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", s, err)
		}
	}
	res, err := EstimateKirchhoff(Torus(10, 10), &TraceSettings{RelAcc: 1e-6, MaxProbes: 12}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || res.Status != loadlab.IterationLimit || res.Probes != 12 || res.Estimate.N != 12 {
		t.Errorf("MaxProbes: %+v, %v", res, err)
	}
}
