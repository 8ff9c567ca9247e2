//go:build !amd64 || noasm

package ode

// lincomb sets dst[i] = y[i] + h·Σ_{t<m} c[t]·k[t][i] (h·Σ when y is nil)
// for i ∈ [lo, hi), rounding as lincombGo.
func lincomb(dst, y []float64, h float64, k *[6][]float64, c *[6]float64, m, lo, hi int) {
	lincombGo(dst, y, h, k, c, m, lo, hi)
}
