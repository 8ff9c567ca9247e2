package asm

import (
	"fmt"
	"math"
)

// Dot4 sets out[r] = Σ_{j<m} a[r·lda + j]·x[j] for the four rows
// r = 0..3 that start at a[0], a[lda], a[2·lda] and a[3·lda], with
// m = len(x) a multiple of 8. lda = 0 sums one row four times (the same
// bits in every out[r]). Each sum is that of dotLanes, so a row's sum
// has the same bits whichever rows it is computed with and whether Dot4
// or Dot6 computes it.
//
// Dot4 panics if m is not a multiple of 8, lda < 0 or a is shorter than
// 3·lda + m.
func Dot4(out *[4]float64, a []float64, lda int, x []float64) {
	m := len(x)
	if m%8 != 0 || lda < 0 || (m > 0 && len(a) < 3*lda+m) {
		panic(fmt.Sprintf("asm: Dot4 with len(x) = %d, lda = %d, len(a) = %d: want a multiple of 8, lda ≥ 0 and len(a) ≥ 3·lda + len(x)",
			m, lda, len(a)))
	}
	if m == 0 {
		*out = [4]float64{}
		return
	}
	dot4(out, a, lda, x)
}

// Dot6 sets out[k] = Σ_{j<m} row[j]·xs[k][j] for the six vectors xs[k],
// with m = len(row) a multiple of 8, reading the row once: every out[k]
// has the bits Dot4 gives that row and vector.
//
// Dot6 panics if m is not a multiple of 8 or an xs[k] is shorter than m.
func Dot6(out *[6]float64, row []float64, xs *[6][]float64) {
	m := len(row)
	for k := range xs {
		if m%8 != 0 || len(xs[k]) < m {
			panic(fmt.Sprintf("asm: Dot6 with len(row) = %d, len(xs[%d]) = %d: want a multiple of 8 and len(xs[k]) ≥ len(row)",
				m, k, len(xs[k])))
		}
	}
	if m == 0 {
		*out = [6]float64{}
		return
	}
	dot6(out, row, xs)
}

// dotLanes returns Σ_j row[j]·x[j] for len(x) a multiple of 8, summed as
// the kernels sum it: eight lanes l = j mod 8, each a chain of fused
// multiply-adds acc_l ← row[j]·x[j] + acc_l in increasing j from +0; then
// s_l = acc_l + acc_{l+4} for l < 4 and the result (s₀ + s₁) + (s₂ + s₃).
// The explicit conversions keep the compiler from fusing the additions.
func dotLanes(row, x []float64) float64 {
	var a0, a1, a2, a3, a4, a5, a6, a7 float64
	row = row[:len(x)]
	for j := 0; j+8 <= len(x); j += 8 {
		r, v := row[j:j+8:j+8], x[j:j+8:j+8]
		a0 = math.FMA(r[0], v[0], a0)
		a1 = math.FMA(r[1], v[1], a1)
		a2 = math.FMA(r[2], v[2], a2)
		a3 = math.FMA(r[3], v[3], a3)
		a4 = math.FMA(r[4], v[4], a4)
		a5 = math.FMA(r[5], v[5], a5)
		a6 = math.FMA(r[6], v[6], a6)
		a7 = math.FMA(r[7], v[7], a7)
	}
	s0, s1, s2, s3 := float64(a0+a4), float64(a1+a5), float64(a2+a6), float64(a3+a7)
	return float64(s0+s1) + float64(s2+s3)
}

// dot4Ref is the reference of Dot4 (len(x) > 0).
func dot4Ref(out *[4]float64, a []float64, lda int, x []float64) {
	for r := range out {
		out[r] = dotLanes(a[r*lda:], x)
	}
}

// dot6Ref is the reference of Dot6 (len(row) > 0).
func dot6Ref(out *[6]float64, row []float64, xs *[6][]float64) {
	for k := range out {
		out[k] = dotLanes(row, xs[k][:len(row)])
	}
}
