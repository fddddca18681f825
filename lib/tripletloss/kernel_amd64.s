//go:build !noasm

#include "textflag.h"

// The loops here and their Go twins in kernel.go (sqDistsGo,
// scatterHeadsGo, scatterTailsGo) perform the same float32 operations in the
// same order, so they agree bit for bit: no fused multiply-adds (a product
// is rounded before it is added, as the twins' explicit float32 conversions
// force Go to do everywhere), and the lanes of a vector sum combine as the
// twins spell out.

// func distsBlockAVX2(x *float32, idx *int32, cnt, stride, ahead int, out *float32)
//
// For the cnt triplets at idx, out[2t] = ‖xᵢ−xⱼ‖² and out[2t+1] = ‖xᵢ−xₖ‖²,
// rows stride floats apart, stride a positive multiple of 8. Per row, one
// 8-lane accumulator per distance adds the squares of 8 differences at a
// time (VMULPS, then VADDPS); then lanes l and l+4 are added, then pairs,
// then the two halves: ((a₀+a₄)+(a₁+a₅)) + ((a₂+a₆)+(a₃+a₇)), as in
// sqDistsGo. While a triplet 8 further on exists (t+8 < ahead), the x rows
// it will touch are prefetched.
//
// Registers: R8 x, R10 idx (advancing), R11 triplets left, R12 row bytes,
// R13 triplets left with one 8 ahead, BX out (advancing), SI DI DX row
// pointers, AX byte offset, CX scratch.
TEXT ·distsBlockAVX2(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), R8
	MOVQ idx+8(FP), R10
	MOVQ cnt+16(FP), R11
	MOVQ stride+24(FP), R12
	SHLQ $2, R12
	MOVQ ahead+32(FP), R13
	SUBQ $8, R13
	MOVQ out+40(FP), BX

triplet:
	TESTQ R11, R11
	JLE   done
	TESTQ R13, R13
	JLE   rows

	// Prefetch the three x rows of the triplet 8 ahead (8·12 = 96 bytes
	// further in idx), every line up to the last float.
	XORQ SI, SI

pfrow:
	MOVLQSX 96(R10)(SI*1), CX
	IMULQ   R12, CX
	ADDQ    R8, CX
	XORQ    AX, AX

pfline:
	PREFETCHT0 (CX)(AX*1)
	ADDQ       $64, AX
	CMPQ       AX, R12
	JLT        pfline
	PREFETCHT0 -4(CX)(R12*1)
	ADDQ       $4, SI
	CMPQ       SI, $12
	JLT        pfrow

rows:
	DECQ    R13
	MOVLQSX (R10), SI
	IMULQ   R12, SI
	ADDQ    R8, SI
	MOVLQSX 4(R10), DI
	IMULQ   R12, DI
	ADDQ    R8, DI
	MOVLQSX 8(R10), DX
	IMULQ   R12, DX
	ADDQ    R8, DX
	VXORPS  Y0, Y0, Y0
	VXORPS  Y1, Y1, Y1
	XORQ    AX, AX

loop8:
	VMOVUPS (SI)(AX*1), Y4
	VSUBPS  (DI)(AX*1), Y4, Y5
	VSUBPS  (DX)(AX*1), Y4, Y6
	VMULPS  Y5, Y5, Y5
	VMULPS  Y6, Y6, Y6
	VADDPS  Y5, Y0, Y0
	VADDPS  Y6, Y1, Y1
	ADDQ    $32, AX
	CMPQ    AX, R12
	JLT     loop8

	VEXTRACTF128 $1, Y0, X4
	VADDPS       X4, X0, X0
	VEXTRACTF128 $1, Y1, X5
	VADDPS       X5, X1, X1
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X1, X1, X1
	VHADDPS      X1, X1, X1
	VMOVSS       X0, (BX)
	VMOVSS       X1, 4(BX)
	ADDQ         $8, BX
	ADDQ         $12, R10
	DECQ         R11
	JMP          triplet

done:
	VZEROUPPER
	RET

// func scatterBlockAVX2(x, grad *float32, idx *int32, cnt, stride int, coef *float32)
//
// For the cnt triplets at idx with coefficients sij = coef[2t], sik =
// coef[2t+1] (skipped when both are +0, as
// blockScatterGo does): u = sij·(xᵢ−xⱼ), v = sik·(xᵢ−xₖ),
// gᵢ += u+v, gⱼ −= u, gₖ −= v, the same operations in the same order as
// blockScatterGo, 8 lanes at a time (stride a positive multiple of 8).
//
// Registers: R8 x, R9 g, R10 idx, R11 triplets left, R12 row bytes, BX coef,
// SI DI DX row offsets (advancing), AX byte offset, CX scratch.
TEXT ·scatterBlockAVX2(SB), NOSPLIT, $0-48
	MOVQ x+0(FP), R8
	MOVQ grad+8(FP), R9
	MOVQ idx+16(FP), R10
	MOVQ cnt+24(FP), R11
	MOVQ stride+32(FP), R12
	SHLQ $2, R12
	MOVQ coef+40(FP), BX

