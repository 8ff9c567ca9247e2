package coding

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestRoundTrip encodes random sources, loses each chunk with
// probability 1/2, feeds the survivors one at a time and checks that the
// decoder decodes exactly when its rank reaches ℓ, that Rank counts the
// innovative chunks (against Rank of the coefficient sets seen), and
// that the decoded bytes equal the source bit for bit.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 40 {
		ell, sz := 1+rng.IntN(20), 1+rng.IntN(3000)
		source := randBytes(rng, ell, sz)
		enc, err := NewEncoder(source)
		require.NoError(t, err)
		chunks, err := enc.Random(3*ell, rng)
		require.NoError(t, err)
		d, err := NewDecoder(ell, sz)
		require.NoError(t, err)
		var seen [][]byte
		for _, c := range chunks {
			if rng.IntN(2) == 0 {
				continue // lost
			}
			before := d.Rank()
			innovative, err := d.Add(c)
			require.NoError(t, err)
			seen = append(seen, c.Coeffs)
			r, err := Rank(seen)
			require.NoError(t, err)
			require.Equal(t, r, d.Rank(), "trial %d", trial)
			require.Equal(t, innovative, d.Rank() == before+1)
			if d.CanDecode() {
				break
			}
		}
		got, err := d.Decode()
		if !d.CanDecode() {
			require.ErrorIs(t, err, ErrRankDeficient)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, source, got, "trial %d: ℓ = %d, size %d", trial, ell, sz)
	}
}

// TestEncodeMatchesReference checks Encoder.Encode and Encoder.Random
// bit for bit against the slow reference product, and that a chunk of a
// unit coefficient vector is the source chunk.
func TestEncodeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	source := randBytes(rng, 5, 777)
	enc, err := NewEncoder(source)
	require.NoError(t, err)
	assert.Equal(t, 5, enc.Ell())
	assert.Equal(t, 777, enc.ChunkSize())
	c, err := enc.Encode([]byte{0, 0, 1, 0, 0})
	require.NoError(t, err)
	assert.Equal(t, source[2], c.Data)
	chunks, err := enc.Random(300, rng) // 300 rows: three blocks of the matrix kernel
	require.NoError(t, err)
	rows := make([][]byte, len(chunks))
	for i, c := range chunks {
		rows[i] = c.Coeffs
	}
	want := mulRowsRef(rows, source)
	for i, c := range chunks {
		require.Equal(t, want[i], c.Data, "chunk %d", i)
	}
	source[0][0] ^= 1 // the encoder holds a copy
	c2, err := enc.Encode(chunks[0].Coeffs)
	require.NoError(t, err)
	assert.Equal(t, chunks[0].Data, c2.Data)
}

// TestDecoderEdges: a zero vector and a repeated chunk are not
// innovative, nothing is after full rank, Reset empties the decoder, and
// below full rank Decode and DecodeTo name the rank in an error wrapping
// ErrRankDeficient.
func TestDecoderEdges(t *testing.T) {
	source := [][]byte{{1, 2, 3}, {4, 5, 6}}
	enc, err := NewEncoder(source)
	require.NoError(t, err)
	d, err := NewDecoder(2, 3)
	require.NoError(t, err)
	zero, _ := enc.Encode([]byte{0, 0})
	ok, err := d.Add(zero)
	require.NoError(t, err)
	assert.False(t, ok)
	a, _ := enc.Encode([]byte{3, 7})
	b, _ := enc.Encode([]byte{6, 14}) // 2·(3, 7): dependent
	ok, _ = d.Add(a)
	assert.True(t, ok)
	ok, _ = d.Add(b)
	assert.False(t, ok)
	_, err = d.Decode()
	assert.ErrorIs(t, err, ErrRankDeficient)
	assert.ErrorContains(t, err, "rank 1 < ℓ = 2")
	dst := [][]byte{make([]byte, 3), make([]byte, 3)}
	assert.ErrorIs(t, d.DecodeTo(dst), ErrRankDeficient)
	assert.Equal(t, []byte{0, 0, 0}, dst[0], "dst untouched")
	c, _ := enc.Encode([]byte{1, 1})
	ok, _ = d.Add(c)
	assert.True(t, ok)
	ok, _ = d.Add(b)
	assert.False(t, ok, "nothing is innovative at full rank")
	require.NoError(t, d.DecodeTo(dst))
	assert.Equal(t, source, dst)
	d.Reset()
	assert.Equal(t, 0, d.Rank())
	assert.Equal(t, 2, d.Ell())
	assert.False(t, d.CanDecode())
}

