package asm

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sigmoidSpecials are the logits at the edges of Sigmoid's cases: NaN,
// ±Inf, ±0, the shortcut at 37 and just below it, the clamp at −746 and
// around it, the subnormal results between −745 and −708, subnormal and
// tiny logits.
var sigmoidSpecials = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
	37, math.Nextafter(37, 0), 36.7, 38, 1e300, -1e300, -746, math.Nextafter(-746, 0), -746.5, -745.2, -745,
	-744.4, -720, -709, -708.4, -708, -700, 5e-324, -5e-324, 1e-310, -1e-20, 1e-20, 0.5, -0.5,
	0.34657359027997264, -0.34657359027997264, 1.0397207708399179, -1.0397207708399179}

// Sigmoids gives every entry the bits of Sigmoid and writes nothing
// outside dst: every length 0–13 and 64, offsets 0–3 of dst and z into
// guarded buffers, special values at random places among random logits
// of [−800, 60].
func TestSigmoidsMatchSigmoid(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 64} {
		for off := range 4 {
			dst, dbuf := guarded(n, off)
			z, zbuf := guarded(n, 3-off)
			for i := range z {
				z[i] = -800 + 860*rng.Float64()
				if rng.IntN(3) == 0 {
					z[i] = sigmoidSpecials[rng.IntN(len(sigmoidSpecials))]
				}
			}
			Sigmoids(dst, z)
			for i, v := range z {
				require.True(t, sameBits(dst[i], Sigmoid(v)), "n = %d, off = %d, z = %v: Sigmoids %v, Sigmoid %v", n, off, v, dst[i], Sigmoid(v))
			}
			checkGuards(t, dbuf, off, n, "dst")
			checkGuards(t, zbuf, 3-off, n, "z")
		}
	}
	// Every special value in every lane of a group of four.
	z := make([]float64, 4*len(sigmoidSpecials))
	for i := range z {
		z[i] = sigmoidSpecials[(i/4+i%4*7)%len(sigmoidSpecials)]
	}
	got := make([]float64, len(z))
	Sigmoids(got, z)
	for i, v := range z {
		require.True(t, sameBits(got[i], Sigmoid(v)), "z = %v: Sigmoids %v, Sigmoid %v", v, got[i], Sigmoid(v))
	}
	assert.Panics(t, func() { Sigmoids(make([]float64, 3), make([]float64, 4)) }, "len(dst) ≠ len(z)")
}

// Sigmoids gives Sigmoid's bits on a fine grid through the whole range,
// where the rounding of k = round(a·log₂e), the polynomial and the
// scaling meet every case, and on random logits, from every offset mod 4.
func TestSigmoidsOnAGrid(t *testing.T) {
	var z []float64
	for v := -760.0; v <= 760; v += 0.0078125 {
		z = append(z, v, math.Nextafter(v, 0)+1e-9)
	}
	rng := rand.New(rand.NewPCG(3, 9))
	for range 100_000 {
		z = append(z, rng.NormFloat64()*20)
	}
	rng.Shuffle(len(z), func(i, j int) { z[i], z[j] = z[j], z[i] })
	for off := range 4 {
		got := make([]float64, len(z)-off)
		Sigmoids(got, z[off:])
		for i, v := range z[off:] {
			if want := Sigmoid(v); math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("Sigmoids at z = %v (%#x): %v, Sigmoid: %v", v, math.Float64bits(v), got[i], want)
			}
		}
	}
}

// Sigmoid's cases: the limits, the values at NaN and ±0, and within a
// few ulp of the same formula on math.Exp (each side within 1.5 ulp of
// e^{−|z|}; the sum and the quotient round twice more) over [−745, 37).
func TestSigmoid(t *testing.T) {
	assert.Equal(t, 1.0, Sigmoid(math.Inf(1)))
	assert.Equal(t, 0.0, Sigmoid(math.Inf(-1)))
	assert.Equal(t, 0.0, Sigmoid(-746.5))
	assert.True(t, math.IsNaN(Sigmoid(math.NaN())))
	assert.Equal(t, 0.5, Sigmoid(0))
	assert.Equal(t, 0.5, Sigmoid(math.Copysign(0, -1)))
	for z := -745.0; z < 37; z += 0.0137 {
		e := math.Exp(-math.Abs(z))
		num := 1.0
		if z < 0 {
			num = e
		}
		want := num / (1 + e)
		if want < 0x1p-1022 {
			assert.InDelta(t, want, Sigmoid(z), 3*0x1p-1074, "z = %v", z)
			continue
		}
		assert.InEpsilon(t, want, Sigmoid(z), 4*0x1p-53, "z = %v", z)
	}
}

// From z = 37 on the formula itself gives exactly 1, so Sigmoid's
// shortcut changes no bit; just below 37 it does not always.
func TestSigmoidOneIsTheFormula(t *testing.T) {
	formula := func(z float64) float64 { return 1 / (1 + expNonPos(-z)) }
	for z := 37.0; z < 800; z = z*1.001 + 1e-3 {
		require.Equal(t, 1.0, formula(z), "z = %v", z)
	}
	require.Equal(t, 1.0, formula(math.Nextafter(37, 100)))
	assert.Less(t, formula(36.7), 1.0, "e^{−36.7} > 2⁻⁵³: the sum does not round to 1")
}

