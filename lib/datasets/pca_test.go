package datasets

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestProjectPCALine(t *testing.T) {
	// Points c + tᵢ·u on a line: the first component is ±(tᵢ − t̄), the
	// second is zero.
	u := []float64{2.0 / 3, -1.0 / 3, 2.0 / 3}
	c := []float64{10, 20, -5}
	ts := []float64{-3, -1, 0, 0.5, 2, 7}
	x := mat.NewDense(len(ts), 3, nil)
	mean := 0.0
	for i, ti := range ts {
		for j := range u {
			x.Set(i, j, c[j]+ti*u[j])
		}
		mean += ti / float64(len(ts))
	}
	y, err := ProjectPCA(x, 2)
	if err != nil {
		t.Fatal(err)
	}
	sign := math.Copysign(1, y.At(0, 0)*(ts[0]-mean))
	for i, ti := range ts {
		if got := sign * y.At(i, 0); math.Abs(got-(ti-mean)) > 1e-9 {
			t.Errorf("point %d: first coordinate %v, want %v", i, got, ti-mean)
		}
		if math.Abs(y.At(i, 1)) > 1e-9 {
			t.Errorf("point %d: second coordinate %v, want 0", i, y.At(i, 1))
		}
	}
}

func TestProjectPCAMatchesStatPC(t *testing.T) {
	// Anisotropic data; 6 columns (not a multiple of the kernel's tile) and
	// 300 rows (not a multiple of its panel) exercise the padding.
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d, k = 300, 6, 4
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, 50+float64(j+1)*rng.NormFloat64()+0.5*x.At(i, max(j-1, 0)))
		}
	}
	y, err := ProjectPCA(x, k)
	if err != nil {
		t.Fatal(err)
	}
	var pc stat.PC
	if !pc.PrincipalComponents(x, nil) {
		t.Fatal("stat.PC failed")
	}
	var vecs mat.Dense
	pc.VectorsTo(&vecs)
	centred := mat.DenseCopyOf(x)
	for j := 0; j < d; j++ {
		m := stat.Mean(mat.Col(nil, j, x), nil)
		for i := 0; i < n; i++ {
			centred.Set(i, j, centred.At(i, j)-m)
		}
	}
	var want mat.Dense
	want.Mul(centred, vecs.Slice(0, d, 0, k))
	for c := 0; c < k; c++ {
		sign := math.Copysign(1, y.At(0, c)*want.At(0, c))
		for i := 0; i < n; i++ {
			if diff := math.Abs(sign*y.At(i, c) - want.At(i, c)); diff > 1e-8 {
				t.Fatalf("component %d, point %d: %v, stat.PC gives %v", c, i, y.At(i, c), want.At(i, c))
			}
		}
	}
}

func TestProjectPCADeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := mat.NewDense(500, 37, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = float64(rng.IntN(256))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one, err := ProjectPCA(x, 5)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(3)
	three, err := ProjectPCA(x, 5)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(one, three) {
		t.Error("PCA differs between 1 and 3 threads")
	}
}

func TestProjectPCAErrors(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 7})
	tests := []struct {
		x       *mat.Dense
		k       int
		wantErr string
	}{
		{x, 0, "want 1..2"},
		{x, 3, "want 1..2"},
		{mat.NewDense(1, 2, []float64{1, 2}), 1, "at least 2 points"},
		{mat.NewDense(2, 2, []float64{1, math.Inf(1), 3, 4}), 1, "non-finite"},
	}
	for _, tc := range tests {
		if _, err := ProjectPCA(tc.x, tc.k); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("k=%d: error %v, want %q", tc.k, err, tc.wantErr)
		}
	}
}
