package spectral_test

import (
	"testing"

	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/spectral"
)

// The 22 963-node Internet AS graph, far above DenseMaxNodes: λ₂ by a
// Lanczos bracket narrowed to 1e-12 with its Fiedler vector, and 40 pair
// resistances by solves (target: each within 10 s).
func BenchmarkAlgebraicConnectivity_InternetAS(b *testing.B) {
	g := datasets.InternetAS().Graph
	c0 := cputime.Process()
	var l2 float64
	for b.Loop() {
		var err error
		if l2, _, err = spectral.AlgebraicConnectivity(g); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(l2, "lambda2")
}

func BenchmarkEffectiveResistance_InternetAS(b *testing.B) {
	g := datasets.InternetAS().Graph
	c0 := cputime.Process()
	for b.Loop() {
		if _, err := spectral.EffectiveResistance(g, 0, g.Order()-1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
}
