package landmark

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"gonum.org/v1/gonum/mat"
)

// sqDistMatrix returns the squared distances between the rows of x.
func sqDistMatrix(x *mat.Dense) *mat.SymDense {
	n, _ := x.Dims()
	d := mat.NewSymDense(n, nil)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			d.SetSym(a, b, sqDist(x, a, b))
		}
	}
	return d
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

// With exact squared distances shifted by an arbitrary constant per
// landmark, recoverShifts must find the shifts and the distances exactly, for
// any number of landmarks from d+3 on.
func TestRecoverShiftsExact(t *testing.T) {
	for _, tc := range []struct{ d, k int }{{1, 4}, {2, 5}, {2, 9}, {5, 8}, {10, 13}} {
		x := testpoints.Uniform(tc.k, tc.d, uint64(tc.k))
		d := sqDistMatrix(x)
		rng := rand.New(rand.NewPCG(3, uint64(tc.d)))
		trueShift := make([]float64, tc.k)
		w := mat.NewDense(tc.k, tc.k, nil)
		for b := range trueShift {
			trueShift[b] = 50 * rng.NormFloat64()
			for a := 0; a < tc.k; a++ {
				w.Set(a, b, d.At(a, b)-trueShift[b])
			}
		}
		e, shift, err := recoverShifts(w)
		if err != nil {
			t.Fatal(err)
		}
		if diff := maxAbsDiff(e, d); diff > 1e-6 {
			t.Errorf("d=%d k=%d: distance matrix off by %g", tc.d, tc.k, diff)
		}
		for b := range shift {
			if math.Abs(shift[b]-trueShift[b]) > 1e-6 {
				t.Errorf("d=%d k=%d: shift %d = %g, want %g", tc.d, tc.k, b, shift[b], trueShift[b])
			}
		}
	}
}

func TestProjectEDM(t *testing.T) {
	x := testpoints.Uniform(8, 3, 1)
	d := sqDistMatrix(x)
	// An EDM is its own projection.
	p, err := projectEDM(d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := maxAbsDiff(p, d); diff > 1e-8 {
		t.Errorf("EDM moved by %g under projection", diff)
	}
	// A perturbed matrix comes back hollow, symmetric, with −½VXV ⪰ 0.
	rng := rand.New(rand.NewPCG(2, 2))
	noisy := mat.NewSymDense(8, nil)
	for a := 0; a < 8; a++ {
		for b := a; b < 8; b++ {
			noisy.SetSym(a, b, d.At(a, b)+20*rng.NormFloat64())
		}
	}
	p, err = projectEDM(noisy)
	if err != nil {
		t.Fatal(err)
	}
	var eig mat.EigenSym
	g := centre(p)
	g.ScaleSym(-0.5, g)
	if !eig.Factorize(g, false) {
		t.Fatal("eigendecomposition failed")
	}
	top := eig.Values(nil)[7]
	for i, v := range eig.Values(nil) {
		if v < -1e-6*top {
			t.Errorf("projected Gram matrix has eigenvalue %d = %g < 0", i, v)
		}
	}
	for a := 0; a < 8; a++ {
		if p.At(a, a) != 0 {
			t.Errorf("diagonal entry %d = %g, want 0", a, p.At(a, a))
		}
	}
}

// Landmark MDS with exact distances reproduces every pairwise distance.
func TestLandmarkMDSExact(t *testing.T) {
	const n, d, k = 40, 3, 6
	x := testpoints.Uniform(n, d, 5)
	all := sqDistMatrix(x)
	e := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			e.SetSym(a, b, all.At(a, b))
		}
	}
	lmds, err := newLandmarkMDS(e, d)
	if err != nil {
		t.Fatal(err)
	}
	emb := mat.NewDense(n, d, nil)
	f := make([]float64, k)
	for i := 0; i < n; i++ {
		for a := range f {
			f[a] = all.At(i, a)
		}
		lmds.place(emb.RawRowView(i), f)
	}
	if diff := maxAbsDiff(sqDistMatrix(emb), all); diff > 1e-6 {
		t.Errorf("embedded squared distances off by %g", diff)
	}
	if _, err := newLandmarkMDS(e, k); err == nil {
		t.Error("Landmark MDS accepted more dimensions than the landmarks span")
	}
}

// BTL scores must order the items by their distance to the landmark, on both
// of fitBTL's paths: without likelihood checks (small steps) and with them
// (a step so large that the likelihood falls, which must stop the ascent;
// lr = 1 is far above the 4/maxDeg ≈ 0.07 under which no check is needed).
func TestFitBTLOrdersByDistance(t *testing.T) {
	const n = 200
	x := testpoints.Uniform(n, 2, 9)
	rng := rand.New(rand.NewPCG(4, 4))
	var cmp comparisons
	for t := 0; t < 20*n; t++ {
		j, k := rng.IntN(n), rng.IntN(n)
		if j == k {
			continue
		}
		if sqDist(x, 0, j) > sqDist(x, 0, k) {
			j, k = k, j
		}
		cmp.near = append(cmp.near, int32(j))
		cmp.far = append(cmp.far, int32(k))
	}
	for _, tc := range []struct {
		name      string
		lr        float64
		wantSteps func(int) bool
	}{
		{"small steps", 1e-3, func(s int) bool { return s == 300 }},
		{"overshooting steps", 1, func(s int) bool { return s > 0 && s < 300 }},
	} {
		scores, grad, prev := make([]float64, n), make([]float64, n), make([]float64, n)
		steps, err := fitBTL(context.Background(), cmp, 300, tc.lr, scores, grad, prev)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !tc.wantSteps(steps) {
			t.Errorf("%s: took %d steps", tc.name, steps)
		}
		concordant, pairs := 0, 0
		for a := 1; a < n; a++ {
			for b := a + 1; b < n; b++ {
				pairs++
				if (scores[a] < scores[b]) == (sqDist(x, 0, a) < sqDist(x, 0, b)) {
					concordant++
				}
			}
		}
		if frac := float64(concordant) / float64(pairs); frac < 0.85 {
			t.Errorf("%s: scores order only %.2f of item pairs like the distances", tc.name, frac)
		}
	}
}
