package testpoints

import "testing"

// TestUniform checks the shape, the range and that a seed fixes the points
// while another seed moves them.
func TestUniform(t *testing.T) {
	for _, tc := range []struct{ n, d int }{{1, 1}, {50, 2}, {7, 30}} {
		x := Uniform(tc.n, tc.d, 3)
		if r, c := x.Dims(); r != tc.n || c != tc.d {
			t.Fatalf("Uniform(%d, %d): dims %d×%d", tc.n, tc.d, r, c)
		}
		y, z := Uniform(tc.n, tc.d, 3), Uniform(tc.n, tc.d, 4)
		same := true
		for i := 0; i < tc.n; i++ {
			for j := 0; j < tc.d; j++ {
				v := x.At(i, j)
				if v < 0 || v >= 1 {
					t.Fatalf("Uniform(%d, %d): entry (%d, %d) = %v outside [0, 1)", tc.n, tc.d, i, j, v)
				}
				if y.At(i, j) != v {
					t.Fatalf("Uniform(%d, %d): seed 3 drew two different sets", tc.n, tc.d)
				}
				if z.At(i, j) != v {
					same = false
				}
			}
		}
		if same {
			t.Errorf("Uniform(%d, %d): seeds 3 and 4 drew the same points", tc.n, tc.d)
		}
	}
}

// TestGaussian checks the shape and that the coordinates look standard
// normal: mean near 0 and variance near 1 over 20,000 draws.
func TestGaussian(t *testing.T) {
	x := Gaussian(2000, 10, 5)
	if r, c := x.Dims(); r != 2000 || c != 10 {
		t.Fatalf("dims %d×%d, want 2000×10", r, c)
	}
	var sum, sq float64
	for _, v := range x.RawMatrix().Data {
		sum += v
		sq += v * v
	}
	mean := sum / 20000
	variance := sq/20000 - mean*mean
	if mean < -0.03 || mean > 0.03 || variance < 0.95 || variance > 1.05 {
		t.Errorf("mean %.4f, variance %.4f: want about 0 and 1", mean, variance)
	}
}
