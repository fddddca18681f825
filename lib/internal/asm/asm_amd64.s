//go:build !noasm

#include "textflag.h"

// func axpy4RowsAVX2(a *float64, rows *int32, x *float64, stride int, y *float64, n, groups int)
//
// For each of groups groups g: y[l] += a[4g]·x_{rows[4g]}[l] + … +
// a[4g+3]·x_{rows[4g+3]}[l] for l < n, x_r the row at x + r·stride floats:
// the multiple-of-4 head four lanes at a time as axpy4AVX2, the rest one at
// a time, both with axpy4Go's multiplies and adds in its order (no FMA).
TEXT ·axpy4RowsAVX2(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), AX
	MOVQ rows+8(FP), BX
	MOVQ x+16(FP), DX
	MOVQ stride+24(FP), R12
	SHLQ $3, R12
	MOVQ y+32(FP), DI
	MOVQ groups+48(FP), R13
	TESTQ R13, R13
	JZ arDone
arGroup:
	VBROADCASTSD (AX), Y10
	VBROADCASTSD 8(AX), Y11
	VBROADCASTSD 16(AX), Y12
	VBROADCASTSD 24(AX), Y13
	MOVLQSX (BX), R8
	IMULQ R12, R8
	ADDQ DX, R8
	MOVLQSX 4(BX), R9
	IMULQ R12, R9
	ADDQ DX, R9
	MOVLQSX 8(BX), R10
	IMULQ R12, R10
	ADDQ DX, R10
	MOVLQSX 12(BX), R11
	IMULQ R12, R11
	ADDQ DX, R11
	XORQ SI, SI
	MOVQ n+40(FP), CX
	SHRQ $2, CX
	JZ arTail
arHead:
	VMULPD (R8)(SI*1), Y10, Y0
	VMULPD (R9)(SI*1), Y11, Y1
	VADDPD Y1, Y0, Y0
	VMULPD (R10)(SI*1), Y12, Y2
	VADDPD Y2, Y0, Y0
	VMULPD (R11)(SI*1), Y13, Y3
	VADDPD Y3, Y0, Y0
	VADDPD (DI)(SI*1), Y0, Y0
	VMOVUPD Y0, (DI)(SI*1)
	ADDQ $32, SI
	DECQ CX
	JNZ arHead
arTail:
	MOVQ n+40(FP), CX
	ANDQ $3, CX
	JZ arNext
arTailLoop:
	VMOVSD (R8)(SI*1), X0
	VMULSD X10, X0, X0
	VMOVSD (R9)(SI*1), X1
	VMULSD X11, X1, X1
	VADDSD X1, X0, X0
	VMOVSD (R10)(SI*1), X2
	VMULSD X12, X2, X2
	VADDSD X2, X0, X0
	VMOVSD (R11)(SI*1), X3
	VMULSD X13, X3, X3
	VADDSD X3, X0, X0
	VADDSD (DI)(SI*1), X0, X0
	VMOVSD X0, (DI)(SI*1)
	ADDQ $8, SI
	DECQ CX
	JNZ arTailLoop
arNext:
	ADDQ $32, AX
	ADDQ $16, BX
	DECQ R13
	JNZ arGroup
arDone:
	VZEROUPPER
	RET

// func biasReLUAVX2(row, b *float32, n int)
//
// row[j] = max(row[j]+b[j], 0) for j < n, n a multiple of 8, as Go's max
// computes it: VMAXPS returns its second source when either is NaN or both
// are zero, so with the sum second a NaN is kept; adding +0 then turns the
// −0 that max(−0, 0) would otherwise keep into +0.
TEXT ·biasReLUAVX2(SB), NOSPLIT, $0-24
	MOVQ row+0(FP), DI
	MOVQ b+8(FP), SI
	MOVQ n+16(FP), CX
	VXORPS Y15, Y15, Y15
	SHRQ $3, CX
	JZ biasdone
biasloop:
	VMOVUPS (DI), Y0
	VADDPS (SI), Y0, Y0
	VMAXPS Y0, Y15, Y0
	VADDPS Y15, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ CX
	JNZ biasloop
biasdone:
	VZEROUPPER
	RET

