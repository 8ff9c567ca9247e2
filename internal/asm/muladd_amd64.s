//go:build !noasm

#include "textflag.h"

// func mulAdd4x8FMA(kc, nb int, a *float64, ars, aks int, b *float64, ldb int, c *float64, ldc int)
//
// For each of the nb blocks of eight columns: the 4 × 8 block of C is
// loaded into Y0–Y7 (two registers per row), and for l = 0 … kc−1 the
// eight entries b(l, j…j+7) are multiplied by the broadcast a(r, l) and
// added to row r's registers by one fused multiply-add each, in
// increasing l; the block is then stored. Strides are in elements.
TEXT ·mulAdd4x8FMA(SB), NOSPLIT, $0-72
	MOVQ kc+0(FP), R13
	MOVQ nb+8(FP), R14
	MOVQ a+16(FP), SI
	MOVQ ars+24(FP), R8
	SHLQ $3, R8             // ars in bytes
	MOVQ aks+32(FP), R9
	SHLQ $3, R9             // aks in bytes
	MOVQ b+40(FP), DI
	MOVQ ldb+48(FP), R10
	SHLQ $3, R10            // ldb in bytes
	MOVQ c+56(FP), DX
	MOVQ ldc+64(FP), R11
	SHLQ $3, R11            // ldc in bytes
	LEAQ (R8)(R8*2), R12    // 3·ars in bytes

block:
	LEAQ (DX)(R11*1), AX    // C row 1
	LEAQ (AX)(R11*1), BX    // C row 2
	LEAQ (BX)(R11*1), CX    // C row 3
	VMOVUPD (DX), Y0
	VMOVUPD 32(DX), Y1
	VMOVUPD (AX), Y2
	VMOVUPD 32(AX), Y3
	VMOVUPD (BX), Y4
	VMOVUPD 32(BX), Y5
	VMOVUPD (CX), Y6
	VMOVUPD 32(CX), Y7

	MOVQ SI, AX             // a(0, l)
	MOVQ DI, BX             // b(l, j)
	MOVQ R13, CX            // l counts down

loop:
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	VBROADCASTSD (AX), Y10
	VFMADD231PD Y8, Y10, Y0
	VFMADD231PD Y9, Y10, Y1
	VBROADCASTSD (AX)(R8*1), Y11
	VFMADD231PD Y8, Y11, Y2
	VFMADD231PD Y9, Y11, Y3
	VBROADCASTSD (AX)(R8*2), Y12
	VFMADD231PD Y8, Y12, Y4
	VFMADD231PD Y9, Y12, Y5
	VBROADCASTSD (AX)(R12*1), Y13
	VFMADD231PD Y8, Y13, Y6
	VFMADD231PD Y9, Y13, Y7
	ADDQ R9, AX
	ADDQ R10, BX
	DECQ CX
	JNZ  loop

	LEAQ (DX)(R11*1), AX
	LEAQ (AX)(R11*1), BX
	LEAQ (BX)(R11*1), CX
	VMOVUPD Y0, (DX)
	VMOVUPD Y1, 32(DX)
	VMOVUPD Y2, (AX)
	VMOVUPD Y3, 32(AX)
	VMOVUPD Y4, (BX)
	VMOVUPD Y5, 32(BX)
	VMOVUPD Y6, (CX)
	VMOVUPD Y7, 32(CX)

	ADDQ $64, DI            // next eight columns of B and C
	ADDQ $64, DX
	DECQ R14
	JNZ  block

	VZEROUPPER
	RET
