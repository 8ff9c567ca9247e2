package laplacian

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lapmat"
	"gonum.org/v1/gonum/mat"
)

// blockWork is the workspace of SolveBlock: k right-hand sides iterated
// together, each block vector stored row-major (entry (u, j) at u·k + j,
// u in the solver matrix's internal order), so that a product's read of
// neighbour v brings v's k values in one or two cache lines.
//
// Every kernel does, column by column, exactly the arithmetic of the
// single-vector kernels of pcgWork in the same order (rows ascending
// within a block of lapmat.BlockLen rows, block partial sums added in
// block order), so each column's iterates are those of Solve on that
// column.
// Kernels other than the product touch only the columns in sel: a column
// that has converged keeps its x, r and p.
type blockWork struct {
	s                *Solver
	n, k, nb         int
	kcap             int          // the widest block the storage holds
	buf              [6][]float64 // storage of x, b, r, z, p, q
	x, b, r, z, p, q []float64
	part             []float64 // nb × k × 4 block partial sums
	tot              []float64 // k × 4 sums over all blocks
	sel              []int     // the columns a kernel updates
	alpha, beta      []float64 // per column: the step, the direction's β
	mu, shift        []float64 // per column: Σ z / n; the constant a centring kernel subtracts
	cs               []blockCol
	act, cont, cand  []int // scratch column lists of one iteration
	all              []int
	kind             blockKernel
	useAC            bool
	inv              []float64
	fn               lapmat.RangeFunc
}

// blockCol is the conjugate-gradient state of one column.
type blockCol struct {
	res      SolveResult
	tol      float64 // absolute residual to reach
	bnorm    float64
	rz       float64
	sums     [4]float64 // r·r, Σ z, r·z, Σ r of the last update or preconditioning
	limit    int        // iteration count at which the column stops
	restarts int
	active   bool
	restart  bool // restarts from its true residual this iteration
}

// blockKernel names the vector operation of a parallel block call.
type blockKernel int

const (
	bkMatDot   blockKernel = iota // Q = L P (every column); Σ p·q
	bkUpdate                      // x += α p; r −= α q; Σ r·r; z = D⁻¹ r and the pcgSums (Jacobi)
	bkPrecond                     // z = D⁻¹ r (Jacobi, or z already set); Σ z, r·z, Σ r
	bkResidual                    // Q = L X; r = b − q; Σ r·r
	bkDirect                      // p = (z − μ) + β p
	bkSumB                        // Σ b
	bkCenterB                     // b −= shift; Σ b·b
	bkSumX                        // Σ x
	bkCenterX                     // x −= shift
)

func newBlockWork(s *Solver, k int) *blockWork {
	n := s.mat.N
	w := &blockWork{s: s, n: n, kcap: k, nb: lapmat.NumBlocks(n), inv: s.w.inv}
	for i := range w.buf {
		w.buf[i] = lapmat.HugeFloats(n * k)
	}
	w.part, w.tot = make([]float64, w.nb*k*4), make([]float64, k*4)
	w.alpha, w.beta, w.mu, w.shift = make([]float64, k), make([]float64, k), make([]float64, k), make([]float64, k)
	w.cs = make([]blockCol, k)
	w.act, w.cont, w.cand, w.all = make([]int, 0, k), make([]int, 0, k), make([]int, 0, k), make([]int, 0, k)
	w.fn = func(lo, hi int) {
		for blk := lo; blk < hi; blk++ {
			r0, r1 := lapmat.BlockRows(blk, w.n)
			sums := w.part[blk*4*w.k : (blk+1)*4*w.k]
			clear(sums)
			w.block(r0, r1, sums)
		}
	}
	w.setWidth(k)
	return w
}

// setWidth makes the workspace hold blocks of k ≤ kcap columns: the
// vectors are re-sliced from the same storage (every solve initialises
// what it reads).
func (w *blockWork) setWidth(k int) {
	nk := w.n * k
	w.k = k
	w.x, w.b, w.r, w.z, w.p, w.q = w.buf[0][:nk], w.buf[1][:nk], w.buf[2][:nk], w.buf[3][:nk], w.buf[4][:nk], w.buf[5][:nk]
}