// func maskAVX2(grad, act *float32, n int)
//
// grad[i] = 0 where the bits of act[i] are all zero (+0), for i < n, n a
// multiple of 8: an integer compare of act with zero gives the lanes to
// clear.
TEXT ·maskAVX2(SB), NOSPLIT, $0-24
	MOVQ grad+0(FP), DI
	MOVQ act+8(FP), SI
	MOVQ n+16(FP), CX
	VPXOR Y15, Y15, Y15
	SHRQ $3, CX
	JZ maskdone
maskloop:
	VMOVDQU (SI), Y1
	VPCMPEQD Y15, Y1, Y1
	VMOVUPS (DI), Y0
	VANDNPS Y0, Y1, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ CX
	JNZ maskloop
maskdone:
	VZEROUPPER
	RET

// func sumRowsAVX2(out, x *float32, rows, stride, n int)
//
// out[j] += Σ_i x[i*stride+j] for j < n, n a multiple of 8, rows summed in
// order for each column, as sumRowsGo does: one 8-column group at a time,
// its running sums in one register.
TEXT ·sumRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ stride+24(FP), R8
	SHLQ $2, R8
	MOVQ n+32(FP), R9
	SHRQ $3, R9
	JZ sumdone
sumgroup:
	VMOVUPS (DI), Y0
	MOVQ SI, AX
	MOVQ rows+16(FP), CX
sumrow:
	VADDPS (AX), Y0, Y0
	ADDQ R8, AX
	DECQ CX
	JNZ sumrow
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ R9
	JNZ sumgroup
sumdone:
	VZEROUPPER
	RET

