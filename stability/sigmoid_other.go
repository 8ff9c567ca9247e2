//go:build !amd64 || noasm

package stability

// sigmoids sets dst[i] = sigmoid(z[i]) (len(dst) ≥ len(z)).
func sigmoids(dst, z []float64) { sigmoidsGo(dst, z) }
