//go:build !noasm

package stability

import "github.com/loadlab/loadlab/internal/simd"

// sigmoidsFMA is the AVX2/FMA kernel of sigmoids (sigmoid_amd64.s).
//
//go:noescape
func sigmoidsFMA(dst, z *float64, n int) int

// sigmoids sets dst[i] = sigmoid(z[i]) (len(dst) ≥ len(z)), four at a time
// with the AVX2/FMA kernel where the CPU has it (simd.FMA): it repeats the
// arithmetic of sigmoid with math.Exp's FMA path lane by lane, so the
// results are bit-identical, and leaves to sigmoid the groups of four with
// a logit below −700, infinite or NaN, and the last len(z) mod 4 entries.
func sigmoids(dst, z []float64) {
	if !simd.FMA {
		sigmoidsGo(dst, z)
		return
	}
	dst = dst[:len(z)]
	for i := 0; i < len(z); {
		if len(z)-i >= 4 {
			i += sigmoidsFMA(&dst[i], &z[i], len(z)-i)
		}
		end := min(i+4, len(z)) // a group the kernel left, or the tail
		sigmoidsGo(dst[i:end], z[i:end])
		i = end
	}
}
