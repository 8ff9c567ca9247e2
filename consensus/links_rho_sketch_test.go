package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestAddLinksRho2SketchProbe is a development probe.
func TestAddLinksRho2SketchProbe(t *testing.T) {
	g, err := gen.RandomRegular(300, 4, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	gs, _ := gammaStar(g)
	for _, gamma := range []float64{0.1, 0.9 * gs} {
		ex, err := AddLinks(g, cands, 5, &LinkSettings{Objective: LinkRho2, Gamma: gamma, Method: LinkExact}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sk, err := AddLinks(g, cands, 5, &LinkSettings{Objective: LinkRho2, Gamma: gamma, Method: LinkSketch}, rand.NewPCG(1, 2))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("γ %v: exact before %v after %v lower %v", gamma, ex.Before.Mean, ex.After.Mean, ex.Lower)
		t.Logf("sketch before %+v after %+v lower %v conf %v refused %d shifted %d solves %d true %v", sk.Before, sk.After, sk.Lower, sk.Confidence, sk.Refused, sk.ShiftedSolves, sk.Solves, rhoAt(t, sk.Graph, gamma))
		for i := range ex.Steps {
			t.Logf("  %v %v | %v %v", ex.Steps[i].Link, ex.Steps[i].Gain.Mean, sk.Steps[i].Link, sk.Steps[i].Gain)
		}
	}
	_ = math.Inf
	_ = wgraph.Edge{}
}
