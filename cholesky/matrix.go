package cholesky

import (
	"math"

	"github.com/loadlab/loadlab"
)

// Matrix is a sparse symmetric matrix in compressed sparse row form that
// holds both triangles: row i's column indices are Ind[Ptr[i]:Ptr[i+1]],
// strictly ascending, and Val holds the entries beside them. The pattern
// must be symmetric (A_ij is stored exactly when A_ji is) and so must the
// values. Entries stored as zero are kept in the pattern.
type Matrix struct {
	N   int
	Ptr []int
	Ind []int
	Val []float64
}

// checkPattern returns an error wrapping loadlab.ErrInvalid, naming fn
// and the offending field or entry, unless a's pattern is a well-formed
// symmetric CSR pattern.
func checkPattern(fn string, a *Matrix) error {
	n := a.N
	if n < 0 {
		return loadlab.Invalid("cholesky", "%s: N = %d, want ≥ 0", fn, n)
	}
	if len(a.Ptr) != n+1 {
		return loadlab.Invalid("cholesky", "%s: len(Ptr) = %d, want N+1 = %d", fn, len(a.Ptr), n+1)
	}
	if a.Ptr[0] != 0 || a.Ptr[n] != len(a.Ind) {
		return loadlab.Invalid("cholesky", "%s: Ptr[0] = %d and Ptr[N] = %d, want 0 and len(Ind) = %d", fn, a.Ptr[0], a.Ptr[n], len(a.Ind))
	}
	if len(a.Val) != len(a.Ind) {
		return loadlab.Invalid("cholesky", "%s: len(Val) = %d, want len(Ind) = %d", fn, len(a.Val), len(a.Ind))
	}
	for i := range n {
		lo, hi := a.Ptr[i], a.Ptr[i+1]
		if hi < lo {
			return loadlab.Invalid("cholesky", "%s: Ptr[%d] = %d < Ptr[%d] = %d", fn, i+1, hi, i, lo)
		}
		for p := lo; p < hi; p++ {
			j := a.Ind[p]
			if j < 0 || j >= n {
				return loadlab.Invalid("cholesky", "%s: Ind[%d] = %d (row %d) out of range [0, %d)", fn, p, j, i, n)
			}
			if p > lo && j <= a.Ind[p-1] {
				return loadlab.Invalid("cholesky", "%s: row %d: column indices not strictly ascending at Ind[%d] = %d", fn, i, p, j)
			}
		}
	}
	return checkSymmetricPattern(fn, a)
}

// checkSymmetricPattern checks that every stored (i, j) has a stored
// (j, i), by one merge over rows: row i's entries below the diagonal
// must appear, in order, at the cursors of their columns' rows.
func checkSymmetricPattern(fn string, a *Matrix) error {
	// cur[j] walks row j's entries; entries of row j with column < j are
	// matched, in ascending column order, by rows i < j in ascending i.
	cur := make([]int, a.N)
	copy(cur, a.Ptr[:a.N])
	for i := range a.N {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			j := a.Ind[p]
			if j < i {
				continue
			}
			// (i, j) with j ≥ i: row j's next entry must be (j, i).
			if cur[j] >= a.Ptr[j+1] || a.Ind[cur[j]] != i {
				return loadlab.Invalid("cholesky", "%s: entry (%d, %d) is stored but (%d, %d) is not: the pattern must be symmetric", fn, i, j, j, i)
			}
			cur[j]++
		}
	}
	for j := range a.N {
		if cur[j] != a.Ptr[j+1] && a.Ind[cur[j]] < j {
			i := a.Ind[cur[j]]
			return loadlab.Invalid("cholesky", "%s: entry (%d, %d) is stored but (%d, %d) is not: the pattern must be symmetric", fn, j, i, i, j)
		}
	}
	return nil
}

// checkValues returns an error wrapping loadlab.ErrInvalid unless a's
// values are finite and symmetric; a's pattern must already be checked.
func checkValues(fn string, a *Matrix) error {
	cur := make([]int, a.N)
	copy(cur, a.Ptr[:a.N])
	for i := range a.N {
		for p := a.Ptr[i]; p < a.Ptr[i+1]; p++ {
			j, v := a.Ind[p], a.Val[p]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return loadlab.Invalid("cholesky", "%s: A[%d][%d] = %v, want finite", fn, i, j, v)
			}
			if j < i {
				continue
			}
			if w := a.Val[cur[j]]; w != v {
				return loadlab.Invalid("cholesky", "%s: A[%d][%d] = %v but A[%d][%d] = %v: the matrix must be symmetric", fn, i, j, v, j, i, w)
			}
			cur[j]++
		}
	}
	return nil
}

// samePattern reports whether a and b have identical patterns.
func samePattern(a, b *Matrix) bool {
	if a.N != b.N || len(a.Ind) != len(b.Ind) {
		return false
	}
	for i, p := range a.Ptr {
		if b.Ptr[i] != p {
			return false
		}
	}
	for i, j := range a.Ind {
		if b.Ind[i] != j {
			return false
		}
	}
	return true
}
