package consensus_test

import (
	"testing"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
)

// BenchmarkExactGammaH2 times the exact sparse path on the US power grid
// (4941 nodes, above spectral.DenseMaxNodes): ρ₂ at γ₀ = 1/d_max (the
// largest weighted degree; stable because λ_n < 2 d_max on a graph that is
// not regular bipartite, and within a factor 2 of 1/λ_n since λ_n ≥ d_max)
// and γ*_H2 with ρ₂ there (spec throttlers.md §4.4 R2, §5.1), σ = 1.
// Target ≤ 2 s (docs/benchmarks.md, table "exact"). The graph is exported
// as exact_power for the SciPy peer (consensus/testdata/scipy_gammah2.py),
// which computes the same three values from the dense eigenvalues.
func BenchmarkExactGammaH2(b *testing.B) {
	b.Run("power", func(b *testing.B) {
		g := datasets.PowerGrid().Graph
		graphtest.WriteForSciPy(b, "exact_power", g, graphtest.BenchRHS(g.Order()))
		var dmax float64
		for u := range g.Order() {
			dmax = max(dmax, g.WeightedDegree(u))
		}
		th := &consensus.Throttler{Graph: g, Gamma: 1 / dmax}
		var rho0, gamma, rho float64
		c0 := cputime.Process()
		for b.Loop() {
			var err error
			if rho0, err = consensus.Rho(th, consensus.Case2, 1); err != nil {
				b.Fatal(err)
			}
			if gamma, rho, err = consensus.GammaH2(g, 1); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
		b.ReportMetric(rho0, "rho2-gamma0")
		b.ReportMetric(gamma, "gamma")
		b.ReportMetric(rho, "rho2")
	})
}
