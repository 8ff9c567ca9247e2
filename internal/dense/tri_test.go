package dense

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"
)

// randUpper returns an n×n upper-triangular matrix with diagonal in
// [1, 2) and off-diagonal entries in [−1/n, 1/n), so that it is well
// conditioned (‖T − D‖ < 1) and the kernels' rounding is O(nε).
func randUpper(n int, rnd *rand.Rand) *mat.Dense {
	t := mat.NewDense(n, n, nil)
	for i := range n {
		t.Set(i, i, 1+rnd.Float64())
		for j := i + 1; j < n; j++ {
			t.Set(i, j, (2*rnd.Float64()-1)/float64(n))
		}
	}
	return t
}

func general(d *mat.Dense) blas64.General { return d.RawMatrix() }

// upperEqual compares the upper triangles; the tolerance 100·n·ε covers
// the rounding of sums of n products of numbers of order 1.
func upperEqual(t *testing.T, want, got *mat.Dense, what string) {
	t.Helper()
	n, _ := want.Dims()
	for i := range n {
		for j := i; j < n; j++ {
			require.InDelta(t, want.At(i, j), got.At(i, j), 100*float64(n)*epsTri, "%s n=%d (%d, %d)", what, n, i, j)
		}
	}
}

func TestTriangularKernels(t *testing.T) {
	rnd := rand.New(graphtest.PCG(3))
	for _, n := range []int{1, 2, 5, triBase - 1, triBase, triBase + 1, 97, 130, 301} {
		tm := randUpper(n, rnd)
		k := 1 + rnd.IntN(70)
		b := mat.NewDense(n, k, nil)
		for i := range n {
			for j := range k {
				b.Set(i, j, 2*rnd.Float64()-1)
			}
		}
		// trmmLeft: T·B.
		var want mat.Dense
		want.Mul(tm, b)
		got := mat.DenseCopyOf(b)
		trmmLeft(general(tm), general(got))
		require.True(t, mat.EqualApprox(&want, got, 100*float64(n)*epsTri), "trmmLeft n=%d", n)
		// trmmRight: Bᵀ·T.
		bt := mat.DenseCopyOf(b.T())
		want.Reset()
		want.Mul(bt, tm)
		got = mat.DenseCopyOf(bt)
		trmmRight(general(got), general(tm))
		require.True(t, mat.EqualApprox(&want, got, 100*float64(n)*epsTri), "trmmRight n=%d", n)
		// trinv: against gonum's inverse of the triangular matrix. The
		// strictly lower part must stay untouched, so fill it with a
		// sentinel.
		inv := mat.DenseCopyOf(tm)
		for i := range n {
			for j := range i {
				inv.Set(i, j, 7)
			}
		}
		Trinv(general(inv))
		var ref mat.Dense
		require.NoError(t, ref.Inverse(tm))
		upperEqual(t, &ref, inv, "trinv")
		for i := range n {
			for j := range i {
				require.Equal(t, 7.0, inv.At(i, j), "trinv wrote below the diagonal")
			}
		}
	}
}

// Kernel-level comparison on the Cholesky factor of the dense graph.
func upperFactor2000(b *testing.B) []float64 {
	l, err := graphtest.DenseWeighted(2000, 1).Laplacian()
	if err != nil {
		b.Fatal(err)
	}
	Lift(l, l)
	var f SPDFactor
	if err := f.Factorize(l); err != nil {
		b.Fatal(err)
	}
	return f.U // U, before any inversion
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
		Trinv(blas64.General{Rows: 2000, Cols: 2000, Stride: 2000, Data: w})
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

// epsTri is the float64 machine epsilon, the unit of the triangular
// kernels' error bounds.
const epsTri = 0x1p-52
