//go:build !noasm

#include "textflag.h"

// func dot4x8FMA(a *float64, lda int, x *float64, m int, out *[4]float64)
//
// out[r] = Σ_{j<m} a[r·lda + j]·x[j] for r = 0..3, m a multiple of 8 (dotLanes):
// per row two 4-lane accumulators (columns j ≡ 0..3 and 4..7 mod 8),
// fused multiply-adds, then (acc0 + acc1) summed lane by lane in the
// order ((l0 + l1) + (l2 + l3)).
TEXT ·dot4x8FMA(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), BX
	SHLQ $3, BX          // row stride in bytes
	MOVQ x+16(FP), DI
	MOVQ m+24(FP), CX
	MOVQ out+32(FP), DX

	LEAQ (SI)(BX*1), R8  // row 1
	LEAQ (R8)(BX*1), R9  // row 2
	LEAQ (R9)(BX*1), R10 // row 3

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

	XORQ AX, AX          // byte offset
	SHLQ $3, CX          // m in bytes
	TESTQ CX, CX
	JZ   done

loop:
	VMOVUPD (DI)(AX*1), Y8
	VMOVUPD 32(DI)(AX*1), Y9
	VFMADD231PD (SI)(AX*1), Y8, Y0
	VFMADD231PD 32(SI)(AX*1), Y9, Y1
	VFMADD231PD (R8)(AX*1), Y8, Y2
	VFMADD231PD 32(R8)(AX*1), Y9, Y3
	VFMADD231PD (R9)(AX*1), Y8, Y4
	VFMADD231PD 32(R9)(AX*1), Y9, Y5
	VFMADD231PD (R10)(AX*1), Y8, Y6
	VFMADD231PD 32(R10)(AX*1), Y9, Y7
	ADDQ $64, AX
	CMPQ AX, CX
	JL   loop

done:
	VADDPD Y1, Y0, Y0
	VADDPD Y3, Y2, Y2
	VADDPD Y5, Y4, Y4
	VADDPD Y7, Y6, Y6

	// horizontal sums: (l0 + l1) + (l2 + l3)
	VEXTRACTF128 $1, Y0, X1
	VHADDPD X0, X0, X0   // l0 + l1
	VHADDPD X1, X1, X1   // l2 + l3
	VADDSD X1, X0, X0
	VMOVSD X0, 0(DX)

	VEXTRACTF128 $1, Y2, X3
	VHADDPD X2, X2, X2
	VHADDPD X3, X3, X3
	VADDSD X3, X2, X2
	VMOVSD X2, 8(DX)

	VEXTRACTF128 $1, Y4, X5
	VHADDPD X4, X4, X4
	VHADDPD X5, X5, X5
	VADDSD X5, X4, X4
	VMOVSD X4, 16(DX)

	VEXTRACTF128 $1, Y6, X7
	VHADDPD X6, X6, X6
	VHADDPD X7, X7, X7
	VADDSD X7, X6, X6
	VMOVSD X6, 24(DX)

	VZEROUPPER
	RET


// func dot1x8x6FMA(row *float64, xs *[6]*float64, m int, out *[6]float64)
//
// out[k] = Σ_{j<m} row[j]·xs[k][j] for six vectors at once, m a multiple
// of 8: each eight entries of the row are loaded once for all six, and
// every out[k] is summed by the operations of dot4x8FMA for one row (two
// four-lane accumulators, then ((l0 + l1) + (l2 + l3))).
TEXT ·dot1x8x6FMA(SB), NOSPLIT, $0-32
	MOVQ row+0(FP), SI
	MOVQ xs+8(FP), BX
	MOVQ 0(BX), R8
	MOVQ 8(BX), R9
	MOVQ 16(BX), R10
	MOVQ 24(BX), R11
	MOVQ 32(BX), R12
	MOVQ 40(BX), R13
	MOVQ m+16(FP), CX
	MOVQ out+24(FP), DX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11
	XORQ AX, AX
	SHLQ $3, CX
	TESTQ CX, CX
	JZ   mdone
mloop:
	VMOVUPD (SI)(AX*1), Y12
	VMOVUPD 32(SI)(AX*1), Y13
	VFMADD231PD (R8)(AX*1), Y12, Y0
	VFMADD231PD 32(R8)(AX*1), Y13, Y1
	VFMADD231PD (R9)(AX*1), Y12, Y2
	VFMADD231PD 32(R9)(AX*1), Y13, Y3
	VFMADD231PD (R10)(AX*1), Y12, Y4
	VFMADD231PD 32(R10)(AX*1), Y13, Y5
	VFMADD231PD (R11)(AX*1), Y12, Y6
	VFMADD231PD 32(R11)(AX*1), Y13, Y7
	VFMADD231PD (R12)(AX*1), Y12, Y8
	VFMADD231PD 32(R12)(AX*1), Y13, Y9
	VFMADD231PD (R13)(AX*1), Y12, Y10
	VFMADD231PD 32(R13)(AX*1), Y13, Y11
	ADDQ $64, AX
	CMPQ AX, CX
	JL   mloop
mdone:
	VADDPD Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X14
	VHADDPD X0, X0, X0
	VHADDPD X14, X14, X14
	VADDSD X14, X0, X0
	VMOVSD X0, 0(DX)
	VADDPD Y3, Y2, Y2
	VEXTRACTF128 $1, Y2, X14
	VHADDPD X2, X2, X2
	VHADDPD X14, X14, X14
	VADDSD X14, X2, X2
	VMOVSD X2, 8(DX)
	VADDPD Y5, Y4, Y4
	VEXTRACTF128 $1, Y4, X14
	VHADDPD X4, X4, X4
	VHADDPD X14, X14, X14
	VADDSD X14, X4, X4
	VMOVSD X4, 16(DX)
	VADDPD Y7, Y6, Y6
	VEXTRACTF128 $1, Y6, X14
	VHADDPD X6, X6, X6
	VHADDPD X14, X14, X14
	VADDSD X14, X6, X6
	VMOVSD X6, 24(DX)
	VADDPD Y9, Y8, Y8
	VEXTRACTF128 $1, Y8, X14
	VHADDPD X8, X8, X8
	VHADDPD X14, X14, X14
	VADDSD X14, X8, X8
	VMOVSD X8, 32(DX)
	VADDPD Y11, Y10, Y10
	VEXTRACTF128 $1, Y10, X14
	VHADDPD X10, X10, X10
	VHADDPD X14, X14, X14
	VADDSD X14, X10, X10
	VMOVSD X10, 40(DX)
	VZEROUPPER
	RET

