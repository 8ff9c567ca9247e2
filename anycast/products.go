package anycast

import (
	"fmt"
	"sync"

	"github.com/loadlab/loadlab/internal/par"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// parallelWork is the number of multiply-adds from which a product is
// split over GOMAXPROCS goroutines. Each output entry is computed by one
// goroutine with the same sequence of operations as the serial loop, so
// results are bit-identical for any number of cores.
const parallelWork = 1 << 17

// workers returns how many goroutines a product of the given work on n
// rows uses: 1 below parallelWork, par.Workers(0) (GOMAXPROCS) from
// there on, at most one per row.
func workers(work, n int) int {
	if work < parallelWork {
		return 1
	}
	return min(par.Workers(0), n)
}

// chunks calls fn(lo, hi) on about 64 contiguous pieces of [0, n) on w
// goroutines (internal/par's pool), claimed at run time, so that a core
// taken by another process leaves its pieces to the others (each output
// entry is computed alone, so the pieces do not change a bit). A panic
// in fn is re-raised on the caller (docs/conventions.md §6).
func chunks(n, w int, fn func(lo, hi int)) {
	par.Loop(n, w, max(1, (n+63)/64), fn)
}

// checkLen panics unless len(x) == n and dst is nil or of length n; it
// returns dst or a new slice.
func checkLen(name string, dst, x []float64, n int) []float64 {
	if len(x) != n {
		panic(fmt.Sprintf("anycast: len(%s) = %d, want %d", name, len(x), n))
	}
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("anycast: len(dst) = %d, want %d", len(dst), n))
	}
	return dst
}

// Loads computes S_i = Σ_j A_j x_j C_ji (spec §1.3 eq. (21)) into dst and
// returns it. If dst is nil a new slice is allocated; otherwise there is
// no allocation. The work is O(nnz) for sparse C and O(N²) for dense C,
// split over the cores for large N with bit-identical results.
//
// Loads panics if len(x) or a non-nil len(dst) differs from N.
func (nw *Network) Loads(dst, x []float64) []float64 {
	dst = checkLen("x", dst, x, nw.N())
	nw.ctMul(dst, nw.A, x)
	return dst
}

// MulCT computes dst_i = Σ_j C_ji d_j (dst = Cᵀ d) and returns dst, with
// Loads' allocation, cost and panic rules.
func (nw *Network) MulCT(dst, d []float64) []float64 {
	dst = checkLen("d", dst, d, nw.N())
	nw.ctMul(dst, nil, d)
	return dst
}

// ctMul sets dst_i = Σ_j C_ji a_j x_j, with a = nil read as all ones.
func (nw *Network) ctMul(dst, a, x []float64) {
	n := nw.N()
	if w := workers(nw.NNZ(), n); w > 1 {
		chunks(n, w, func(lo, hi int) { nw.ctRange(dst, a, x, lo, hi) })
		return
	}
	nw.ctRange(dst, a, x, 0, n) // serial: no closure, no allocation
}

// ctRange sets dst_i = Σ_j C_ji a_j x_j for i in [lo, hi).
func (nw *Network) ctRange(dst, a, x []float64, lo, hi int) {
	if s := nw.Sparse; s != nil {
		for i := lo; i < hi; i++ {
			rows, vals := s.Col(i)
			var sum float64
			for k, j := range rows {
				y := x[j]
				if a != nil {
					y *= a[j]
				}
				sum += vals[k] * y
			}
			dst[i] = sum
		}
		return
	}
	// Dense: dst += (a_j x_j) C_j· row by row (contiguous axpy) on the
	// columns [lo, hi).
	out := dst[lo:hi]
	clear(out)
	for j := range nw.A {
		y := x[j]
		if a != nil {
			y *= a[j]
		}
		if y != 0 {
			floats.AddScaled(out, y, nw.C.RawRowView(j)[lo:hi]) // gonum's assembly axpy
		}
	}
}

