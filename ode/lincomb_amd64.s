//go:build !noasm

#include "textflag.h"

// func lincombAVX(dst, y *float64, n int, h float64, k *[6]*float64, c *[6]float64, m int)
//
// dst[i] = y[i] + h·(((c0·k0[i] + c1·k1[i]) + c2·k2[i]) + …) over the first
// m terms (h·(…) when y is nil) for i < n, n a multiple of 4: separate
// multiplies and adds (no fused multiply-add), each rounded as the Go
// expression of lincombGo rounds it.
TEXT ·lincombAVX(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ y+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSD h+24(FP), Y9
	MOVQ k+32(FP), BX
	MOVQ c+40(FP), DX
	MOVQ m+48(FP), R14

	MOVQ 0(BX), R8
	MOVQ 8(BX), R9
	MOVQ 16(BX), R10
	MOVQ 24(BX), R11
	MOVQ 32(BX), R12
	MOVQ 40(BX), R13
	VBROADCASTSD 0(DX), Y10
	VBROADCASTSD 8(DX), Y11
	VBROADCASTSD 16(DX), Y12
	VBROADCASTSD 24(DX), Y13
	VBROADCASTSD 32(DX), Y14
	VBROADCASTSD 40(DX), Y15

	XORQ AX, AX // byte offset
	SHLQ $3, CX // n in bytes
	TESTQ CX, CX
	JZ   done

loop:
	VMULPD (R8)(AX*1), Y10, Y0
	CMPQ R14, $2
	JLT  scale
	VMULPD (R9)(AX*1), Y11, Y1
	VADDPD Y1, Y0, Y0
	CMPQ R14, $3
	JLT  scale
	VMULPD (R10)(AX*1), Y12, Y1
	VADDPD Y1, Y0, Y0
	CMPQ R14, $4
	JLT  scale
	VMULPD (R11)(AX*1), Y13, Y1
	VADDPD Y1, Y0, Y0
	CMPQ R14, $5
	JLT  scale
	VMULPD (R12)(AX*1), Y14, Y1
	VADDPD Y1, Y0, Y0
	CMPQ R14, $6
	JLT  scale
	VMULPD (R13)(AX*1), Y15, Y1
	VADDPD Y1, Y0, Y0

scale:
	VMULPD Y0, Y9, Y0
	TESTQ SI, SI
	JZ   store
	VMOVUPD (SI)(AX*1), Y2
	VADDPD Y0, Y2, Y0 // y + h·(…), operands in Go's order

store:
	VMOVUPD Y0, (DI)(AX*1)
	ADDQ $32, AX
	CMPQ AX, CX
	JL   loop

done:
	VZEROUPPER
	RET
