package anycast

import (
	"fmt"
	"slices"

	"github.com/loadlab/loadlab/internal/asm"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"
)

// opParallelWork is the number of multiply-adds from which LoadOp.Mul is
// split over the cores. It is lower than Loads' threshold because the
// pre-scaled product does a third less memory traffic per entry, and a
// caller that forms a LoadOp multiplies many times, so the goroutine
// start-up is paid against work some ten times as long.
const opParallelWork = 1 << 15

// LoadOp is the load matrix B = Cᵀ diag(A) of spec §1.3 eqs. (22)–(23),
// formed once for repeated products S = B x: B_ij = C_ji A_j. For sparse C
// it stores the columns of C pre-scaled by A in compressed rows of B
// (nnz values and 32-bit indices), for dense C the dense N×N matrix B.
// Build it with Network.LoadOp, or re-form one in its own storage with
// Form; it does not follow later changes of the network's fields until
// formed again.
//
// Mul(x) equals Network.Loads(x) to rounding: both sum the same products,
// but LoadOp rounds C_ji A_j first, and its dense product sums in another
// order, that of internal/asm's Dot4 (fused multiply-adds in eight lanes
// over blocks of 8 columns; an AVX2/FMA kernel on amd64 CPUs that have
// it, its pure-Go reference elsewhere and with the tag noasm, with the
// same bits).
type LoadOp struct {
	n   int
	ptr []int     // sparse: row i of B is idx[ptr[i]:ptr[i+1]], val[...]
	idx []int32   // sparse: columns j of B (rows of C), increasing
	val []float64 // sparse: B_ij = C_ji A_j; dense: B row-major (nil ptr)
}

// LoadOp forms B = Cᵀ diag(A) from the network as it is now: O(nnz) time
// and memory for sparse C, O(N²) for dense C. It validates the network
// first (Validate), returning its errors for fields changed after
// NewNetwork, and returns an error wrapping loadlab.ErrTooLarge if B would
// not fit in the memory budget.
func (nw *Network) LoadOp() (*LoadOp, error) {
	op := new(LoadOp)
	if err := op.Form(nw); err != nil {
		return nil, err
	}
	return op, nil
}

// Form sets op to the load matrix B of the network as it is now, as
// Network.LoadOp does, reusing op's storage where it is large enough: a
// caller that forms B again and again (package stability, once per
// integration) then writes into pages it already has instead of new ones,
// which at N = 1000 costs more than the forming itself. It returns the
// errors of LoadOp, leaving op unchanged. Form must not run while op is
// in use by another goroutine. It panics if nw is nil.
func (op *LoadOp) Form(nw *Network) error {
	if nw == nil {
		panic("anycast: LoadOp.Form: nw is nil")
	}
	if err := nw.Validate(); err != nil {
		return err
	}
	n := nw.N()
	if nw.Sparse == nil {
		if err := size.Check("anycast", "dense load matrix N²", nw.NNZ(), 8); err != nil {
			return err
		}
		op.n, op.ptr, op.idx = n, nil, op.idx[:0]
		op.val = slices.Grow(op.val[:0], n*n)[:n*n]
		par.Loop(n, opWorkers(n*n), transposeGrain, func(lo, hi int) { nw.scaledTranspose(op.val, lo, hi) })
		return nil
	}
	s := nw.Sparse
	op.n, op.ptr = n, s.tptr
	op.idx = slices.Grow(op.idx[:0], len(s.tcol))[:len(s.tcol)]
	op.val = slices.Grow(op.val[:0], len(s.tval))[:len(s.tval)]
	for k, j := range s.tcol {
		op.idx[k] = int32(j) // j < N ≤ size budget / 16 < 2³¹
		op.val[k] = s.tval[k] * nw.A[j]
	}
	return nil
}

// transposeGrain is the number of rows of C a piece of the dense forming
// of B transposes (par.Loop): 512 KB of C at N = 1000.
const transposeGrain = 64

