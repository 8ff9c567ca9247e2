package estimate

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/cputime"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/largetest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// benchKirchhoff estimates K_f to 1 % (95 %) and reports the relative
// error against the closed form.
func benchKirchhoff(b *testing.B, name string) {
	g, kf := kirchhoffCase(b, name)
	var res TraceResult
	var err error
	c0 := cputime.Process()
	for b.Loop() {
		if res, err = Kirchhoff(g, nil, rand.NewPCG(5, 5)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cputime.Process()-c0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(res.Probes), "probes")
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(float64(res.Solves), "solves")
	b.ReportMetric(res.Estimate.RelHalfWidth(), "relhw")
	b.ReportMetric(math.Abs(res.Estimate.Mean/kf-1), "relerr")
}

// Closed-form targets (10⁶ nodes each): K_f and ρ₂(γ*_H2)
// of the 1000×1000 torus (the hard case: the smallest eigenvalues
// dominate, so Hutchinson needs many probes) and of the 2²⁰-node
// hypercube.
func BenchmarkKirchhoff_Torus1000(b *testing.B)   { benchKirchhoff(b, "Torus1000") }
func BenchmarkKirchhoff_Hypercube20(b *testing.B) { benchKirchhoff(b, "Hypercube20") }

// BenchmarkKirchhoff_Torus3163 is the 3163 × 3163 torus (10⁷ nodes; about
// 10 GB and minutes on 2 cores), only with LOADLAB_LARGE=1.
func BenchmarkKirchhoff_Torus3163(b *testing.B) {
	largetest.Require(b)
	benchKirchhoff(b, "Torus3163")
}

// kirchhoffCase returns the 1000×1000 or 3163×3163 torus or the 2²⁰-node hypercube
// with its closed-form Kirchhoff index (spec throttlers.md §9).
func kirchhoffCase(b *testing.B, name string) (*wgraph.Graph, float64) {
	b.Helper()
	switch name {
	case "Torus1000":
		kf, err := spectral.TorusKirchhoff(1000, 1000)
		if err != nil {
			b.Fatal(err)
		}
		return graphtest.BenchTorus1000(b), kf
	case "Torus3163":
		return graphtest.Must(gen.Torus(3163, 3163)), graphtest.Must(spectral.TorusKirchhoff(3163, 3163))
	}
	g, err := gen.Hypercube(20)
	if err != nil {
		b.Fatal(err)
	}
	kf, err := spectral.HypercubeKirchhoff(20)
	if err != nil {
		b.Fatal(err)
	}
	return g, kf
}
