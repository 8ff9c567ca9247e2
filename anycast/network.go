package anycast

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"

	"gonum.org/v1/gonum/floats"
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
type Network struct {
	A []float64  // DNS arrival rates A_j ≥ 0
	C *mat.Dense // correlation matrix, row-stochastic, C[j][i] = C_ji
	T []float64  // proxy capacities T_i > 0
}

// NewNetwork copies a, c and t into a Network and validates it. It returns
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
		C: mat.DenseCopyOf(c),
		T: append([]float64(nil), t...),
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
	for j := range nw.A {
		if err := validateRow(j, nw.C.RawRowView(j)); err != nil {
			return err
		}
	}
	return nil
}

// validateShape checks that A, C and T describe the same N ≥ 1 nodes.
func (nw *Network) validateShape() error {
	n := len(nw.A)
	if n == 0 {
		return loadlab.Invalid("anycast", "len(A) = 0, want at least one node")
	}
	if nw.C == nil {
		return loadlab.Invalid("anycast", "C is nil, want an N×N matrix")
	}
	if r, k := nw.C.Dims(); r != n || k != n {
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
	var s float64
	for i, v := range row {
		if !(v >= 0) || math.IsInf(v, 1) {
			return loadlab.Invalid("anycast", "C[%d][%d] = %v, want a finite value ≥ 0", j, i, v)
		}
		s += v
	}
	if math.Abs(s-1) > RowSumTol {
		return loadlab.Invalid("anycast", "row %d of C sums to %v, want 1 (tolerance %g)", j, s, RowSumTol)
	}
	return nil
}

// N returns the number of nodes.
func (nw *Network) N() int { return len(nw.A) }

// Loads computes S_i = Σ_j A_j x_j C_ji (spec §1.3 eq. (21)) into dst and
// returns it. If dst is nil a new slice is allocated; the work is
// O(N²) with no allocation otherwise.
//
// Loads panics if len(x) or a non-nil len(dst) differs from N.
func (nw *Network) Loads(dst, x []float64) []float64 {
	n := nw.N()
	if len(x) != n {
		panic(fmt.Sprintf("anycast: len(x) = %d, want %d", len(x), n))
	}
	if dst == nil {
		dst = make([]float64, n)
	} else if len(dst) != n {
		panic(fmt.Sprintf("anycast: len(dst) = %d, want %d", len(dst), n))
	}
	clear(dst)
	for j := 0; j < n; j++ {
		if y := nw.A[j] * x[j]; y != 0 {
			floats.AddScaled(dst, y, nw.C.RawRowView(j)) // gonum's assembly axpy
		}
	}
	return dst
}

// LoadMatrix returns B = Cᵀ diag(A), so that S = B x (spec §1.3 eqs.
// (22)–(23)): B_ij = C_ji A_j.
func (nw *Network) LoadMatrix() *mat.Dense {
	n := nw.N()
	b := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b.Set(i, j, nw.C.At(j, i)*nw.A[j])
		}
	}
	return b
}

// MaxLoads returns (Cᵀ A)_i, the load at each proxy when x = 1, which
// bounds S_i from above (spec §1.3).
func (nw *Network) MaxLoads() []float64 {
	ones := make([]float64, nw.N())
	for i := range ones {
		ones[i] = 1
	}
	return nw.Loads(nil, ones)
}