// gather copies the columns cols of b into w.b, in the internal order.
func (w *blockWork) gather(b *mat.Dense, cols []int) {
	raw := b.RawMatrix()
	for i, u := range w.s.mat.Perm {
		row := raw.Data[int(u)*raw.Stride:]
		dst := w.b[i*w.k : i*w.k+w.k]
		for c, j := range cols {
			dst[c] = row[j]
		}
	}
}

// scatter copies w.x into the columns cols of dst, in the original order.
func (w *blockWork) scatter(dst *mat.Dense, cols []int) {
	raw := dst.RawMatrix()
	for i, u := range w.s.mat.Perm {
		row := raw.Data[int(u)*raw.Stride:]
		src := w.x[i*w.k : i*w.k+w.k]
		for c, j := range cols {
			row[j] = src[c]
		}
	}
}

// identity reports whether the preconditioner is the identity: z is then r.
func (w *blockWork) identity() bool { return !w.useAC && w.inv == nil }

// block runs the current kernel on rows [lo, hi), adding into sums
// (column j's four sums at sums[4j:4j+4]).
func (w *blockWork) block(lo, hi int, sums []float64) {
	k := w.k
	switch w.kind {
	case bkMatDot:
		w.s.mat.RowsBlock(w.q, w.p, w.p, k, lo, hi, sums)
	case bkUpdate:
		w.updateRows(lo, hi, sums)
		if !w.useAC {
			w.precondRows(lo, hi, sums)
		}
	case bkPrecond:
		w.precondRows(lo, hi, sums)
	case bkResidual:
		w.s.mat.RowsBlock(w.q, w.x, nil, k, lo, hi, sums)
		w.each(lo, hi, func(i, j int) {
			w.r[i] = w.b[i] - w.q[i]
			sums[4*j] += w.r[i] * w.r[i]
		})
	case bkDirect:
		w.directRows(lo, hi)
	case bkSumB:
		w.each(lo, hi, func(i, j int) { sums[4*j] += w.b[i] })
	case bkCenterB:
		w.each(lo, hi, func(i, j int) {
			w.b[i] -= w.shift[j]
			sums[4*j] += w.b[i] * w.b[i]
		})
	case bkSumX:
		w.each(lo, hi, func(i, j int) { sums[4*j] += w.x[i] })
	case bkCenterX:
		w.each(lo, hi, func(i, j int) { w.x[i] -= w.shift[j] })
	}
}

// each calls f(u·k + j, j) for the rows [lo, hi) and the columns in sel,
// rows ascending. It serves the kernels outside the iteration's loop.
func (w *blockWork) each(lo, hi int, f func(i, j int)) {
	for u := lo; u < hi; u++ {
		for _, j := range w.sel {
			f(u*w.k+j, j)
		}
	}
}

// updateRows sets x += α p, r −= α q for the selected columns of rows
// [lo, hi) and adds Σ r·r.
func (w *blockWork) updateRows(lo, hi int, sums []float64) {
	k, sel, alpha := w.k, w.sel, w.alpha
	for u := lo; u < hi; u++ {
		x, r, p, q := w.x[u*k:u*k+k], w.r[u*k:u*k+k], w.p[u*k:u*k+k], w.q[u*k:u*k+k]
		for _, j := range sel {
			a := alpha[j]
			x[j] += a * p[j]
			r[j] -= a * q[j]
			sums[4*j] += r[j] * r[j]
		}
	}
}

// precondRows sets z = D⁻¹ r (Jacobi with unequal degrees) for the
// selected columns of rows [lo, hi) and adds Σ z, r·z and Σ r.
func (w *blockWork) precondRows(lo, hi int, sums []float64) {
	k, sel := w.k, w.sel
	jacobi := !w.useAC && w.inv != nil
	for u := lo; u < hi; u++ {
		r, z := w.r[u*k:u*k+k], w.z[u*k:u*k+k]
		if w.identity() {
			z = r
		}
		for _, j := range sel {
			if jacobi {
				z[j] = r[j] * w.inv[u]
			}
			sums[4*j+1] += z[j]
			sums[4*j+2] += r[j] * z[j]
			sums[4*j+3] += r[j]
		}
	}
}

