package anycast

import (
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/par"
	"github.com/loadlab/loadlab/internal/size"

	"gonum.org/v1/gonum/mat"
)

// RowSumTol is the tolerance NewNetwork allows on each row sum of C
// (|Σ_j C_ij − 1| ≤ RowSumTol). It admits matrices written with a few
// decimals whose rows sum to 1 only up to rounding.
const RowSumTol = 1e-9

// Network is a validated anycast model (spec §1). Build it with
// NewNetwork; the fields are exported for reading in hot loops, and a
// caller who changes them must call Validate again (package dual and
// stability call it on every entry point that takes a network).
//
// The correlation matrix is stored in exactly one of two forms: C for
// dense input (any mat.Matrix other than *SparseC, copied), Sparse for a
// *SparseC (shared; it is immutable). Code that must work for both reads
// C through the methods At, Row, Col, MulC, MulCT, Loads and NNZ, which
// cost O(nnz) per product for sparse C and O(N²) for dense C. AsDense and
// AsSparse give the same network in the other form.
type Network struct {
	A      []float64  // DNS arrival rates A_j ≥ 0
	C      *mat.Dense // dense correlation matrix, row-stochastic, C[j][i] = C_ji; nil when Sparse is set
	Sparse *SparseC   // sparse correlation matrix; nil when C is set
	T      []float64  // proxy capacities T_i > 0
}

