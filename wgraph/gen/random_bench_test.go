package gen_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/wgraph/gen"
)

func BenchmarkRandomRegular_1e6_d3(b *testing.B) {
	src := rand.NewPCG(1, 2)
	for b.Loop() {
		if _, err := gen.RandomRegular(1_000_000, 3, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomRegular_1e5_d10(b *testing.B) {
	src := rand.NewPCG(1, 2)
	for b.Loop() {
		if _, err := gen.RandomRegular(100_000, 10, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomGeometric_1e6(b *testing.B) {
	// Radius of spec coded-load.md §3.1, r = sqrt(1.25 ln n / n).
	n := 1_000_000
	r := math.Sqrt(1.25 * math.Log(float64(n)) / float64(n))
	src := rand.NewPCG(1, 2)
	for b.Loop() {
		if _, err := gen.RandomGeometric(n, r, false, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkErdosRenyi_1e6_deg10(b *testing.B) {
	n := 1_000_000
	src := rand.NewPCG(1, 2)
	for b.Loop() {
		if _, err := gen.ErdosRenyi(n, 10/float64(n), false, src); err != nil {
			b.Fatal(err)
		}
	}
}
