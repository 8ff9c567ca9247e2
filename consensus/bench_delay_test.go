package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
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