// Constants of softplusSigmoidAVX2, each four times (one per lane): their
// values are those of lib/internal/numeric's constant expressions rounded to
// float64, as the Go twin uses them.
DATA spsConst<>+0(SB)/8, $0x8000000000000000 // sign
DATA spsConst<>+8(SB)/8, $0x8000000000000000
DATA spsConst<>+16(SB)/8, $0x8000000000000000
DATA spsConst<>+24(SB)/8, $0x8000000000000000
DATA spsConst<>+32(SB)/8, $0x00000000000003ff // bias
DATA spsConst<>+40(SB)/8, $0x00000000000003ff
DATA spsConst<>+48(SB)/8, $0x00000000000003ff
DATA spsConst<>+56(SB)/8, $0x00000000000003ff
DATA spsConst<>+64(SB)/8, $0x3ff71547652b82fe // log2e
DATA spsConst<>+72(SB)/8, $0x3ff71547652b82fe
DATA spsConst<>+80(SB)/8, $0x3ff71547652b82fe
DATA spsConst<>+88(SB)/8, $0x3ff71547652b82fe
DATA spsConst<>+96(SB)/8, $0x4338000000000000 // magic
DATA spsConst<>+104(SB)/8, $0x4338000000000000
DATA spsConst<>+112(SB)/8, $0x4338000000000000
DATA spsConst<>+120(SB)/8, $0x4338000000000000
DATA spsConst<>+128(SB)/8, $0x3fe62e42fefa3800 // ln2hi
DATA spsConst<>+136(SB)/8, $0x3fe62e42fefa3800
DATA spsConst<>+144(SB)/8, $0x3fe62e42fefa3800
DATA spsConst<>+152(SB)/8, $0x3fe62e42fefa3800
DATA spsConst<>+160(SB)/8, $0x3d2ef35793c76730 // ln2lo
DATA spsConst<>+168(SB)/8, $0x3d2ef35793c76730
DATA spsConst<>+176(SB)/8, $0x3d2ef35793c76730
DATA spsConst<>+184(SB)/8, $0x3d2ef35793c76730
DATA spsConst<>+192(SB)/8, $0xc086200000000000 // flush
DATA spsConst<>+200(SB)/8, $0xc086200000000000
DATA spsConst<>+208(SB)/8, $0xc086200000000000
DATA spsConst<>+216(SB)/8, $0xc086200000000000
DATA spsConst<>+224(SB)/8, $0x3fe0000000000000 // 1/2
DATA spsConst<>+232(SB)/8, $0x3fe0000000000000
DATA spsConst<>+240(SB)/8, $0x3fe0000000000000
DATA spsConst<>+248(SB)/8, $0x3fe0000000000000
DATA spsConst<>+256(SB)/8, $0x3fc5555555555555 // 1/3!
DATA spsConst<>+264(SB)/8, $0x3fc5555555555555
DATA spsConst<>+272(SB)/8, $0x3fc5555555555555
DATA spsConst<>+280(SB)/8, $0x3fc5555555555555
DATA spsConst<>+288(SB)/8, $0x3fa5555555555555 // 1/4!
DATA spsConst<>+296(SB)/8, $0x3fa5555555555555
DATA spsConst<>+304(SB)/8, $0x3fa5555555555555
DATA spsConst<>+312(SB)/8, $0x3fa5555555555555
DATA spsConst<>+320(SB)/8, $0x3f81111111111111 // 1/5!
DATA spsConst<>+328(SB)/8, $0x3f81111111111111
DATA spsConst<>+336(SB)/8, $0x3f81111111111111
DATA spsConst<>+344(SB)/8, $0x3f81111111111111
DATA spsConst<>+352(SB)/8, $0x3f56c16c16c16c17 // 1/6!
DATA spsConst<>+360(SB)/8, $0x3f56c16c16c16c17
DATA spsConst<>+368(SB)/8, $0x3f56c16c16c16c17
DATA spsConst<>+376(SB)/8, $0x3f56c16c16c16c17
DATA spsConst<>+384(SB)/8, $0x3f2a01a01a01a01a // 1/7!
DATA spsConst<>+392(SB)/8, $0x3f2a01a01a01a01a
DATA spsConst<>+400(SB)/8, $0x3f2a01a01a01a01a
DATA spsConst<>+408(SB)/8, $0x3f2a01a01a01a01a
DATA spsConst<>+416(SB)/8, $0x3efa01a01a01a01a // 1/8!
DATA spsConst<>+424(SB)/8, $0x3efa01a01a01a01a
DATA spsConst<>+432(SB)/8, $0x3efa01a01a01a01a
DATA spsConst<>+440(SB)/8, $0x3efa01a01a01a01a
DATA spsConst<>+448(SB)/8, $0x3ec71de3a556c734 // 1/9!
DATA spsConst<>+456(SB)/8, $0x3ec71de3a556c734
DATA spsConst<>+464(SB)/8, $0x3ec71de3a556c734
DATA spsConst<>+472(SB)/8, $0x3ec71de3a556c734
DATA spsConst<>+480(SB)/8, $0x3e927e4fb7789f5c // 1/10!
DATA spsConst<>+488(SB)/8, $0x3e927e4fb7789f5c
DATA spsConst<>+496(SB)/8, $0x3e927e4fb7789f5c
DATA spsConst<>+504(SB)/8, $0x3e927e4fb7789f5c
DATA spsConst<>+512(SB)/8, $0x3e5ae64567f544e4 // 1/11!
DATA spsConst<>+520(SB)/8, $0x3e5ae64567f544e4
DATA spsConst<>+528(SB)/8, $0x3e5ae64567f544e4
DATA spsConst<>+536(SB)/8, $0x3e5ae64567f544e4
DATA spsConst<>+544(SB)/8, $0x3e21eed8eff8d898 // 1/12!
DATA spsConst<>+552(SB)/8, $0x3e21eed8eff8d898
DATA spsConst<>+560(SB)/8, $0x3e21eed8eff8d898
DATA spsConst<>+568(SB)/8, $0x3e21eed8eff8d898
DATA spsConst<>+576(SB)/8, $0x3de6124613a86d09 // 1/13!
DATA spsConst<>+584(SB)/8, $0x3de6124613a86d09
DATA spsConst<>+592(SB)/8, $0x3de6124613a86d09
DATA spsConst<>+600(SB)/8, $0x3de6124613a86d09
DATA spsConst<>+608(SB)/8, $0x3ff0000000000000 // 1
DATA spsConst<>+616(SB)/8, $0x3ff0000000000000
DATA spsConst<>+624(SB)/8, $0x3ff0000000000000
DATA spsConst<>+632(SB)/8, $0x3ff0000000000000
DATA spsConst<>+640(SB)/8, $0x4000000000000000 // 2
DATA spsConst<>+648(SB)/8, $0x4000000000000000
DATA spsConst<>+656(SB)/8, $0x4000000000000000
DATA spsConst<>+664(SB)/8, $0x4000000000000000
DATA spsConst<>+672(SB)/8, $0x3ff6a09e667f3bcd // sqrt2
DATA spsConst<>+680(SB)/8, $0x3ff6a09e667f3bcd
DATA spsConst<>+688(SB)/8, $0x3ff6a09e667f3bcd
DATA spsConst<>+696(SB)/8, $0x3ff6a09e667f3bcd
DATA spsConst<>+704(SB)/8, $0x3fe5555555555555 // 2/3
DATA spsConst<>+712(SB)/8, $0x3fe5555555555555
DATA spsConst<>+720(SB)/8, $0x3fe5555555555555
DATA spsConst<>+728(SB)/8, $0x3fe5555555555555
DATA spsConst<>+736(SB)/8, $0x3fd999999999999a // 2/5
DATA spsConst<>+744(SB)/8, $0x3fd999999999999a
DATA spsConst<>+752(SB)/8, $0x3fd999999999999a
DATA spsConst<>+760(SB)/8, $0x3fd999999999999a
DATA spsConst<>+768(SB)/8, $0x3fd2492492492492 // 2/7
DATA spsConst<>+776(SB)/8, $0x3fd2492492492492
DATA spsConst<>+784(SB)/8, $0x3fd2492492492492
DATA spsConst<>+792(SB)/8, $0x3fd2492492492492
DATA spsConst<>+800(SB)/8, $0x3fcc71c71c71c71c // 2/9
DATA spsConst<>+808(SB)/8, $0x3fcc71c71c71c71c
DATA spsConst<>+816(SB)/8, $0x3fcc71c71c71c71c
DATA spsConst<>+824(SB)/8, $0x3fcc71c71c71c71c
DATA spsConst<>+832(SB)/8, $0x3fc745d1745d1746 // 2/11
DATA spsConst<>+840(SB)/8, $0x3fc745d1745d1746
DATA spsConst<>+848(SB)/8, $0x3fc745d1745d1746
DATA spsConst<>+856(SB)/8, $0x3fc745d1745d1746
DATA spsConst<>+864(SB)/8, $0x3fc3b13b13b13b14 // 2/13
DATA spsConst<>+872(SB)/8, $0x3fc3b13b13b13b14
DATA spsConst<>+880(SB)/8, $0x3fc3b13b13b13b14
DATA spsConst<>+888(SB)/8, $0x3fc3b13b13b13b14
DATA spsConst<>+896(SB)/8, $0x3fc1111111111111 // 2/15
DATA spsConst<>+904(SB)/8, $0x3fc1111111111111
DATA spsConst<>+912(SB)/8, $0x3fc1111111111111
DATA spsConst<>+920(SB)/8, $0x3fc1111111111111
DATA spsConst<>+928(SB)/8, $0x3fbe1e1e1e1e1e1e // 2/17
DATA spsConst<>+936(SB)/8, $0x3fbe1e1e1e1e1e1e
DATA spsConst<>+944(SB)/8, $0x3fbe1e1e1e1e1e1e
DATA spsConst<>+952(SB)/8, $0x3fbe1e1e1e1e1e1e
DATA spsConst<>+960(SB)/8, $0x3fbaf286bca1af28 // 2/19
DATA spsConst<>+968(SB)/8, $0x3fbaf286bca1af28
DATA spsConst<>+976(SB)/8, $0x3fbaf286bca1af28
DATA spsConst<>+984(SB)/8, $0x3fbaf286bca1af28
GLOBL spsConst<>(SB), RODATA|NOPTR, $992