// MulC computes dst_j = Σ_i C_ji μ_i (dst = C μ) and returns dst, with
// Loads' allocation, cost and panic rules.
func (nw *Network) MulC(dst, mu []float64) []float64 {
	n := nw.N()
	dst = checkLen("mu", dst, mu, n)
	if w := workers(nw.NNZ(), n); w > 1 {
		chunks(n, w, func(lo, hi int) { nw.cRange(dst, mu, lo, hi) })
	} else {
		nw.cRange(dst, mu, 0, n)
	}
	return dst
}

// cRange sets dst_j = Σ_i C_ji μ_i for j in [lo, hi).
func (nw *Network) cRange(dst, mu []float64, lo, hi int) {
	if s := nw.Sparse; s != nil {
		for j := lo; j < hi; j++ {
			cols, vals := s.Row(j)
			var sum float64
			for k, i := range cols {
				sum += vals[k] * mu[i]
			}
			dst[j] = sum
		}
		return
	}
	for j := lo; j < hi; j++ {
		dst[j] = floats.Dot(nw.C.RawRowView(j), mu) // gonum's assembly kernel
	}
}

// At returns C_ji = C[j][i]: O(1) for dense C, O(log degree) for sparse.
// It panics for an index outside [0, N).
func (nw *Network) At(j, i int) float64 {
	if nw.Sparse != nil {
		return nw.Sparse.At(j, i)
	}
	return nw.C.At(j, i)
}

// Row returns row j of C as columns and values C_ji. For sparse C these
// are the stored entries; for dense C the columns are 0, …, N−1 and the
// values are the row itself (zeros included). The slices are views
// without allocation: do not modify them. It panics if j is outside
// [0, N).
func (nw *Network) Row(j int) (cols []int, vals []float64) {
	if nw.Sparse != nil {
		return nw.Sparse.Row(j)
	}
	return denseCols(nw.N()), nw.C.RawRowView(j)
}

// Col returns column i of C as rows j and values C_ji, like Row. For
// dense C the values are a new slice (a column of a row-major matrix is
// not contiguous); for sparse C both are views. It panics if i is outside
// [0, N).
func (nw *Network) Col(i int) (rows []int, vals []float64) {
	if nw.Sparse != nil {
		return nw.Sparse.Col(i)
	}
	return denseCols(nw.N()), mat.Col(nil, i, nw.C)
}

// NNZ returns the number of stored entries of C: nnz for sparse C, N²
// for dense C.
func (nw *Network) NNZ() int {
	if nw.Sparse != nil {
		return nw.Sparse.NNZ()
	}
	return nw.N() * nw.N()
}

// colIndex holds 0, 1, 2, … read-only, shared by every dense Row and Col.
var (
	iotaMu   sync.Mutex
	colIndex []int
)

// denseCols returns the read-only slice 0, …, n−1.
func denseCols(n int) []int {
	iotaMu.Lock()
	defer iotaMu.Unlock()
	if len(colIndex) < n {
		colIndex = make([]int, max(n, 2*len(colIndex)))
		for k := range colIndex {
			colIndex[k] = k
		}
	}
	return colIndex[:n:n]
}

// LoadMatrix returns B = Cᵀ diag(A) densely, so that S = B x (spec §1.3
// eqs. (22)–(23)): B_ij = C_ji A_j. It allocates N² values whatever the
// form of C.
func (nw *Network) LoadMatrix() *mat.Dense {
	n := nw.N()
	b := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		cols, vals := nw.Row(j)
		for k, i := range cols {
			b.Set(i, j, vals[k]*nw.A[j])
		}
	}
	return b
}

// MaxLoads returns (Cᵀ A)_i, the load at each proxy when x = 1, which
// bounds S_i from above (spec §1.3).
func (nw *Network) MaxLoads() []float64 {
	return nw.MulCT(nil, nw.A)
}
