// Package asm holds the generic vector primitives of oe's CPU code, each an
// AVX2 assembly loop with a pure-Go twin, as gonum's internal/asm does: the
// multiply-add of rows four at a time (Axpy4Rows, lib/gram's sparse product), the
// 4×8 tile of a dense product (MulAdd4x8, lib/gram's Krylov solver), the
// element-wise passes of a ReLU network (BiasReLU, MaskReLU, SumRows,
// lib/oenn), the transpose that packs its products' operands
// (Transpose4Rows) and Adam's update (Adam, lib/optim's; AMSGrad's on
// float32 parameters in assembly).
//
// The assembly runs on amd64 when the CPU has AVX2 (lib/internal/cpufeature);
// elsewhere, or in a build with the noasm tag, the Go twins run. Every
// assembly loop performs the twin's float operations in the twin's order,
// with no fused multiply-add, so the two agree bit for bit (the tests hold
// them to it, with guard values around every slice); the twins round each
// product explicitly, so that Go does not fuse them on other architectures
// either. The wrappers check slice lengths before calling the assembly and
// panic on a mismatch, a caller's bug.
package asm