#define SIGN spsConst<>+0(SB)
#define BIAS spsConst<>+32(SB)
#define LOG2E spsConst<>+64(SB)
#define MAGIC spsConst<>+96(SB)
#define LN2HI spsConst<>+128(SB)
#define LN2LO spsConst<>+160(SB)
#define FLUSH spsConst<>+192(SB)
#define C2 spsConst<>+224(SB)
#define C3 spsConst<>+256(SB)
#define C4 spsConst<>+288(SB)
#define C5 spsConst<>+320(SB)
#define C6 spsConst<>+352(SB)
#define C7 spsConst<>+384(SB)
#define C8 spsConst<>+416(SB)
#define C9 spsConst<>+448(SB)
#define C10 spsConst<>+480(SB)
#define C11 spsConst<>+512(SB)
#define C12 spsConst<>+544(SB)
#define C13 spsConst<>+576(SB)
#define ONE spsConst<>+608(SB)
#define TWO spsConst<>+640(SB)
#define SQRT2 spsConst<>+672(SB)
#define L3 spsConst<>+704(SB)
#define L5 spsConst<>+736(SB)
#define L7 spsConst<>+768(SB)
#define L9 spsConst<>+800(SB)
#define L11 spsConst<>+832(SB)
#define L13 spsConst<>+864(SB)
#define L15 spsConst<>+896(SB)
#define L17 spsConst<>+928(SB)
#define L19 spsConst<>+960(SB)

