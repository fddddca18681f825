// Package numeric holds the small numerical functions that several of oe's
// methods need, written once.
package numeric

import "math"

// SoftplusSigmoid returns the softplus log(1 + eᶻ), without overflow (for
// z > 0 as z + log(1 + e⁻ᶻ), which never exponentiates a large number), and
// the logistic sigmoid
// 1/(1 + e⁻ᶻ) (computed as e/(1 + e) with e = eᶻ for z < 0, so that it
// neither overflows nor loses precision), from one exponential: e^−|z|
// serves both, flushed to 0 below e^ExpFlush. Its exponential and logarithm
// are this package's (explog.go), so its results are the same on every
// machine; lib/internal/asm.SoftplusSigmoids computes it four at a time,
// bit for bit.
func SoftplusSigmoid(z float64) (softplus, sigmoid float64) {
	if z != z {
		return z, z
	}
	e := expNeg(-math.Abs(z))
	l := log1pUnit(e)
	if z > 0 {
		return z + l, 1 / (1 + e)
	}
	return l, e / (1 + e)
}

// AllFinite reports whether every entry of v is finite (not NaN or ±Inf).
func AllFinite[F float32 | float64](v []F) bool {
	for _, x := range v {
		if x-x != 0 { // NaN or ±Inf
			return false
		}
	}
	return true
}
