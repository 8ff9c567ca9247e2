package consensus

import (
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
)

// BenchmarkDesignWeights_n50_m200 is Problem A on 50 nodes and 200
// candidate links to relative gap 1e-6 (issue target ≤ 10 s).
func BenchmarkDesignWeights_n50_m200(b *testing.B) {
	links := randomProblem(50, 200, mc.Source(30))
	p := WeightProblem{Nodes: 50, Links: links, Gamma: 0.1, Budget: 100}
	for b.Loop() {
		d, err := DesignWeights(p, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(d.Iterations), "iter")
		b.ReportMetric(d.Gap/d.Value, "relgap")
	}
}