// directRows sets p = (z − μ) + β p for the selected columns of rows
// [lo, hi), or p = z − μ where β = 0 (a restart: p may hold NaN).
func (w *blockWork) directRows(lo, hi int) {
	k, sel := w.k, w.sel
	for u := lo; u < hi; u++ {
		z, p := w.z[u*k:u*k+k], w.p[u*k:u*k+k]
		if w.identity() {
			z = w.r[u*k : u*k+k]
		}
		for _, j := range sel {
			if bt := w.beta[j]; bt != 0 {
				p[j] = (z[j] - w.mu[j]) + bt*p[j]
			} else {
				p[j] = z[j] - w.mu[j]
			}
		}
	}
}

// run performs kernel kind on the columns cols (every column for the
// products) and sets w.tot to the block partial sums of those columns,
// added in block order.
func (w *blockWork) run(kind blockKernel, cols []int) {
	w.kind, w.sel = kind, cols
	lapmat.ParallelBlocks(w.nb, w.fn)
	for _, j := range cols {
		t := w.tot[4*j : 4*j+4]
		clear(t)
		for blk := range w.nb {
			p := w.part[(blk*w.k+j)*4:]
			for i := range t {
				t[i] += p[i]
			}
		}
	}
}

// allCols returns the list 0, …, k−1 in w.all.
func (w *blockWork) allCols() []int {
	w.all = w.all[:0]
	for j := range w.k {
		w.all = append(w.all, j)
	}
	return w.all
}

// solve solves for the k right-hand sides in w.b into w.x (see
// SolveBlock), switching preconditioners as Settings.Preconditioner says.
func (w *blockWork) solve() ([]SolveResult, error) {
	set := w.s.set
	cols := w.centre()
	clear(w.x)
	copy(w.r, w.b) // x = 0
	if w.s.ac == nil {
		budget := set.MaxIter
		if set.Preconditioner == Auto {
			budget = min(budget, w.s.auto.autoJacobiBudget(set.Tol))
		}
		w.useAC = false
		if budget > 0 {
			w.iterate(cols, budget)
			if set.Preconditioner == Jacobi {
				return w.finish(), nil
			}
			cols = w.unconverged(cols)
			if len(cols) == 0 {
				return w.finish(), nil
			}
		}
		if err := w.s.factor(); err != nil {
			return w.finish(), err
		}
		if budget > 0 {
			w.run(bkResidual, cols)
		}
	}
	w.useAC = true
	w.iterate(cols, set.MaxIter)
	return w.finish(), nil
}

// centre projects every column of b onto 1⊥, sets the columns' norms and
// tolerances, and returns the non-zero columns (a zero column is solved
// by x = 0).
func (w *blockWork) centre() []int {
	all := w.allCols()
	w.run(bkSumB, all)
	for j := range w.k {
		w.shift[j] = w.tot[4*j] / float64(w.n)
	}
	w.run(bkCenterB, all)
	cols := w.cand[:0]
	for j := range w.k {
		c := &w.cs[j]
		*c = blockCol{bnorm: math.Sqrt(w.tot[4*j])}
		c.tol = w.s.set.Tol * c.bnorm
		c.res = SolveResult{Status: loadlab.Success}
		if c.bnorm > 0 {
			cols = append(cols, j)
		}
	}
	return append([]int(nil), cols...)
}

// unconverged returns the columns of cols that stopped short of the
// tolerance with iterations left, for the switch to the factor.
func (w *blockWork) unconverged(cols []int) []int {
	var out []int
	for _, j := range cols {
		if c := w.cs[j]; c.res.Status != loadlab.Success && c.res.Iterations < w.s.set.MaxIter {
			out = append(out, j)
		}
	}
	return out
}

// iterate runs preconditioned conjugate gradients on the columns cols,
// from their current x with residual in r, until each converges, stalls
// or has done limit iterations in all.
func (w *blockWork) iterate(cols []int, limit int) {
	for _, j := range cols {
		c := &w.cs[j]
		c.res.Status, c.res.Residual = loadlab.IterationLimit, math.NaN()
		c.limit, c.restarts, c.active, c.restart = limit, 0, true, true
	}
	w.direct(nil, cols)
	for {
		act := w.active(cols)
		if len(act) == 0 {
			return
		}
		w.run(bkMatDot, w.allCols())
		sel := w.steps(act)
		w.run(bkUpdate, sel)
		w.cont, w.cand = w.cont[:0], w.cand[:0]
		for _, j := range sel {
			c := &w.cs[j]
			copy(c.sums[:], w.tot[4*j:4*j+4])
			if math.Sqrt(c.sums[0]) > c.tol {
				w.cont = append(w.cont, j)
			} else {
				w.cand = append(w.cand, j)
			}
		}
		w.direct(w.cont, w.check(w.cand))
	}
}

