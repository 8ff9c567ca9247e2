package asm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMulAdd4MatchesReference: the kernel's block has the reference's
// bits, for A read along rows (ars = 1, the transposed product of the
// supernodal update) and along columns (aks = 1), with leading
// dimensions wider than the block, at offsets into guarded buffers whose
// sentinels must stay untouched; and splitting l into two calls gives
// the bits of one.
func TestMulAdd4MatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kc := range []int{1, 2, 3, 7, 64} {
		for _, nb := range []int{1, 2, 5} {
			for _, trans := range []bool{false, true} {
				for off := range 3 {
					checkMulAdd4(t, rng, kc, nb, trans, off)
				}
			}
		}
	}
}

func checkMulAdd4(t *testing.T, rng *rand.Rand, kc, nb int, trans bool, off int) {
	t.Helper()
	n := 8 * nb
	ars, aks := kc+3, 1
	if trans {
		ars, aks = 1, 4+off
	}
	la := 3*ars + (kc-1)*aks + 1
	ldb, ldc := n+off, n+2
	lb, lc := (kc-1)*ldb+n, 3*ldc+n
	a, abuf := guarded(la, off)
	b, bbuf := guarded(lb, off)
	c, cbuf := guarded(lc, off)
	for _, s := range [][]float64{a, b, c} {
		for i := range s {
			s[i] = rng.NormFloat64()
		}
	}
	want := append([]float64(nil), c...)
	mulAddRef(4, n, kc, a, ars, aks, b, ldb, want, ldc)
	got := append([]float64(nil), c...)
	MulAdd4(kc, nb, a, ars, aks, b, ldb, c, ldc)
	for i := range c {
		require.Equal(t, math.Float64bits(want[i]), math.Float64bits(c[i]), "kc=%d nb=%d trans=%v off=%d entry %d", kc, nb, trans, off, i)
	}
	checkGuards(t, abuf, off, la, "a")
	checkGuards(t, bbuf, off, lb, "b")
	checkGuards(t, cbuf, off, lc, "c")
	if kc > 1 { // the same chains in two calls
		h := kc / 2
		MulAdd4(h, nb, a, ars, aks, b, ldb, got, ldc)
		MulAdd4(kc-h, nb, a[h*aks:], ars, aks, b[h*ldb:], ldb, got, ldc)
		for i := range got {
			require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "split: entry %d", i)
		}
	}
}

// TestMulAddRefIsTheProduct: the reference is C + A B, by hand on a
// 2 × 3 block with kc = 2 (exact in binary), and fused: with
// a = 1 + 2⁻³⁰, b = 1 − 2⁻³⁰ and c = −1 the product's −2⁻⁶⁰ survives,
// which a separate rounding of a·b to 1 would lose.
func TestMulAddRefIsTheProduct(t *testing.T) {
	a := []float64{1, 2, 3, 4} // A = [1 2; 3 4], ars = 2, aks = 1
	b := []float64{1, 0, -1, 0.5, 2, 1}
	c := []float64{1, 1, 1, 0, 0, 0}
	MulAddRef(2, 3, 2, a, 2, 1, b, 3, c, 3)
	assert.Equal(t, []float64{3, 5, 2, 5, 8, 1}, c)
	e := math.Ldexp(1, -30)
	f := []float64{-1}
	MulAddRef(1, 1, 1, []float64{1 + e}, 1, 1, []float64{1 - e}, 1, f, 1)
	assert.Equal(t, -e*e, f[0])
}

// TestMulAddPanics: blocks that do not fit their slices panic.
func TestMulAddPanics(t *testing.T) {
	a, b, c := make([]float64, 40), make([]float64, 40), make([]float64, 40)
	assert.Panics(t, func() { MulAdd4(0, 1, a, 1, 4, b, 8, c, 8) })
	assert.Panics(t, func() { MulAdd4(2, 1, a, 1, 4, b, 8, c, 12) })     // c short: 3·12 + 8 > 40
	assert.Panics(t, func() { MulAdd4(6, 1, a, 1, 8, b, 8, c, 8) })      // a short
	assert.Panics(t, func() { MulAdd4(2, 1, a, -1, 4, b, 8, c, 8) })     // negative stride
	assert.Panics(t, func() { MulAddRef(5, 9, 1, a, 1, 1, b, 8, c, 8) }) // b and c short
	assert.NotPanics(t, func() { MulAddRef(0, 9, 1, nil, 1, 1, nil, 8, nil, 8) })
}
