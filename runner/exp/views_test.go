package exp

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestEveryKth(t *testing.T) {
	x := mat.NewDense(10, 1, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	y, lab := everyKth(x, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 4)
	want := []float64{0, 2, 5, 7}
	for i, w := range want {
		if y.At(i, 0) != w || lab[i] != int(w) {
			t.Errorf("row %d = %v (label %d), want %v", i, y.At(i, 0), lab[i], w)
		}
	}
}
