package estimate

import (
	"math"

	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"
)

// blockBLAS runs the vector kernels of the block operations (gonum's
// assembly Ddot and Daxpy, sequential, so the per-block sums keep their
// fixed order).
var blockBLAS gonum.Implementation

// Block kernels of the Hutch++ estimator (hutchpp.go) on k vectors of
// length n held column after column. Every reduction keeps one partial
// per row block of lapmat.BlockLen rows, added in block order, so the
// results do not depend on the number of goroutines (as in
// internal/lapmat).

// gram returns the len(a)×len(b) matrix aᵀb, row-major. With sym (a and
// b the same block) only the upper triangle is computed and mirrored.
func gram(a, b [][]float64, sym bool) []float64 {
	n, ka, kb := len(a[0]), len(a), len(b)
	nb, kk := lapmat.NumBlocks(n), ka*kb
	part := make([]float64, nb*kk)
	lapmat.ParallelBlocks(nb, func(lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			r0, r1 := lapmat.BlockRows(blk, n)
			p := part[blk*kk : (blk+1)*kk]
			for i := range a {
				ai := a[i][r0:r1]
				j0 := 0
				if sym {
					j0 = i
				}
				for j := j0; j < kb; j++ {
					p[i*kb+j] = blockBLAS.Ddot(len(ai), ai, 1, b[j][r0:r1], 1)
				}
			}
		}
	})
	g := make([]float64, kk)
	for blk := range nb {
		for t, x := range part[blk*kk : (blk+1)*kk] {
			g[t] += x
		}
	}
	if sym {
		for i := range ka {
			for j := i + 1; j < kb; j++ {
				g[j*kb+i] = g[i*kb+j]
			}
		}
	}
	return g
}

// combine overwrites the first c vectors of y with y·m for the
// len(y)×c row-major m, block of rows by block of rows, and returns them.
func combine(y [][]float64, m []float64, c int) [][]float64 {
	n := len(y[0])
	lapmat.ParallelBlocks(lapmat.NumBlocks(n), func(lo, hi int) {
		tmp := make([]float64, c*lapmat.BlockLen)
		for blk := lo; blk < hi; blk++ {
			r0, r1 := lapmat.BlockRows(blk, n)
			rows := r1 - r0
			clear(tmp[:c*rows])
			for i, yi := range y {
				yi = yi[r0:r1]
				for j := range c {
					if a := m[i*c+j]; a != 0 {
						blockBLAS.Daxpy(rows, a, yi, 1, tmp[j*rows:(j+1)*rows], 1)
					}
				}
			}
			for j := range c {
				copy(y[j][r0:r1], tmp[j*rows:(j+1)*rows])
			}
		}
	})
	return y[:c]
}

// orthonormalize projects the vectors of y onto 1⊥ and replaces them by
// an orthonormal basis of their span by passes of SVQB: the eigenvectors
// of the Gram matrix scaled by the inverse square roots of its
// eigenvalues. One pass leaves an orthogonality error of about κ(y)²·ε;
// a second brings it to rounding. Directions whose Gram eigenvalue is
// below 1e-12 of the largest (singular value below 1e-6 of the largest,
// which one pass cannot orthogonalise reliably) are dropped, so the
// result may have fewer vectors. It returns a prefix of y.
func orthonormalize(y [][]float64, passes int) [][]float64 {
	for _, v := range y {
		dense.Center(v)
	}
	for range passes {
		k := len(y)
		if k == 0 {
			return y
		}
		vals, vecs := symEigen(gram(y, y, true), k)
		var keep []int
		for i := k - 1; i >= 0; i-- {
			if vals[i] > 1e-12*vals[k-1] {
				keep = append(keep, i)
			}
		}
		c := len(keep)
		m := make([]float64, k*c)
		for jj, i := range keep {
			s := 1 / math.Sqrt(vals[i])
			for r := range k {
				m[r*c+jj] = vecs.At(r, i) * s
			}
		}
		y = combine(y, m, c)
	}
	return y
}

// ritz replaces the orthonormal q by its Ritz vectors for L with the keep
// smallest Ritz values, using w (at least as long as q) for L q, and
// returns them and their Ritz values, ascending.
func ritz(op *laplacian.Operator, q, w [][]float64, keep int) ([][]float64, []float64) {
	k := len(q)
	w = w[:k]
	for j := range q {
		op.Apply(w[j], q[j])
	}
	h := gram(q, w, false)
	for i := range k {
		for j := i + 1; j < k; j++ {
			a := (h[i*k+j] + h[j*k+i]) / 2
			h[i*k+j], h[j*k+i] = a, a
		}
	}
	vals, vecs := symEigen(h, k)
	keep = min(keep, k)
	m := make([]float64, k*keep)
	for r := range k {
		for j := range keep {
			m[r*keep+j] = vecs.At(r, j)
		}
	}
	return combine(q, m, keep), vals[:keep]
}

// symEigen returns the eigenvalues (ascending) and eigenvectors of the
// symmetric k×k row-major h by SymEigen. It panics if that fails, which
// it does only for non-finite input or an eigensolver that does not
// converge — not for the finite Gram and Rayleigh matrices here.
func symEigen(h []float64, k int) ([]float64, *mat.Dense) {
	vals, vecs, err := spectral.SymEigen(mat.NewSymDense(k, h), true)
	if err != nil {
		panic("estimate: symEigen: " + err.Error())
	}
	return vals, vecs
}
