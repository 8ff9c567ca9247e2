package solve

import (
	"fmt"
	"math"
)

// Golden narrows [a, b] around the minimiser of a unimodal f by
// golden-section search until b − a ≤ tol, and returns the final bracket
// and the better of its two interior points with its value. Each step
// costs one evaluation and keeps 0.618 of the bracket; the search also
// stops when rounding no longer shrinks it (so tol = 0 means "to the last
// bit"). f may return +Inf (a point outside f's domain) as long as f is
// unimodal with it. It panics if a > b, tol < 0, or any of them is not
// finite (programmer errors).
func Golden(f func(float64) float64, a, b, tol float64) (lo, hi, x, fx float64) {
	if !(a <= b) || !(tol >= 0) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(tol, 0) {
		panic(fmt.Sprintf("solve: Golden: bracket [%v, %v], tol %v: want finite a ≤ b and tol ≥ 0", a, b, tol))
	}
	const invPhi = 0.6180339887498949 // (√5 − 1)/2
	x1, x2 := b-invPhi*(b-a), a+invPhi*(b-a)
	f1, f2 := f(x1), f(x2)
	for w := math.Inf(1); b-a > tol && b-a < w; {
		w = b - a
		if f1 <= f2 {
			b, x2, f2 = x2, x1, f1
			x1 = b - invPhi*(b-a)
			f1 = f(x1)
		} else {
			a, x1, f1 = x1, x2, f2
			x2 = a + invPhi*(b-a)
			f2 = f(x2)
		}
	}
	if f1 <= f2 {
		return a, b, x1, f1
	}
	return a, b, x2, f2
}
