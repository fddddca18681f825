package numeric

import "math"

// SoftplusSigmoid's exponential and logarithm are oe's own rather than
// package math's, for two reasons:
//
//   - Reproducibility across machines. math.Exp is per-architecture code
//     (on amd64 it uses FMA where the CPU has it), so the last bits of STE's
//     and t-STE's runs depended on the CPU. These functions use only +, −,
//     ×, ÷ and integer operations on the bits, every product rounded before
//     it is added (explicit float64 conversions, which the Go specification
//     says prevent fusing into FMA), so they return the same bits on every
//     machine, and lib/internal/asm can compute them four at a time with
//     the same operations in the same order.
//   - Speed. There is one straight path with no special cases: a Cody–Waite
//     range reduction and polynomials evaluated by Estrin's scheme (short
//     dependency chains). On CHAR (d = 30) STE spent two thirds of its time
//     in math.Exp and math.Log1p.
//
// Accuracy: within 2 ulp of the exact value (tested against package math,
// itself within 1 ulp).

const (
	// ln2Hi is ln 2 with its last 11 bits cleared, so that k·ln2Hi is exact
	// for every |k| < 2¹¹; ln2Lo is the rest of ln 2.
	ln2Hi = 0x1.62e42fefa38p-1
	ln2Lo = math.Ln2 - ln2Hi
	// roundMagic rounds a float64 of magnitude below 2⁵¹ to an integer when
	// added and subtracted: 1.5·2⁵². The integer is then also the low bits
	// of the sum's representation.
	roundMagic = 0x1.8p52
	// sqrt2 is twice the float64 nearest √2/2 (0x1.6a09e667f3bcdp-1): the
	// logarithm halves arguments from there on, into [√2/2, √2).
	sqrt2 = 0x1.6a09e667f3bcdp0
	// ExpFlush is where expNeg flushes to zero: e^−708 ≈ 3·10⁻³⁰⁸ is just
	// above the smallest normal float64, and below it both the softplus and
	// the sigmoid of −708 or less are within 3·10⁻³⁰⁸ of 0.
	ExpFlush = -708
)

// expNeg returns eˣ for x ≤ 0, flushed to 0 for x ≤ ExpFlush (and for NaN).
func expNeg(x float64) float64 {
	if !(x > ExpFlush) {
		return 0
	}
	t := float64(x*math.Log2E) + roundMagic
	k := t - roundMagic
	// 2ᵏ from t's low bits, which hold k: (k + 1023) << 52 is its exponent
	// field, and the shift drops the rest.
	return expReduced(x, k) * math.Float64frombits((math.Float64bits(t)+1023)<<52)
}

// expReduced returns e^(x − k·ln 2) for an integer k nearest x/ln 2:
// |x − k·ln 2| ≤ ln 2/2, where the Taylor polynomial of degree 13 is within
// 5·10⁻¹⁸ of eʳ.
func expReduced(x, k float64) float64 {
	r := x - float64(k*ln2Hi) - float64(k*ln2Lo)
	// Estrin's scheme: pairs, then pairs of pairs, so that the dependent
	// chain is four multiply-adds deep instead of twelve.
	r2 := float64(r * r)
	r4 := float64(r2 * r2)
	c01 := 0.5 + float64(r*(1.0/6))
	c23 := 1.0/24 + float64(r*(1.0/120))
	c45 := 1.0/720 + float64(r*(1.0/5040))
	c67 := 1.0/40320 + float64(r*(1.0/362880))
	c89 := 1.0/3628800 + float64(r*(1.0/39916800))
	c1011 := 1.0/479001600 + float64(r*(1.0/6227020800))
	c03 := c01 + float64(r2*c23)
	c47 := c45 + float64(r2*c67)
	c811 := c89 + float64(r2*c1011)
	p := c03 + float64(r4*(c47+float64(r4*c811)))
	// 1 + r + r²·p: the small terms summed first.
	return 1 + (r + float64(r2*p))
}

// log1pUnit returns ln(1 + x) for x in [0, 1]. With u = 1 + x rounded and
// c = x − (u − 1) its rounding error (exact: Fast2Sum, as 1 ≥ x),
// ln(1 + x) = ln u + c/u to within an ulp. With u = 2ᵏ·m, k = 0 or 1, m in
// [√2/2, √2), f = m − 1 and s = f/(2 + f): ln m = 2·atanh(s) = 2s + 2s·R(s²)
// with R(z) = z/3 + z²/5 + …, |s| ≤ 0.172; written as
// f − (f²/2 − s·(f²/2 + 2R)), whose leading term f is exact.
func log1pUnit(x float64) float64 {
	u := 1 + x
	c := x - (u - 1)
	k, m := 0.0, u
	if u >= sqrt2 {
		k, m = 1, u*0.5
	}
	f := m - 1
	s := f / (2 + f)
	z := float64(s * s)
	// 2R(z) = Σ 2z^i/(2i+1), i = 1…9, by Estrin's scheme.
	z2 := float64(z * z)
	z4 := float64(z2 * z2)
	z8 := float64(z4 * z4)
	c12 := 2.0/3 + float64(z*(2.0/5))
	c34 := 2.0/7 + float64(z*(2.0/9))
	c56 := 2.0/11 + float64(z*(2.0/13))
	c78 := 2.0/15 + float64(z*(2.0/17))
	c14 := c12 + float64(z2*c34)
	c58 := c56 + float64(z2*c78)
	r := float64(z * (c14 + float64(z4*c58) + float64(z8*(2.0/19))))
	hfsq := float64(float64(0.5*f) * f)
	lnU := float64(k*ln2Hi) + (f - (hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))))
	return lnU + c/u
}
