package linalg

import (
	"math"
)

// blockWidth is the number of right-hand sides blockCG solves together.
// Their values at one node share a cache line (8 × 8 bytes), so one
// random read of a neighbour serves all of them: on a 10⁶-node graph a
// product with 8 vectors costs little more than with one.
const blockWidth = 8

type blockVec = [blockWidth]float64

// blockCG runs blockWidth independent Jacobi-preconditioned conjugate
// gradient solves on 1⊥ in lockstep, with the vectors interleaved
// (entry u·blockWidth + c is node u of column c). Each column has its own
// step sizes and stops on its own; it is the same iteration as
// LaplacianSolver with Jacobi for every column. Reductions are per fixed
// row block, summed in block order, so results do not depend on the
// number of goroutines.
type blockCG struct {
	mat                 *lapMatrix
	inv                 []float64
	n, nb               int
	x, b, r, z, p, q    []float64
	part                []blockVec
	a                   blockVec
	active              [blockWidth]bool
	kind                kernel
	fn                  rangeFunc
	iters               [blockWidth]int
	resid, bnorm, tolAb blockVec
}

// newBlockCG returns a block solver for mat with Jacobi scaling inv (nil:
// the identity) whose right-hand sides are read from b and solutions
// written to x, interleaved vectors of mat.n·blockWidth entries (nil:
// allocated).
func newBlockCG(mat *lapMatrix, inv, x, b []float64) *blockCG {
	n := mat.n
	bc := &blockCG{mat: mat, inv: inv, n: n, nb: numBlocks(n), part: make([]blockVec, numBlocks(n))}
	nw := n * blockWidth
	if x == nil {
		x, b = make([]float64, nw), make([]float64, nw)
	}
	bc.x, bc.b, bc.r, bc.z, bc.p, bc.q = x, b, make([]float64, nw), make([]float64, nw), make([]float64, nw), make([]float64, nw)
	bc.fn = func(lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			r0, r1 := blockRows(blk, bc.n)
			bc.part[blk] = bc.block(r0, r1)
		}
	}
	return bc
}

// mul sets dst = L src for the rows [lo, hi) and returns Σ dot·dst per
// column when dot is non-nil.
func (bc *blockCG) mul(dst, src, dot []float64, lo, hi int) blockVec {
	const B = blockWidth
	m := bc.mat
	var s blockVec
	for u := lo; u < hi; u++ {
		su := (*blockVec)(src[u*B : u*B+B])
		var acc blockVec
		e0, e1 := m.span(u)
		for p := e0; p < e1; p++ {
			v := int(m.adj[p])
			sv := (*blockVec)(src[v*B : v*B+B])
			wp := m.wc
			if m.w != nil {
				wp = m.w[p]
			}
			for c := range B {
				acc[c] += wp * (su[c] - sv[c])
			}
		}
		copy(dst[u*B:u*B+B], acc[:])
		if dot != nil {
			for c := range B {
				s[c] += dot[u*B+c] * acc[c]
			}
		}
	}
	return s
}

// block runs the current kernel on rows [lo, hi).
func (bc *blockCG) block(lo, hi int) blockVec {
	const B = blockWidth
	var s blockVec
	a := &bc.a
	i0, i1 := lo*B, hi*B
	x, b, r, z, p, q := bc.x[i0:i1], bc.b[i0:i1], bc.r[i0:i1], bc.z[i0:i1], bc.p[i0:i1], bc.q[i0:i1]
	switch bc.kind {
	case kMatDot:
		return bc.mul(bc.q, bc.p, bc.p, lo, hi)
	case kResidual:
		bc.mul(bc.q, bc.x, nil, lo, hi)
		for i := range r {
			r[i] = b[i] - q[i]
			s[i%B] += r[i] * r[i]
		}
	case kUpdate:
		for i := range x {
			c := i % B
			x[i] += a[c] * p[i]
			r[i] -= a[c] * q[i]
			s[c] += r[i] * r[i]
		}
	case kJacobi:
		for i := range z {
			z[i] = r[i]
			if bc.inv != nil {
				z[i] *= bc.inv[lo+i/B]
			}
			s[i%B] += z[i]
		}
	case kShift:
		for i := range z {
			z[i] -= a[i%B]
			s[i%B] += r[i] * z[i]
		}
	case kDirect:
		for i := range p {
			p[i] = z[i] + a[i%B]*p[i]
		}
	case kSum:
		for i := range b {
			s[i%B] += b[i]
		}
	case kCenter:
		for i := range b {
			b[i] -= a[i%B]
			s[i%B] += b[i] * b[i]
		}
	}
	return s
}

