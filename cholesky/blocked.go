package cholesky

import (
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
		s := neg[:b*r]
		for l := range b {
			for c, v := range u[(i0+l)*ld+i1 : (i0+l)*ld+w] {
				s[l*r+c] = -v
			}
		}
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
			s := neg[:b*r]
			for l := range b {
				for c, v := range u[(i0+l)*ld+i1 : (i0+l)*ld+w] {
					s[l*r+c] = -v
				}
			}
			dense.MulAdd(b, m, r, s, r, 1, x[i1*ldx:], ldx, x[i0*ldx:], ldx)
		}
		blasImpl.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, b, m, 1, u[i0*ld+i0:], ld, x[i0*ldx:], ldx)
	}
}
