package asm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// guard is the number of sentinel entries on each side of a slice cut
// from a guarded buffer, and sentinel their value: a NaN with a payload
// of its own, which a kernel that read it would carry into its result
// and one that wrote it would overwrite.
const guard = 19

var sentinel = math.Float64frombits(0x7ff8_dead_beef_0001)

// guarded returns a buffer of n entries between two guard bands of
// sentinels, starting off entries into its backing array, and the array.
func guarded(n, off int) (s, buf []float64) {
	buf = make([]float64, off+n+2*guard)
	for i := range buf {
		buf[i] = sentinel
	}
	return buf[off+guard : off+guard+n : off+guard+n], buf
}

// checkGuards fails unless every entry of buf outside [off+guard,
// off+guard+n) still holds the sentinel's bits.
func checkGuards(t *testing.T, buf []float64, off, n int, name string) {
	t.Helper()
	for i, v := range buf {
		if (i < off+guard || i >= off+guard+n) && math.Float64bits(v) != math.Float64bits(sentinel) {
			t.Fatalf("%s: entry %d outside the slice [%d, %d) changed to %v", name, i, off+guard, off+guard+n, v)
		}
	}
}

// specials are values the kernels must treat as the references do:
// signed zeros, subnormals, the extremes of the range, infinities.
var specials = []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 2.2250738585072014e-308,
	1e-300, -1e-300, 1, -1, 1e300, -1e300, math.MaxFloat64, math.Inf(1), math.Inf(-1)}

// fill sets s to random values of mixed signs and magnitudes, with a
// special value at a random place for a fraction special of the entries.
func fill(rng *rand.Rand, s []float64, special float64) {
	for i := range s {
		s[i] = (2*rng.Float64() - 1) * math.Ldexp(1, rng.IntN(20)-10)
		if rng.Float64() < special {
			s[i] = specials[rng.IntN(len(specials))]
		}
	}
}

// sameBits reports whether a and b have the same bits, or are both NaN
// (the payload of a NaN made by the arithmetic is not specified).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// Dot4 on every length m = 0, 8, …, 72, row strides 0 (one row four
// times), m and m + 3, at offsets 0–3 into guarded buffers: the kernel
// gives the reference's bits, reads nothing outside its slices (the NaN
// sentinels would show) and writes nothing into them; finite data of
// moderate size gives a sum within its error bound of the exact one.
func TestDot4MatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for m := 0; m <= 72; m += 8 {
		for _, lda := range []int{0, m, m + 3} {
			for off := range 4 {
				for _, special := range []float64{0, 0.1} {
					checkDot4(t, rng, m, lda, off, special)
				}
			}
		}
	}
}

func checkDot4(t *testing.T, rng *rand.Rand, m, lda, off int, special float64) {
	t.Helper()
	na := 3*lda + m
	a, abuf := guarded(na, off)
	x, xbuf := guarded(m, 3-off)
	fill(rng, a, special)
	fill(rng, x, special)
	var got, want [4]float64
	got = [4]float64{sentinel, sentinel, sentinel, sentinel}
	Dot4(&got, a, lda, x)
	if m > 0 {
		dot4Ref(&want, a, lda, x)
	}
	for r := range got {
		require.True(t, sameBits(got[r], want[r]), "m = %d, lda = %d, off = %d, row %d: kernel %v, reference %v", m, lda, off, r, got[r], want[r])
		if special == 0 {
			// |error| ≤ γ_m Σ|a x| with γ_m = mε/(1 − mε) (a sum of m
			// products in any order, Higham Thm 3.1); here γ_m < 2mε.
			var exact, abs float64
			for j := range m {
				p := a[r*lda+j] * x[j]
				exact += p
				abs += math.Abs(p)
			}
			assert.InDelta(t, exact, got[r], 4*float64(m+1)*0x1p-53*abs, "m = %d, row %d", m, r)
		}
	}
	checkGuards(t, abuf, off, na, "a")
	checkGuards(t, xbuf, 3-off, m, "x")
}

// Dot6 gives every vector the bits Dot4 gives the row and that vector,
// reads and writes only its slices, on every length m = 0, 8, …, 72 at
// offsets 0–3.
func TestDot6MatchesDot4(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for m := 0; m <= 72; m += 8 {
		for off := range 4 {
			for _, special := range []float64{0, 0.1} {
				row, rbuf := guarded(m, off)
				fill(rng, row, special)
				var xs [6][]float64
				var bufs [6][]float64
				for k := range xs {
					xs[k], bufs[k] = guarded(m, (off+k)%4)
					fill(rng, xs[k], special)
				}
				var got [6]float64
				Dot6(&got, row, &xs)
				for k := range xs {
					var want [4]float64
					Dot4(&want, row, 0, xs[k])
					require.True(t, sameBits(got[k], want[0]), "m = %d, off = %d, vector %d: Dot6 %v, Dot4 %v", m, off, k, got[k], want[0])
					var ref [6]float64
					if m > 0 {
						dot6Ref(&ref, row, &xs)
					}
					require.True(t, sameBits(got[k], ref[k]), "m = %d, vector %d: kernel %v, reference %v", m, k, got[k], ref[k])
					checkGuards(t, bufs[k], (off+k)%4, m, "xs")
				}
				checkGuards(t, rbuf, off, m, "row")
			}
		}
	}
}

// Wrong shapes are programmer errors: Dot4 and Dot6 panic.
func TestDotPanics(t *testing.T) {
	var o4 [4]float64
	var o6 [6]float64
	assert.Panics(t, func() { Dot4(&o4, make([]float64, 40), 8, make([]float64, 7)) }, "m not a multiple of 8")
	assert.Panics(t, func() { Dot4(&o4, make([]float64, 31), 8, make([]float64, 8)) }, "short a")
	assert.Panics(t, func() { Dot4(&o4, make([]float64, 40), -1, make([]float64, 8)) }, "lda < 0")
	assert.NotPanics(t, func() { Dot4(&o4, make([]float64, 32), 8, make([]float64, 8)) }, "a of 3·lda + m")
	var xs [6][]float64
	for k := range xs {
		xs[k] = make([]float64, 16)
	}
	assert.Panics(t, func() { Dot6(&o6, make([]float64, 12), &xs) }, "m not a multiple of 8")
	xs[5] = xs[5][:8]
	assert.Panics(t, func() { Dot6(&o6, make([]float64, 16), &xs) }, "short xs[5]")
}

func BenchmarkDot4_N1000(b *testing.B) {
	a, x := make([]float64, 4*1000), make([]float64, 1000)
	fill(rand.New(rand.NewPCG(1, 1)), a, 0)
	fill(rand.New(rand.NewPCG(1, 2)), x, 0)
	var out [4]float64
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			Dot4(&out, a, 1000, x[:1000])
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			dot4Ref(&out, a, 1000, x[:1000])
		}
	})
}
