#include "textflag.h"

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
