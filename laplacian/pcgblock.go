package laplacian

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/mat"
)

// MaxBlockCols is the number of right-hand sides SolveBlock iterates
// together; a wider block is solved in chunks of at most this many
// columns (sixteen float64 are two cache lines per row of the block).
const MaxBlockCols = lapmat.BlockColsMax

// SolveBlock solves L X = B column by column for the k columns of b,
// setting column j of dst to L† b_j exactly as Solve would (same
// iterations, same tolerance, same rounding to a few ulps), and returns
// one SolveResult per column. The columns are iterated together, in
// chunks of at most MaxBlockCols: every product L P reads each
// neighbour's row of the block once for all its columns, which costs
// little more than a single product on a large graph, where the cost is
// the latency of the neighbour reads. Each column keeps its own
// conjugate-gradient scalars and its own convergence test, and a column
// that has converged is no longer updated. A zero column gives a zero
// solution after 0 iterations.
//
// When some column does not reach the tolerance within MaxIter
// iterations, dst holds every column's last iterate and the error wraps
// loadlab.ErrNotConverged; the results say which columns converged. A b
// with a NaN or infinite entry is an error wrapping loadlab.ErrInvalid
// (then every result has Status Failure and dst is not written). A column
// beyond 2^±200 is solved by Solve, scaled. An empty dst is resized to
// the shape of b; dst and b may be the same matrix. It panics if b or
// dst is nil, if b is empty, if b has not Order rows, or if a non-empty
// dst has not b's shape.
func (s *Solver) SolveBlock(dst, b *mat.Dense) ([]SolveResult, error) {
	if dst == nil || b == nil {
		panic("laplacian: Solver.SolveBlock: nil dst or b")
	}
	if b.IsEmpty() {
		panic("laplacian: Solver.SolveBlock: empty b")
	}
	n := s.mat.N
	rows, k := b.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(rows, k)
	}
	if r, c := dst.Dims(); rows != n || r != rows || c != k {
		panic(fmt.Sprintf("laplacian: Solver.SolveBlock: b is %d×%d, dst %d×%d, want %d rows and equal shapes", rows, k, r, c, n))
	}
	res := make([]SolveResult, k)
	if u, j, ok := nonFinite(b); ok {
		for i := range res {
			res[i].Status = loadlab.Failure
		}
		return res, loadlab.Invalid("laplacian", "Solver.SolveBlock: b[%d, %d] = %v, want finite", u, j, b.At(u, j))
	}
	var errs []error
	chunks := (k + MaxBlockCols - 1) / MaxBlockCols
	for c := range chunks {
		c0, c1 := c*k/chunks, (c+1)*k/chunks
		errs = append(errs, s.solveChunk(dst, b, c0, c1, res)...)
	}
	return res, s.blockError(res, errs)
}

// nonFinite returns the first entry of b that is NaN or infinite.
func nonFinite(b *mat.Dense) (u, j int, ok bool) {
	raw := b.RawMatrix()
	for u := range raw.Rows {
		for j, x := range raw.Data[u*raw.Stride : u*raw.Stride+raw.Cols] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return u, j, true
			}
		}
	}
	return 0, 0, false
}

// solveChunk solves the columns [c0, c1) of b into dst and res: the
// columns far from unit scale one by one with Solve, the others together.
// It returns the errors other than non-convergence.
func (s *Solver) solveChunk(dst, b *mat.Dense, c0, c1 int, res []SolveResult) []error {
	var errs []error
	var cols []int
	col := make([]float64, s.mat.N)
	for j := c0; j < c1; j++ {
		mat.Col(col, j, b)
		if rhsExponent(col) == 0 {
			cols = append(cols, j)
			continue
		}
		r, err := s.Solve(col, col)
		res[j] = r
		dst.SetCol(j, col)
		if err != nil && r.Status == loadlab.Failure {
			errs = append(errs, err)
		}
	}
	if len(cols) == 0 {
		return errs
	}
	w, err := s.blockWork(len(cols))
	if err != nil {
		return append(errs, err)
	}
	w.gather(b, cols)
	out, err := w.solve()
	if err != nil {
		errs = append(errs, err)
	}
	w.scatter(dst, cols)
	for i, j := range cols {
		res[j] = out[i]
	}
	return errs
}

// blockError returns the first of errs, else an error wrapping
// loadlab.ErrNotConverged when some column did not converge, else nil.
func (s *Solver) blockError(res []SolveResult, errs []error) error {
	if len(errs) > 0 {
		return errs[0]
	}
	bad, first := 0, -1
	for j, r := range res {
		if r.Status != loadlab.Success {
			bad++
			if first < 0 {
				first = j
			}
		}
	}
	if bad == 0 {
		return nil
	}
	r := res[first]
	return loadlab.Wrap(loadlab.ErrNotConverged, "laplacian",
		"Solver.SolveBlock: %d of %d columns short of Tol = %.3g; column %d: relative residual %.3g after %d iterations (%v)",
		bad, len(res), s.set.Tol, first, r.Residual, r.Iterations, r.Status)
}

// blockBytesMax bounds the workspace PreferredBlockCols lets a block
// take (7 vectors per column): 2 GiB.
const blockBytesMax = 2 << 30

// PreferredBlockCols returns the widest block (at least 1, at most
// MaxBlockCols) that SolveBlock solves at full speed on this graph: one
// whose substitutions with the approximate Cholesky factor walk the
// factor once for all its columns (a group of n·k floats within the
// factor's scratch bound, 128 MiB; a wider block is substituted in
// groups, and groups of one column cost about twice a single solve per
// column), and whose workspace stays within 2 GiB. With the factor it is
// MaxBlockCols up to 10⁶ nodes, 8 at 2·10⁶ and 1 from 8.4·10⁶ (the
// 3163 × 3163 torus); callers with many right-hand sides chunk them by
// it, and solve one at a time with Solve when it is 1.
func (s *Solver) PreferredBlockCols() int {
	n := max(s.mat.N, 1)
	k := blockBytesMax / (7 * 8 * n)
	if s.set.Preconditioner != Jacobi {
		k = min(k, acBlockBytes/(8*n))
	}
	return min(max(k, 1), MaxBlockCols)
}

// ReserveBlock allocates SolveBlock's workspace for k columns (at most
// MaxBlockCols) ahead of the first block, so that blocks of up to k
// columns then reuse it (as bytes.Buffer.Grow does for writes). It
// returns an error wrapping loadlab.ErrTooLarge when the workspace would
// not fit, and one wrapping loadlab.ErrInvalid unless 1 ≤ k ≤
// MaxBlockCols.
func (s *Solver) ReserveBlock(k int) error {
	if k < 1 || k > MaxBlockCols {
		return loadlab.Invalid("laplacian", "Solver.ReserveBlock: k = %d, want 1 ≤ k ≤ %d", k, MaxBlockCols)
	}
	_, err := s.blockWork(k)
	return err
}

// blockWork returns the solver's block workspace for k columns, allocating
// it on first use and when k exceeds the widest block so far.
func (s *Solver) blockWork(k int) (*blockWork, error) {
	if s.bw != nil && s.bw.kcap >= k {
		s.bw.setWidth(k)
		return s.bw, nil
	}
	if err := size.Check("laplacian", "Solver.SolveBlock: block entries", s.mat.N*k, 7*8); err != nil {
		return nil, err
	}
	s.bw = nil // release the old block before allocating the new one
	s.bw = newBlockWork(s, k)
	return s.bw, nil
}
