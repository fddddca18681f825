package numeric

import (
	"math"
	"testing"
)

// TestSoftplus checks log(1 + eᶻ) against direct evaluation where that is
// accurate, and against its asymptotes (z for large z, eᶻ for very negative
// z) where direct evaluation overflows or loses every digit.
func TestSoftplus(t *testing.T) {
	for _, tc := range []struct {
		name    string
		z, want float64
	}{
		{"zero", 0, math.Ln2},
		{"one", 1, math.Log(1 + math.E)},
		{"minus two", -2, math.Log(1 + math.Exp(-2))},
		{"large", 800, 800},              // e^800 overflows float64
		{"very negative", -800, 0},       // e^−800 underflows
		{"negative", -40, math.Exp(-40)}, // log1p(x) = x to rounding for tiny x
	} {
		if got, _ := SoftplusSigmoid(tc.z); math.Abs(got-tc.want) > 1e-15*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s: softplus(%v) = %v, want %v", tc.name, tc.z, got, tc.want)
		}
	}
}

// TestSoftplusSigmoid holds SoftplusSigmoid to the softplus and the sigmoid
// computed apart with package math (log1p(e^−|z|) + max(z, 0); 1/(1 + e⁻ᶻ)
// for z ≥ 0, eᶻ/(1 + eᶻ) below) within 2 ulp, and the sigmoid to its
// limits.
func TestSoftplusSigmoid(t *testing.T) {
	softplus := func(z float64) float64 {
		if z > 0 {
			return z + math.Log1p(math.Exp(-z))
		}
		return math.Log1p(math.Exp(z))
	}
	sigmoid := func(z float64) float64 {
		if z >= 0 {
			return 1 / (1 + math.Exp(-z))
		}
		e := math.Exp(z)
		return e / (1 + e)
	}
	zs := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 0.5, -0.5, 1, -1, 36.7, -36.7, 710, -745, 800, -800,
		math.Inf(1), math.Inf(-1)}
	for i := -2000; i <= 2000; i++ {
		zs = append(zs, float64(i)*0.0137)
	}
	for _, z := range zs {
		l, s := SoftplusSigmoid(z)
		if ulps(l, softplus(z)) > 2 || ulps(s, sigmoid(z)) > 2 {
			t.Fatalf("SoftplusSigmoid(%v) = %v, %v; package math gives %v, %v", z, l, s, softplus(z), sigmoid(z))
		}
	}
	if l, s := SoftplusSigmoid(math.NaN()); !math.IsNaN(l) || !math.IsNaN(s) {
		t.Errorf("SoftplusSigmoid(NaN) = %v, %v, want NaN, NaN", l, s)
	}
	if _, s := SoftplusSigmoid(-800); s != 0 {
		t.Errorf("sigmoid(−800) = %v, want 0", s)
	}
	if _, s := SoftplusSigmoid(800); s != 1 {
		t.Errorf("sigmoid(800) = %v, want 1", s)
	}
}

func TestAllFinite(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    []float64
		want bool
	}{
		{"empty", nil, true},
		{"finite", []float64{0, -1, math.MaxFloat64}, true},
		{"NaN", []float64{1, math.NaN()}, false},
		{"+Inf", []float64{math.Inf(1)}, false},
		{"-Inf", []float64{2, math.Inf(-1)}, false},
	} {
		if got := AllFinite(tc.v); got != tc.want {
			t.Errorf("%s: AllFinite = %v, want %v", tc.name, got, tc.want)
		}
		f32 := make([]float32, len(tc.v))
		for i, x := range tc.v {
			f32[i] = float32(x)
		}
		if tc.name != "finite" { // MaxFloat64 overflows float32
			if got := AllFinite(f32); got != tc.want {
				t.Errorf("%s: AllFinite(float32) = %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}
