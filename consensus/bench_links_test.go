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
	benchAddLinks(b, benchRegular6e5(b))
}

// benchRegular6e5 is the 10⁵-node random 6-regular graph of the link
// benchmarks.
func benchRegular6e5(b *testing.B) *wgraph.Graph {
	g, err := gen.RandomRegular(100000, 6, rand.NewPCG(6, 6))
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// runLinkBench adds k links to g from the candidates within 2 hops with
// the settings, timing AddLinks, and reports its CPU seconds, the
// answer's relative half-width (as relhw), the gap over the improvement
// and the solves.
func runLinkBench(b *testing.B, g *wgraph.Graph, k int, set *LinkSettings, relhw string) (*LinkResult, []wgraph.Edge) {
	cands, err := Candidates(g, 2)
	if err != nil {
		b.Fatal(err)
	}
	var res *LinkResult
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = AddLinks(g, cands, k, set, rand.NewPCG(9, 9)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	imp := res.Before.Mean - res.After.Mean
	b.ReportMetric(res.After.RelHalfWidth(), relhw)
	b.ReportMetric(res.Gap/imp, "gap/improvement")
	b.ReportMetric(float64(res.Solves), "solves")
	return res, cands
}

func benchAddLinks(b *testing.B, g *wgraph.Graph) {
	res, cands := runLinkBench(b, g, 100, nil, "kf-relhw")
	imp := res.Before.Mean - res.After.Mean
	b.Logf("candidates %d, before %+v, after %+v, improvement %.6g, gap %.6g, lower %.8g, solves %d, rescored %d",
		len(cands), res.Before, res.After, imp, res.Gap, res.Lower, res.Solves, res.Rescored)
}

// BenchmarkAddLinksRho2_Regular6_1e5 adds 20 links to the 10⁵-node
// random 6-regular graph, candidates within 2 hops, minimising ρ₂ at
// γ = 0.1 (issue 31, the sketch path of spec §13.16).
func BenchmarkAddLinksRho2_Regular6_1e5(b *testing.B) {
	res, cands := runLinkBench(b, benchRegular6e5(b), 20, &LinkSettings{Objective: LinkRho2, Gamma: 0.1}, "rho2-relhw")
	b.ReportMetric(float64(res.ShiftedSolves), "shifted-solves")
	b.Logf("candidates %d, links %d, before %+v, after %+v, gains %.6g, gap %.6g, lower %.8g, solves %d, shifted %d, refused %d, rescored %d, confidence %v",
		len(cands), len(res.Steps), res.Before, res.After, sumGains(res), res.Gap, res.Lower, res.Solves, res.ShiftedSolves, res.Refused, res.Rescored, res.Confidence)
}

// BenchmarkAddLinksRho2_Regular6_1e6 is the same at 10⁶ nodes (1.5·10⁷
// candidates).
func BenchmarkAddLinksRho2_Regular6_1e6(b *testing.B) {
	res, cands := runLinkBench(b, graphtest.BenchRegular6(b), 20, &LinkSettings{Objective: LinkRho2, Gamma: 0.1}, "rho2-relhw")
	b.ReportMetric(float64(res.ShiftedSolves), "shifted-solves")
	b.Logf("candidates %d, links %d, before %+v, after %+v, gains %.6g, gap %.6g, lower %.8g, solves %d, shifted %d, refused %d, rescored %d, confidence %v, control variate %d",
		len(cands), len(res.Steps), res.Before, res.After, sumGains(res), res.Gap, res.Lower, res.Solves, res.ShiftedSolves, res.Refused, res.Rescored, res.Confidence, res.CertDepth)
}

func sumGains(res *LinkResult) float64 {
	s := 0.0
	for _, st := range res.Steps {
		s += st.Gain.Mean
	}
	return s
}

// BenchmarkAddLinksRho2Star_Regular6_1e5 adds 10 links to the 10⁵-node
// random 6-regular graph, candidates within 2 hops, minimising ρ₂ at γ*
// re-tuned after every link (issue 31, the sketch path of spec §13.17).
func BenchmarkAddLinksRho2Star_Regular6_1e5(b *testing.B) {
	res, cands := runLinkBench(b, benchRegular6e5(b), 10, &LinkSettings{Objective: LinkRho2Star}, "rho2-relhw")
	imp := res.Before.Mean - res.After.Mean
	b.ReportMetric(float64(res.ShiftedSolves), "shifted-solves")
	b.Logf("candidates %d, links %d, before %+v, after %+v at γ %.6g, γ* %+v, gains %.6g, improvement %.6g, gap %.6g, lower %.8g, solves %d, shifted %d, refused %d, rescored %d, confidence %v",
		len(cands), len(res.Steps), res.Before, res.After, res.AfterGamma, res.GammaStar, sumGains(res), imp, res.Gap, res.Lower, res.Solves, res.ShiftedSolves, res.Refused, res.Rescored, res.Confidence)
	for _, s := range res.Steps {
		b.Logf("  %v at γ %.6g: gain %+v", s.Link, s.Gamma, s.Gain)
	}
}