// The reduction's constants: ln2Hi has its 21 low significand bits
// clear, ln2Hi + ln2Lo is ln 2 to 2⁻⁸⁰, and expCoef[i] is 1/i! rounded
// to nearest (within half an ulp).
func TestExpConstants(t *testing.T) {
	assert.Zero(t, math.Float64bits(ln2Hi)&(1<<21-1))
	ln2 := bigLog2()
	sum := new(big.Float).SetPrec(300).SetFloat64(ln2Hi)
	sum.Add(sum, new(big.Float).SetFloat64(ln2Lo))
	diff, _ := sum.Sub(sum, ln2).Float64()
	assert.Less(t, math.Abs(diff), 0x1p-80)
	fact := big.NewInt(1)
	for i, c := range expCoef {
		if i > 0 {
			fact.Mul(fact, big.NewInt(int64(i)))
		}
		want, _ := new(big.Rat).SetFrac(big.NewInt(1), fact).Float64() // rounded to nearest
		assert.Equal(t, want, c, "1/%d!", i)
	}
	assert.Equal(t, 1/math.Ln2, log2e)
}

// expNonPos is within its error bound, 1.5 ulp of a normal result and
// half the smallest subnormal more below 2⁻¹⁰²², of e^a computed with
// math/big on a grid of [−746, 0] and at random points, and within 2.5
// ulp of math.Exp (within 1 ulp itself) on a finer grid.
func TestExpAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var worst float64
	check := func(a float64) {
		got := expNonPos(a)
		want := bigExp(a)
		err := new(big.Float).SetPrec(300).SetFloat64(got)
		err.Sub(err, want)
		wf, _ := want.Float64()
		ulp := math.Max(math.Nextafter(wf, math.Inf(1))-wf, 0x1p-1074)
		if wf < 0x1p-1022 {
			ulp = 0x1p-1074
		}
		err.Quo(err, new(big.Float).SetFloat64(ulp))
		u, _ := err.Abs(err).Float64()
		worst = max(worst, u)
		bound := 1.5
		if wf < 0x1p-1022 {
			bound = 1 // half an ulp of one rounding into the subnormals, plus the relative error shrunk below that
		}
		require.LessOrEqual(t, u, bound, "a = %v: e^a = %v, got %v", a, wf, got)
	}
	for a := -746.0; a <= 0; a += 0.373 {
		check(a)
	}
	for range 2000 {
		check(-746 * rng.Float64())
		check(-math.Ldexp(rng.Float64(), -rng.IntN(60)))
	}
	for _, a := range []float64{0, math.Copysign(0, -1), -5e-324, -1e-300, -0.34657359027997264, -708.3964185322641, -744.44007192138122, -745.1332191019411, -746} {
		check(a)
	}
	t.Logf("largest error of expNonPos against math/big: %.3f ulp", worst)
	for a := -708.0; a <= 0; a += 0.00917 {
		want := math.Exp(a)
		assert.InEpsilon(t, want, expNonPos(a), 2.5*0x1p-52, "a = %v", a)
	}
}

// bigLog2 returns ln 2 to 300 bits: 2·atanh(1/3) = 2 Σ 1/((2k+1)·3^{2k+1}).
func bigLog2() *big.Float {
	const prec = 300
	sum := new(big.Float).SetPrec(prec)
	pow := new(big.Float).SetPrec(prec).SetFloat64(1.0 / 3) // inexact: use a quotient
	pow.Quo(new(big.Float).SetPrec(prec).SetInt64(1), new(big.Float).SetPrec(prec).SetInt64(3))
	nine := new(big.Float).SetPrec(prec).SetInt64(9)
	for k := int64(0); k < 200; k++ {
		term := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetPrec(prec).SetInt64(2*k+1))
		sum.Add(sum, term)
		pow.Quo(pow, nine)
	}
	return sum.Mul(sum, new(big.Float).SetPrec(prec).SetInt64(2))
}

// bigExp returns e^a to about 250 bits: the Taylor series of e^{a/2¹²}
// squared twelve times.
func bigExp(a float64) *big.Float {
	const prec = 300
	x := new(big.Float).SetPrec(prec).SetFloat64(a)
	x.SetMantExp(x, -12)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for k := int64(1); k < 60; k++ {
		term.Mul(term, x)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(k))
		sum.Add(sum, term)
	}
	for range 12 {
		sum.Mul(sum, sum)
	}
	return sum
}

func BenchmarkSigmoids_N1000(b *testing.B) {
	z, dst := make([]float64, 1000), make([]float64, 1000)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range z {
		z[i] = -40 + 80*rng.Float64()
	}
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			Sigmoids(dst, z)
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			for i, v := range z {
				dst[i] = Sigmoid(v)
			}
		}
	})
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range z {
				e := math.Exp(-math.Abs(v))
				num := 1.0
				if v < 0 {
					num = e
				}
				dst[i] = num / (1 + e)
			}
		}
	})
}
