//go:build !noasm

package anycast

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv0() (eax, edx uint32)

// dot4x8FMA sets out[r] = Σ_{j<m} a[r·lda + j]·x[j] for the four rows
// r = 0..3 starting at a, for m a multiple of 8 (AVX2 with FMA).
//
//go:noescape
func dot4x8FMA(a *float64, lda int, x *float64, m int, out *[4]float64)

// haveFMA reports whether the CPU and the OS support AVX2 and FMA: CPUID
// leaf 1 ECX bits 12 (FMA), 27 (OSXSAVE) and 28 (AVX), XCR0 bits 1–2 (the
// OS saves the YMM registers), CPUID leaf 7 EBX bit 5 (AVX2).
var haveFMA = func() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	if c1&(1<<12) == 0 || c1&(1<<27) == 0 || c1&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}()

// gemvRows sets dst[r] = Σ_j a[r·n + j]·x[j] for the rows of a (len(dst)
// rows of n entries) with the AVX2 kernel on blocks of 4 rows and 8
// columns, the remaining columns and rows in Go. It reports false, doing
// nothing, when the CPU lacks AVX2 or FMA.
func gemvRows(dst, a, x []float64, n int) bool {
	if !haveFMA || n < 8 {
		return false
	}
	m := n &^ 7
	var out [4]float64
	r := 0
	for ; r+4 <= len(dst); r += 4 {
		dot4x8FMA(&a[r*n], n, &x[0], m, &out)
		for q := 0; q < 4; q++ {
			row := a[(r+q)*n : (r+q+1)*n]
			s := out[q]
			for j := m; j < n; j++ {
				s += row[j] * x[j]
			}
			dst[r+q] = s
		}
	}
	for ; r < len(dst); r++ {
		row := a[r*n : (r+1)*n]
		var s float64
		for j, v := range row {
			s += v * x[j]
		}
		dst[r] = s
	}
	return true
}
