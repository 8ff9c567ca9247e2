//go:build !amd64 || noasm

package anycast

// gemvRows reports false: no assembly kernel on this platform or with
// the noasm tag; LoadOp uses gonum's Ddot per row.
func gemvRows(dst, a, x []float64, n int) bool { return false }

// gemvAt reports false: see gemvRows.
func gemvAt(dst, xs [][]float64, a []float64, n int, rows []int) bool { return false }
