package laplacian

import "github.com/loadlab/loadlab/internal/lapmat"

// acBlockBytes bounds the scratch of one group of columns of solveBlock;
// beyond it the block is substituted in groups of columns, each walking
// the factor once. The substitutions read and write rows of the scratch
// at random, so a smaller group stays in cache, but a group narrower than
// the block pays a strided gather and scatter: on the 1000 × 1000 torus
// groups of one column cost twice the CPU time of one group of 8
// (64 MB), which itself costs about 1.1× eight single solves, while at
// 160 000 nodes one group of 8 costs half the CPU time per column of a
// single solve (docs/benchmarks-log.md). So the bound keeps blocks of up
// to MaxBlockCols columns whole at 10⁶ nodes.
var acBlockBytes = 128 << 20 // a variable so that tests can force groups

// solveBlock is solve for a block of k vectors stored row-major in v
// (entry (i, j) at i·k + j): the substitutions walk the factor once for
// a group of columns (all k when n·k floats fit in acBlockBytes, else
// groups that do), and each column gets the arithmetic of
// solve, in the same order. It allocates its scratch on the first call
// with a wider group. It is not safe for concurrent use.
func (fa *approxChol) solveBlock(v []float64, k int) {
	g := min(k, max(1, acBlockBytes/(8*fa.n)))
	groups := (k + g - 1) / g
	for c := range groups {
		c0, c1 := c*k/groups, (c+1)*k/groups
		fa.solveGroup(v, k, c0, c1)
	}
}

// solveGroup runs the substitutions on the columns [c0, c1) of the block v
// of k columns.
func (fa *approxChol) solveGroup(v []float64, k, c0, c1 int) {
	g := c1 - c0
	if len(fa.yb) < fa.n*g {
		fa.yb = make([]float64, fa.n*g)
	}
	fa.v, fa.kv, fa.c0, fa.kb = v, k, c0, g
	b0 := fa.split[2]
	fa.gatherBlock(b0, fa.n)
	lapmat.ParallelBlocks(2, fa.fwd)
	fa.forwardBlock(b0, fa.n)
	fa.pivotsBlock(b0, fa.n)
	fa.backwardBlock(b0, fa.n)
	lapmat.ParallelBlocks(2, fa.bwd)
	fa.scatterBlock(b0, fa.n)
	fa.v, fa.kb = nil, 0
}

// gatherBlock copies the group's columns of the rows of v into yb for
// steps [t0, t1).
func (fa *approxChol) gatherBlock(t0, t1 int) {
	g, k, c0 := fa.kb, fa.kv, fa.c0
	for t, i := range fa.order[t0:t1] {
		dst, src := fa.yb[(t0+t)*g:(t0+t+1)*g], fa.v[int(i)*k+c0:int(i)*k+c0+g]
		for j := range dst {
			dst[j] = src[j]
		}
	}
}

// scatterBlock copies yb back into the group's columns of the rows of v
// for steps [t0, t1).
func (fa *approxChol) scatterBlock(t0, t1 int) {
	g, k, c0 := fa.kb, fa.kv, fa.c0
	for t, i := range fa.order[t0:t1] {
		dst, src := fa.v[int(i)*k+c0:int(i)*k+c0+g], fa.yb[(t0+t)*g:(t0+t+1)*g]
		for j := range dst {
			dst[j] = src[j]
		}
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
		for j, v := range y[t*k : t*k+k] {
			yt[j] = v
		}
		for p := lo; p < hi-1; p++ {
			f, yr := fa.f[p], y[int(fa.row[p])*k:int(fa.row[p])*k+k]
			for j := range yt {
				yr[j] += f * yt[j]
				yt[j] *= 1 - f
			}
		}
		last := y[int(fa.row[hi-1])*k : int(fa.row[hi-1])*k+k]
		yr := y[t*k : t*k+k]
		for j := range yt {
			last[j] += yt[j]
			yr[j] = yt[j]
		}
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
		for j, v := range yt {
			y[t*k+j] = v
		}
	}
}
