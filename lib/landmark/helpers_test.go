package landmark

import (
	"gonum.org/v1/gonum/mat"
)

// sqDist is the squared distance between rows a and b of x.
func sqDist(x *mat.Dense, a, b int) float64 {
	ra, rb := x.RawRowView(a), x.RawRowView(b)
	var s float64
	for c, v := range ra {
		t := v - rb[c]
		s += t * t
	}
	return s
}
