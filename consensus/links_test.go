package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// bruteLinks returns the least K_f over all k-subsets of cands added to g
// with weight w (each K_f by the dense reference).
func bruteLinks(t *testing.T, g *wgraph.Graph, cands []wgraph.Edge, k int, w float64) float64 {
	t.Helper()
	best := math.Inf(1)
	var rec func(start int, pick []int)
	rec = func(start int, pick []int) {
		if len(pick) == k {
			b := g.Builder()
			for _, i := range pick {
				mustSet(b, cands[i].U, cands[i].V, w)
			}
			kf, err := spectral.KirchhoffIndex(b.Build())
			if err != nil {
				t.Fatal(err)
			}
			best = min(best, kf)
			return
		}
		for i := start; i < len(cands); i++ {
			rec(i+1, append(pick, i))
		}
	}
	rec(0, nil)
	return best
}

func TestAddLinksSmoke(t *testing.T) {
	g, err := gen.RandomConnected(14, 0.25, 1, 1, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	cands = cands[:min(10, len(cands))]
	opt := bruteLinks(t, g, cands, 3, 1)
	for _, m := range []LinkMethod{LinkExact, LinkSketch} {
		res, err := AddLinks(g, cands, 3, &LinkSettings{Method: m}, rand.NewPCG(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		kf, _ := spectral.KirchhoffIndex(res.Graph)
		t.Logf("%v: before %+v after %+v exact %v opt %v lower %v gap %v solves %d", m, res.Before, res.After, kf, opt, res.Lower, res.Gap, res.Solves)
	}
}
