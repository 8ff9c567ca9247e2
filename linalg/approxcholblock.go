package linalg

// solveBlock is solve for a block of k vectors stored row-major in v
// (entry (i, j) at i·k + j): the substitutions walk the factor once for
// all k columns, and each column gets the arithmetic of solve, in the
// same order. It allocates its scratch on the first call with a wider
// block. It is not safe for concurrent use.
func (fa *approxChol) solveBlock(v []float64, k int) {
	if len(fa.yb) < fa.n*k {
		fa.yb = make([]float64, fa.n*k)
	}
	fa.v, fa.kb = v, k
	b0 := fa.split[2]
	fa.gatherBlock(b0, fa.n)
	parallelBlocks(2, fa.fwd)
	fa.forwardBlock(b0, fa.n)
	fa.pivotsBlock(b0, fa.n)
	fa.backwardBlock(b0, fa.n)
	parallelBlocks(2, fa.bwd)
	fa.scatterBlock(b0, fa.n)
	fa.v, fa.kb = nil, 0
}

// gatherBlock copies the rows of v into yb for steps [t0, t1).
func (fa *approxChol) gatherBlock(t0, t1 int) {
	k := fa.kb
	for t, i := range fa.order[t0:t1] {
		copy(fa.yb[(t0+t)*k:(t0+t+1)*k], fa.v[int(i)*k:int(i+1)*k])
	}
}

// scatterBlock copies yb back into the rows of v for steps [t0, t1).
func (fa *approxChol) scatterBlock(t0, t1 int) {
	k := fa.kb
	for t, i := range fa.order[t0:t1] {
		copy(fa.v[int(i)*k:int(i+1)*k], fa.yb[(t0+t)*k:(t0+t+1)*k])
	}
}

// pivotsBlock divides the rows of yb by the pivots for steps [t0, t1).
func (fa *approxChol) pivotsBlock(t0, t1 int) {
	k := fa.kb
	for t := t0; t < t1; t++ {
		y := fa.yb[t*k : t*k+k]
		d := fa.d[t]
		for j := range y {
			if d != 0 {
				y[j] /= d
			} else {
				y[j] = 0
			}
		}
	}
}

// forwardBlock runs the forward substitution of steps [t0, t1) on yb.
func (fa *approxChol) forwardBlock(t0, t1 int) {
	k, y := fa.kb, fa.yb
	var acc [MaxBlockCols]float64
	yt := acc[:k]
	for t := t0; t < t1; t++ {
		lo, hi := fa.colptr[t], fa.colptr[t+1]
		if lo == hi {
			continue
		}
		copy(yt, y[t*k:t*k+k])
		for p := lo; p < hi-1; p++ {
			f, yr := fa.f[p], y[int(fa.row[p])*k:int(fa.row[p])*k+k]
			for j := range yt {
				yr[j] += f * yt[j]
				yt[j] *= 1 - f
			}
		}
		last := y[int(fa.row[hi-1])*k : int(fa.row[hi-1])*k+k]
		for j := range yt {
			last[j] += yt[j]
		}
		copy(y[t*k:t*k+k], yt)
	}
}

// backwardBlock runs the backward substitution of steps [t0, t1) on yb,
// last first.
func (fa *approxChol) backwardBlock(t0, t1 int) {
	k, y := fa.kb, fa.yb
	var acc [MaxBlockCols]float64
	yt := acc[:k]
	for t := t1 - 1; t >= t0; t-- {
		lo, hi := fa.colptr[t], fa.colptr[t+1]
		if lo == hi {
			continue
		}
		last := y[int(fa.row[hi-1])*k : int(fa.row[hi-1])*k+k]
		for j, v := range y[t*k : t*k+k] {
			yt[j] = v + last[j]
		}
		for p := hi - 2; p >= lo; p-- {
			f, yr := fa.f[p], y[int(fa.row[p])*k:int(fa.row[p])*k+k]
			for j := range yt {
				yt[j] = (1-f)*yt[j] + f*yr[j]
			}
		}
		copy(y[t*k:t*k+k], yt)
	}
}