func (bc *blockCG) run(k kernel, a blockVec) blockVec {
	bc.kind, bc.a = k, a
	parallelBlocks(bc.nb, bc.fn)
	var s blockVec
	for _, v := range bc.part {
		for c := range blockWidth {
			s[c] += v[c]
		}
	}
	return s
}

func scaled(v blockVec, f float64) blockVec {
	for c := range v {
		v[c] *= f
	}
	return v
}

// precondition sets z = P D⁻¹ r and returns r·z per column.
func (bc *blockCG) precondition() blockVec {
	return bc.run(kShift, scaled(bc.run(kJacobi, blockVec{}), 1/float64(bc.n)))
}

// solve solves the blockWidth systems whose right-hand sides are
// interleaved in bc.b, into bc.x, to relative residual tol each, within
// maxIter iterations. It reports per column whether the true residual met
// tol; the iterations and residuals are in bc.iters and bc.resid.
func (bc *blockCG) solve(tol float64, maxIter int) (ok [blockWidth]bool) {
	bn := bc.run(kCenter, scaled(bc.run(kSum, blockVec{}), 1/float64(bc.n)))
	clear(bc.x)
	copy(bc.r, bc.b)
	for c := range blockWidth {
		bc.bnorm[c] = math.Sqrt(bn[c])
		bc.tolAb[c] = tol * bc.bnorm[c]
		bc.active[c] = bc.bnorm[c] > 0
		bc.iters[c] = 0
	}
	rz := bc.precondition()
	copy(bc.p, bc.z)
	for it := 0; it < maxIter && bc.anyActive(); it++ {
		pq := bc.run(kMatDot, blockVec{})
		var alpha blockVec
		for c := range blockWidth {
			if bc.active[c] && pq[c] > 0 && rz[c] > 0 {
				alpha[c] = rz[c] / pq[c]
				bc.iters[c]++
			} else {
				bc.active[c] = false
			}
		}
		rr := bc.run(kUpdate, alpha)
		rzNew := bc.precondition()
		var beta blockVec
		for c := range blockWidth {
			if bc.active[c] && math.Sqrt(rr[c]) <= bc.tolAb[c] {
				bc.active[c] = false
			}
			if bc.active[c] {
				beta[c] = rzNew[c] / rz[c]
			}
		}
		rz = rzNew
		bc.run(kDirect, beta)
	}
	return bc.finish()
}

func (bc *blockCG) anyActive() bool {
	for _, a := range bc.active {
		if a {
			return true
		}
	}
	return false
}

// finish projects x onto 1⊥ per column and checks the true residuals.
func (bc *blockCG) finish() (ok [blockWidth]bool) {
	const B = blockWidth
	var mean blockVec
	for i, v := range bc.x {
		mean[i%B] += v
	}
	for i := range bc.x {
		bc.x[i] -= mean[i%B] / float64(bc.n)
	}
	rr := bc.run(kResidual, blockVec{})
	for c := range B {
		bc.resid[c] = 0
		if bc.bnorm[c] > 0 {
			bc.resid[c] = math.Sqrt(rr[c]) / bc.bnorm[c]
		}
		ok[c] = math.Sqrt(rr[c]) <= bc.tolAb[c] || bc.bnorm[c] == 0
	}
	return ok
}
