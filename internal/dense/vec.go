package dense

import "math"

// Axpy sets dst += a·x. It panics if len(x) < len(dst).
func Axpy(dst []float64, a float64, x []float64) {
	for i := range dst {
		dst[i] += a * x[i]
	}
}

// Dot returns Σ a_i b_i, summed in index order (callers rely on the
// order for results independent of the number of goroutines). It panics
// if len(b) < len(a).
func Dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Normalize scales v to unit Euclidean norm. v must be non-zero: a zero
// v gives NaN entries.
func Normalize(v []float64) {
	s := 1 / math.Sqrt(Dot(v, v))
	for i := range v {
		v[i] *= s
	}
}

// Center subtracts the mean from x: the projection onto the complement
// of the constants, 1⊥.
func Center(x []float64) {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i := range x {
		x[i] -= m
	}
}
