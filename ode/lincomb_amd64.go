//go:build !noasm

package ode

import "github.com/loadlab/loadlab/internal/simd"

// lincombAVX is lincomb for the first n components (n a multiple of 4),
// four at a time with AVX2: y may be nil, k[t] is read for t < m only
// (1 ≤ m ≤ 6).
//
//go:noescape
func lincombAVX(dst, y *float64, n int, h float64, k *[6]*float64, c *[6]float64, m int)

// lincomb sets dst[i] = y[i] + h·Σ_{t<m} c[t]·k[t][i] (h·Σ when y is nil)
// for i ∈ [lo, hi), rounding as lincombGo: whole groups of four by the
// AVX2 kernel where the CPU has it, the rest in Go.
func lincomb(dst, y []float64, h float64, k *[6][]float64, c *[6]float64, m, lo, hi int) {
	if n := (hi - lo) &^ 3; simd.FMA && n > 0 {
		var ptr [6]*float64
		for t := range m {
			ptr[t] = &k[t][lo:hi][0]
		}
		var yp *float64
		if y != nil {
			yp = &y[lo:hi][0]
		}
		lincombAVX(&dst[lo:hi][0], yp, n, h, &ptr, c, m)
		lo += n
	}
	lincombGo(dst, y, h, k, c, m, lo, hi)
}
