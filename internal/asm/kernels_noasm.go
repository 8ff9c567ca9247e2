//go:build !amd64 || noasm

package asm

// useKernels is false: no kernel on this GOARCH or with the tag noasm.
const useKernels = false

// dot4 is Dot4 after its checks: the reference.
func dot4(out *[4]float64, a []float64, lda int, x []float64) { dot4Ref(out, a, lda, x) }

// dot6 is Dot6 after its checks: the reference.
func dot6(out *[6]float64, row []float64, xs *[6][]float64) { dot6Ref(out, row, xs) }

// sigmoidBlocks sets nothing and returns 0: Sigmoids computes every
// entry with Sigmoid.
func sigmoidBlocks(dst, z []float64) int { return 0 }

// mulAdd4 is MulAdd4 after its checks: the reference.
func mulAdd4(kc, nb int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	mulAddRef(4, 8*nb, kc, a, ars, aks, b, ldb, c, ldc)
}
