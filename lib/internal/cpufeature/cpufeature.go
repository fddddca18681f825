package cpufeature

// AVX2FMA reports whether AVX2 and FMA3 can be used.
var AVX2FMA bool

// AVX512 reports whether AVX-512 Foundation (512-bit registers and opmasks)
// can be used.
var AVX512 bool

// detected reports whether the flags were read from the CPU: on amd64
// without the noasm build tag.
var detected bool