// func softplusSigmoidAVX2(z, softplus, sigmoid *float64, n int)
//
// softplus[i], sigmoid[i] = numeric.SoftplusSigmoid(z[i]) for i < n, n a
// multiple of 4, four lanes at a time: the same operations as the Go code
// (lib/internal/numeric's SoftplusSigmoid, expNeg, expReduced, log1pUnit) in
// the same order, each rounded (no FMA); its branches become masks.
TEXT ·softplusSigmoidAVX2(SB), NOSPLIT, $0-32
	MOVQ z+0(FP), AX
	MOVQ softplus+8(FP), DI
	MOVQ sigmoid+16(FP), DX
	MOVQ n+24(FP), CX
	XORQ SI, SI
	SHRQ $2, CX
	JZ spsDone
spsLoop:
	VMOVUPD (AX)(SI*1), Y0            // z
	VORPD SIGN, Y0, Y1                // a = −|z|
	VCMPPD $0x0e, FLUSH, Y1, Y2       // ok = a > ExpFlush (false for NaN)
	VMAXPD FLUSH, Y1, Y3              // a where ok; the rest is masked off
	// expNeg: t = a·log₂e + magic, k = t − magic, r = a − k·ln2Hi − k·ln2Lo.
	VMULPD LOG2E, Y3, Y4
	VADDPD MAGIC, Y4, Y4              // t
	VSUBPD MAGIC, Y4, Y5              // k
	VMULPD LN2HI, Y5, Y6
	VSUBPD Y6, Y3, Y6
	VMULPD LN2LO, Y5, Y7
	VSUBPD Y7, Y6, Y6                 // r
	VPADDQ BIAS, Y4, Y4
	VPSLLQ $52, Y4, Y4                // 2ᵏ
	// expReduced: Estrin's scheme.
	VMULPD Y6, Y6, Y7                 // r²
	VMULPD Y7, Y7, Y8                 // r⁴
	VMULPD C3, Y6, Y9
	VADDPD C2, Y9, Y9                 // c01
	VMULPD C5, Y6, Y10
	VADDPD C4, Y10, Y10               // c23
	VMULPD Y10, Y7, Y10
	VADDPD Y10, Y9, Y9                // c03
	VMULPD C7, Y6, Y10
	VADDPD C6, Y10, Y10               // c45
	VMULPD C9, Y6, Y11
	VADDPD C8, Y11, Y11               // c67
	VMULPD Y11, Y7, Y11
	VADDPD Y11, Y10, Y10              // c47
	VMULPD C11, Y6, Y11
	VADDPD C10, Y11, Y11              // c89
	VMULPD C13, Y6, Y12
	VADDPD C12, Y12, Y12              // c1011
	VMULPD Y12, Y7, Y12
	VADDPD Y12, Y11, Y11              // c811
	VMULPD Y11, Y8, Y11
	VADDPD Y11, Y10, Y10
	VMULPD Y10, Y8, Y10
	VADDPD Y10, Y9, Y9                // p
	VMULPD Y9, Y7, Y9
	VADDPD Y9, Y6, Y9
	VADDPD ONE, Y9, Y9                // 1 + (r + r²·p)
	VMULPD Y4, Y9, Y9
	VANDPD Y2, Y9, Y9                 // e = e^a, +0 where flushed
	// log1pUnit(e): u = 1 + e, c = e − (u − 1).
	VADDPD ONE, Y9, Y1                // u
	VSUBPD ONE, Y1, Y3
	VSUBPD Y3, Y9, Y3                 // c
	VCMPPD $0x0d, SQRT2, Y1, Y4       // u ≥ sqrt2
	VANDPD ONE, Y4, Y5                // k
	VMULPD C2, Y1, Y6                 // u·0.5
	VANDPD Y4, Y6, Y6
	VANDNPD Y1, Y4, Y7
	VORPD Y7, Y6, Y6                  // m
	VSUBPD ONE, Y6, Y6                // f
	VADDPD TWO, Y6, Y7
	VDIVPD Y7, Y6, Y7                 // s = f/(2 + f)
	VMULPD Y7, Y7, Y8                 // z
	VMULPD Y8, Y8, Y10                // z²
	VMULPD Y10, Y10, Y11              // z⁴
	VMULPD L5, Y8, Y12
	VADDPD L3, Y12, Y12               // c12
	VMULPD L9, Y8, Y13
	VADDPD L7, Y13, Y13               // c34
	VMULPD Y13, Y10, Y13
	VADDPD Y13, Y12, Y12              // c14
	VMULPD L13, Y8, Y13
	VADDPD L11, Y13, Y13              // c56
	VMULPD L17, Y8, Y14
	VADDPD L15, Y14, Y14              // c78
	VMULPD Y14, Y10, Y14
	VADDPD Y14, Y13, Y13              // c58
	VMULPD Y11, Y11, Y14              // z⁸
	VMULPD Y13, Y11, Y13
	VADDPD Y13, Y12, Y12
	VMULPD L19, Y14, Y14
	VADDPD Y14, Y12, Y12
	VMULPD Y12, Y8, Y12               // 2R
	VMULPD C2, Y6, Y13
	VMULPD Y6, Y13, Y13               // hfsq = (0.5·f)·f
	VADDPD Y12, Y13, Y12
	VMULPD Y12, Y7, Y12               // s·(hfsq + 2R)
	VMULPD LN2LO, Y5, Y14
	VADDPD Y14, Y12, Y12
	VSUBPD Y12, Y13, Y12
	VSUBPD Y12, Y6, Y12
	VMULPD LN2HI, Y5, Y14
	VADDPD Y12, Y14, Y12              // ln u
	VDIVPD Y1, Y3, Y3
	VADDPD Y3, Y12, Y12               // ln u + c/u
	// softplus = z + log1p(e) where z > 0, else log1p(e) (+ +0, which keeps
	// it: it is ≥ +0); sigmoid = 1/(1 + e) or e/(1 + e).
	VXORPD Y15, Y15, Y15
	VCMPPD $0x0e, Y15, Y0, Y2         // z > 0
	VANDPD Y0, Y2, Y3
	VADDPD Y3, Y12, Y12
	VANDPD ONE, Y2, Y3
	VANDNPD Y9, Y2, Y4
	VORPD Y4, Y3, Y3
	VDIVPD Y1, Y3, Y3
	// NaN in, NaN out: both results are z itself.
	VCMPPD $0x03, Y0, Y0, Y4
	VANDPD Y0, Y4, Y5
	VANDNPD Y12, Y4, Y12
	VORPD Y5, Y12, Y12
	VANDNPD Y3, Y4, Y3
	VORPD Y5, Y3, Y3
	VMOVUPD Y12, (DI)(SI*1)
	VMOVUPD Y3, (DX)(SI*1)
	ADDQ $32, SI
	DECQ CX
	JNZ spsLoop
