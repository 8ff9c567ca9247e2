//go:build !noasm

#include "textflag.h"

// Constants of sigmoid4FMA, four copies each (one YMM register or a
// 256-bit memory operand): those of Sigmoid and expNonPos (sigmoid.go).

// SIGN: sign bit
DATA sigc<>+0(SB)/8, $0x8000000000000000
DATA sigc<>+8(SB)/8, $0x8000000000000000
DATA sigc<>+16(SB)/8, $0x8000000000000000
DATA sigc<>+24(SB)/8, $0x8000000000000000
// EXPMIN: −746 (expMin)
DATA sigc<>+32(SB)/8, $0xc087500000000000
DATA sigc<>+40(SB)/8, $0xc087500000000000
DATA sigc<>+48(SB)/8, $0xc087500000000000
DATA sigc<>+56(SB)/8, $0xc087500000000000
// ONEAT: 37 (sigmoidOne)
DATA sigc<>+64(SB)/8, $0x4042800000000000
DATA sigc<>+72(SB)/8, $0x4042800000000000
DATA sigc<>+80(SB)/8, $0x4042800000000000
DATA sigc<>+88(SB)/8, $0x4042800000000000
// LOG2E: log₂ e
DATA sigc<>+96(SB)/8, $0x3ff71547652b82fe
DATA sigc<>+104(SB)/8, $0x3ff71547652b82fe
DATA sigc<>+112(SB)/8, $0x3ff71547652b82fe
DATA sigc<>+120(SB)/8, $0x3ff71547652b82fe
// LN2HI: ln2Hi
DATA sigc<>+128(SB)/8, $0x3fe62e42fee00000
DATA sigc<>+136(SB)/8, $0x3fe62e42fee00000
DATA sigc<>+144(SB)/8, $0x3fe62e42fee00000
DATA sigc<>+152(SB)/8, $0x3fe62e42fee00000
// LN2LO: ln2Lo
DATA sigc<>+160(SB)/8, $0x3dea39ef35793c76
DATA sigc<>+168(SB)/8, $0x3dea39ef35793c76
DATA sigc<>+176(SB)/8, $0x3dea39ef35793c76
DATA sigc<>+184(SB)/8, $0x3dea39ef35793c76
// C13: 1/13!
DATA sigc<>+192(SB)/8, $0x3de6124613a86d09
DATA sigc<>+200(SB)/8, $0x3de6124613a86d09
DATA sigc<>+208(SB)/8, $0x3de6124613a86d09
DATA sigc<>+216(SB)/8, $0x3de6124613a86d09
// C12: 1/12!
DATA sigc<>+224(SB)/8, $0x3e21eed8eff8d898
DATA sigc<>+232(SB)/8, $0x3e21eed8eff8d898
DATA sigc<>+240(SB)/8, $0x3e21eed8eff8d898
DATA sigc<>+248(SB)/8, $0x3e21eed8eff8d898
// C11: 1/11!
DATA sigc<>+256(SB)/8, $0x3e5ae64567f544e4
DATA sigc<>+264(SB)/8, $0x3e5ae64567f544e4
DATA sigc<>+272(SB)/8, $0x3e5ae64567f544e4
DATA sigc<>+280(SB)/8, $0x3e5ae64567f544e4
// C10: 1/10!
DATA sigc<>+288(SB)/8, $0x3e927e4fb7789f5c
DATA sigc<>+296(SB)/8, $0x3e927e4fb7789f5c
DATA sigc<>+304(SB)/8, $0x3e927e4fb7789f5c
DATA sigc<>+312(SB)/8, $0x3e927e4fb7789f5c
// C9: 1/9!
DATA sigc<>+320(SB)/8, $0x3ec71de3a556c734
DATA sigc<>+328(SB)/8, $0x3ec71de3a556c734
DATA sigc<>+336(SB)/8, $0x3ec71de3a556c734
DATA sigc<>+344(SB)/8, $0x3ec71de3a556c734
// C8: 1/8!
DATA sigc<>+352(SB)/8, $0x3efa01a01a01a01a
DATA sigc<>+360(SB)/8, $0x3efa01a01a01a01a
DATA sigc<>+368(SB)/8, $0x3efa01a01a01a01a
DATA sigc<>+376(SB)/8, $0x3efa01a01a01a01a
// C7: 1/7!
DATA sigc<>+384(SB)/8, $0x3f2a01a01a01a01a
DATA sigc<>+392(SB)/8, $0x3f2a01a01a01a01a
DATA sigc<>+400(SB)/8, $0x3f2a01a01a01a01a
DATA sigc<>+408(SB)/8, $0x3f2a01a01a01a01a
// C6: 1/6!
DATA sigc<>+416(SB)/8, $0x3f56c16c16c16c17
DATA sigc<>+424(SB)/8, $0x3f56c16c16c16c17
DATA sigc<>+432(SB)/8, $0x3f56c16c16c16c17
DATA sigc<>+440(SB)/8, $0x3f56c16c16c16c17
// C5: 1/5!
DATA sigc<>+448(SB)/8, $0x3f81111111111111
DATA sigc<>+456(SB)/8, $0x3f81111111111111
DATA sigc<>+464(SB)/8, $0x3f81111111111111
DATA sigc<>+472(SB)/8, $0x3f81111111111111
// C4: 1/4!
DATA sigc<>+480(SB)/8, $0x3fa5555555555555
DATA sigc<>+488(SB)/8, $0x3fa5555555555555
DATA sigc<>+496(SB)/8, $0x3fa5555555555555
DATA sigc<>+504(SB)/8, $0x3fa5555555555555
// C3: 1/3!
DATA sigc<>+512(SB)/8, $0x3fc5555555555555
DATA sigc<>+520(SB)/8, $0x3fc5555555555555
DATA sigc<>+528(SB)/8, $0x3fc5555555555555
DATA sigc<>+536(SB)/8, $0x3fc5555555555555
// C2: 1/2!
DATA sigc<>+544(SB)/8, $0x3fe0000000000000
DATA sigc<>+552(SB)/8, $0x3fe0000000000000
DATA sigc<>+560(SB)/8, $0x3fe0000000000000
DATA sigc<>+568(SB)/8, $0x3fe0000000000000
// C1: 1/1!
DATA sigc<>+576(SB)/8, $0x3ff0000000000000
DATA sigc<>+584(SB)/8, $0x3ff0000000000000
DATA sigc<>+592(SB)/8, $0x3ff0000000000000
DATA sigc<>+600(SB)/8, $0x3ff0000000000000
// C0: 1/0!
DATA sigc<>+608(SB)/8, $0x3ff0000000000000
DATA sigc<>+616(SB)/8, $0x3ff0000000000000
DATA sigc<>+624(SB)/8, $0x3ff0000000000000
DATA sigc<>+632(SB)/8, $0x3ff0000000000000
// BIAS: exponent bias 1023 (int64)
DATA sigc<>+640(SB)/8, $0x00000000000003ff
DATA sigc<>+648(SB)/8, $0x00000000000003ff
DATA sigc<>+656(SB)/8, $0x00000000000003ff
DATA sigc<>+664(SB)/8, $0x00000000000003ff
GLOBL sigc<>(SB), RODATA, $672

