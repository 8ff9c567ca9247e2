//go:build !noasm

package asm

import "golang.org/x/sys/cpu"

// useKernels reports whether the CPU and the operating system support
// AVX2 and FMA (cpu.X86.HasAVX2 includes the operating system's saving
// of the YMM registers).
var useKernels = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dot4x8FMA sets out[r] = Σ_{j<m} a[r·lda + j]·x[j] for r = 0..3, m a
// positive multiple of 8 (dot_amd64.s).
//
//go:noescape
func dot4x8FMA(a *float64, lda int, x *float64, m int, out *[4]float64)

// dot1x8x6FMA sets out[k] = Σ_{j<m} row[j]·xs[k][j] for k = 0..5, m a
// positive multiple of 8 (dot_amd64.s).
//
//go:noescape
func dot1x8x6FMA(row *float64, xs *[6]*float64, m int, out *[6]float64)

// mulAdd4x8FMA is MulAdd4 after its checks (muladd_amd64.s).
//
//go:noescape
func mulAdd4x8FMA(kc, nb int, a *float64, ars, aks int, b *float64, ldb int, c *float64, ldc int)

// mulAdd4 is MulAdd4 after its checks.
func mulAdd4(kc, nb int, a []float64, ars, aks int, b []float64, ldb int, c []float64, ldc int) {
	if !useKernels {
		mulAddRef(4, 8*nb, kc, a, ars, aks, b, ldb, c, ldc)
		return
	}
	mulAdd4x8FMA(kc, nb, &a[0], ars, aks, &b[0], ldb, &c[0], ldc)
}

// sigmoid4FMA sets dst[i] = Sigmoid(z[i]) for i < n, n a positive
// multiple of 4 (sigmoid_amd64.s).
//
//go:noescape
func sigmoid4FMA(dst, z *float64, n int)

// dot4 is Dot4 after its checks, len(x) > 0.
func dot4(out *[4]float64, a []float64, lda int, x []float64) {
	if !useKernels {
		dot4Ref(out, a, lda, x)
		return
	}
	dot4x8FMA(&a[0], lda, &x[0], len(x), out)
}

// dot6 is Dot6 after its checks, len(row) > 0.
func dot6(out *[6]float64, row []float64, xs *[6][]float64) {
	if !useKernels {
		dot6Ref(out, row, xs)
		return
	}
	var p [6]*float64
	for k := range p {
		p[k] = &xs[k][0]
	}
	dot1x8x6FMA(&row[0], &p, len(row), out)
}

// sigmoidBlocks sets dst[i] = Sigmoid(z[i]) for the whole groups of four
// entries at the start of z with the kernel, and returns how many it
// set (0 without the kernel). len(dst) = len(z).
func sigmoidBlocks(dst, z []float64) int {
	n := len(z) &^ 3
	if !useKernels || n == 0 {
		return 0
	}
	sigmoid4FMA(&dst[0], &z[0], n)
	return n
}