spsDone:
	VZEROUPPER
	RET

// func transpose4RowsAVX2(dst *float32, w int, x *float32, stride, blocks int)
//
// dst[p·w+r] = x[r·stride+p] for r < 4 and p < 8·blocks: per block, eight
// entries of each of the four rows are loaded and transposed in registers
// (unpack, then shuffle: lane l of each 128-bit half ends holding entry l of
// the four rows) into eight rows of four, stored w floats apart.
TEXT ·transpose4RowsAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ w+8(FP), R8
	SHLQ $2, R8
	MOVQ x+16(FP), SI
	MOVQ stride+24(FP), R9
	SHLQ $2, R9
	MOVQ blocks+32(FP), CX
	LEAQ (SI)(R9*1), R10
	LEAQ (R10)(R9*1), R11
	LEAQ (R11)(R9*1), R12
	MOVQ R8, R13
	SHLQ $2, R13
transpose4loop:
	VMOVUPS (SI), Y0
	VMOVUPS (R10), Y1
	VMOVUPS (R11), Y2
	VMOVUPS (R12), Y3
	VUNPCKLPS Y1, Y0, Y4 // a0 b0 a1 b1 | a4 b4 a5 b5
	VUNPCKHPS Y1, Y0, Y5 // a2 b2 a3 b3 | a6 b6 a7 b7
	VUNPCKLPS Y3, Y2, Y6 // c0 d0 c1 d1 | c4 d4 c5 d5
	VUNPCKHPS Y3, Y2, Y7 // c2 d2 c3 d3 | c6 d6 c7 d7
	VSHUFPS $0x44, Y6, Y4, Y8 // a0 b0 c0 d0 | a4 b4 c4 d4
	VSHUFPS $0xEE, Y6, Y4, Y9 // a1 b1 c1 d1 | a5 b5 c5 d5
	VSHUFPS $0x44, Y7, Y5, Y10 // a2 b2 c2 d2 | a6 b6 c6 d6
	VSHUFPS $0xEE, Y7, Y5, Y11 // a3 b3 c3 d3 | a7 b7 c7 d7
	VMOVUPS X8, (DI)
	VMOVUPS X9, (DI)(R8*1)
	VMOVUPS X10, (DI)(R8*2)
	LEAQ (DI)(R8*2), DX
	VMOVUPS X11, (DX)(R8*1)
	LEAQ (DI)(R13*1), DX
	VEXTRACTF128 $1, Y8, (DX)
	VEXTRACTF128 $1, Y9, (DX)(R8*1)
	VEXTRACTF128 $1, Y10, (DX)(R8*2)
	LEAQ (DX)(R8*2), DX
	VEXTRACTF128 $1, Y11, (DX)(R8*1)
	ADDQ $32, SI
	ADDQ $32, R10
	ADDQ $32, R11
	ADDQ $32, R12
	LEAQ (DI)(R13*2), DI
	DECQ CX
	JNZ transpose4loop
	VZEROUPPER
	RET

