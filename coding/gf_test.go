package coding

import (
	"math/rand/v2"
	"testing"

	"github.com/klauspost/reedsolomon"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mulRef is the slow reference product: carry-less shift-and-add of a
// and b, each overflow of bit 8 reduced by Poly.
func mulRef(a, b byte) byte {
	x, y, p := int(a), int(b), 0
	for y != 0 {
		if y&1 != 0 {
			p ^= x
		}
		y >>= 1
		x <<= 1
		if x&0x100 != 0 {
			x ^= Poly
		}
	}
	return byte(p)
}

// mulRowsRef is the slow reference of the data product: every byte by
// mulRef.
func mulRowsRef(m [][]byte, in [][]byte) [][]byte {
	out := make([][]byte, len(m))
	for i, row := range m {
		out[i] = make([]byte, len(in[0]))
		for j, c := range row {
			for k, v := range in[j] {
				out[i][k] ^= mulRef(c, v)
			}
		}
	}
	return out
}

// TestFieldTables checks every product, inverse, quotient and
// logarithm against the shift-and-add reference, and every product
// against the Reed–Solomon library's own multiply (same polynomial, so
// the same bytes).
func TestFieldTables(t *testing.T) {
	var ll reedsolomon.LowLevel
	in := make([]byte, 256)
	for b := range in {
		in[b] = byte(b)
	}
	out := make([]byte, 256)
	for a := range 256 {
		ll.GalMulSlice(byte(a), in, out)
		for b := range 256 {
			want := mulRef(byte(a), byte(b))
			if Mul(byte(a), byte(b)) != want || out[b] != want {
				t.Fatalf("%d·%d: Mul %d, library %d, reference %d", a, b, Mul(byte(a), byte(b)), out[b], want)
			}
		}
		if a == 0 {
			continue
		}
		require.Equal(t, byte(1), mulRef(byte(a), Inv(byte(a))), "Inv(%d)", a)
		require.Equal(t, reedsolomon.Inv(byte(a)), Inv(byte(a)), "Inv(%d) against the library", a)
		require.Equal(t, byte(a), Exp(Log(byte(a))), "Exp(Log(%d))", a)
		require.Equal(t, byte(7), mulRef(Div(7, byte(a)), byte(a)), "Div(7, %d)", a)
	}
	assert.Equal(t, byte(0x1d), Exp(8)) // x⁸ = x⁴ + x³ + x² + 1
	assert.Equal(t, byte(1), Exp(255))
	assert.Equal(t, Exp(254), Exp(-1))
	assert.Equal(t, byte(3), Add(1, 2))
	assert.Panics(t, func() { Inv(0) })
	assert.Panics(t, func() { Div(1, 0) })
	assert.Panics(t, func() { Log(0) })
	// 2 is primitive: its powers take all 255 non-zero values.
	seen := map[byte]bool{}
	for i := range 255 {
		seen[Exp(i)] = true
	}
	assert.Len(t, seen, 255)
}

// TestSubfields checks that the elements subfield returns are closed
// under addition and multiplication and number q.
func TestSubfields(t *testing.T) {
	for _, q := range Fields {
		el := subfield(q)
		require.Len(t, el, q)
		in := map[byte]bool{}
		for _, e := range el {
			in[e] = true
		}
		require.Len(t, in, q, "q = %d: distinct elements", q)
		for _, a := range el {
			for _, b := range el {
				require.True(t, in[a^b] && in[Mul(a, b)], "q = %d: %d, %d", q, a, b)
			}
		}
	}
	assert.Nil(t, subfield(8)) // GF(8) is no subfield of GF(2⁸)
}

// TestKernels checks the three data products bit for bit against the
// reference, on shapes that exercise the SIMD kernels' tails (lengths
// not multiples of 16, 32 or 64) and the matrix kernel's fallback above
// 256 shards.
func TestKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][3]int{{1, 1, 1}, {3, 2, 17}, {14, 14, 1000}, {5, 9, 64 * 3}, {20, 3, 4097}, {200, 100, 33}} {
		rows, cols, n := sh[0], sh[1], sh[2]
		m, in := randBytes(rng, rows, cols), randBytes(rng, cols, n)
		m[0][0] = 0 // zero and one coefficients take their own branches
		m[rows-1][cols-1] = 1
		want := mulRowsRef(m, in)
		for _, k := range []kernel{kernelMatrix, kernelSlice, kernelTable} {
			out := randBytes(rng, rows, n) // stale contents must be overwritten
			mulRows(k, m, in, out)
			for i := range out {
				require.Equal(t, want[i], out[i], "kernel %d, shape %v, row %d", k, sh, i)
			}
		}
	}
}

func randBytes(rng *rand.Rand, rows, n int) [][]byte {
	out := make([][]byte, rows)
	for i := range out {
		out[i] = make([]byte, n)
		for k := range out[i] {
			out[i][k] = byte(rng.Uint32())
		}
	}
	return out
}
