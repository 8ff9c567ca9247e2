package consensus

import (
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// BenchmarkSimulateNetwork_Regular6_1e6_steps100 is issue 28's target
// for imperfect exchanges (spec deployed §1): on the graph and demand of
// BenchmarkSimulate_Regular6_1e6_steps100 (10⁶ nodes, random 6-regular,
// 100 steps, γ = 0.05), the ideal network ("perfect") and a uniform
// delay τ = 4 with 1 % independent loss ("tau4-loss1pct"), whose time
// should be at most twice the perfect one. The delayed run keeps a ring
// of five measure vectors and reads the delayed one through the same
// blocked gather. The graph is built outside the timer; cpu-ns/op is
// the process CPU time per run.
func BenchmarkSimulateNetwork_Regular6_1e6_steps100(b *testing.B) {
	const n = 1000000
	g, err := gen.RandomRegular(n, 6, mc.Source(34))
	if err != nil {
		b.Fatal(err)
	}
	start := make([]float64, n)
	for i := range start {
		start[i] = 100
	}
	th := &Throttler{Graph: g, Gamma: 0.02}
	for _, c := range []struct {
		name string
		nw   *Network
	}{
		{"perfect", nil},
		{"tau4-loss1pct", &Network{Delay: 4, Loss: 0.01, Src: mc.Source(36)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchCPU(b, func() error {
				d := &RandomWalkDemand{Start: start, Sigma: 1, Src: mc.Source(35)}
				_, err := Simulate(th, d, start, 100, &Settings{Network: c.nw})
				return err
			})
		})
	}
}
