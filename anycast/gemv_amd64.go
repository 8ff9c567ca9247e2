//go:build !noasm

package anycast

import "github.com/loadlab/loadlab/internal/simd"

// dot4x8FMA sets out[r] = Σ_{j<m} a[r·lda + j]·x[j] for the four rows
// r = 0..3 starting at a, for m a multiple of 8 (AVX2 with FMA).
//
//go:noescape
func dot4x8FMA(a *float64, lda int, x *float64, m int, out *[4]float64)

// dot1x8x6FMA sets out[k] = Σ_{j<m} row[j]·xs[k][j] for six vectors, m a
// multiple of 8, reading the row once: every out[k] has the bits of
// dot4x8FMA for that row and vector.
//
//go:noescape
func dot1x8x6FMA(row *float64, xs *[6]*float64, m int, out *[6]float64)

// dot3x8x6AVX512 sets out[6r + k] = Σ_{j<m} a[r·lda + j]·xs[k][j] for
// three rows and six vectors, m a multiple of 8 (AVX-512), with the bits
// of dot4x8FMA for every row and vector.
//
//go:noescape
func dot3x8x6AVX512(a *float64, lda int, xs *[6]*float64, m int, out *[18]float64)

// gemvRows sets S_r = Σ_j a[r·n + j]·x[j] for the rows r of a (len(a)/n
// rows of n entries) and places it with out: the AVX2 kernel on blocks of
// 4 rows and 8 columns, the remaining columns in Go (added to the block's
// sums before they are placed). A row left over after the blocks goes through
// the kernel alone (row stride 0: four copies of it), so every row is
// summed by the same operations whatever rows it is computed with. It
// reports false, doing nothing, when the CPU lacks AVX2 or FMA.
func gemvRows(dst, a, x []float64, n int, out rowOut) bool {
	if !simd.FMA || n < 8 {
		return false
	}
	m, rows := n&^7, len(a)/n
	var sums [4]float64
	for r := 0; r < rows; {
		q, lda := 4, n
		if rows-r < 4 {
			q, lda = 1, 0
		}
		dot4x8FMA(&a[r*n], lda, &x[0], m, &sums)
		if m < n {
			for p := range q {
				row := a[(r+p)*n : (r+p+1)*n]
				for j := m; j < n; j++ {
					sums[p] += row[j] * x[j]
				}
			}
		}
		out.putRows(dst, r, sums[:q])
		r += q
	}
	return true
}

// gemvRows6 is gemvRows for six vectors at once, into dst[k] from xs[k],
// for rows of a multiple of 8 entries (Reduced pads its rows), each row
// read once for the six, with the bits gemvRows gives every row and
// vector: three rows at a time in 512-bit registers where the CPU has
// AVX-512 (a remainder row alone, as three copies of itself), otherwise
// row by row (dot1x8x6FMA). It reports false, doing nothing, without
// AVX2 and FMA or for another row length.
func gemvRows6(dst, xs [][]float64, a []float64, n int, out rowOut) bool {
	if !simd.FMA || n < 8 || n%8 != 0 {
		return false
	}
	var ptr [6]*float64
	for k := range ptr {
		ptr[k] = &xs[k][0]
	}
	wide := simd.AVX512 && useAVX512
	var sums [18]float64
	for r, rows := 0, len(a)/n; r < rows; {
		q := 1
		switch {
		case wide && rows-r >= 3:
			q = 3
			dot3x8x6AVX512(&a[r*n], n, &ptr, n, &sums)
		case wide:
			dot3x8x6AVX512(&a[r*n], 0, &ptr, n, &sums)
		default:
			dot1x8x6FMA(&a[r*n], &ptr, n, (*[6]float64)(sums[:6]))
		}
		for p := range q {
			for k := range xs {
				out.put(dst[k], r+p, sums[6*p+k])
			}
		}
		r += q
	}
	return true
}

// compressRow copies the kept entries of chunks chunks of eight entries
// of src to dst (AVX-512; see gemv_amd64.s) and returns their number.
//
//go:noescape
func compressRow(dst, src *float64, keep, store *uint8, chunks int) int

// compressAVX512 reports whether builds copy kept columns with
// compressRow.
func compressAVX512() bool { return simd.AVX512 && useAVX512 }
