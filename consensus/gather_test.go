package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
)

// TestGatheredUpdate checks that the gathered update of large graphs
// performs the same floating-point operations in the same order as the
// direct loop: bitwise identical limits, over whole and split node
// ranges, on a weighted graph with a hub of 2000 neighbours (more than
// the gather buffer holds, so the one-node fallback runs too).
func TestGatheredUpdate(t *testing.T) {
	const n = 5000
	g := sparseRandom(n, 6, mc.Source(40))
	b := g.Builder()
	for v := 1; v <= 2000; v++ {
		must(b.SetEdge(0, v, 0.75))
	}
	g = b.Build()
	rnd := rand.New(mc.Source(41))
	p := make([]float64, n)
	hi0 := make([]float64, n)
	lo0 := make([]float64, n)
	for i := range p {
		p[i] = rnd.NormFloat64()
		hi0[i] = 100 + rnd.Float64()
		lo0[i] = 1e-15 * rnd.NormFloat64()
	}
	run := func(gather bool, workers int) ([]float64, []float64) {
		f := newFlows(g, 0.05)
		f.gather = gather
		hi := append([]float64(nil), hi0...)
		lo := append([]float64(nil), lo0...)
		for a := range workers {
			f.applyRange(hi, lo, p, a*n/workers, (a+1)*n/workers)
		}
		return hi, lo
	}
	wantHi, wantLo := run(false, 1)
	for _, workers := range []int{1, 3} {
		hi, lo := run(true, workers)
		for i := range hi {
			if hi[i] != wantHi[i] || lo[i] != wantLo[i] {
				t.Fatalf("workers %d: node %d: gathered (%v, %v), direct (%v, %v)", workers, i, hi[i], lo[i], wantHi[i], wantLo[i])
			}
		}
	}
	if newFlows(g, 0.05).gather {
		t.Fatalf("gather on a %d-node graph, want only from %d nodes", n, gatherNodes)
	}
}