// func mulAdd4x8AVX2(k int, a *float64, rs, ls int, b, c *float64, ldc int)
//
// The 4×8 tile of c (rows ldc apart) in Y0–Y7, two registers a row; for
// each of the k rows of the panel b (eight values, Y8 and Y9), the four
// entries a(r,l) = a[r·rs+l·ls] are broadcast and their products added to
// their rows, multiply then add (no FMA) as mulAdd4x8Go.
TEXT ·mulAdd4x8AVX2(SB), NOSPLIT, $0-56
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), AX
	MOVQ rs+16(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R9
	MOVQ ls+24(FP), R10
	SHLQ $3, R10
	MOVQ b+32(FP), BX
	MOVQ c+40(FP), DI
	MOVQ ldc+48(FP), R11
	SHLQ $3, R11
	LEAQ (R11)(R11*2), R12
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD (DI)(R11*1), Y2
	VMOVUPD 32(DI)(R11*1), Y3
	VMOVUPD (DI)(R11*2), Y4
	VMOVUPD 32(DI)(R11*2), Y5
	VMOVUPD (DI)(R12*1), Y6
	VMOVUPD 32(DI)(R12*1), Y7
mulLoop:
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	VBROADCASTSD (AX), Y10
	VMULPD Y8, Y10, Y11
	VADDPD Y11, Y0, Y0
	VMULPD Y9, Y10, Y12
	VADDPD Y12, Y1, Y1
	VBROADCASTSD (AX)(R8*1), Y13
	VMULPD Y8, Y13, Y11
	VADDPD Y11, Y2, Y2
	VMULPD Y9, Y13, Y12
	VADDPD Y12, Y3, Y3
	VBROADCASTSD (AX)(R8*2), Y14
	VMULPD Y8, Y14, Y11
	VADDPD Y11, Y4, Y4
	VMULPD Y9, Y14, Y12
	VADDPD Y12, Y5, Y5
	VBROADCASTSD (AX)(R9*1), Y15
	VMULPD Y8, Y15, Y11
	VADDPD Y11, Y6, Y6
	VMULPD Y9, Y15, Y12
	VADDPD Y12, Y7, Y7
	ADDQ $64, BX
	ADDQ R10, AX
	DECQ CX
	JNZ mulLoop
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, (DI)(R11*1)
	VMOVUPD Y3, 32(DI)(R11*1)
	VMOVUPD Y4, (DI)(R11*2)
	VMOVUPD Y5, 32(DI)(R11*2)
	VMOVUPD Y6, (DI)(R12*1)
	VMOVUPD Y7, 32(DI)(R12*1)
	VZEROUPPER
	RET

// func amsgradAVX2(c *[7]float32, x, grad, m, v, vmax *float32, n int)
//
// One AMSGrad step of float32 parameters x[e], e < n (a multiple of 8), as
// adamGo computes it with apply set, eight lanes at a time, each operation
// rounded (no FMA): c holds β₁, 1−β₁, β₂, 1−β₂, the step size, √(1−β₂ᵗ) and
// ε. Go's max(v̂, v) is VMAXPS with v first (which yields v̂ where either is
// NaN or both are zero), then v where v is NaN, then the AND of the two
// where they compare equal (their bits, or +0 from ±0 as Go's max gives).
TEXT ·amsgradAVX2(SB), NOSPLIT, $0-56
	MOVQ c+0(FP), AX
	MOVQ x+8(FP), DI
	MOVQ grad+16(FP), SI
	MOVQ m+24(FP), R8
	MOVQ v+32(FP), R9
	MOVQ vmax+40(FP), R10
	MOVQ n+48(FP), CX
	VBROADCASTSS 0(AX), Y9   // β₁
	VBROADCASTSS 4(AX), Y10  // 1−β₁
	VBROADCASTSS 8(AX), Y11  // β₂
	VBROADCASTSS 12(AX), Y12 // 1−β₂
	VBROADCASTSS 16(AX), Y13 // step size
	VBROADCASTSS 20(AX), Y14 // √(1−β₂ᵗ)
	VBROADCASTSS 24(AX), Y15 // ε
	XORQ BX, BX
amsgradloop:
	VMOVUPS (SI)(BX*4), Y0 // g
	VMULPS (R8)(BX*4), Y9, Y1
	VMULPS Y0, Y10, Y2
	VADDPS Y2, Y1, Y1 // m = β₁m + (1−β₁)g
	VMOVUPS Y1, (R8)(BX*4)
	VMULPS (R9)(BX*4), Y11, Y3
	VMULPS Y0, Y12, Y4
	VMULPS Y0, Y4, Y4
	VADDPS Y4, Y3, Y3 // v = β₂v + ((1−β₂)g)g
	VMOVUPS Y3, (R9)(BX*4)
	VMOVUPS (R10)(BX*4), Y5 // v̂
	VMAXPS Y5, Y3, Y6       // v > v̂ ? v : v̂
	VCMPPS $3, Y3, Y3, Y7   // v is NaN
	VBLENDVPS Y7, Y3, Y6, Y6
	VCMPPS $0, Y5, Y3, Y8   // v = v̂ (ordered)
	VANDPS Y5, Y3, Y7
	VBLENDVPS Y8, Y7, Y6, Y6
	VMOVUPS Y6, (R10)(BX*4)
	VSQRTPS Y6, Y6
	VDIVPS Y14, Y6, Y6
	VADDPS Y15, Y6, Y6 // √v̂/√(1−β₂ᵗ) + ε
	VMULPS Y1, Y13, Y1
	VDIVPS Y6, Y1, Y1  // step
	VMOVUPS (DI)(BX*4), Y2
	VSUBPS Y1, Y2, Y2
	VMOVUPS Y2, (DI)(BX*4)
	ADDQ $8, BX
	CMPQ BX, CX
	JLT amsgradloop
	VZEROUPPER
	RET
