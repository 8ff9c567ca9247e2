//go:build !noasm

package anycast

import "github.com/loadlab/loadlab/internal/simd"

// dot4x8FMA sets out[r] = Σ_{j<m} a[r·lda + j]·x[j] for the four rows
// r = 0..3 starting at a, for m a multiple of 8 (AVX2 with FMA).
//
//go:noescape
func dot4x8FMA(a *float64, lda int, x *float64, m int, out *[4]float64)

// gemvRows sets dst[r] = Σ_j a[r·n + j]·x[j] for the rows of a (len(dst)
// rows of n entries) with the AVX2 kernel on blocks of 4 rows and 8
// columns, the remaining columns and rows in Go. It reports false, doing
// nothing, when the CPU lacks AVX2 or FMA.
func gemvRows(dst, a, x []float64, n int) bool {
	if !simd.FMA || n < 8 {
		return false
	}
	m := n &^ 7
	var out [4]float64
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		dot4x8FMA(&a[r*n], n, &x[0], m, &out)
		for q := 0; q < 4; q++ {
			row := a[(r+q)*n : (r+q+1)*n]
			s := out[q]
			for j := m; j < n; j++ {
				s += row[j] * x[j]
			}
			dst[r+q] = s
		}
	}
	for ; r < len(dst); r++ {
		row := a[r*n : (r+1)*n]
		var s float64
		for j, v := range row {
			s += v * x[j]
		}
		dst[r] = s
	}
	return true
}
