package dense

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// naiveMulAdd is C + A B entry by entry, each entry's chain of fused
// multiply-adds in increasing l: the definition MulAdd must match bit
// for bit.
func naiveMulAdd(p, m, k int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	for i := range p {
		for j := range m {
			v := c[i*ldc+j]
			for l := range k {
				v = math.FMA(a[i*ars+l*aks], b[l*ldb+j], v)
			}
			c[i*ldc+j] = v
		}
	}
}

// TestMulAddBits: MulAdd has the bits of the naive chains on shapes that
// leave every kind of edge (rows not a multiple of 4, columns not of 8,
// k across several blocks of mulAddKC), for A read both ways, on one
// goroutine and on several; and it is the product to rounding (against
// gonum's dgemm: relative 1e-12, far above k·ε ≈ 7e-14 for k = 300).
func TestMulAddBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, sh := range [][3]int{{1, 1, 1}, {4, 8, 1}, {5, 13, 3}, {37, 270, 300}, {130, 61, 129}} {
		p, m, k := sh[0], sh[1], sh[2]
		for _, trans := range []bool{false, true} {
			ars, aks, la := k+1, 1, p*(k+1)
			if trans {
				ars, aks, la = 1, p+2, k*(p+2)
			}
			a, b, c := randVec(rng, la), randVec(rng, k*(m+3)), randVec(rng, p*(m+5))
			want := append([]float64(nil), c...)
			naiveMulAdd(p, m, k, a, ars, aks, b, m+3, want, m+5)
			for _, procs := range []int{1, 2, 4} {
				got := append([]float64(nil), c...)
				func() {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
					MulAdd(p, m, k, a, ars, aks, b, m+3, got, m+5)
				}()
				for i := range got {
					require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "%v trans=%v procs=%d entry %d", sh, trans, procs, i)
				}
			}
			if !trans {
				ref := append([]float64(nil), c...)
				blas64.Gemm(blas.NoTrans, blas.NoTrans, 1,
					blas64.General{Rows: p, Cols: k, Stride: k + 1, Data: a},
					blas64.General{Rows: k, Cols: m, Stride: m + 3, Data: b}, 1,
					blas64.General{Rows: p, Cols: m, Stride: m + 5, Data: ref})
				for i := range ref {
					require.InDelta(t, ref[i], want[i], 1e-12*(1+math.Abs(ref[i]))*float64(k), "%v entry %d", sh, i)
				}
			}
		}
	}
}

func randVec(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// BenchmarkMulAdd times a 1000 × 1000 × 1000 product (2·10⁹ flops)
// against gonum's dgemm on the same operands.
func BenchmarkMulAdd(b *testing.B) {
	const n = 1000
	rng := rand.New(rand.NewPCG(1, 1))
	x, y, z := randVec(rng, n*n), randVec(rng, n*n), make([]float64, n*n)
	b.Run("MulAdd", func(b *testing.B) {
		for b.Loop() {
			MulAdd(n, n, n, x, 1, n, y, n, z, n)
		}
	})
	b.Run("gonum", func(b *testing.B) {
		g := func(d []float64) blas64.General { return blas64.General{Rows: n, Cols: n, Stride: n, Data: d} }
		for b.Loop() {
			blas64.Gemm(blas.Trans, blas.NoTrans, 1, g(x), g(y), 1, g(z))
		}
	})
}
