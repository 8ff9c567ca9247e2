//go:build !noasm

#include "textflag.h"

// func dot4x8FMA(a *float64, lda int, x *float64, m int, out *[4]float64)
//
// out[r] = Σ_{j<m} a[r·lda + j]·x[j] for r = 0..3, m a multiple of 8:
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


// func dot4x8FMAp(rows *[4]*float64, x *float64, m int, out *[4]float64)
//
// dot4x8FMA for four rows anywhere in memory (rows[r] is the first entry
// of row r): the same operations, so every row gets the same bits.
TEXT ·dot4x8FMAp(SB), NOSPLIT, $0-32
	MOVQ rows+0(FP), BX
	MOVQ 0(BX), SI
	MOVQ 8(BX), R8
	MOVQ 16(BX), R9
	MOVQ 24(BX), R10
	MOVQ x+8(FP), DI
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

	XORQ AX, AX          // byte offset
	SHLQ $3, CX          // m in bytes
	TESTQ CX, CX
	JZ   pdone

ploop:
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
	JL   ploop

pdone:
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