// NewNetwork copies a, c and t into a Network and validates it. A c of
// type *SparseC (already validated by NewSparseC) is stored in Sparse and
// shared; any other mat.Matrix is copied densely into C. It returns
// an error wrapping loadlab.ErrInvalid and naming the offending entry for
// a negative, NaN or infinite value, a row of c that does not sum to 1
// within RowSumTol, a non-positive capacity, a total demand Σ A_j that
// overflows, mismatched sizes or a nil c.
func NewNetwork(a []float64, c mat.Matrix, t []float64) (*Network, error) {
	if c == nil {
		return nil, loadlab.Invalid("anycast", "C is nil, want an N×N matrix")
	}
	if r, k := c.Dims(); r != k {
		return nil, loadlab.Invalid("anycast", "C is %d×%d, not square", r, k)
	}
	nw := &Network{
		A: append([]float64(nil), a...),
		T: append([]float64(nil), t...),
	}
	if sc, ok := c.(*SparseC); ok {
		nw.Sparse = sc
	} else {
		nw.C = mat.DenseCopyOf(c)
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	return nw, nil
}

// Validate checks the model as NewNetwork does: sizes, then every entry
// of A, T and C (row by row, naming the row and the column), then the row
// sums and the total demand. Call it again after changing a field. It
// panics if nw is nil.
func (nw *Network) Validate() error {
	if nw == nil {
		panic("anycast: Validate on a nil *Network")
	}
	if err := nw.validateShape(); err != nil {
		return err
	}
	var total float64
	for j, v := range nw.A {
		if !(v >= 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("anycast", "A[%d] = %v, want a finite value ≥ 0", j, v)
		}
		total += v
	}
	if math.IsInf(total, 1) {
		return loadlab.Invalid("anycast", "Σ A_j overflows (+Inf), want a finite total demand")
	}
	for i, v := range nw.T {
		if !(v > 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("anycast", "T[%d] = %v, want a finite value > 0", i, v)
		}
	}
	if nw.Sparse != nil {
		return nil // validated by NewSparseC and immutable
	}
	return nw.validateDense()
}

// validateDense checks every row of the dense C (validateRow), the rows
// split over the cores for large N; the error is that of the first bad
// row, as in a serial scan.
func (nw *Network) validateDense() error {
	n := nw.N()
	// Pieces on the pool's helpers (par.Loop), which an integration
	// that validates its network each time finds awake; each piece
	// records its first bad row, so the lowest bad row is the first
	// error in order.
	errs := make([]error, (n+validateGrain-1)/validateGrain)
	par.Loop(n, opWorkers(n*n), validateGrain, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			if err := validateRow(j, nw.C.RawRowView(j)); err != nil {
				errs[lo/validateGrain] = err
				return
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// validateGrain is the number of rows of dense C in a piece of the
// validation (64 KB each at N = 1000).
const validateGrain = 8

// validateShape checks that A, C and T describe the same N ≥ 1 nodes.
func (nw *Network) validateShape() error {
	n := len(nw.A)
	if n == 0 {
		return loadlab.Invalid("anycast", "len(A) = 0, want at least one node")
	}
	var c mat.Matrix
	switch {
	case nw.C != nil && nw.Sparse != nil:
		return loadlab.Invalid("anycast", "both C and Sparse are set, want exactly one")
	case nw.C != nil:
		c = nw.C
	case nw.Sparse != nil:
		c = nw.Sparse
	default:
		return loadlab.Invalid("anycast", "C is nil, want an N×N matrix")
	}
	if r, k := c.Dims(); r != n || k != n {
		return loadlab.Invalid("anycast", "C is %d×%d but len(A) = %d", r, k, n)
	}
	if len(nw.T) != n {
		return loadlab.Invalid("anycast", "len(T) = %d but len(A) = %d", len(nw.T), n)
	}
	return nil
}

// validateRow checks row j of C: finite entries ≥ 0 summing to 1 within
// RowSumTol (row-stochastic, spec §1.2).
func validateRow(j int, row []float64) error {
	// Four partial sums and a running maximum of the bit patterns: a
	// plain running sum is a chain of dependent additions, and a test per
	// entry a branch, the whole cost of validating a dense C. A finite
	// value ≥ +0 has bits below those of +Inf; NaN, +Inf and negative
	// values (−0 too, which the exact test then admits) have bits above.
	// The sum differs from a plain one by rounding only, far below
	// RowSumTol.
	const inf = 0x7FF0000000000000
	var s0, s1, s2, s3 float64
	var top uint64
	i := 0
	for ; i+4 <= len(row); i += 4 {
		a, b, c, d := row[i], row[i+1], row[i+2], row[i+3]
		top = max(top, math.Float64bits(a), math.Float64bits(b), math.Float64bits(c), math.Float64bits(d))
		s0, s1, s2, s3 = s0+a, s1+b, s2+c, s3+d
	}
	for ; i < len(row); i++ {
		top = max(top, math.Float64bits(row[i]))
		s0 += row[i]
	}
	if top >= inf {
		for i, v := range row {
			if !(v >= 0) || math.IsInf(v, 1) {
				return loadlab.Invalid("anycast", "C[%d][%d] = %v, want a finite value ≥ 0", j, i, v)
			}
		}
	}
	if s := (s0 + s1) + (s2 + s3); math.Abs(s-1) > RowSumTol {
		return loadlab.Invalid("anycast", "row %d of C sums to %v, want 1 (tolerance %g)", j, s, RowSumTol)
	}
	return nil
}

// N returns the number of nodes.
func (nw *Network) N() int { return len(nw.A) }

// AsDense returns a new network with nw's A, T and correlation matrix,
// C stored densely (C set, Sparse nil): the dense twin of a sparse
// network, for checking that an entry point gives the same result on
// both forms, or for the dense kernels at small N. A dense nw is copied.
// It returns the errors of Validate (nw is validated first, since its
// fields may have changed) and one wrapping loadlab.ErrTooLarge if N²
// entries exceed the memory budget. It panics if nw is nil.
func (nw *Network) AsDense() (*Network, error) {
	if nw == nil {
		panic("anycast: AsDense on a nil *Network")
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	n := nw.N()
	if nn, ok := size.Mul(n, n); !ok || size.Check("anycast", "AsDense: dense C entries N²", nn, 8) != nil {
		return nil, loadlab.TooLarge("anycast", "AsDense: dense C of N = %d needs N² entries beyond the memory budget", n)
	}
	var c mat.Matrix = nw.C
	if nw.Sparse != nil {
		c = nw.Sparse
	}
	return &Network{A: slices.Clone(nw.A), C: mat.DenseCopyOf(c), T: slices.Clone(nw.T)}, nil
}

// AsSparse returns a new network with nw's A, T and correlation matrix,
// C stored sparsely (Sparse set, C nil): the nonzero entries of a dense
// C (SparseOf), or nw's own immutable *SparseC, shared. It returns the
// errors of Validate (nw is validated first) and of SparseOf. It panics
// if nw is nil.
func (nw *Network) AsSparse() (*Network, error) {
	if nw == nil {
		panic("anycast: AsSparse on a nil *Network")
	}
	if err := nw.Validate(); err != nil {
		return nil, err
	}
	sc := nw.Sparse
	if sc == nil {
		var err error
		if sc, err = SparseOf(nw.C); err != nil {
			return nil, err
		}
	}
	return &Network{A: slices.Clone(nw.A), Sparse: sc, T: slices.Clone(nw.T)}, nil
}
