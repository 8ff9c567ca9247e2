//go:build !noasm

#include "textflag.h"

// Constants of sigmoidsFMA, four copies each (one YMM register). The
// exponential's are those of the standard library's math.Exp on amd64
// (src/math/exp_amd64.s, after Shibata's SLEEF), so that each lane
// computes exactly what math.Exp computes.

DATA sigc<>+0(SB)/8, $0x8000000000000000
DATA sigc<>+8(SB)/8, $0x8000000000000000
DATA sigc<>+16(SB)/8, $0x8000000000000000
DATA sigc<>+24(SB)/8, $0x8000000000000000
DATA sigc<>+32(SB)/8, $-700.0
DATA sigc<>+40(SB)/8, $-700.0
DATA sigc<>+48(SB)/8, $-700.0
DATA sigc<>+56(SB)/8, $-700.0
DATA sigc<>+64(SB)/8, $37.0
DATA sigc<>+72(SB)/8, $37.0
DATA sigc<>+80(SB)/8, $37.0
DATA sigc<>+88(SB)/8, $37.0
DATA sigc<>+96(SB)/8, $0.0
DATA sigc<>+104(SB)/8, $0.0
DATA sigc<>+112(SB)/8, $0.0
DATA sigc<>+120(SB)/8, $0.0
DATA sigc<>+128(SB)/8, $1.4426950408889634073599246810018920
DATA sigc<>+136(SB)/8, $1.4426950408889634073599246810018920
DATA sigc<>+144(SB)/8, $1.4426950408889634073599246810018920
DATA sigc<>+152(SB)/8, $1.4426950408889634073599246810018920
DATA sigc<>+160(SB)/8, $0.69314718055966295651160180568695068359375
DATA sigc<>+168(SB)/8, $0.69314718055966295651160180568695068359375
DATA sigc<>+176(SB)/8, $0.69314718055966295651160180568695068359375
DATA sigc<>+184(SB)/8, $0.69314718055966295651160180568695068359375
DATA sigc<>+192(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA sigc<>+200(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA sigc<>+208(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA sigc<>+216(SB)/8, $0.28235290563031577122588448175013436025525412068e-12
DATA sigc<>+224(SB)/8, $0.0625
DATA sigc<>+232(SB)/8, $0.0625
DATA sigc<>+240(SB)/8, $0.0625
DATA sigc<>+248(SB)/8, $0.0625
DATA sigc<>+256(SB)/8, $2.4801587301587301587e-5
DATA sigc<>+264(SB)/8, $2.4801587301587301587e-5
DATA sigc<>+272(SB)/8, $2.4801587301587301587e-5
DATA sigc<>+280(SB)/8, $2.4801587301587301587e-5
DATA sigc<>+288(SB)/8, $1.9841269841269841270e-4
DATA sigc<>+296(SB)/8, $1.9841269841269841270e-4
DATA sigc<>+304(SB)/8, $1.9841269841269841270e-4
DATA sigc<>+312(SB)/8, $1.9841269841269841270e-4
DATA sigc<>+320(SB)/8, $1.3888888888888888889e-3
DATA sigc<>+328(SB)/8, $1.3888888888888888889e-3
DATA sigc<>+336(SB)/8, $1.3888888888888888889e-3
DATA sigc<>+344(SB)/8, $1.3888888888888888889e-3
DATA sigc<>+352(SB)/8, $8.3333333333333333333e-3
DATA sigc<>+360(SB)/8, $8.3333333333333333333e-3
DATA sigc<>+368(SB)/8, $8.3333333333333333333e-3
DATA sigc<>+376(SB)/8, $8.3333333333333333333e-3
DATA sigc<>+384(SB)/8, $4.1666666666666666667e-2
DATA sigc<>+392(SB)/8, $4.1666666666666666667e-2
DATA sigc<>+400(SB)/8, $4.1666666666666666667e-2
DATA sigc<>+408(SB)/8, $4.1666666666666666667e-2
DATA sigc<>+416(SB)/8, $1.6666666666666666667e-1
DATA sigc<>+424(SB)/8, $1.6666666666666666667e-1
DATA sigc<>+432(SB)/8, $1.6666666666666666667e-1
DATA sigc<>+440(SB)/8, $1.6666666666666666667e-1
DATA sigc<>+448(SB)/8, $0.5
DATA sigc<>+456(SB)/8, $0.5
DATA sigc<>+464(SB)/8, $0.5
DATA sigc<>+472(SB)/8, $0.5
DATA sigc<>+480(SB)/8, $1.0
DATA sigc<>+488(SB)/8, $1.0
DATA sigc<>+496(SB)/8, $1.0
DATA sigc<>+504(SB)/8, $1.0
DATA sigc<>+512(SB)/8, $2.0
DATA sigc<>+520(SB)/8, $2.0
DATA sigc<>+528(SB)/8, $2.0
DATA sigc<>+536(SB)/8, $2.0
DATA sigc<>+544(SB)/8, $1023
DATA sigc<>+552(SB)/8, $1023
DATA sigc<>+560(SB)/8, $1023
DATA sigc<>+568(SB)/8, $1023
GLOBL sigc<>(SB), RODATA, $576

#define SIGN sigc<>+0(SB)
#define M700 sigc<>+32(SB)
#define C37 sigc<>+64(SB)
#define ZERO sigc<>+96(SB)
#define LOG2E sigc<>+128(SB)
#define LN2U sigc<>+160(SB)
#define LN2L sigc<>+192(SB)
#define SIXTEENTH sigc<>+224(SB)
#define P8 sigc<>+256(SB)
#define P7 sigc<>+288(SB)
#define P6 sigc<>+320(SB)
#define P5 sigc<>+352(SB)
#define P4 sigc<>+384(SB)
#define P3 sigc<>+416(SB)
#define HALF sigc<>+448(SB)
#define ONE sigc<>+480(SB)
#define TWO sigc<>+512(SB)
#define BIAS sigc<>+544(SB)

// func sigmoidsFMA(dst, z *float64, n int) int
//
// dst[i] = sigmoid(z[i]) for i = 0, 4, 8, … in groups of four while
// every lane of the group has −|z| ≥ −700 or z ≥ 37 (the range in which
// math.Exp(−|z|) takes its main path: a finite argument whose result is
// a normal number); it returns the number of entries done, a multiple of
// 4 ≤ n, stopping before the first group outside the range (the caller
// computes that one in Go and calls again). Each lane repeats the
// operations of the Go function sigmoid with math.Exp's FMA path:
//
//	a = −|z|;  k = round(a·log2 e);  r = ((a − k·ln2ᵤ) − k·ln2ₗ)/16
//	p = Taylor polynomial (Horner, FMA);  r = r·p;  3× r = r·(r + 2)
//	e = (r·(r + 2) + 1)·2ᵏ
//	σ = (z < 0 ? e : 1)/(1 + e), or 1 for z ≥ 37.
TEXT ·sigmoidsFMA(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	VMOVUPD ONE, Y14

loop:
	LEAQ 4(AX), DX
	CMPQ DX, CX
	JG   done
	VMOVUPD (SI)(AX*8), Y0           // z
	VORPD   SIGN, Y0, Y1             // a = −|z|
	VCMPPD  $0x1D, M700, Y1, Y2      // a ≥ −700 (GE_OQ: false for NaN)
	VCMPPD  $0x1D, C37, Y0, Y3       // z ≥ 37
	VORPD   Y3, Y2, Y2
	VMOVMSKPD Y2, BX
	CMPQ    BX, $15
	JNE     done

	VMULPD  LOG2E, Y1, Y4            // a·log2 e
	VCVTPD2DQY Y4, X5                // k, rounded to nearest (MXCSR)
	VCVTDQ2PD X5, Y4                 // float64(k)
	VFNMADD231PD LN2U, Y4, Y1        // a − k·ln2ᵤ
	VFNMADD231PD LN2L, Y4, Y1        // − k·ln2ₗ
	VMULPD  SIXTEENTH, Y1, Y1        // r
	VMOVUPD P8, Y6
	VFMADD213PD P7, Y1, Y6           // p = r·p + c
	VFMADD213PD P6, Y1, Y6
	VFMADD213PD P5, Y1, Y6
	VFMADD213PD P4, Y1, Y6
	VFMADD213PD P3, Y1, Y6
	VFMADD213PD HALF, Y1, Y6
	VFMADD213PD ONE, Y1, Y6
	VMULPD  Y6, Y1, Y1               // r·p
	VADDPD  TWO, Y1, Y6
	VMULPD  Y6, Y1, Y1               // r·(r + 2)
	VADDPD  TWO, Y1, Y6
	VMULPD  Y6, Y1, Y1
	VADDPD  TWO, Y1, Y6
	VMULPD  Y6, Y1, Y1
	VADDPD  TWO, Y1, Y6
	VFMADD213PD ONE, Y6, Y1          // r·(r + 2) + 1
	VPMOVSXDQ X5, Y7                 // k as int64
	VPADDQ  BIAS, Y7, Y7
	VPSLLQ  $52, Y7, Y7              // 2ᵏ
	VMULPD  Y7, Y1, Y1               // e = exp(a)

	VCMPPD  $0x11, ZERO, Y0, Y8      // z < 0 (LT_OQ)
	VBLENDVPD Y8, Y1, Y14, Y9        // numerator: z < 0 ? e : 1
	VADDPD  Y14, Y1, Y10             // 1 + e
	VDIVPD  Y10, Y9, Y11             // num/(1 + e)
	VBLENDVPD Y3, Y14, Y11, Y12      // z ≥ 37 ? 1 : σ
	VMOVUPD Y12, (DI)(AX*8)
	MOVQ    DX, AX
	JMP     loop

done:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
