package asm

import (
	"fmt"
	"math"
)

// Constants of Sigmoid and its exponential.
const (
	// sigmoidOne: from z = 37 on, e^{−z} < 2⁻⁵³ vanishes against 1 and
	// σ(z) rounds to exactly 1, so Sigmoid returns 1 without the
	// exponential (TestSigmoidOneIsTheFormula).
	sigmoidOne = 37
	// expMin: exponents below it are raised to it. e^{−746} < 2⁻¹⁰⁷⁵,
	// half the smallest subnormal, so expNonPos returns 0 there as the
	// exact exponential would round to, and the reduced k stays ≥ −1076.
	expMin = -746
	log2e  = 1.4426950408889634 // log₂ e rounded to float64
)

var (
	// ln2Hi + ln2Lo = ln 2 to about 2⁻⁸⁵: ln2Hi is ln 2 with the low 21
	// bits of its significand cleared (32 significant bits), so
	// a − k·ln2Hi is exact for the k of the reduction (|k| ≤ 1076).
	ln2Hi = math.Float64frombits(0x3fe62e42fee00000)
	ln2Lo = math.Float64frombits(0x3dea39ef35793c76)
)

// expCoef are the coefficients c_i = 1/i! (rounded to float64) of the
// degree-13 Taylor polynomial of e^r, in increasing degree.
var expCoef = [14]float64{
	1, 1, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
	1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800,
	1.0 / 479001600, 1.0 / 6227020800,
}

// expNonPos returns e^a for a ∈ [expMin, 0] (callers clamp; a is not
// NaN):
//
//   - range reduction: k = round(a·log₂e) to nearest even (the product
//     rounded first), r = (a − k·ln2Hi) − k·ln2Lo with both steps fused
//     multiply-adds, so |r| ≤ ln 2/2 + 2⁻⁴⁰;
//   - polynomial: p = Σ_{i≤13} r^i/i! by Horner's rule with fused
//     multiply-adds; the truncation error r¹⁴/14!·e^{|r|} < 6·10⁻¹⁸ is a
//     twentieth of an ulp;
//   - scaling: e^a = p·2^k as (p·2^{k₁})·2^{k₂} with k₁ = ⌊k/2⌋ and
//     k₂ = k − k₁, two normal powers of two for every k ≥ −1076, so the
//     first product is exact and the second rounds once, also into the
//     subnormal range.
//
// Error bound: below 1.5 ulp for a normal result (at most 0.5 ulp from
// the final Horner step, at most ≈ 0.6 ulp carried from the earlier ones,
// which |r| ≤ 0.35 damps, ≈ 0.25 ulp from the rounding of r), and half
// the smallest subnormal more below 2⁻¹⁰²²; TestExpAccuracy checks it
// against math/big on a grid of [−746, 0] (the largest error seen is
// reported by the test: 0.81 ulp) and against math.Exp, which stays
// within 1 ulp.
func expNonPos(a float64) float64 {
	kf := math.RoundToEven(float64(a * log2e))
	r := math.FMA(-kf, ln2Hi, a)
	r = math.FMA(-kf, ln2Lo, r)
	p := math.FMA(expCoef[13], r, expCoef[12]) // Horner, unrolled
	p = math.FMA(p, r, expCoef[11])
	p = math.FMA(p, r, expCoef[10])
	p = math.FMA(p, r, expCoef[9])
	p = math.FMA(p, r, expCoef[8])
	p = math.FMA(p, r, expCoef[7])
	p = math.FMA(p, r, expCoef[6])
	p = math.FMA(p, r, expCoef[5])
	p = math.FMA(p, r, expCoef[4])
	p = math.FMA(p, r, expCoef[3])
	p = math.FMA(p, r, expCoef[2])
	p = math.FMA(p, r, expCoef[1])
	p = math.FMA(p, r, expCoef[0])
	k := int64(kf)
	k1 := k >> 1
	return float64(p*pow2(k1)) * pow2(k-k1)
}

// pow2 returns 2^k for a k of a normal float64 (−1022 ≤ k ≤ 1023).
func pow2(k int64) float64 { return math.Float64frombits(uint64(k+1023) << 52) }

// Sigmoid returns σ(z) = 1/(1 + e^{−z}) without overflow and with full
// relative precision for z < 0 (where σ is small): with e = e^{−|z|}
// (expNonPos, at most −746), σ = 1/(1 + e) for z ≥ 0 and e/(1 + e) for
// z < 0; exactly 1 from z = 37 on, 0 at −Inf and NaN for NaN. The
// numerator is chosen without a branch the CPU must predict (the signs
// of a network's logits are mixed). It is the reference of Sigmoids.
func Sigmoid(z float64) float64 {
	if z >= sigmoidOne {
		return 1
	}
	if z != z {
		return z
	}
	e := expNonPos(max(-math.Abs(z), expMin))
	num := 1.0
	if z < 0 {
		num = e
	}
	return num / float64(1+e)
}

// Sigmoids sets dst[i] = Sigmoid(z[i]) for every i, with the same bits:
// four at a time by the AVX2/FMA kernel where the CPU has it, the rest
// by Sigmoid.
//
// Sigmoids panics if len(dst) ≠ len(z).
func Sigmoids(dst, z []float64) {
	if len(dst) != len(z) {
		panic(fmt.Sprintf("asm: Sigmoids with len(dst) = %d, len(z) = %d", len(dst), len(z)))
	}
	for i := sigmoidBlocks(dst, z); i < len(z); i++ {
		dst[i] = Sigmoid(z[i])
	}
}
