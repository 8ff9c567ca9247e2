package coding

import (
	"errors"

	"github.com/klauspost/reedsolomon"

	"github.com/loadlab/loadlab"
)

// MDS is the ideal reference code: a systematic Reed–Solomon code over
// GF(2⁸) from github.com/klauspost/reedsolomon with ℓ data and n − ℓ
// parity chunks, any ℓ of whose n chunks decode (spec coded-load.md
// §11.4) — the idealisation package codedload assumes.
type MDS struct {
	ell, n int
	enc    reedsolomon.Encoder
}

// NewMDS returns the code with ℓ = ell data chunks and n chunks in all.
// It needs 1 ≤ ℓ ≤ n ≤ 256 (the library's GF(2⁸) codes; wider ones
// change field), else an error wrapping loadlab.ErrInvalid.
func NewMDS(ell, n int) (*MDS, error) {
	if ell < 1 || n < ell || n > 256 {
		return nil, loadlab.Invalid(pkg, "NewMDS: ℓ, n = %d, %d, want 1 ≤ ℓ ≤ n ≤ 256", ell, n)
	}
	enc, err := reedsolomon.New(ell, n-ell, reedsolomon.WithMaxGoroutines(1))
	if err != nil {
		return nil, loadlab.Invalid(pkg, "NewMDS: ℓ, n = %d, %d: %v", ell, n, err)
	}
	return &MDS{ell: ell, n: n, enc: enc}, nil
}

// Ell returns ℓ, the number of data chunks.
func (m *MDS) Ell() int { return m.ell }

// N returns the number n of chunks.
func (m *MDS) N() int { return m.n }

// Encode returns the n chunks of the ℓ source chunks: the source chunks
// (copied) followed by n − ℓ parity chunks. A source of other than ℓ
// chunks, a chunk of length 0 or chunks of different lengths are an
// error wrapping loadlab.ErrInvalid.
func (m *MDS) Encode(source [][]byte) ([][]byte, error) {
	if len(source) != m.ell {
		return nil, loadlab.Invalid(pkg, "MDS.Encode: len(source) = %d, want ℓ = %d", len(source), m.ell)
	}
	sz := len(source[0])
	if err := sameLengths("MDS.Encode", "source", source, sz); err != nil {
		return nil, err
	}
	buf := make([]byte, m.n*sz) // n ≤ 256 chunks of a size already in memory
	out := make([][]byte, m.n)
	for i := range out {
		out[i] = buf[i*sz : (i+1)*sz : (i+1)*sz]
		if i < m.ell {
			copy(out[i], source[i])
		}
	}
	if err := m.enc.Encode(out); err != nil {
		return nil, loadlab.Invalid(pkg, "MDS.Encode: %v", err)
	}
	return out, nil
}

// Decode returns the ℓ source chunks from the n chunks given, where a
// nil (or empty) entry is a lost chunk; chunks is not modified. Fewer
// than ℓ chunks present is an error wrapping ErrRankDeficient; a slice
// of other than n entries or present chunks of length 0 or of different
// lengths, one wrapping loadlab.ErrInvalid.
func (m *MDS) Decode(chunks [][]byte) ([][]byte, error) {
	if len(chunks) != m.n {
		return nil, loadlab.Invalid(pkg, "MDS.Decode: len(chunks) = %d, want n = %d", len(chunks), m.n)
	}
	work := make([][]byte, m.n)
	present, sz := 0, -1
	for i, c := range chunks {
		if len(c) == 0 {
			continue
		}
		if sz < 0 {
			sz = len(c)
		}
		if len(c) != sz {
			return nil, loadlab.Invalid(pkg, "MDS.Decode: len(chunks[%d]) = %d, want %d (the first present chunk's length)", i, len(c), sz)
		}
		work[i] = append([]byte(nil), c...)
		present++
	}
	if present < m.ell {
		return nil, loadlab.Wrap(ErrRankDeficient, pkg, "MDS.Decode: %d chunks present, want at least ℓ = %d", present, m.ell)
	}
	if err := m.enc.ReconstructData(work); err != nil {
		if errors.Is(err, reedsolomon.ErrTooFewShards) {
			return nil, loadlab.Wrap(ErrRankDeficient, pkg, "MDS.Decode: %v", err)
		}
		return nil, loadlab.Invalid(pkg, "MDS.Decode: %v", err)
	}
	return work[:m.ell], nil
}

// sameLengths checks that every slice of xs has length sz ≥ 1.
func sameLengths(fn, name string, xs [][]byte, sz int) error {
	for i, x := range xs {
		if len(x) != sz || sz == 0 {
			return loadlab.Invalid(pkg, "%s: len(%s[%d]) = %d, want %d ≥ 1 (the length of %s[0])", fn, name, i, len(x), sz, name)
		}
	}
	return nil
}