#define SIGN sigc<>+0(SB)
#define EXPMIN sigc<>+32(SB)
#define ONEAT sigc<>+64(SB)
#define LOG2E sigc<>+96(SB)
#define LN2HI sigc<>+128(SB)
#define LN2LO sigc<>+160(SB)
#define C13 sigc<>+192(SB)
#define C12 sigc<>+224(SB)
#define C11 sigc<>+256(SB)
#define C10 sigc<>+288(SB)
#define C9 sigc<>+320(SB)
#define C8 sigc<>+352(SB)
#define C7 sigc<>+384(SB)
#define C6 sigc<>+416(SB)
#define C5 sigc<>+448(SB)
#define C4 sigc<>+480(SB)
#define C3 sigc<>+512(SB)
#define C2 sigc<>+544(SB)
#define C1 sigc<>+576(SB)
#define C0 sigc<>+608(SB)
#define BIAS sigc<>+640(SB)

// func sigmoid4FMA(dst, z *float64, n int)
//
// dst[i] = Sigmoid(z[i]) for i < n, n a positive multiple of 4, four
// lanes at a time, each lane by the operations of Sigmoid and expNonPos
// in their order (fused where they call math.FMA):
//
//	a = max(−|z|, −746);  k = round(a·log₂e);  r = (a − k·ln2Hi) − k·ln2Lo
//	p = Horner(1/13!, …, 1/0!; r);  e = (p·2^⌊k/2⌋)·2^(k − ⌊k/2⌋)
//	σ = (z < 0 ? e : 1)/(1 + e);  1 where z ≥ 37;  z where z is NaN.
TEXT ·sigmoid4FMA(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	VMOVUPD C0, Y14                  // 1
	VXORPD  Y15, Y15, Y15            // 0

loop:
	VMOVUPD (SI)(AX*8), Y0           // z
	VORPD   SIGN, Y0, Y1             // −|z|
	VMAXPD  EXPMIN, Y1, Y1           // a = max(−|z|, −746)
	VMULPD  LOG2E, Y1, Y2            // a·log₂e
	VROUNDPD $0, Y2, Y2              // k, to nearest even
	VFNMADD231PD LN2HI, Y2, Y1       // a − k·ln2Hi
	VFNMADD231PD LN2LO, Y2, Y1       // r = … − k·ln2Lo
	VMOVUPD C13, Y3
	VFMADD213PD C12, Y1, Y3          // p = p·r + c
	VFMADD213PD C11, Y1, Y3
	VFMADD213PD C10, Y1, Y3
	VFMADD213PD C9, Y1, Y3
	VFMADD213PD C8, Y1, Y3
	VFMADD213PD C7, Y1, Y3
	VFMADD213PD C6, Y1, Y3
	VFMADD213PD C5, Y1, Y3
	VFMADD213PD C4, Y1, Y3
	VFMADD213PD C3, Y1, Y3
	VFMADD213PD C2, Y1, Y3
	VFMADD213PD C1, Y1, Y3
	VFMADD213PD C0, Y1, Y3
	VCVTPD2DQY Y2, X4                // k as int32 (exact: an integer)
	VPSRAD  $1, X4, X5               // k₁ = ⌊k/2⌋
	VPSUBD  X5, X4, X4               // k₂ = k − k₁
	VPMOVSXDQ X5, Y5
	VPADDQ  BIAS, Y5, Y5
	VPSLLQ  $52, Y5, Y5              // 2^k₁
	VPMOVSXDQ X4, Y4
	VPADDQ  BIAS, Y4, Y4
	VPSLLQ  $52, Y4, Y4              // 2^k₂
	VMULPD  Y5, Y3, Y3               // p·2^k₁
	VMULPD  Y4, Y3, Y3               // e

	VCMPPD  $0x11, Y15, Y0, Y6       // z < 0 (LT_OQ)
	VBLENDVPD Y6, Y3, Y14, Y7        // numerator: z < 0 ? e : 1
	VADDPD  Y14, Y3, Y8              // 1 + e
	VDIVPD  Y8, Y7, Y9               // σ
	VCMPPD  $0x1D, ONEAT, Y0, Y10    // z ≥ 37 (GE_OQ)
	VBLENDVPD Y10, Y14, Y9, Y9       // z ≥ 37 ? 1 : σ
	VCMPPD  $0x03, Y0, Y0, Y11       // z is NaN (UNORD_Q)
	VBLENDVPD Y11, Y0, Y9, Y9        // NaN ? z : σ
	VMOVUPD Y9, (DI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, CX
	JL      loop

	VZEROUPPER
	RET
