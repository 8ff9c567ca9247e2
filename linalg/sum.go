package linalg

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

// Value returns the compensated total.
func (k *CompensatedSum) Value() float64 { return k.s + k.c }

// Sum returns the compensated sum of xs (see CompensatedSum).
func Sum(xs []float64) float64 {
	var k CompensatedSum
	for _, x := range xs {
		k.Add(x)
	}
	return k.Value()
}
