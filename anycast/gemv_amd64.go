//go:build !noasm

package anycast

import "github.com/loadlab/loadlab/internal/simd"

// dot4x8FMA sets out[r] = Σ_{j<m} a[r·lda + j]·x[j] for the four rows
// r = 0..3 starting at a, for m a multiple of 8 (AVX2 with FMA).
//
//go:noescape
func dot4x8FMA(a *float64, lda int, x *float64, m int, out *[4]float64)

// dot4x8FMAp is dot4x8FMA for four rows anywhere in memory: out[r] =
// Σ_{j<m} rows[r][j]·x[j], by the same operations.
//
//go:noescape
func dot4x8FMAp(rows *[4]*float64, x *float64, m int, out *[4]float64)

// gemvRows sets dst[r] = Σ_j a[r·n + j]·x[j] for the rows of a (len(dst)
// rows of n entries) with the AVX2 kernel on blocks of 4 rows and 8
// columns, the remaining columns in Go. A row left over after the blocks
// goes through the kernel alone (row stride 0: four copies of it), so
// every row is summed by the same operations whatever range it is
// computed in. It reports false, doing nothing, when the CPU lacks AVX2
// or FMA.
func gemvRows(dst, a, x []float64, n int) bool {
	if !simd.FMA || n < 8 {
		return false
	}
	m := n &^ 7
	var out [4]float64
	for r := 0; r < len(dst); {
		q, lda := 4, n
		if len(dst)-r < 4 {
			q, lda = 1, 0
		}
		dot4x8FMA(&a[r*n], lda, &x[0], m, &out)
		for p := range q {
			row := a[(r+p)*n : (r+p+1)*n]
			s := out[p]
			for j := m; j < n; j++ {
				s += row[j] * x[j]
			}
			dst[r+p] = s
		}
		r += q
	}
	return true
}

// gemvAt sets dst[k][i] = Σ_j a[i·n + j]·xs[k][j] for every row i in rows
// and every k: four rows at a time through the kernel, each group read
// from memory once for all k (the last group padded with copies of its
// last row), the remaining columns in Go, so every row has the bits
// gemvRows gives it. It reports false, doing nothing, when the CPU lacks
// AVX2 or FMA.
func gemvAt(dst, xs [][]float64, a []float64, n int, rows []int) bool {
	if !simd.FMA || n < 8 {
		return false
	}
	m := n &^ 7
	var out [4]float64
	var ptr [4]*float64
	for r := 0; r < len(rows); r += 4 {
		q := min(4, len(rows)-r)
		for p := range ptr {
			ptr[p] = &a[rows[r+min(p, q-1)]*n]
		}
		for k, x := range xs {
			dot4x8FMAp(&ptr, &x[0], m, &out)
			for p := range q {
				i := rows[r+p]
				row := a[i*n : (i+1)*n]
				s := out[p]
				for j := m; j < n; j++ {
					s += row[j] * x[j]
				}
				dst[k][i] = s
			}
		}
	}
	return true
}
