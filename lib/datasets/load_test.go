package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestSubsample(t *testing.T) {
	const total, n = 1000, 100
	x := mat.NewDense(total, 2, nil)
	labels := make([]int, total)
	for i := 0; i < total; i++ {
		x.Set(i, 0, float64(i))
		x.Set(i, 1, -float64(i))
		labels[i] = i % 7
	}
	a, la := subsample(x, labels, n, 42)
	b, lb := subsample(x, labels, n, 42)
	c, _ := subsample(x, labels, n, 43)
	if !mat.Equal(a, b) || !slices.Equal(la, lb) {
		t.Error("same seed, different subsamples")
	}
	if mat.Equal(a, c) {
		t.Error("seeds 42 and 43 drew the same subsample")
	}
	if r, _ := a.Dims(); r != n {
		t.Fatalf("%d rows, want %d", r, n)
	}
	prev := -1.0
	for r := 0; r < n; r++ {
		i := a.At(r, 0)
		if i <= prev {
			t.Fatalf("row %d is point %v after %v: want distinct points in their original order", r, i, prev)
		}
		prev = i
		if a.At(r, 1) != -i || la[r] != int(i)%7 {
			t.Errorf("row %d: point %v carries %v and label %d", r, i, a.At(r, 1), la[r])
		}
	}
	if _, l := subsample(x, nil, n, 1); l != nil {
		t.Error("unlabeled data gained labels")
	}
}

func TestPool(t *testing.T) {
	// Five points 0..4 of which the first three are the train set.
	x := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 4})
	labels := []int{0, 1, 0, 1, 0}
	split := Spec{Name: "split", Train: 3}
	tests := []struct {
		name string
		spec Spec
		n    int
		want []float64 // the pool's points
	}{
		{"the train set itself", split, 3, []float64{0, 1, 2}},
		{"a subsample of the train set", split, 2, []float64{0, 1, 2}},
		{"more than the train set: all", split, 4, []float64{0, 1, 2, 3, 4}},
		{"no train set: all", Spec{Name: "plain"}, 2, []float64{0, 1, 2, 3, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			px, pl, err := tc.spec.pool(x, labels, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if got := mat.Col(nil, 0, px); !slices.Equal(got, tc.want) || !slices.Equal(pl, labels[:len(tc.want)]) {
				t.Errorf("pool %v (labels %v), want %v", got, pl, tc.want)
			}
		})
	}
	if _, _, err := (Spec{Name: "short", Train: 6}).pool(x, labels, 6); err == nil || !strings.Contains(err.Error(), "short: the files hold 5 points, fewer than its train set of 6") {
		t.Errorf("files shorter than the train set: error %v", err)
	}
}

func TestLoadOptionErrors(t *testing.T) {
	tests := []struct {
		name    string
		opt     Options
		wantErr string
	}{
		{"nosuch", Options{}, `unknown dataset "nosuch" (known: aggregation, compound`},
		{"char", Options{Dim: 3}, "Options.Dim = 3 applies only to the synthetic sets"},
		{"gmm", Options{N: -1}, "negative option"},
		{"mnist", Options{N: 60001}, "60001 points asked for, the files hold 60000"},
		{"uniform", Options{Dim: 3, PCA: 4}, "PCA to 4 components of 3-dimensional data"},
	}
	for _, tc := range tests {
		_, err := Load(tc.name, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Load(%q, %+v): error %v, want %q", tc.name, tc.opt, err, tc.wantErr)
		}
	}
}

// columnStats returns the mean and variance of every coordinate of the rows
// of x from..to.
func columnStats(x *mat.Dense, from, to int) (means, vars []float64) {
	_, d := x.Dims()
	for j := 0; j < d; j++ {
		col := mat.Col(nil, j, x.Slice(from, to, 0, d))
		m, v := stat.MeanVariance(col, nil)
		means, vars = append(means, m), append(vars, v)
	}
	return means, vars
}

func TestGMM(t *testing.T) {
	ds, err := Load("gmm", Options{N: 4000, Dim: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := ds.X.Dims(); r != 4000 || c != 3 {
		t.Fatalf("dims %d×%d, want 4000×3", r, c)
	}
	for i, l := range ds.Labels {
		if want := i / 2000; l != want {
			t.Fatalf("label %d of point %d, want %d", l, i, want)
		}
	}
	// Means within 5 standard errors (σ/√2000 ≈ 0.022), variances within 0.1.
	for k, centre := range []float64{0, 100} {
		means, vars := columnStats(ds.X, k*2000, (k+1)*2000)
		for j := range means {
			if math.Abs(means[j]-centre) > 0.12 || math.Abs(vars[j]-1) > 0.1 {
				t.Errorf("cluster %d, coordinate %d: mean %.3f, variance %.3f; want %v, 1", k, j, means[j], vars[j], centre)
			}
		}
	}
	again, _ := Load("gmm", Options{N: 4000, Dim: 3, Seed: 7})
	other, _ := Load("gmm", Options{N: 4000, Dim: 3, Seed: 8})
	if !mat.Equal(ds.X, again.X) || mat.Equal(ds.X, other.X) {
		t.Error("generation is not determined by the seed")
	}
	def, err := Load("gmm", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := def.X.Dims(); r != 5000 || c != 2 {
		t.Errorf("default gmm is %d×%d, want the paper's 5000×2", r, c)
	}
}

func TestUniform(t *testing.T) {
	ds, err := Load("uniform", Options{N: 5000, Dim: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if ds.Labels != nil {
		t.Error("uniform has labels")
	}
	for _, v := range ds.X.RawMatrix().Data {
		if v < 0 || v >= 10 {
			t.Fatalf("value %v outside [0, 10)", v)
		}
	}
	// U(0,10): mean 5, variance 100/12 ≈ 8.33; standard errors 0.04 and 0.1.
	means, vars := columnStats(ds.X, 0, 5000)
	for j := range means {
		if math.Abs(means[j]-5) > 0.2 || math.Abs(vars[j]-100.0/12) > 0.5 {
			t.Errorf("coordinate %d: mean %.3f, variance %.3f; want 5, 8.33", j, means[j], vars[j])
		}
	}
	def, err := Load("uniform", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := def.X.Dims(); r != 10000 || c != 2 {
		t.Errorf("default uniform is %d×%d, want the paper's 10000×2", r, c)
	}
}

func TestSyntheticWithPCA(t *testing.T) {
	ds, err := Load("gmm", Options{N: 1000, Dim: 10, PCA: 1, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The first component separates the two clusters: they lie √10·100 apart.
	for i, l := range ds.Labels {
		sameSide := (ds.X.At(i, 0) > 0) == (ds.X.At(0, 0) > 0)
		if sameSide != (l == ds.Labels[0]) {
			t.Fatalf("point %d (label %d) on the wrong side of the first component", i, l)
		}
	}
	if !strings.Contains(ds.Description, "top 1 principal components") {
		t.Errorf("description %q does not mention the projection", ds.Description)
	}
}
