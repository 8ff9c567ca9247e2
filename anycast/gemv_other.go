//go:build !amd64 || noasm

package anycast

// gemvRows reports false: no assembly kernel on this platform or with
// the noasm tag; LoadOp uses gonum's Ddot per row.
func gemvRows(dst, a, x []float64, n int, out rowOut) bool { return false }

// gemvRows6 reports false: see gemvRows.
func gemvRows6(dst, xs [][]float64, a []float64, n int, out rowOut) bool { return false }

// compressAVX512 reports false: see gemvRows.
func compressAVX512() bool { return false }

// compressRow is never called without the assembly kernel.
func compressRow(dst, src *float64, keep, store *uint8, chunks int) int {
	panic("anycast: compressRow without AVX-512")
}
