package linalg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// denseWeighted returns K_n with independent weights uniform on [0.5, 1.5):
// the dense worst case for the Cholesky-based functions.
func denseWeighted(n int, seed uint64) *Graph {
	rnd := rand.New(rand.NewPCG(seed, 1))
	g := Complete(n)
	for u := range n {
		for i, v := range g.nbr[u] {
			if u < v {
				w := 0.5 + rnd.Float64()
				g.wt[u][i] = w
				g.wt[v][g.find(v, u)] = w
			}
		}
	}
	return g
}

func BenchmarkKirchhoffIndex_Dense_2000(b *testing.B) {
	g := denseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := KirchhoffIndex(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResistanceMatrix_Dense_2000(b *testing.B) {
	g := denseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ResistanceMatrix(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomRegular_1e6_d3(b *testing.B) {
	src := rand.NewPCG(1, 2)
	for b.Loop() {
		if _, err := RandomRegular(1_000_000, 3, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomRegular_1e5_d10(b *testing.B) {
	src := rand.NewPCG(1, 2)
	for b.Loop() {
		if _, err := RandomRegular(100_000, 10, src); err != nil {
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
		if _, err := RandomGeometric(n, r, false, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkErdosRenyi_1e6_deg10(b *testing.B) {
	n := 1_000_000
	src := rand.NewPCG(1, 2)
	for b.Loop() {
		if _, err := ErdosRenyi(n, 10/float64(n), false, src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKirchhoffClosedForm_Torus_1000x1000(b *testing.B) {
	for b.Loop() {
		TorusKirchhoff(1000, 1000)
	}
}

func BenchmarkKirchhoffDirectSum_Torus_1000x1000(b *testing.B) {
	// The O(rows·cols) double sum over the two cycle spectra, for
	// comparison with the O(rows) closed form.
	a := CycleSpectrum(1000)
	for b.Loop() {
		directProduct(a, a)
	}
}
