package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// denseWeighted returns K_n with independent weights uniform on [0.5, 1.5):
// the dense worst case for the Cholesky-based functions.
func denseWeighted(n int, seed uint64) *Graph {
	rnd := rand.New(rand.NewPCG(seed, 1))
	var p pairs
	for u := range n {
		for v := u + 1; v < n; v++ {
			p.addWeighted(u, v, 0.5+rnd.Float64())
		}
	}
	return p.graph(n)
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
		must(TorusKirchhoff(1000, 1000))
	}
}

func BenchmarkKirchhoffDirectSum_Torus_1000x1000(b *testing.B) {
	// The O(rows·cols) double sum over the two cycle spectra, for
	// comparison with the O(rows) closed form.
	a := must(CycleSpectrum(1000))
	for b.Loop() {
		directProduct(a, a)
	}
}

// The same work with gonum's own triangular inverse (Dtrtri) and
// Cholesky inverse (Dpotri), for comparison with the recursive kernels.
func BenchmarkKirchhoffGonumDtrtri_Dense_2000(b *testing.B) {
	g := denseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		r, err := NewResistance(g)
		if err != nil {
			b.Fatal(err)
		}
		if !(gonum.Implementation{}).Dtrtri(blas.Upper, blas.NonUnit, r.n, r.f.u, r.n) {
			b.Fatal("Dtrtri failed")
		}
	}
}

func BenchmarkResistanceMatrixGonumDpotri_Dense_2000(b *testing.B) {
	g := denseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		r, err := NewResistance(g)
		if err != nil {
			b.Fatal(err)
		}
		if !(gonum.Implementation{}).Dpotri(blas.Upper, r.n, r.f.u, r.n) {
			b.Fatal("Dpotri failed")
		}
	}
}

func BenchmarkNewResistance_Dense_2000(b *testing.B) {
	g := denseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := NewResistance(g); err != nil {
			b.Fatal(err)
		}
	}
}

// Kernel-level comparison on the Cholesky factor of the dense graph.
func upperFactor2000(b *testing.B) []float64 {
	r, err := NewResistance(denseWeighted(2000, 1))
	if err != nil {
		b.Fatal(err)
	}
	return r.f.u // U, before any inversion
}

func BenchmarkLauumGonum_2000(b *testing.B) {
	v := upperFactor2000(b)
	w := make([]float64, len(v))
	b.ResetTimer()
	for b.Loop() {
		copy(w, v)
		gonum.Implementation{}.Dlauum(blas.Upper, 2000, w, 2000)
	}
}

func BenchmarkTrinvRecursive_2000(b *testing.B) {
	v := upperFactor2000(b)
	w := make([]float64, len(v))
	b.ResetTimer()
	for b.Loop() {
		copy(w, v)
		trinv(blas64.General{Rows: 2000, Cols: 2000, Stride: 2000, Data: w})
	}
}

func BenchmarkTrinvGonum_2000(b *testing.B) {
	v := upperFactor2000(b)
	w := make([]float64, len(v))
	b.ResetTimer()
	for b.Loop() {
		copy(w, v)
		gonum.Implementation{}.Dtrtri(blas.Upper, blas.NonUnit, 2000, w, 2000)
	}
}

func BenchmarkAlgebraicConnectivity_ER_800(b *testing.B) {
	g := randomWeighted(b, 800, 0.05, 10, rand.NewPCG(1, 2))
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := AlgebraicConnectivity(g); err != nil {
			b.Fatal(err)
		}
	}
}
