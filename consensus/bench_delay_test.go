package consensus

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// BenchmarkEstimateH2Delay_Regular6_1e6 estimates ρ₁ and ρ₂ under the
// uniform delay τ = 4 of the 10⁶-node random 6-regular graph to 1 %
// (95 %), at γ = 0.9 a*(4)/12 (12 = 2 d_max ≥ λ_n, so the bounds alone
// certify stability): the issue's target "ρ₂ under delay τ = 4 for a
// 10⁶-node graph to 1 %, ≤ 60 s". 1 op = the stability bracket and
// every probe.
func BenchmarkEstimateH2Delay_Regular6_1e6(b *testing.B) {
	g := graphtest.BenchRegular6(b)
	const tau = 4
	th := &Throttler{Graph: g, Gamma: 0.9 * delayLimit(tau) / 12}
	var res H2Estimate
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = EstimateH2Delay(th, tau, 1, nil, rand.NewPCG(4, 4)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(res.Rho2.RelHalfWidth(), "relhw")
	b.ReportMetric(float64(res.MatVecs), "matvecs")
}

// BenchmarkEstimateGammaH2Delay_Hypercube64 estimates γ*_H2(τ) and ρ₂
// there on the 64-node hypercube at long delays, default settings (1 %):
// the "τ = 200 in a few seconds". Every γ the root search
// examines evaluates R_τ and R'_τ at each probe's Ritz values and
// brackets each pole's term (spec throttlers.md §12.13). 1 op = one
// estimate.
func BenchmarkEstimateGammaH2Delay_Hypercube64(b *testing.B) {
	g := graphtest.Must(gen.Hypercube(6))
	for _, tau := range []int{64, 200} {
		b.Run(fmt.Sprintf("tau%d", tau), func(b *testing.B) {
			var res GammaH2Estimate
			var err error
			c0 := cputime.Process()
			for b.Loop() {
				if res, err = EstimateGammaH2Delay(g, tau, 1, nil, rand.NewPCG(5, 5)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(res.Probes), "probes")
			b.ReportMetric(res.Gamma.HalfWidth()/res.Gamma.Mean, "gamma-relhw")
		})
	}
}
