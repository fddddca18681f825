package param

import (
	"fmt"
	"math"
	"testing"
)

func TestChecks(t *testing.T) {
	for _, tc := range []struct {
		name             string
		v                float64
		positive, nonNeg bool
	}{
		{"one", 1, true, true},
		{"zero", 0, false, true},
		{"negative", -1, false, false},
		{"NaN", math.NaN(), false, false},
		{"+Inf", math.Inf(1), false, false},
		{"-Inf", math.Inf(-1), false, false},
		{"tiny", 5e-324, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := Positive("m", "p", tc.v); (err == nil) != tc.positive {
				t.Errorf("Positive(%v) = %v", tc.v, err)
			}
			if err := NonNegative("m", "p", tc.v); (err == nil) != tc.nonNeg {
				t.Errorf("NonNegative(%v) = %v", tc.v, err)
			}
		})
	}
	if err := Positive("soe", "margin", -1); err == nil || err.Error() != "soe: margin must be finite and > 0, got -1" {
		t.Errorf("message: %v", err)
	}
	if OrDefault(0, 5) != 5 || OrDefault(2, 5) != 2 {
		t.Error("OrDefault")
	}
}

func TestSwitch(t *testing.T) {
	for _, tc := range []struct {
		v       float64
		want    bool
		wantErr bool
	}{{0, false, false}, {1, true, false}, {2, false, true}, {0.5, false, true}, {-1, false, true}} {
		got, err := Switch("m", "p", tc.v, "off", "on")
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("Switch(%v) = %v, %v; want %v, error %v", tc.v, got, err, tc.want, tc.wantErr)
		}
		if err != nil && err.Error() != fmt.Sprintf("m: p must be 0 (off) or 1 (on), got %v", tc.v) {
			t.Errorf("Switch(%v): error %q", tc.v, err)
		}
	}
}