striplet:
	TESTQ R11, R11
	JLE   sdone
	MOVQ  (BX), CX
	TESTQ CX, CX
	JZ    snext
	VBROADCASTSS (BX), Y8
	VBROADCASTSS 4(BX), Y9
	MOVLQSX (R10), SI
	IMULQ   R12, SI
	MOVLQSX 4(R10), DI
	IMULQ   R12, DI
	MOVLQSX 8(R10), DX
	IMULQ   R12, DX
	XORQ    AX, AX

sloop:
	VMOVUPS (R8)(SI*1), Y4
	VSUBPS  (R8)(DI*1), Y4, Y5
	VSUBPS  (R8)(DX*1), Y4, Y6
	VMULPS  Y8, Y5, Y5
	VMULPS  Y9, Y6, Y6
	VADDPS  Y6, Y5, Y7
	VADDPS  (R9)(SI*1), Y7, Y7
	VMOVUPS Y7, (R9)(SI*1)
	VMOVUPS (R9)(DI*1), Y7
	VSUBPS  Y5, Y7, Y7
	VMOVUPS Y7, (R9)(DI*1)
	VMOVUPS (R9)(DX*1), Y7
	VSUBPS  Y6, Y7, Y7
	VMOVUPS Y7, (R9)(DX*1)
	ADDQ    $32, SI
	ADDQ    $32, DI
	ADDQ    $32, DX
	ADDQ    $32, AX
	CMPQ    AX, R12
	JLT     sloop

snext:
	ADDQ $8, BX
	ADDQ $12, R10
	DECQ R11
	JMP  striplet

sdone:
	VZEROUPPER
	RET

// func scatterHeadsAVX2(x, grad *float32, terms *headTerm, cnt, stride int)
//
// For each of the cnt head terms {i, j, k, sᵢⱼ, sᵢₖ} at terms (20 bytes
// each): u = sᵢⱼ·(xᵢ−xⱼ), v = sᵢₖ·(xᵢ−xₖ), gᵢ += u+v, 8 lanes at a time
// (stride a positive multiple of 8), as scatterHeadsGo.
//
// Registers: R8 x, R9 g, R13 terms (advancing), R11 left, R12 row bytes,
// SI DI DX row offsets (advancing), AX byte offset.
TEXT ·scatterHeadsAVX2(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), R8
	MOVQ grad+8(FP), R9
	MOVQ terms+16(FP), R13
	MOVQ cnt+24(FP), R11
	MOVQ stride+32(FP), R12
	SHLQ $2, R12

head:
	TESTQ        R11, R11
	JLE          hdone
	MOVLQSX      (R13), SI
	MOVLQSX      4(R13), DI
	MOVLQSX      8(R13), DX
	IMULQ        R12, SI
	IMULQ        R12, DI
	IMULQ        R12, DX
	VBROADCASTSS 12(R13), Y8
	VBROADCASTSS 16(R13), Y9
	XORQ         AX, AX

hloop:
	VMOVUPS (R8)(SI*1), Y4
	VSUBPS  (R8)(DI*1), Y4, Y5
	VSUBPS  (R8)(DX*1), Y4, Y6
	VMULPS  Y8, Y5, Y5
	VMULPS  Y9, Y6, Y6
	VADDPS  Y6, Y5, Y7
	VADDPS  (R9)(SI*1), Y7, Y7
	VMOVUPS Y7, (R9)(SI*1)
	ADDQ    $32, SI
	ADDQ    $32, DI
	ADDQ    $32, DX
	ADDQ    $32, AX
	CMPQ    AX, R12
	JLT     hloop

	ADDQ $20, R13
	DECQ R11
	JMP  head

hdone:
	VZEROUPPER
	RET

// func scatterTailsAVX2(x, grad *float32, terms *tailTerm, cnt, stride int)
//
// For each of the cnt tail terms {i, r, s} at terms (12 bytes each):
// gᵣ −= s·(xᵢ−xᵣ), 8 lanes at a time (stride a positive multiple of 8), as
// scatterTailsGo.
//
// Registers: R8 x, R9 g, R13 terms (advancing), R11 left, R12 row bytes,
// SI DI row offsets (advancing), AX byte offset.
TEXT ·scatterTailsAVX2(SB), NOSPLIT, $0-40
	MOVQ x+0(FP), R8
	MOVQ grad+8(FP), R9
	MOVQ terms+16(FP), R13
	MOVQ cnt+24(FP), R11
	MOVQ stride+32(FP), R12
	SHLQ $2, R12

tail:
	TESTQ        R11, R11
	JLE          tdone
	MOVLQSX      (R13), SI
	MOVLQSX      4(R13), DI
	IMULQ        R12, SI
	IMULQ        R12, DI
	VBROADCASTSS 8(R13), Y8
	XORQ         AX, AX

tloop:
	VMOVUPS (R8)(SI*1), Y4
	VSUBPS  (R8)(DI*1), Y4, Y5
	VMULPS  Y8, Y5, Y5
	VMOVUPS (R9)(DI*1), Y7
	VSUBPS  Y5, Y7, Y7
	VMOVUPS Y7, (R9)(DI*1)
	ADDQ    $32, SI
	ADDQ    $32, DI
	ADDQ    $32, AX
	CMPQ    AX, R12
	JLT     tloop

	ADDQ $12, R13
	DECQ R11
	JMP  tail

tdone:
	VZEROUPPER
	RET
