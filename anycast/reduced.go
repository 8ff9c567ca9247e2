package anycast

import (
	"fmt"
	"slices"

	"github.com/loadlab/loadlab/internal/asm"
	"github.com/loadlab/loadlab/internal/par"
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
//
// Its rows are stored free nodes first, then the nodes of K (each part in
// increasing node order), so that the free rows of a range of nodes, and
// its settled rows, are each one contiguous block: MulFree and MulSettled
// compute them apart (the greedy ODE computes the settled nodes' rows once
// per step for all its stages; package stability, lag.go).
type Reduced struct {
	n     int
	free  []int32   // the nodes not in K, increasing: the columns of val
	rank  []int32   // rank[j]: the position of node j in free, −1 for j ∈ K
	nfree []int32   // nfree[i]: the number of free nodes below i (N + 1 entries)
	node  []int32   // node[q]: the node of row q of val
	base  []float64 // b_i = Σ_{j∈K} B_ij (by node), summed in increasing j
	w     int       // the row length of val: len(free) rounded up to 8
	val   []float64 // B on the free columns, rows as node, zero past len(free): N × w
}

// Reduce sets r to the operator of op with the columns j of B where
// ones[j] is true summed once (see Reduced), reusing r's storage, and
// reports true; for a sparse B, whose products already cost O(nnz), it
// leaves r unchanged and reports false.
//
// Reduce panics if op is nil or len(ones) ≠ N.
func (r *Reduced) Reduce(op *LoadOp, ones []bool) bool {
	if op == nil {
		panic("anycast: Reduced.Reduce: op is nil")
	}
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
	n := op.n
	r.build(n, func(i int) []float64 { return op.val[i*n : (i+1)*n] }, nil, all, ones)
	return true
}

// Narrow sets r to src with the columns j where ones[j] is true summed
// once as well, reusing r's storage, and reports true: it reads only the
// free columns of src, so following K as more nodes settle costs
// (N − |K|)·N. Where ones is false on a node of src's K it leaves r
// unchanged and reports false (build that operator with Reduce).
//
// Narrow panics if src is nil, len(ones) ≠ N or r is src.
func (r *Reduced) Narrow(src *Reduced, ones []bool) bool {
	if src == nil {
		panic("anycast: Reduced.Narrow: src is nil")
	}
	if len(ones) != src.n || r == src {
		panic(fmt.Sprintf("anycast: Reduced.Narrow: len(ones) = %d with N = %d, or the receiver is the source", len(ones), src.n))
	}
	for j, k := range src.rank {
		if k < 0 && !ones[j] {
			return false
		}
	}
	w, m := src.w, len(src.free)
	row := func(i int) []float64 {
		q := src.row(i)
		return src.val[q*w : q*w+m]
	}
	r.build(src.n, row, src.base, src.free, ones)
	return true
}

// build sets r to the operator summing the columns where ones is true
// once, from a source whose row for node i is srcRow(i) (len(cols)
// columns; cols[k] is the node of column k) and whose other columns sum
// to base (nil: none). Each row's new base adds its newly summed columns
// in increasing node order to its old base.
func (r *Reduced) build(n int, srcRow func(i int) []float64, base []float64, cols []int32, ones []bool) {
	var keep, add []int32 // positions in the source rows
	r.free = r.free[:0]
	for k, j := range cols {
		if ones[j] {
			add = append(add, int32(k))
			continue
		}
		keep = append(keep, int32(k))
		r.free = append(r.free, j)
	}
	r.order(n, ones)
	r.w = (len(keep) + 7) &^ 7
	w, runs := r.w, copyRuns(keep)
	r.base = slices.Grow(r.base[:0], n)[:n]
	r.val = slices.Grow(r.val[:0], n*w)[:n*w]
	// Pieces of rows on all cores, through par.Loop: the caller is
	// usually between the stages of an ODE, whose helpers, still
	// polling, join at once. The
	// storage is, after the first call, already mapped (fresh pages cost
	// more than the gather).
	par.Loop(n, opWorkers(n*len(cols)), 16, func(lo, hi int) {
		for q := lo; q < hi; q++ {
			i := int(r.node[q])
			row, dst := srcRow(i), r.val[q*w:(q+1)*w]
			copyKept(dst, row, runs)
			clear(dst[len(keep):])
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

// copyRun is a run of kept columns: n of them from position src of a
// source row to position dst of the new row.
type copyRun struct{ src, dst, n int }

// copyKept sets dst[k] = row[keep[k]] for the kept positions keep, given
// as their runs.
func copyKept(dst, row []float64, runs []copyRun) {
	for _, c := range runs {
		copy(dst[c.dst:c.dst+c.n], row[c.src:c.src+c.n])
	}
}

// copyRuns returns the maximal runs of consecutive positions in keep
// (increasing): a narrowing keeps most columns, in runs that copy faster
// than one column at a time.
func copyRuns(keep []int32) []copyRun {
	var runs []copyRun
	for k := 0; k < len(keep); {
		e := k + 1
		for e < len(keep) && keep[e] == keep[e-1]+1 {
			e++
		}
		runs = append(runs, copyRun{src: int(keep[k]), dst: k, n: e - k})
		k = e
	}
	return runs
}

// order sets the ranks of the free nodes r.free (K: ones) and the order
// of the rows: the free nodes, then those of K.
func (r *Reduced) order(n int, ones []bool) {
	r.n = n
	r.rank = slices.Grow(r.rank[:0], n)[:n]
	r.nfree = slices.Grow(r.nfree[:0], n+1)[:n+1]
	r.node = slices.Grow(r.node[:0], n)[:n]
	m := len(r.free)
	free, settled := int32(0), int32(m)
	for i := range n {
		r.nfree[i] = free
		if ones[i] {
			r.rank[i] = -1
			r.node[settled] = int32(i)
			settled++
			continue
		}
		r.rank[i] = free
		r.node[free] = int32(i)
		free++
	}
	r.nfree[n] = free
}

// row returns the row of val that holds node i.
func (r *Reduced) row(i int) int {
	if k := r.rank[i]; k >= 0 {
		return int(k)
	}
	return len(r.free) + i - int(r.nfree[i])
}

// N returns the number of nodes.
func (r *Reduced) N() int { return r.n }

// Free returns the number of columns not summed once, N − |K|.
func (r *Reduced) Free() int { return len(r.free) }

// Cols returns the length of the free columns' states xf that the
// products take: Free() rounded up to a multiple of 8. The entries past
// Free() multiply columns of zeros (every row is then summed by the
// kernel's blocks of eight, with no remainder); they must be finite.
func (r *Reduced) Cols() int { return r.w }

// Rank returns the position of node j among the free columns (the index
// of x_j in the argument of MulRows), or −1 if j is in K. It panics if j
// is outside [0, N).
func (r *Reduced) Rank(j int) int { return int(r.rank[j]) }

// MulRows sets dst[i − lo] = b_i + Σ_k B_{i,free[k]} xf[k] for the rows
// i ∈ [lo, hi), where xf holds the states of the free columns in
// increasing node order (xf[Rank(j)] = x_j), then Cols() − Free() finite
// entries of padding. As with LoadOp.MulRows, every S_i has the same
// bits whatever the range, and whichever of MulRows, MulFree and
// MulSettled computes it.
//
// MulRows panics if len(xf) ≠ Cols(), len(dst) ≠ hi − lo or the range is
// not in [0, N].
func (r *Reduced) MulRows(dst, xf []float64, lo, hi int) {
	r.check("MulRows", dst, xf, lo, hi)
	r.MulFree(dst, xf, lo, hi)
	r.MulSettled([][]float64{dst}, [][]float64{xf}, lo, hi)
}

// MulFree is MulRows for the free nodes of [lo, hi) only: it sets
// dst[i − lo] for i ∉ K and leaves the other entries alone.
//
// MulFree panics as MulRows.
func (r *Reduced) MulFree(dst, xf []float64, lo, hi int) {
	r.check("MulFree", dst, xf, lo, hi)
	r.rows(dst, xf, lo, int(r.nfree[lo]), int(r.nfree[hi]))
}

// MulSettled is MulRows for the nodes of K in [lo, hi) only, at several
// states at once: it sets dst[k][i − lo] = S_i at the free columns'
// states xf[k] for i ∈ K and every k, and leaves the other entries
// alone. Each settled row is read from memory once for six states (the
// stages of a Runge–Kutta step).
//
// MulSettled panics if len(dst) ≠ len(xf) or as MulRows for a pair
// dst[k], xf[k].
func (r *Reduced) MulSettled(dst, xf [][]float64, lo, hi int) {
	if len(dst) != len(xf) {
		panic(fmt.Sprintf("anycast: Reduced.MulSettled with %d states for %d outputs", len(xf), len(dst)))
	}
	for k := range dst {
		r.check("MulSettled", dst[k], xf[k], lo, hi)
	}
	m, w := len(r.free), r.w
	q0, q1 := m+lo-int(r.nfree[lo]), m+hi-int(r.nfree[hi])
	k := 0
	out := rowOut{node: r.node[q0:q1], lo: lo, base: r.base}
	for ; k+6 <= len(xf) && w > 0; k += 6 {
		gemvRows6(dst[k:k+6], xf[k:k+6], r.val[q0*w:q1*w], w, out)
	}
	for ; k < len(xf); k++ {
		r.rows(dst[k], xf[k], lo, q0, q1)
	}
}

// gemvRows6 is gemvTo for six states at once, into dst[k] from xs[k],
// for rows of n entries, n a multiple of 8 (Reduced pads its rows): each
// row is read once for the six (asm.Dot6), and every row and state gets
// the bits gemvTo gives it.
func gemvRows6(dst, xs [][]float64, a []float64, n int, out rowOut) {
	var x [6][]float64
	for k := range x {
		x[k] = xs[k][:n]
	}
	var sums [6]float64
	for r := range len(a) / n {
		asm.Dot6(&sums, a[r*n:(r+1)*n], &x)
		for k := range x {
			out.put(dst[k], r, sums[k])
		}
	}
}

// check panics unless dst, xf and [lo, hi) fit MulRows.
func (r *Reduced) check(name string, dst, xf []float64, lo, hi int) {
	if len(xf) != r.w || lo < 0 || hi > r.n || lo > hi || len(dst) != hi-lo {
		panic(fmt.Sprintf("anycast: Reduced.%s [%d, %d) with len(dst) = %d, len(xf) = %d, want rows in [0, %d) and len(xf) = %d",
			name, lo, hi, len(dst), len(xf), r.n, r.w))
	}
}

// rows sets dst[node − lo] = S_node for the rows q0..q1−1 of val.
func (r *Reduced) rows(dst, xf []float64, lo, q0, q1 int) {
	w := r.w
	if w == 0 {
		for _, i := range r.node[q0:q1] {
			dst[int(i)-lo] = r.base[i]
		}
		return
	}
	gemvTo(dst, r.val[q0*w:q1*w], xf, w, rowOut{node: r.node[q0:q1], lo: lo, base: r.base})
}
