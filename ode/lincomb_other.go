//go:build !amd64 || noasm

package ode

// lincomb sets dst[i] = y[i] + h·Σ_{t<m} c[t]·k[t][i] (h·Σ when y is nil)
// for every i of dst, rounding as lincombGo; the k[t] and y have at least
// len(dst) entries.
func lincomb(dst, y []float64, h float64, k *[6][]float64, c *[6]float64, m int) {
	lincombGo(dst, y, h, k, c, m, 0)
}
