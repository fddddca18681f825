#include "textflag.h"

// func axpy4AVX2(a, x0, x1, x2, x3, y *float64, n int)
//
// y[l] += a[0]·x0[l] + a[1]·x1[l] + a[2]·x2[l] + a[3]·x3[l] for l < n, n a
// multiple of 4, four lanes at a time. Separate multiplies and adds in
// axpy4Go's order (no FMA: Go does not fuse on amd64), so every lane rounds
// exactly as the Go loop does.
TEXT ·axpy4AVX2(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), AX
	MOVQ x0+8(FP), R8
	MOVQ x1+16(FP), R9
	MOVQ x2+24(FP), R10
	MOVQ x3+32(FP), R11
	MOVQ y+40(FP), DI
	MOVQ n+48(FP), CX
	VBROADCASTSD (AX), Y10
	VBROADCASTSD 8(AX), Y11
	VBROADCASTSD 16(AX), Y12
	VBROADCASTSD 24(AX), Y13
	XORQ SI, SI
	SHRQ $2, CX
	JZ done
loop:
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
	JNZ loop
done:
	VZEROUPPER
	RET
