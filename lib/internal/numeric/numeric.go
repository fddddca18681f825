// Package numeric holds the small numerical functions that several of oe's
// methods need, written once.
package numeric

import "math"

// Softplus returns log(1 + eᶻ) without overflow: for z > 0 it is
// z + log1p(e⁻ᶻ), which never exponentiates a large number.
func Softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// SoftplusSigmoid returns Softplus(z) and the logistic sigmoid
// 1/(1 + e⁻ᶻ) (computed as e/(1 + e) with e = eᶻ for z < 0, so that it
// neither overflows nor loses precision), from one exponential: e^−|z|
// serves both, so the results are bit for bit those of Softplus and of the
// sigmoid computed apart.
func SoftplusSigmoid(z float64) (softplus, sigmoid float64) {
	if z > 0 {
		e := math.Exp(-z)
		return z + math.Log1p(e), 1 / (1 + e)
	}
	e := math.Exp(z)
	return math.Log1p(e), e / (1 + e)
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
