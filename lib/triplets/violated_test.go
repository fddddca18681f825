package triplets

import (
	"math"
	"testing"
)

func TestViolated(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name     string
		dij, dik float64
		want     bool
	}{
		{"closer to j", 1, 2, false},
		{"closer to k", 2, 1, true},
		{"tie", 1.5, 1.5, true},
		{"collapsed: both zero", 0, 0, true},
		{"NaN to j", nan, 1, true},
		{"NaN to k", 1, nan, true},
		{"infinitely far from k", 1, inf, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Violated(tc.dij, tc.dik); got != tc.want {
				t.Errorf("Violated(%v, %v) = %v, want %v", tc.dij, tc.dik, got, tc.want)
			}
			if got := Violated(float32(tc.dij), float32(tc.dik)); got != tc.want {
				t.Errorf("Violated[float32](%v, %v) = %v, want %v", tc.dij, tc.dik, got, tc.want)
			}
		})
	}
}