// TestRankExhaustive enumerates every m×ℓ matrix with entries in a
// subfield GF(q) of GF(2⁸) (q = 2, 4, 16; at most 2^16 matrices each),
// ranks it with Rank over GF(2⁸), and compares the number of full-rank
// matrices with q^{mℓ}·DecodeProb(q, ℓ, m − ℓ) (spec §11.3), an exact
// integer: the counts must agree to rounding (relative 1e-12).
func TestRankExhaustive(t *testing.T) {
	for _, c := range [][3]int{{2, 1, 1}, {2, 2, 2}, {2, 3, 3}, {2, 4, 3}, {2, 4, 4}, {2, 5, 3}, {2, 1, 5}, {4, 2, 2}, {4, 3, 2}, {4, 4, 2}, {4, 2, 3}, {16, 1, 1}, {16, 2, 2}, {16, 1, 4}} {
		q, m, ell := c[0], c[1], c[2]
		el := subfield(q)
		total := int(math.Pow(float64(q), float64(m*ell)))
		rows := make([][]byte, m)
		for i := range rows {
			rows[i] = make([]byte, ell)
		}
		full := 0
		for code := range total {
			x := code
			for i := range m {
				for j := range ell {
					rows[i][j] = el[x%q]
					x /= q
				}
			}
			r, err := Rank(rows)
			require.NoError(t, err)
			if r == min(m, ell) && r == ell {
				full++
			}
		}
		want := 0.0
		if m >= ell {
			p, err := DecodeProb(float64(q), ell, m-ell)
			require.NoError(t, err)
			want = p * float64(total)
		}
		assert.InDelta(t, want, float64(full), 1e-12*float64(total)+1e-9, "q = %d, %d×%d", q, m, ell)
	}
}

// TestRank2x2GF256 counts the singular 2×2 matrices over the whole of
// GF(2⁸) without enumerating 2^32 of them: (a, b; c, d) is singular iff
// a·d = b·c, so their number is Σ_x N(x)², N(x) the number of pairs
// with product x. The count must be q⁴ − (q² − 1)(q² − q) exactly, the
// complement of q⁴·DecodeProb(q, 2, 0).
func TestRank2x2GF256(t *testing.T) {
	var n [256]int
	for a := range 256 {
		for d := range 256 {
			n[Mul(byte(a), byte(d))]++
		}
	}
	singular := 0
	for _, k := range n {
		singular += k * k
	}
	q := 256
	assert.Equal(t, q*q*q*q-(q*q-1)*(q*q-q), singular)
	p, err := DecodeProb(256, 2, 0)
	require.NoError(t, err)
	assert.InDelta(t, float64(q*q*q*q-singular), p*math.Pow(256, 4), 1e-3) // 4.3e9 to 1e-12 relative
	// One row: rank 1 unless zero, (q^ℓ − 1) of q^ℓ.
	r, err := Rank([][]byte{{0, 0, 0}})
	require.NoError(t, err)
	assert.Equal(t, 0, r)
	r, _ = Rank([][]byte{{0, 9, 0}})
	assert.Equal(t, 1, r)
	r, _ = Rank(nil)
	assert.Equal(t, 0, r)
}

// TestChunksToDecodeBrokenSource: a source that always gives zero never
// reaches rank ℓ; ChunksToDecode stops after ℓ + MaxExtraDraws draws
// with an error wrapping loadlab.ErrNotConverged rather than hanging.
func TestChunksToDecodeBrokenSource(t *testing.T) {
	n, err := ChunksToDecode(256, 3, zeroSource{})
	assert.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, 3+MaxExtraDraws, n)
	assert.False(t, errors.Is(err, loadlab.ErrInvalid))
}

type zeroSource struct{}

func (zeroSource) Uint64() uint64 { return 0 }

// TestSpanMatchesRank: Span's rank after each added vector is Rank of
// the vectors so far, over random vectors from every field; Add leaves
// its argument unchanged; Reset empties it. DrawCoeffs at q = 256 gives
// the bytes of the source in order.
func TestSpanMatchesRank(t *testing.T) {
	src := rand.NewPCG(31, 32)
	for _, q := range Fields {
		sp, err := NewSpan(4)
		require.NoError(t, err)
		var seen [][]byte
		for range 12 {
			v := make([]byte, 4)
			require.NoError(t, DrawCoeffs(q, v, src))
			keep := append([]byte(nil), v...)
			before := sp.Rank()
			ok, err := sp.Add(v)
			require.NoError(t, err)
			require.Equal(t, keep, v)
			seen = append(seen, v)
			r, _ := Rank(seen)
			require.Equal(t, r, sp.Rank(), "q = %d", q)
			require.Equal(t, ok, r == before+1)
			require.Equal(t, r == 4, sp.Full())
		}
		sp.Reset()
		assert.Equal(t, 0, sp.Rank())
	}
	a, b := rand.NewPCG(1, 2), rand.NewPCG(1, 2)
	v := make([]byte, 9)
	require.NoError(t, DrawCoeffs(256, v, a))
	w0, w1 := b.Uint64(), b.Uint64()
	assert.Equal(t, byte(w0), v[0])
	assert.Equal(t, byte(w0>>56), v[7])
	assert.Equal(t, byte(w1), v[8])
}
