package cholesky

import (
	"slices"

	"github.com/loadlab/loadlab/internal/dense"
	"gonum.org/v1/gonum/blas"
)

// Blocked triangular solves with the head U of a supernode's panel
// (row-major, stride ld, upper triangle): blocks of blockedNB rows are
// solved by gonum's dtrsm and the rest of the right-hand side is updated
// by dense.MulAdd, whose kernel and parallel rows make the top
// supernodes' solves (w ≈ 2000 on the 1000 × 1000 torus) run on both
// cores at the kernel's speed instead of gonum's one-core dtrsm. Below
// blockedMin columns gonum's dtrsm is called whole.
const blockedNB = 64

var blockedMin = 256 // a variable so that tests can force the blocked path

// solveUT overwrites the w × m block x (stride ldx) with U⁻ᵀ x.
// neg is scratch of at least blockedNB·w values.
func solveUT(w, m int, u []float64, ld int, x []float64, ldx int, neg []float64) {
	if w < blockedMin {
		blasImpl.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, w, m, 1, u, ld, x, ldx)
		return
	}
	for i0 := 0; i0 < w; i0 += blockedNB {
		i1 := min(i0+blockedNB, w)
		b := i1 - i0
		blasImpl.Dtrsm(blas.Left, blas.Upper, blas.Trans, blas.NonUnit, b, m, 1, u[i0*ld+i0:], ld, x[i0*ldx:], ldx)
		if i1 == w {
			break
		}
		r := w - i1 // x[i1:] −= U[i0:i1, i1:]ᵀ x[i0:i1]
		s := negBlock(neg, u, ld, i0, i1, w)
		dense.MulAdd(r, m, b, s, 1, r, x[i0*ldx:], ldx, x[i1*ldx:], ldx)
	}
}

// solveUN overwrites the w × m block x (stride ldx) with U⁻¹ x. neg is
// scratch of at least blockedNB·w values.
func solveUN(w, m int, u []float64, ld int, x []float64, ldx int, neg []float64) {
	if w < blockedMin {
		blasImpl.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, w, m, 1, u, ld, x, ldx)
		return
	}
	for i1 := w; i1 > 0; i1 -= blockedNB {
		i0 := max(i1-blockedNB, 0)
		b := i1 - i0
		if r := w - i1; r > 0 { // x[i0:i1] −= U[i0:i1, i1:] x[i1:]
			s := negBlock(neg, u, ld, i0, i1, w)
			dense.MulAdd(b, m, r, s, r, 1, x[i1*ldx:], ldx, x[i0*ldx:], ldx)
		}
		blasImpl.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, b, m, 1, u[i0*ld+i0:], ld, x[i0*ldx:], ldx)
	}
}

// negBlock copies −U[i0:i1, i1:w] (rows of the head, row-major, stride
// ld) into neg, row-major with stride w − i1, and returns it: the
// off-diagonal block of a blocked solve, negated so that MulAdd's
// addition subtracts it.
func negBlock(neg, u []float64, ld, i0, i1, w int) []float64 {
	r := w - i1
	s := neg[:(i1-i0)*r]
	for l := range i1 - i0 {
		for c, v := range u[(i0+l)*ld+i1 : (i0+l)*ld+w] {
			s[l*r+c] = -v
		}
	}
	return s
}

// scratch returns buf resliced to n elements, grown if its capacity is
// short (its contents are not kept meaningful).
func scratch[E any](buf []E, n int) []E { return slices.Grow(buf[:0], n)[:n] }
