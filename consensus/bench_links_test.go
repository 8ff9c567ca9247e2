package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// BenchmarkAddLinks_Regular6_1e6 adds 100 links to the 10⁶-node random
// 6-regular graph, candidates within 2 hops (issue 31's row).
func BenchmarkAddLinks_Regular6_1e6(b *testing.B) {
	benchAddLinks(b, graphtest.BenchRegular6(b))
}

// BenchmarkAddLinks_Regular6_1e5 is the same at 10⁵ nodes.
func BenchmarkAddLinks_Regular6_1e5(b *testing.B) {
	g, err := gen.RandomRegular(100000, 6, rand.NewPCG(6, 6))
	if err != nil {
		b.Fatal(err)
	}
	benchAddLinks(b, g)
}

func benchAddLinks(b *testing.B, g *wgraph.Graph) {
	cands, err := Candidates(g, 2)
	if err != nil {
		b.Fatal(err)
	}
	var res *LinkResult
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = AddLinks(g, cands, 100, nil, rand.NewPCG(9, 9)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	imp := res.Before.Mean - res.After.Mean
	b.ReportMetric(res.After.RelHalfWidth(), "kf-relhw")
	b.ReportMetric(res.Gap/imp, "gap/improvement")
	b.ReportMetric(float64(res.Solves), "solves")
	b.Logf("candidates %d, before %+v, after %+v, improvement %.6g, gap %.6g, lower %.8g, solves %d, rescored %d",
		len(cands), res.Before, res.After, imp, res.Gap, res.Lower, res.Solves, res.Rescored)
}