// scaledTranspose sets b[i·N + j] = C_ji A_j (B row-major, spec §1.3 eq.
// (23)) for the rows j ∈ [lo, hi) of dense C. Eight rows of C are read
// side by side so that each write fills 64 contiguous bytes, one cache
// line, of a row of B: this takes a third of the time of a scatter of
// one row of C at a time into a column of B (docs/benchmarks-log.md).
func (nw *Network) scaledTranspose(b []float64, lo, hi int) {
	n := nw.N()
	j := lo
	for ; j+8 <= hi; j += 8 {
		r0, r1, r2, r3 := nw.C.RawRowView(j)[:n], nw.C.RawRowView(j + 1)[:n], nw.C.RawRowView(j + 2)[:n], nw.C.RawRowView(j + 3)[:n]
		r4, r5, r6, r7 := nw.C.RawRowView(j + 4)[:n], nw.C.RawRowView(j + 5)[:n], nw.C.RawRowView(j + 6)[:n], nw.C.RawRowView(j + 7)[:n]
		a := nw.A[j : j+8 : j+8]
		for i := range n {
			d := b[i*n+j : i*n+j+8 : i*n+j+8]
			d[0], d[1], d[2], d[3] = r0[i]*a[0], r1[i]*a[1], r2[i]*a[2], r3[i]*a[3]
			d[4], d[5], d[6], d[7] = r4[i]*a[4], r5[i]*a[5], r6[i]*a[6], r7[i]*a[7]
		}
	}
	for ; j < hi; j++ {
		a := nw.A[j]
		for i, c := range nw.C.RawRowView(j)[:n] {
			b[i*n+j] = c * a
		}
	}
}

// N returns the number of nodes.
func (op *LoadOp) N() int { return op.n }

// NNZ returns the number of stored entries of B: N² for dense C, the
// nonzeros of C for sparse C.
func (op *LoadOp) NNZ() int { return len(op.val) }

// Mul computes S = B x into dst and returns it (dst may be nil; it may not
// alias x). Each S_i is summed by one goroutine in a fixed order, so the
// result does not depend on the number of cores; products of more than
// 2¹⁵ multiply-adds are split over GOMAXPROCS goroutines (internal/par's
// pool). Mul does not allocate when dst is given, beyond the closure of a
// split product.
//
// Mul panics if len(x) or a non-nil len(dst) differs from N.
func (op *LoadOp) Mul(dst, x []float64) []float64 {
	dst = checkLen("x", dst, x, op.n)
	w := opWorkers(len(op.val))
	if w <= 1 {
		op.mulRange(dst, x, 0, op.n)
		return dst
	}
	if op.ptr == nil {
		// Dense: pieces of rows claimed by the caller and the pool's
		// helpers (every row has its bits whatever the piece).
		par.Loop(op.n, w, denseGrain, func(lo, hi int) { op.mulRange(dst[lo:hi], x, lo, hi) })
		return dst
	}
	chunks(op.n, w, func(lo, hi int) { op.mulRange(dst[lo:hi], x, lo, hi) })
	return dst
}

// MulRows sets dst[i − lo] = S_i = (B x)_i for the rows i ∈ [lo, hi)
// on the calling goroutine: a piece of Mul for a caller that splits the
// work itself (package ode's fused stages). Every S_i has the bits Mul
// computes for it, whatever the range.
//
// MulRows panics if len(x) ≠ N, len(dst) ≠ hi − lo or the range is not in
// [0, N].
func (op *LoadOp) MulRows(dst, x []float64, lo, hi int) {
	if len(x) != op.n || lo < 0 || hi > op.n || lo > hi || len(dst) != hi-lo {
		panic(fmt.Sprintf("anycast: MulRows [%d, %d) with len(dst) = %d, len(x) = %d, want rows in [0, %d)",
			lo, hi, len(dst), len(x), op.n))
	}
	op.mulRange(dst, x, lo, hi)
}

