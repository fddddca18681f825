//go:build !noasm

#include "textflag.h"

// func axpy4AVX2(a, x0, x1, x2, x3, y *float64, n int)
//
// y[l] += a[0]·x0[l] + a[1]·x1[l] + a[2]·x2[l] + a[3]·x3[l] for l < n, n a
// multiple of 4, four lanes at a time. Separate multiplies and adds in
// axpy4Go's order (no FMA), so every lane rounds exactly as the Go loop
// does.
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
