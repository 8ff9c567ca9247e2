//go:build !amd64 || noasm

package anycast

// gemvRows reports false: no assembly kernel on this platform or with
// the noasm tag; LoadOp uses gonum's Ddot per row.
func gemvRows(dst, a, x []float64, n int) bool { return false }
