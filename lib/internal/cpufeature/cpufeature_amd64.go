//go:build !noasm

package cpufeature

func init() {
	AVX2FMA, AVX512 = detect()
	detected = true
}

// detect reads CPUID leaf 1 (FMA, OSXSAVE, AVX), XCR0 (which register state
// the OS saves) and leaf 7 (AVX2, AVX512F).
func detect() (avx2fma, avx512 bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	_, _, c1, _ := cpuid(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if c1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false, false
	}
	xcr0 := xgetbv()
	const xmmYMM = 1<<1 | 1<<2
	const opmaskZMM = 1<<5 | 1<<6 | 1<<7
	if xcr0&xmmYMM != xmmYMM {
		return false, false
	}
	_, b7, _, _ := cpuid(7, 0)
	const avx2, avx512f = 1 << 5, 1 << 16
	avx2fma = b7&avx2 != 0
	avx512 = avx2fma && b7&avx512f != 0 && xcr0&opmaskZMM == opmaskZMM
	return avx2fma, avx512
}

// Implemented in cpufeature_amd64.s.

func cpuid(eax, ecx uint32) (a, b, c, d uint32)

func xgetbv() uint32
