package consensus

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/largetest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestLargeNodalHypercube20 checks the nodal estimator at 10⁶ nodes
// against a closed form: the hypercube is vertex-transitive, so
// L†_jj = tr L†/n = K_f/n² for every node (spec throttlers.md §9). At the
// default 1 % every node's relative half-width is ≤ 1 %, and the nodes'
// intervals hold the value at about their 95 %: the nodes of one run share
// probes, so the fraction is tested against 0.95 with the slack of a few
// percent rather than a binomial over 10⁶ nodes.
func TestLargeNodalHypercube20(t *testing.T) {
	largetest.Require(t)
	g, err := gen.Hypercube(20)
	if err != nil {
		t.Fatal(err)
	}
	kf, err := spectral.HypercubeKirchhoff(20)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(g.Order())
	want := kf / (n * n)
	start := time.Now()
	d, err := estimate.PinvDiag(g, nil, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	in := 0
	for _, e := range d.Diag {
		if e.Contains(want) {
			in++
		}
	}
	frac := float64(in) / n
	t.Logf("K = %d, %d probes, largest half-width %.3g, coverage %.4f, %v", d.Degree, d.Probes, d.MaxRelHW, frac, time.Since(start))
	if d.MaxRelHW > estimate.DefaultDiagRelAcc || frac < 0.9 || frac > 0.99 {
		t.Errorf("largest half-width %.3g (want ≤ %v), coverage %.4f (want ≈ 0.95)", d.MaxRelHW, estimate.DefaultDiagRelAcc, frac)
	}
}
