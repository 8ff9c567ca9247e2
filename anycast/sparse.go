package anycast

import (
	"fmt"
	"math"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"

	"gonum.org/v1/gonum/mat"
)

// SparseC is a validated row-stochastic correlation matrix (spec §1.2) in
// compressed sparse rows: row j holds the proxies i with C_ji stored,
// columns increasing. It also keeps the transposed pattern (compressed
// columns), so that both C μ and Cᵀ d cost O(nnz) as gathers. A SparseC
// is immutable once built; NewNetwork shares it without copying.
//
// SparseC implements mat.Matrix (At is a binary search in the row,
// O(log degree)), so code written for mat.Matrix reads it unchanged.
type SparseC struct {
	n   int
	ptr []int     // row j is col[ptr[j]:ptr[j+1]], val[ptr[j]:ptr[j+1]]
	col []int     // column indices, increasing within a row
	val []float64 // C_ji
	// transposed pattern: column i of C is rows tcol[tptr[i]:tptr[i+1]]
	// with values tval[...] (rows increasing)
	tptr []int
	tcol []int
	tval []float64
}

// EntryError is the error NewSparseC returns for a bad entry of a sparse
// C: an index outside [0, N), a negative, NaN, infinite or > 1 value, a
// duplicate (Row, Col), an empty row or a row whose sum misses 1 by more
// than RowSumTol. Col is −1 for the last two (a property of the row).
// It wraps loadlab.ErrInvalid: test it with errors.Is, read Row and Col
// with errors.As.
type EntryError struct {
	Row, Col int     // C[Row][Col], spec index convention C_ji = C[j][i]
	Value    float64 // the entry, or the row sum for a row error
	Msg      string  // what is wrong
}

func (e *EntryError) Error() string {
	if e.Col < 0 {
		return fmt.Sprintf("anycast: row %d of C: %s (value %v)", e.Row, e.Msg, e.Value)
	}
	return fmt.Sprintf("anycast: C[%d][%d] = %v: %s", e.Row, e.Col, e.Value, e.Msg)
}

// Unwrap returns loadlab.ErrInvalid.
func (e *EntryError) Unwrap() error { return loadlab.ErrInvalid }

// NewSparseC builds the n×n matrix with C[rows[k]][cols[k]] = vals[k]
// (triplets in any order; explicit zeros are kept) and validates it: every
// index in [0, n), every value finite in [0, 1], no duplicate (row, col),
// no empty row, every row summing to 1 within RowSumTol. A bad entry is an
// *EntryError; n < 1, slices of different lengths or an nnz over the
// memory budget wrap loadlab.ErrInvalid or loadlab.ErrTooLarge.
func NewSparseC(n int, rows, cols []int, vals []float64) (*SparseC, error) {
	if n < 1 {
		return nil, loadlab.Invalid("anycast", "sparse C with n = %d, want n ≥ 1", n)
	}
	nnz := len(vals)
	if len(rows) != nnz || len(cols) != nnz {
		return nil, loadlab.Invalid("anycast", "sparse C: len(rows) = %d, len(cols) = %d, len(vals) = %d, want equal", len(rows), len(cols), nnz)
	}
	// two int and one float64 per entry, twice (rows and columns)
	if err := size.Check("anycast", "sparse C entries", nnz, 48); err != nil {
		return nil, err
	}
	if err := size.Check("anycast", "sparse C rows", n, 16); err != nil {
		return nil, err
	}
	for k := range vals {
		if err := checkEntry(n, rows[k], cols[k], vals[k]); err != nil {
			return nil, err
		}
	}
	s := &SparseC{n: n}
	s.ptr, s.col, s.val = compress(n, rows, cols, vals)
	if err := s.validateRows(); err != nil {
		return nil, err
	}
	s.tptr, s.tcol, s.tval = compress(n, s.col, s.rowIndex(), s.val)
	return s, nil
}

// checkEntry validates one triplet's indices and value.
func checkEntry(n, j, i int, v float64) error {
	switch {
	case j < 0 || j >= n || i < 0 || i >= n:
		return &EntryError{Row: j, Col: i, Value: v, Msg: fmt.Sprintf("index out of range [0, %d)", n)}
	case !(v >= 0) || math.IsInf(v, 1):
		return &EntryError{Row: j, Col: i, Value: v, Msg: "want a finite value ≥ 0"}
	case v > 1+RowSumTol:
		return &EntryError{Row: j, Col: i, Value: v, Msg: "want a value ≤ 1 (rows are stochastic)"}
	}
	return nil
}

