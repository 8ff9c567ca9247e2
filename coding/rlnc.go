package coding

import (
	"errors"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

const pkg = "coding"

// ErrRankDeficient is returned by Decoder.Decode when the chunks added
// so far span fewer than ℓ dimensions (more chunks are needed), and by
// MDS.Decode when fewer than ℓ chunks are present.
var ErrRankDeficient = errors.New("rank-deficient: too few independent chunks to decode")

// Chunk is a coded chunk of random linear network coding: Data is the
// linear combination Σ_j Coeffs[j]·source[j] over GF(2⁸), byte by byte,
// of the ℓ source chunks (spec coded-load.md §11.2).
type Chunk struct {
	Coeffs []byte // the coefficient vector, ℓ entries
	Data   []byte // the coded bytes, one source chunk's length
}

// Encoder makes coded chunks of ℓ equal-length source chunks.
type Encoder struct {
	src  [][]byte // the source chunks (copies)
	size int
}

// NewEncoder returns an encoder of the source chunks, which it copies.
// An empty source, a source chunk of length 0 or chunks of different
// lengths are an error wrapping loadlab.ErrInvalid.
func NewEncoder(source [][]byte) (*Encoder, error) {
	if len(source) == 0 {
		return nil, loadlab.Invalid(pkg, "NewEncoder: ℓ = len(source) = 0, want ≥ 1")
	}
	n := len(source[0])
	if n == 0 {
		return nil, loadlab.Invalid(pkg, "NewEncoder: len(source[0]) = 0, want ≥ 1")
	}
	for i, s := range source {
		if len(s) != n {
			return nil, loadlab.Invalid(pkg, "NewEncoder: len(source[%d]) = %d, want %d (the length of source[0])", i, len(s), n)
		}
	}
	buf := make([]byte, 0, len(source)*n) // the source is in memory: the copy fits
	e := &Encoder{src: make([][]byte, len(source)), size: n}
	for i, s := range source {
		buf = append(buf, s...)
		e.src[i] = buf[i*n : (i+1)*n : (i+1)*n]
	}
	return e, nil
}

// Ell returns ℓ, the number of source chunks.
func (e *Encoder) Ell() int { return len(e.src) }

// ChunkSize returns the length in bytes of every chunk.
func (e *Encoder) ChunkSize() int { return e.size }

// Encode returns the chunk with the given coefficient vector (copied).
// A vector of length other than ℓ is an error wrapping loadlab.ErrInvalid.
func (e *Encoder) Encode(coeffs []byte) (Chunk, error) {
	if len(coeffs) != len(e.src) {
		return Chunk{}, loadlab.Invalid(pkg, "Encoder.Encode: len(coeffs) = %d, want ℓ = %d", len(coeffs), len(e.src))
	}
	c := Chunk{Coeffs: append([]byte(nil), coeffs...), Data: make([]byte, e.size)}
	mulRows(defaultKernel, [][]byte{c.Coeffs}, e.src, [][]byte{c.Data})
	return c, nil
}

// Random returns k coded chunks whose coefficient vectors are drawn
// independently and uniformly from GF(2⁸)^ℓ, one byte of src per
// coefficient (eight from each Uint64, chunk by chunk), all k made in one
// pass over the source. A negative k is an error wrapping
// loadlab.ErrInvalid; k chunks beyond the memory budget, one wrapping
// loadlab.ErrTooLarge. It panics if src is nil.
func (e *Encoder) Random(k int, src rand.Source) ([]Chunk, error) {
	if src == nil {
		panic("coding: Encoder.Random: src is nil")
	}
	if k < 0 {
		return nil, loadlab.Invalid(pkg, "Encoder.Random: k = %d, want ≥ 0", k)
	}
	if err := size.Check(pkg, "Encoder.Random: k", k, e.size+len(e.src)); err != nil {
		return nil, err
	}
	out := make([]Chunk, k)
	rows, data := make([][]byte, k), make([][]byte, k)
	for i := range out {
		out[i] = Chunk{Coeffs: make([]byte, len(e.src)), Data: make([]byte, e.size)}
		drawCoeffs(src, out[i].Coeffs)
		rows[i], data[i] = out[i].Coeffs, out[i].Data
	}
	const block = matrixMaxShards / 2 // output rows per product, within the matrix kernel's shard limit for ℓ ≤ 128
	for lo := 0; lo < k; lo += block {
		hi := min(k, lo+block)
		mulRows(defaultKernel, rows[lo:hi], e.src, data[lo:hi])
	}
	return out, nil
}

// drawCoeffs fills v with uniform bytes, eight from each src.Uint64.
func drawCoeffs(src rand.Source, v []byte) {
	for i := 0; i < len(v); i += 8 {
		w := src.Uint64()
		for j := i; j < min(i+8, len(v)); j++ {
			v[j] = byte(w)
			w >>= 8
		}
	}
}
