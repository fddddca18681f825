package gram

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomSym returns a symmetric n×n matrix: a Gaussian (GOE-like) part scaled
// by noise plus Σ spikes[l]·v_l v_lᵀ for random unit v_l.
func randomSym(n int, noise float64, spikes []float64, seed uint64) *mat.SymDense {
	rng := rand.New(rand.NewPCG(seed, 1))
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			a.SetSym(i, j, noise*rng.NormFloat64()/math.Sqrt(float64(n)))
		}
	}
	for _, s := range spikes {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		vv := mat.NewVecDense(n, v)
		vv.ScaleVec(1/mat.Norm(vv, 2), vv)
		a.SymRankOne(a, s, vv)
	}
	return a
}

func TestTopEigenMatchesFullDecomposition(t *testing.T) {
	cases := []struct {
		name   string
		n, k   int
		noise  float64
		spikes []float64
	}{
		{"gaussian", 300, 5, 1, nil},
		{"spiked", 400, 6, 1, []float64{10, 8, 6, 5, 4, 3, -20}},
		{"exact low rank", 250, 4, 0, []float64{5, 4, 3, 2}},
		{"rank below k", 200, 6, 0, []float64{3, -2}},
		{"negative definite", 150, 3, 0.1, []float64{-1, -2, -3, -4, -5, -6, -7, -8}},
		{"tiny (dense path)", 12, 3, 1, []float64{2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := randomSym(c.n, c.noise, c.spikes, 7)
			res, err := TopEigen(DenseOperator{a}, c.k, nil, EigenOptions{Tol: 1e-9, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Converged {
				t.Fatalf("not converged: residual %g after %d restarts", res.Residual, res.Restarts)
			}
			var full mat.EigenSym
			if !full.Factorize(a, true) {
				t.Fatal("reference eigendecomposition failed")
			}
			want := full.Values(nil)
			norm := math.Max(math.Abs(want[0]), math.Abs(want[c.n-1]))
			for l := 0; l < c.k; l++ {
				if got, w := res.Values[l], want[c.n-1-l]; math.Abs(got-w) > 1e-7*norm {
					t.Errorf("eigenvalue %d: got %.10g, want %.10g", l, got, w)
				}
				// Residual of each returned pair, independent of sign and of
				// rotations inside repeated eigenvalues.
				u := res.Vectors.ColView(l)
				var au mat.VecDense
				au.MulVec(a, u)
				au.AddScaledVec(&au, -res.Values[l], u)
				if r := mat.Norm(&au, 2); r > 1e-6*norm {
					t.Errorf("pair %d residual %g", l, r)
				}
			}
			var gram mat.Dense
			gram.Mul(res.Vectors.T(), res.Vectors)
			for i := 0; i < c.k; i++ {
				for j := 0; j < c.k; j++ {
					want := 0.0
					if i == j {
						want = 1
					}
					if math.Abs(gram.At(i, j)-want) > 1e-9 {
						t.Fatalf("vectors not orthonormal: (VᵀV)[%d,%d] = %g", i, j, gram.At(i, j))
					}
				}
			}
		})
	}
}

func TestTopEigenWarmStartSavesProducts(t *testing.T) {
	a := randomSym(500, 1, []float64{9, 8, 7, 6, 5}, 11)
	cold, err := TopEigen(DenseOperator{a}, 5, nil, EigenOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// A small perturbation of the same matrix, as between two gradient steps.
	b := randomSym(500, 0.01, nil, 12)
	b.AddSym(b, a)
	warm, err := TopEigen(DenseOperator{b}, 5, cold.Warm, EigenOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	again, err := TopEigen(DenseOperator{b}, 5, nil, EigenOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !warm.Converged || !again.Converged {
		t.Fatal("not converged")
	}
	if warm.Products >= again.Products {
		t.Errorf("warm start used %d products, cold start %d", warm.Products, again.Products)
	}
	for l := range warm.Values {
		if math.Abs(warm.Values[l]-again.Values[l]) > 1e-6 {
			t.Errorf("value %d: warm %g, cold %g", l, warm.Values[l], again.Values[l])
		}
	}
}

func TestTopEigenRejectsBadInput(t *testing.T) {
	a := randomSym(10, 1, nil, 1)
	cases := []struct {
		name string
		k    int
		warm *mat.Dense
	}{
		{"k zero", 0, nil},
		{"k above n", 11, nil},
		{"warm rows", 2, mat.NewDense(9, 2, nil)},
	}
	for _, c := range cases {
		if _, err := TopEigen(DenseOperator{a}, c.k, c.warm, EigenOptions{}); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
