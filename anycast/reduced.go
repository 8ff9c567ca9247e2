package anycast

import (
	"fmt"
	"slices"

	"github.com/loadlab/loadlab/internal/par"

	"gonum.org/v1/gonum/blas/gonum"
)

// Reduced is a dense load operator B = Cᵀ diag(A) with the columns of a
// set K of nodes whose state is held at exactly x_j = 1 summed once:
//
//	S_i = b_i + Σ_{j ∉ K} B_ij x_j,   b_i = Σ_{j ∈ K} B_ij,
//
// which is S = B x (spec §1.3 eq. (21)) for every x with x_j = 1 on K,
// rounded differently: a product costs (N − |K|)/N of a full one. It is
// the shape of the greedy dynamics (spec §5), whose trajectories settle
// on cube vertices where many x_j round to exactly 1 and stay there
// (package stability). Set it with Reduce or Narrow.
type Reduced struct {
	n    int
	free []int32   // the columns not in K, increasing
	rank []int32   // rank[j]: the position of column j in free, −1 for j ∈ K
	base []float64 // b_i = Σ_{j∈K} B_ij, summed in increasing j
	val  []float64 // B on the free columns, row-major N × len(free)
}

// Reduce sets r to the operator of op with the columns j of B where
// ones[j] is true summed once (see Reduced), reusing r's storage, and
// reports true; for a sparse B, whose products already cost O(nnz), it
// leaves r unchanged and reports false.
//
// Reduce panics if len(ones) ≠ N.
func (r *Reduced) Reduce(op *LoadOp, ones []bool) bool {
	if len(ones) != op.n {
		panic(fmt.Sprintf("anycast: Reduced.Reduce: len(ones) = %d, want %d", len(ones), op.n))
	}
	if op.ptr != nil {
		return false
	}
	all := make([]int32, op.n)
	for j := range all {
		all[j] = int32(j)
	}
	r.build(op.n, op.val, nil, all, ones)
	return true
}

// Narrow sets r to src with the columns j where ones[j] is true summed
// once as well, reusing r's storage, and reports true: it reads only the
// free columns of src, so following K as more nodes settle costs
// (N − |K|)·N. Where ones is false on a node of src's K it leaves r
// unchanged and reports false (build that operator with Reduce).
//
// Narrow panics if len(ones) ≠ N or r is src.
func (r *Reduced) Narrow(src *Reduced, ones []bool) bool {
	if len(ones) != src.n || r == src {
		panic(fmt.Sprintf("anycast: Reduced.Narrow: len(ones) = %d with N = %d, or the receiver is the source", len(ones), src.n))
	}
	for j, k := range src.rank {
		if k < 0 && !ones[j] {
			return false
		}
	}
	r.build(src.n, src.val, src.base, src.free, ones)
	return true
}

// build sets r to the operator summing the columns where ones is true
// once, from a source matrix (row-major, N rows of len(cols) columns;
// cols[k] is the node of column k) whose other columns sum to base (nil:
// none). Each row's new base adds its newly summed columns in increasing
// node order to its old base.
func (r *Reduced) build(n int, src, base []float64, cols []int32, ones []bool) {
	r.n = n
	r.rank = slices.Grow(r.rank[:0], n)[:n]
	r.free = r.free[:0]
	var keep, add []int32 // positions in the source rows
	for k, j := range cols {
		if ones[j] {
			add = append(add, int32(k))
			continue
		}
		keep = append(keep, int32(k))
		r.free = append(r.free, j)
	}
	for j := range r.rank {
		r.rank[j] = -1
	}
	for k, j := range r.free {
		r.rank[j] = int32(k)
	}
	w, m := len(cols), len(keep)
	r.base = slices.Grow(r.base[:0], n)[:n]
	r.val = slices.Grow(r.val[:0], n*m)[:n*m]
	// Pieces of rows on all cores, through par.Spin: the caller is
	// usually between the stages of an ODE, whose spinning helpers join
	// at once where a new goroutine would wait for their core. The
	// storage is, after the first call, already mapped (fresh pages cost
	// more than the gather).
	par.Spin(n, par.Workers(n*w, opParallelWork), 16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row, dst := src[i*w:(i+1)*w], r.val[i*m:(i+1)*m]
			for k, p := range keep {
				dst[k] = row[p]
			}
			var b float64
			if base != nil {
				b = base[i]
			}
			for _, p := range add {
				b += row[p]
			}
			r.base[i] = b
		}
	})
}

// N returns the number of nodes.
func (r *Reduced) N() int { return r.n }

// Free returns the number of columns not summed once, N − |K|.
func (r *Reduced) Free() int { return len(r.free) }

// Rank returns the position of node j among the free columns (the index
// of x_j in the argument of MulRows), or −1 if j is in K.
func (r *Reduced) Rank(j int) int { return int(r.rank[j]) }

// MulRows sets dst[i − lo] = b_i + Σ_k B_{i,free[k]} xf[k] for the rows
// i ∈ [lo, hi), where xf holds the states of the free columns in
// increasing node order. As with LoadOp.MulRows, every S_i has the same
// bits whatever the range.
//
// MulRows panics if len(xf) ≠ Free(), len(dst) ≠ hi − lo or the range is
// not in [0, N].
func (r *Reduced) MulRows(dst, xf []float64, lo, hi int) {
	m := len(r.free)
	if len(xf) != m || lo < 0 || hi > r.n || lo > hi || len(dst) != hi-lo {
		panic(fmt.Sprintf("anycast: Reduced.MulRows [%d, %d) with len(dst) = %d, len(xf) = %d, want rows in [0, %d) and len(xf) = %d",
			lo, hi, len(dst), len(xf), r.n, m))
	}
	if m == 0 {
		copy(dst, r.base[lo:hi])
		return
	}
	gemv(dst, r.val[lo*m:hi*m], xf, m)
	for i := range dst {
		dst[i] += r.base[lo+i]
	}
}

// MulRowsAt sets dst[k][i] = S_i at the free columns' states xf[k] (as
// for MulRows) for every row i in rows and every k: rows that a caller
// computes apart from the others, for several states at once, each group
// of rows read from memory once for all of them (the greedy ODE's settled
// nodes, whose rows wait until a step's stages are known; package
// stability). Every S_i has the bits MulRows gives it.
//
// MulRowsAt panics if len(dst) ≠ len(xf), a len(xf[k]) ≠ Free(), a
// len(dst[k]) ≠ N or a row is outside [0, N).
func (r *Reduced) MulRowsAt(dst, xf [][]float64, rows []int) {
	m := len(r.free)
	bad := len(dst) != len(xf)
	for k := range xf {
		bad = bad || len(xf[k]) != m || len(dst[k]) != r.n
	}
	for _, i := range rows {
		bad = bad || i < 0 || i >= r.n
	}
	if bad {
		panic(fmt.Sprintf("anycast: Reduced.MulRowsAt with %d states for %d outputs, want states of %d free columns, outputs of %d and rows in [0, %d)",
			len(xf), len(dst), m, r.n, r.n))
	}
	if m == 0 {
		for k := range dst {
			for _, i := range rows {
				dst[k][i] = r.base[i]
			}
		}
		return
	}
	if !gemvAt(dst, xf, r.val, m, rows) {
		impl := gonum.Implementation{}
		for k, x := range xf {
			for _, i := range rows {
				dst[k][i] = impl.Ddot(m, r.val[i*m:(i+1)*m], 1, x, 1)
			}
		}
	}
	for k := range dst {
		for _, i := range rows {
			dst[k][i] += r.base[i]
		}
	}
}
