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
		if got := Softplus(tc.z); math.Abs(got-tc.want) > 1e-15*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s: Softplus(%v) = %v, want %v", tc.name, tc.z, got, tc.want)
		}
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
