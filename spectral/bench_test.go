package spectral

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

func BenchmarkKirchhoffIndex_Dense_2000(b *testing.B) {
	g := graphtest.DenseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := KirchhoffIndex(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResistanceMatrix_Dense_2000(b *testing.B) {
	g := graphtest.DenseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := ResistanceMatrix(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkKirchhoffClosedForm_Torus_1000x1000(b *testing.B) {
	for b.Loop() {
		graphtest.Must(TorusKirchhoff(1000, 1000))
	}
}

func BenchmarkKirchhoffDirectSum_Torus_1000x1000(b *testing.B) {
	// The O(rows·cols) double sum over the two cycle spectra, for
	// comparison with the O(rows) closed form.
	a := graphtest.Must(CycleSpectrum(1000))
	for b.Loop() {
		directProduct(a, a)
	}
}

// The same work with gonum's own triangular inverse (Dtrtri) and
// Cholesky inverse (Dpotri), for comparison with the recursive kernels.
func BenchmarkKirchhoffGonumDtrtri_Dense_2000(b *testing.B) {
	g := graphtest.DenseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		r, err := NewResistance(g)
		if err != nil {
			b.Fatal(err)
		}
		if !(gonum.Implementation{}).Dtrtri(blas.Upper, blas.NonUnit, r.n, r.f.U, r.n) {
			b.Fatal("Dtrtri failed")
		}
	}
}

func BenchmarkResistanceMatrixGonumDpotri_Dense_2000(b *testing.B) {
	g := graphtest.DenseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		r, err := NewResistance(g)
		if err != nil {
			b.Fatal(err)
		}
		if !(gonum.Implementation{}).Dpotri(blas.Upper, r.n, r.f.U, r.n) {
			b.Fatal("Dpotri failed")
		}
	}
}

func BenchmarkNewResistance_Dense_2000(b *testing.B) {
	g := graphtest.DenseWeighted(2000, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, err := NewResistance(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAlgebraicConnectivity_ER_800(b *testing.B) {
	g := graphtest.RandomWeighted(b, 800, 0.05, 10, rand.NewPCG(1, 2))
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := AlgebraicConnectivity(g); err != nil {
			b.Fatal(err)
		}
	}
}
