//go:build !noasm

package simd

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv0() (eax, edx uint32)

// FMA reports whether the CPU and the OS support AVX2 and FMA: CPUID
// leaf 1 ECX bits 12 (FMA), 27 (OSXSAVE) and 28 (AVX), XCR0 bits 1–2 (the
// OS saves the YMM registers), CPUID leaf 7 EBX bit 5 (AVX2). Where it
// is true, so is the FMA condition of the standard library's math.Exp on
// amd64 (AVX and FMA), whose arithmetic the sigmoid kernel repeats.
var FMA = func() bool {
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

// AVX512 reports whether FMA holds and the CPU and the OS support
// AVX-512 F and VL: CPUID leaf 7 EBX bits 16 (F) and 31 (VL), XCR0 bits
// 5–7 (the OS saves the opmask and ZMM registers). The dense load kernel
// for several states at once uses 512-bit registers where it is true.
var AVX512 = func() bool {
	if !FMA {
		return false
	}
	if xcr0, _ := xgetbv0(); xcr0&0xe6 != 0xe6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<16) != 0 && b7&(1<<31) != 0
}()