// mulRange sets dst[i − lo] = S_i = Σ_j B_ij x_j for i in [lo, hi).
func (op *LoadOp) mulRange(dst, x []float64, lo, hi int) {
	if op.ptr == nil {
		n := op.n
		gemv(dst, op.val[lo*n:hi*n], x, n)
		return
	}
	for i := lo; i < hi; i++ {
		p, q := op.ptr[i], op.ptr[i+1]
		idx, val := op.idx[p:q], op.val[p:q]
		var sum float64
		for k, j := range idx {
			sum += val[k] * x[j]
		}
		dst[i-lo] = sum
	}
}

// gemv sets dst[r] = Σ_j a[r·n + j]·x[j] for the len(dst) rows of the
// row-major a (n ≥ 1 columns); see gemvTo.
func gemv(dst, a, x []float64, n int) {
	gemvTo(dst, a[:len(dst)*n], x, n, rowOut{})
}

// gemvTo sets S_r = Σ_j a[r·n + j]·x[j] for the rows r of a and places it
// with out: asm.Dot4 on blocks of four rows and the whole blocks of eight
// columns (the AVX2/FMA kernel where the CPU has it, its pure-Go
// reference elsewhere, with the same bits), the remaining columns added
// in Go before the sums are placed. A row left over after the blocks of
// four goes through Dot4 alone (row stride 0). Every row is thus summed
// by the same operations whatever rows are computed with it, so a row of
// a product has the same bits in any range of rows (a split product,
// MulRows, the rows a caller computes apart from the others) and on any
// CPU.
func gemvTo(dst, a, x []float64, n int, out rowOut) {
	if len(a) == 0 {
		return
	}
	m, rows := n&^7, len(a)/n
	var sums [4]float64
	for r := 0; r < rows; {
		q, lda := 4, n
		if rows-r < 4 {
			q, lda = 1, 0
		}
		asm.Dot4(&sums, a[r*n:], lda, x[:m])
		for p := range q {
			row := a[(r+p)*n : (r+p+1)*n]
			for j := m; j < n; j++ {
				sums[p] += float64(row[j] * x[j]) // the conversion forbids a fused multiply-add
			}
		}
		out.putRows(dst, r, sums[:q])
		r += q
	}
}

// rowOut places the sums of a product's rows: row r goes to dst[r], or,
// with node set, to dst[node[r] − lo], plus base[node[r]] when base is
// set (Reduced's settled columns, added once the row is summed).
type rowOut struct {
	node []int32
	lo   int
	base []float64
}

// putRows places the sums of the rows r, r+1, … in dst, as put does row
// by row (the dense kernel's block of rows at once, without put's tests
// per row).
func (o rowOut) putRows(dst []float64, r int, sums []float64) {
	switch {
	case o.node == nil:
		d := dst[r : r+len(sums)]
		for p, s := range sums {
			d[p] = s
		}
	case o.base == nil:
		for p, i := range o.node[r : r+len(sums)] {
			dst[int(i)-o.lo] = sums[p]
		}
	default:
		base := o.base
		for p, i := range o.node[r : r+len(sums)] {
			dst[int(i)-o.lo] = sums[p] + base[i]
		}
	}
}

// put places the sum s of row r in dst.
func (o rowOut) put(dst []float64, r int, s float64) {
	if o.node == nil {
		dst[r] = s
		return
	}
	i := int(o.node[r])
	if o.base != nil {
		s += o.base[i]
	}
	dst[i-o.lo] = s
}

// opWorkers returns the goroutines of an operation on work entries of a
// load matrix: 1 below opParallelWork, par.Workers(0) (GOMAXPROCS) from
// there on.
func opWorkers(work int) int {
	if work < opParallelWork {
		return 1
	}
	return par.Workers(0)
}

// denseGrain is the number of rows of a dense product claimed at a time
// by par.Loop: 512 KB of B at N = 1000, enough work per claim to
// outweigh the claim itself.
const denseGrain = 64