// active returns the columns of cols still iterating and counts their
// next iteration; a column at its limit stops with IterationLimit.
func (w *blockWork) active(cols []int) []int {
	act := w.act[:0]
	for _, j := range cols {
		c := &w.cs[j]
		if c.active && c.res.Iterations >= c.limit {
			c.active = false
		}
		if c.active {
			c.res.Iterations++
			act = append(act, j)
		}
	}
	return act
}

// steps sets the step α = r·z / p·q of the columns act from the product's
// sums and returns those that can step; a column with p·q or r·z not
// positive has stagnated.
func (w *blockWork) steps(act []int) []int {
	sel := act[:0]
	for _, j := range act {
		c := &w.cs[j]
		pq := w.tot[4*j]
		if !(pq > 0) || !(c.rz > 0) {
			c.res.Status, c.active = loadlab.Stagnated, false
			continue
		}
		w.alpha[j] = c.rz / pq
		sel = append(sel, j)
	}
	return sel
}

// check computes the true residual of the columns cand, whose recurrence
// says converged: each has converged (Success), or has restarted too often
// (Stagnated), or restarts from its true residual; it returns the last.
func (w *blockWork) check(cand []int) []int {
	if len(cand) == 0 {
		return nil
	}
	w.projectResidual(cand)
	rs := cand[:0]
	for _, j := range cand {
		c := &w.cs[j]
		if rr := math.Sqrt(w.tot[4*j]); rr <= c.tol {
			c.res.Status, c.res.Residual, c.active = loadlab.Success, rr, false
			continue
		}
		if c.restarts++; c.restarts > maxRestarts {
			c.res.Status, c.active = loadlab.Stagnated, false
			continue
		}
		c.restart = true
		rs = append(rs, j)
	}
	return rs
}

// direct preconditions the columns cont (continuing, with the update's
// sums) and rs (restarting from their true residual), and sets their new
// directions.
func (w *blockWork) direct(cont, rs []int) {
	all := append(append(w.all[:0], cont...), rs...)
	if len(all) == 0 {
		return
	}
	switch {
	case w.useAC:
		copy(w.z, w.r)
		w.s.ac.solveBlock(w.z, w.k)
		w.run(bkPrecond, all)
		w.saveSums(all)
	case len(rs) > 0:
		w.run(bkPrecond, rs)
		w.saveSums(rs)
	}
	for _, j := range all {
		c := &w.cs[j]
		w.mu[j] = c.sums[1] / float64(w.n)
		rz := c.sums[2] - w.mu[j]*c.sums[3]
		w.beta[j] = 0
		if !c.restart {
			w.beta[j] = rz / c.rz
		}
		c.rz, c.restart = rz, false
	}
	w.run(bkDirect, all)
}

// saveSums copies the sums of the columns cols from w.tot.
func (w *blockWork) saveSums(cols []int) {
	for _, j := range cols {
		copy(w.cs[j].sums[:], w.tot[4*j:4*j+4])
	}
}

// projectResidual projects the columns cols of x onto 1⊥ and recomputes
// their residuals; w.tot then holds their squared norms.
func (w *blockWork) projectResidual(cols []int) {
	w.run(bkSumX, cols)
	for _, j := range cols {
		w.shift[j] = w.tot[4*j] / float64(w.n)
	}
	w.run(bkCenterX, cols)
	w.run(bkResidual, cols)
}

// finish projects and recomputes the residual of every column whose last
// check did not, and returns the results with relative residuals.
func (w *blockWork) finish() []SolveResult {
	var todo []int
	for j := range w.k {
		if c := w.cs[j]; c.bnorm > 0 && math.IsNaN(c.res.Residual) {
			todo = append(todo, j)
		}
	}
	if len(todo) > 0 {
		w.projectResidual(todo)
		for _, j := range todo {
			w.cs[j].res.Residual = math.Sqrt(w.tot[4*j])
		}
	}
	out := make([]SolveResult, w.k)
	for j := range w.k {
		c := w.cs[j]
		out[j] = c.res
		if c.bnorm > 0 {
			out[j].Residual /= c.bnorm
		}
	}
	return out
}
