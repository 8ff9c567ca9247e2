package coding

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Decoder collects coded chunks of one set of ℓ source chunks, one at a
// time, keeps those that raise the rank of their coefficient vectors, and
// decodes once the rank is ℓ: the inverse of the ℓ×ℓ matrix of kept
// coefficient vectors (Gauss–Jordan over GF(2⁸)) times their data (spec
// coded-load.md §11.2).
type Decoder struct {
	ell, size int
	b         basis    // echelon basis of the kept vectors, to test innovation
	coeffs    [][]byte // the kept chunks' coefficient vectors, as received
	data      [][]byte // their data (copies)
	v         []byte   // scratch vector
	store     []byte   // backing store of data, ℓ·size bytes
}

// NewDecoder returns an empty decoder of ℓ = ell source chunks of
// chunkSize bytes each. ell or chunkSize < 1 is an error wrapping
// loadlab.ErrInvalid; ℓ·chunkSize (or ℓ·ℓ) bytes beyond the memory budget,
// one wrapping loadlab.ErrTooLarge.
func NewDecoder(ell, chunkSize int) (*Decoder, error) {
	if ell < 1 || chunkSize < 1 {
		return nil, loadlab.Invalid(pkg, "NewDecoder: ℓ, chunkSize = %d, %d, want both ≥ 1", ell, chunkSize)
	}
	if err := size.Check(pkg, "NewDecoder: ℓ·chunkSize", ell, chunkSize); err != nil {
		return nil, err
	}
	if err := size.Check(pkg, "NewDecoder: ℓ·ℓ", ell, 3*ell); err != nil {
		return nil, err
	}
	d := &Decoder{ell: ell, size: chunkSize, v: make([]byte, ell)}
	d.Reset()
	return d, nil
}

// Reset empties the decoder, keeping its storage.
func (d *Decoder) Reset() {
	d.b.reset(d.ell, d.ell)
	if d.coeffs == nil {
		d.coeffs = make([][]byte, 0, d.ell)
		d.data = make([][]byte, 0, d.ell)
		cbuf := make([]byte, d.ell*d.ell)
		d.store = make([]byte, d.ell*d.size)
		for i := range d.ell {
			d.coeffs = append(d.coeffs, cbuf[i*d.ell:(i+1)*d.ell:(i+1)*d.ell])
			d.data = append(d.data, d.store[i*d.size:(i+1)*d.size:(i+1)*d.size])
		}
	}
	d.coeffs, d.data = d.coeffs[:0], d.data[:0]
}

// Ell returns ℓ, the number of source chunks.
func (d *Decoder) Ell() int { return d.ell }

// Rank returns the rank of the coefficient vectors added so far: the
// number of chunks kept.
func (d *Decoder) Rank() int { return d.b.rank() }

// CanDecode reports whether the rank is ℓ.
func (d *Decoder) CanDecode() bool { return d.b.rank() == d.ell }

// Add offers a chunk, whose coefficients and data are copied, and
// reports whether it was innovative (outside the span of the chunks kept
// so far; kept). Once the rank is ℓ no chunk is innovative. A chunk
// whose Coeffs are not ℓ long or whose Data is not chunkSize long is an
// error wrapping loadlab.ErrInvalid.
func (d *Decoder) Add(c Chunk) (bool, error) {
	if len(c.Coeffs) != d.ell {
		return false, loadlab.Invalid(pkg, "Decoder.Add: len(Chunk.Coeffs) = %d, want ℓ = %d", len(c.Coeffs), d.ell)
	}
	if len(c.Data) != d.size {
		return false, loadlab.Invalid(pkg, "Decoder.Add: len(Chunk.Data) = %d, want chunkSize = %d", len(c.Data), d.size)
	}
	copy(d.v, c.Coeffs)
	if !d.b.insert(d.v) {
		return false, nil
	}
	k := len(d.coeffs)
	d.coeffs = d.coeffs[:k+1]
	d.data = d.data[:k+1]
	copy(d.coeffs[k], c.Coeffs)
	copy(d.data[k], c.Data)
	return true, nil
}

// Decode returns the ℓ source chunks, newly allocated. Below rank ℓ it
// returns an error wrapping ErrRankDeficient that gives the rank.
func (d *Decoder) Decode() ([][]byte, error) {
	if !d.CanDecode() {
		return nil, d.deficient("Decoder.Decode")
	}
	buf := make([]byte, d.ell*d.size) // the same size as the decoder's store
	dst := make([][]byte, d.ell)
	for i := range dst {
		dst[i] = buf[i*d.size : (i+1)*d.size : (i+1)*d.size]
	}
	return dst, d.DecodeTo(dst)
}

// DecodeTo writes the ℓ source chunks into dst. Below rank ℓ it returns
// an error wrapping ErrRankDeficient and leaves dst unchanged. It panics
// if dst does not hold ℓ slices of chunkSize bytes (a shape mismatch).
func (d *Decoder) DecodeTo(dst [][]byte) error {
	if len(dst) != d.ell {
		panic("coding: Decoder.DecodeTo: len(dst) ≠ ℓ")
	}
	for _, s := range dst {
		if len(s) != d.size {
			panic("coding: Decoder.DecodeTo: a dst slice is not chunkSize long")
		}
	}
	if !d.CanDecode() {
		return d.deficient("Decoder.DecodeTo")
	}
	inv, ok := invert(d.coeffs)
	if !ok { // the basis said rank ℓ: the kept vectors are independent
		panic("coding: internal error: kept coefficient vectors are singular")
	}
	mulRows(defaultKernel, inv, d.data, dst)
	return nil
}

func (d *Decoder) deficient(fn string) error {
	return loadlab.Wrap(ErrRankDeficient, pkg, "%s: rank %d < ℓ = %d: need at least %d more innovative chunks", fn, d.b.rank(), d.ell, d.ell-d.b.rank())
}
