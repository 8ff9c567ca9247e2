package coding

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Rank returns the rank over GF(2⁸) of the matrix whose rows are rows
// (each a coefficient vector of the same length), by Gaussian
// elimination on a copy (spec coded-load.md §11.2). No rows, or rows of
// length 0, have rank 0. Rows of different lengths are an error wrapping
// loadlab.ErrInvalid.
func Rank(rows [][]byte) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	cols := len(rows[0])
	for i, r := range rows {
		if len(r) != cols {
			return 0, loadlab.Invalid(pkg, "Rank: len(rows[%d]) = %d, want %d (the length of rows[0])", i, len(r), cols)
		}
	}
	var b basis
	b.reset(cols, min(len(rows), cols))
	v := make([]byte, cols)
	for _, r := range rows {
		copy(v, r)
		b.insert(v)
	}
	return b.rank(), nil
}

// basis is a row-echelon basis of the span of the coefficient vectors
// seen so far: row i has a 1 at column piv[i] and zeros at the pivots of
// the rows before it, so that one pass in order reduces any vector.
type basis struct {
	cols int
	max  int // the most rows the basis can hold (≤ cols)
	rows [][]byte
	piv  []int
	buf  []byte // backing store of rows, max·cols bytes
}

// reset empties the basis for vectors of cols entries, room for max
// rows; the storage is kept when the shape is unchanged.
func (b *basis) reset(cols, max int) {
	if b.cols != cols || b.max != max || b.buf == nil {
		b.cols, b.max = cols, max
		b.buf = make([]byte, max*cols)
		b.rows = make([][]byte, 0, max)
		b.piv = make([]int, 0, max)
	}
	b.rows, b.piv = b.rows[:0], b.piv[:0]
}

func (b *basis) rank() int { return len(b.rows) }

// insert reduces v (overwriting it) against the basis and, when a
// non-zero remainder is left, adds it as a new row: it reports whether v
// was innovative (outside the span).
func (b *basis) insert(v []byte) bool {
	if len(b.rows) == b.cols {
		return false // full rank: nothing is innovative
	}
	for i, r := range b.rows {
		if c := v[b.piv[i]]; c != 0 {
			axpy(c, r, v)
		}
	}
	p := -1
	for j, c := range v {
		if c != 0 {
			p = j
			break
		}
	}
	if p < 0 {
		return false
	}
	k := len(b.rows)
	row := b.buf[k*b.cols : (k+1)*b.cols]
	scale(invTab[v[p]], v, row)
	b.rows = append(b.rows, row)
	b.piv = append(b.piv, p)
	return true
}

// axpy sets y ^= c·x (subtraction is addition in characteristic 2).
func axpy(c byte, x, y []byte) {
	t := &mulTab[c]
	y = y[:len(x)]
	for k, v := range x {
		y[k] ^= t[v]
	}
}

// scale sets dst = c·x.
func scale(c byte, x, dst []byte) {
	t := &mulTab[c]
	dst = dst[:len(x)]
	for k, v := range x {
		dst[k] = t[v]
	}
}

// invert returns the inverse of the square matrix a (rows of len(a)
// entries) by Gauss–Jordan elimination, leaving a unchanged, and false
// when a is singular.
func invert(a [][]byte) ([][]byte, bool) {
	n := len(a)
	w := make([][]byte, n) // [a | I], reduced to [I | a⁻¹]
	for i := range w {
		w[i] = make([]byte, 2*n)
		copy(w[i], a[i])
		w[i][n+i] = 1
	}
	for col := range n {
		p := col
		for p < n && w[p][col] == 0 {
			p++
		}
		if p == n {
			return nil, false
		}
		w[col], w[p] = w[p], w[col]
		scale(invTab[w[col][col]], w[col], w[col])
		for i := range n {
			if c := w[i][col]; i != col && c != 0 {
				axpy(c, w[col], w[i])
			}
		}
	}
	inv := make([][]byte, n)
	for i := range inv {
		inv[i] = w[i][n:]
	}
	return inv, true
}

// Span tracks the span of coefficient vectors of length ℓ added one at a
// time: the innovation test of Decoder without the data, for simulators
// that follow which chunks a receiver can use (spec coded-load.md §11.2).
type Span struct {
	b basis
	v []byte
}

// NewSpan returns an empty span of vectors with ℓ = ell entries. ell < 1
// is an error wrapping loadlab.ErrInvalid; an ℓ×ℓ basis beyond the memory
// budget, one wrapping loadlab.ErrTooLarge.
func NewSpan(ell int) (*Span, error) {
	if ell < 1 {
		return nil, loadlab.Invalid(pkg, "NewSpan: ℓ = %d, want ≥ 1", ell)
	}
	if err := size.Check(pkg, "NewSpan: ℓ·ℓ", ell, ell+1); err != nil {
		return nil, err
	}
	s := &Span{v: make([]byte, ell)}
	s.b.reset(ell, ell)
	return s, nil
}

// Add adds the vector v (not modified) and reports whether it was
// innovative, raising the rank. A vector of length other than ℓ is an
// error wrapping loadlab.ErrInvalid.
func (s *Span) Add(v []byte) (bool, error) {
	if len(v) != len(s.v) {
		return false, loadlab.Invalid(pkg, "Span.Add: len(v) = %d, want ℓ = %d", len(v), len(s.v))
	}
	copy(s.v, v)
	return s.b.insert(s.v), nil
}

// Rank returns the dimension of the span.
func (s *Span) Rank() int { return s.b.rank() }

// Full reports whether the rank is ℓ.
func (s *Span) Full() bool { return s.b.rank() == len(s.v) }

// Reset empties the span, keeping its storage.
func (s *Span) Reset() { s.b.reset(len(s.v), len(s.v)) }
