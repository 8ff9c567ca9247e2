package mobility

import (
	"testing"

	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/mc"
)

// BenchmarkMesh_Grid50_T3600 samples the largest mesh of spec §8.1
// (2500 routers, one hour) and solves its optimum: the unit of work of
// the scale figure.
func BenchmarkMesh_Grid50_T3600(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		in, _, err := Mesh{Grid: 50}.Sample(mc.Source(1, uint64(i)))
		if err != nil {
			b.Fatal(err)
		}
		competitive.OptimumCost(in)
	}
}

// BenchmarkTargetAware_Grid50_W10 plays Target-Aware(10) on that mesh.
func BenchmarkTargetAware_Grid50_W10(b *testing.B) {
	in, sc, err := Mesh{Grid: 50}.Sample(mc.Source(1))
	if err != nil {
		b.Fatal(err)
	}
	ta := TargetAware(10, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := competitive.RunCost(ta.New(sc, mc.Source(2)), in); err != nil {
			b.Fatal(err)
		}
	}
}