// compress sorts triplets (r, c, v) into compressed rows with increasing
// columns within each row (counting sort on r, then a sort per row).
func compress(n int, r, c []int, v []float64) (ptr, col []int, val []float64) {
	ptr = make([]int, n+1)
	for _, j := range r {
		ptr[j+1]++
	}
	for j := 0; j < n; j++ {
		ptr[j+1] += ptr[j]
	}
	col = make([]int, len(v))
	val = make([]float64, len(v))
	next := slices.Clone(ptr[:n])
	for k, j := range r {
		col[next[j]], val[next[j]] = c[k], v[k]
		next[j]++
	}
	for j := 0; j < n; j++ {
		sortRow(col[ptr[j]:ptr[j+1]], val[ptr[j]:ptr[j+1]])
	}
	return ptr, col, val
}

// sortRow sorts one row's (column, value) pairs by column.
func sortRow(col []int, val []float64) {
	if slices.IsSorted(col) {
		return
	}
	idx := make([]int, len(col))
	for k := range idx {
		idx[k] = k
	}
	slices.SortFunc(idx, func(a, b int) int { return col[a] - col[b] })
	c2, v2 := slices.Clone(col), slices.Clone(val)
	for k, p := range idx {
		col[k], val[k] = c2[p], v2[p]
	}
}

// validateRows rejects duplicates, empty rows and rows not summing to 1.
func (s *SparseC) validateRows() error {
	for j := 0; j < s.n; j++ {
		cols, vals := s.Row(j)
		if len(cols) == 0 {
			return &EntryError{Row: j, Col: -1, Msg: "empty row, want entries summing to 1"}
		}
		var sum float64
		for k, v := range vals {
			if k > 0 && cols[k] == cols[k-1] {
				return &EntryError{Row: j, Col: cols[k], Value: v, Msg: "duplicate entry"}
			}
			sum += v
		}
		if math.Abs(sum-1) > RowSumTol {
			return &EntryError{Row: j, Col: -1, Value: sum, Msg: fmt.Sprintf("row sums to %v, want 1 (tolerance %g)", sum, RowSumTol)}
		}
	}
	return nil
}

// rowIndex returns the row of every stored entry, in storage order.
func (s *SparseC) rowIndex() []int {
	r := make([]int, len(s.val))
	for j := 0; j < s.n; j++ {
		for k := s.ptr[j]; k < s.ptr[j+1]; k++ {
			r[k] = j
		}
	}
	return r
}

// SparseOf returns the sparse form of a validated dense correlation
// matrix, storing its nonzero entries (NewSparseC's checks apply). It
// panics if c is nil.
func SparseOf(c mat.Matrix) (*SparseC, error) {
	if c == nil {
		panic("anycast: SparseOf: c is nil")
	}
	n, m := c.Dims()
	if n != m {
		return nil, loadlab.Invalid("anycast", "C is %d×%d, not square", n, m)
	}
	var rows, cols []int
	var vals []float64
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			if v := c.At(j, i); v != 0 {
				rows, cols, vals = append(rows, j), append(cols, i), append(vals, v)
			}
		}
	}
	return NewSparseC(n, rows, cols, vals)
}

// Dims returns (N, N).
func (s *SparseC) Dims() (r, c int) { return s.n, s.n }

// At returns C[j][i] (0 when not stored). It panics for an index outside
// [0, N), like mat.Dense.
func (s *SparseC) At(j, i int) float64 {
	if j < 0 || j >= s.n || i < 0 || i >= s.n {
		panic(mat.ErrIndexOutOfRange)
	}
	cols, vals := s.Row(j)
	if k, ok := slices.BinarySearch(cols, i); ok {
		return vals[k]
	}
	return 0
}

// T returns the transpose as a mat.Matrix.
func (s *SparseC) T() mat.Matrix { return mat.Transpose{Matrix: s} }

// NNZ returns the number of stored entries.
func (s *SparseC) NNZ() int { return len(s.val) }

// Row returns row j's stored columns (increasing) and values C_ji. The
// slices are views: do not modify them. It panics if j is outside [0, N).
func (s *SparseC) Row(j int) (cols []int, vals []float64) {
	return s.col[s.ptr[j]:s.ptr[j+1]], s.val[s.ptr[j]:s.ptr[j+1]]
}

// Col returns column i's stored rows j (increasing) and values C_ji.
// The slices are views: do not modify them. It panics if i is outside
// [0, N).
func (s *SparseC) Col(i int) (rows []int, vals []float64) {
	return s.tcol[s.tptr[i]:s.tptr[i+1]], s.tval[s.tptr[i]:s.tptr[i+1]]
}
