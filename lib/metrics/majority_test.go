package metrics

import (
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/triplets"
)

func TestMajorityError(t *testing.T) {
	// Items on a line: e0=0, e1=1, e2=3, e3=−1. From 0, 1 is nearer than 3
	// and tied with −1.
	line := mat.NewDense(4, 1, []float64{0, 1, 3, -1})
	tests := []struct {
		name string
		idx  []int32
		want float64
	}{
		// By hand: the majority of each query decides, however many voted.
		{"majority satisfied", []int32{0, 1, 2, 0, 1, 2, 0, 2, 1}, 0},
		{"majority violated", []int32{0, 2, 1, 0, 2, 1, 0, 1, 2}, 1},
		{"tie left out", []int32{0, 1, 2, 0, 2, 1, 0, 2, 1, 1, 0, 2, 1, 2, 0, 3, 0, 2}, 0.5},
		{"distance tie violates", []int32{0, 1, 3}, 1},
		{"only ties", []int32{0, 1, 2, 0, 2, 1}, 0},
		{"repeats do not weigh", []int32{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 1, 3, 0}, 0.5},
	}
	for _, tc := range tests {
		s := &triplets.Set{N: 4, Idx: tc.idx}
		if got := MajorityError(line, s); got != tc.want {
			t.Errorf("%s: MajorityError = %v, want %v", tc.name, got, tc.want)
		}
	}
}
