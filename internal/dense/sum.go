package dense

import "math"

// CompensatedSum accumulates a sum of float64 values with Neumaier's
// compensated summation (Neumaier, ZAMM 54, 39–51, 1974): alongside the
// running sum it keeps the rounding error of every addition, recovered
// exactly by Fast2Sum, and adds it back at the end. The error of the
// total is then about one ulp of the total plus n ε² Σ|x_i|, instead of
// the n ε Σ|x_i| of a plain loop, so it does not grow with the number of
// terms. The zero value is an empty sum.
type CompensatedSum struct{ s, c float64 }

// Add adds x to the sum.
func (k *CompensatedSum) Add(x float64) {
	t := k.s + x
	if math.Abs(k.s) >= math.Abs(x) {
		k.c += (k.s - t) + x
	} else {
		k.c += (x - t) + k.s
	}
	k.s = t
}

// Value returns the compensated total. Once the running sum is ±Inf the
// compensation is meaningless (Inf − Inf = NaN): the total is then the
// running sum, ±Inf, or NaN if infinities of both signs were added.
func (k *CompensatedSum) Value() float64 {
	if math.IsInf(k.s, 0) {
		return k.s
	}
	return k.s + k.c
}

// Sum returns the compensated sum of xs (see CompensatedSum). A running
// sum that overflows although every term is finite (1e308 + 1e308 −
// 1e308) does not spoil the result: the terms are then summed again
// scaled by 2^−k, with 2^(k−1) ≤ max|x_i| < 2^k (an exact scaling,
// barring terms below 2^(k−1074), which lose bits but lie far below one
// ulp of the total), and the total scaled back, which is +Inf
// or −Inf only when the total itself overflows.
func Sum(xs []float64) float64 {
	var k CompensatedSum
	finite := true
	for _, x := range xs {
		k.Add(x)
		finite = finite && !math.IsInf(x, 0) && !math.IsNaN(x)
	}
	v := k.Value()
	if !finite || !(math.IsInf(v, 0) || math.IsNaN(v)) {
		return v
	}
	return scaledSum(xs)
}

// scaledSum sums finite xs scaled by 2^−e, 2^(e−1) ≤ max|x_i| < 2^e, and
// scales the total back.
func scaledSum(xs []float64) float64 {
	var big float64
	for _, x := range xs {
		big = math.Max(big, math.Abs(x))
	}
	_, e := math.Frexp(big)
	var k CompensatedSum
	for _, x := range xs {
		k.Add(math.Ldexp(x, -e))
	}
	return math.Ldexp(k.Value(), e)
}
