package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
)

// clientSums is a Demand that draws the clients' requests of a
// ClientDemand and sums them per server: the aggregate demand of
// SimulateClients, for Simulate alone.
type clientSums struct {
	d      ClientDemand
	server []int
	rc     []float64
}

func (cs *clientSums) Next(k int, r []float64) error {
	if err := cs.d.Next(k, cs.rc); err != nil {
		return err
	}
	clear(r)
	for j, v := range cs.rc {
		r[cs.server[j]] += v
	}
	return nil
}

// BenchmarkSimulateClients_n1e4_c10_steps1000 measures the client layer
// (spec deployed §5): 10⁴ servers on a sparse graph (average degree 6),
// 10 clients each with stationary demand (mean 10, σ = 3), 1000 cycles;
// "simulate" is Simulate alone under the same aggregate demand (the
// clients drawn and summed), the others SimulateClients with each split.
// Run once: -bench SimulateClients -benchtime 1x; cpu-ns/op (the
// process's CPU time, both goroutines) is steadier than ns/op on a
// shared machine.
func BenchmarkSimulateClients_n1e4_c10_steps1000(b *testing.B) {
	const n, per, steps = 10000, 10, 1000
	g := sparseRandom(n, 6, mc.Source(32))
	th := &Throttler{Graph: g, Gamma: 0.05}
	server := make([]int, n*per)
	mean := make([]float64, n*per)
	sigma := make([]float64, n*per)
	for j := range server {
		server[j] = j / per
		mean[j], sigma[j] = 10, 3
	}
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = 80 // below the mean demand of 100: saturated servers
	}
	demand := func() ClientDemand { return &ClientStationary{Mean: mean, Sigma: sigma, Src: rand.NewPCG(1, 2)} }
	b.Run("simulate", func(b *testing.B) {
		benchCPU(b, func() error {
			d := &clientSums{d: demand(), server: server, rc: make([]float64, n*per)}
			_, err := Simulate(th, d, x0, steps, nil)
			return err
		})
	})
	for _, split := range []Split{UniformSplit, WaterFillSplit} {
		b.Run(split.String(), func(b *testing.B) {
			cl := &Clients{Server: server, Split: split}
			benchCPU(b, func() error {
				_, err := SimulateClients(th, cl, demand(), x0, steps, nil)
				return err
			})
		})
	}
}
