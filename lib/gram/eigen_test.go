package gram

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
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

// stepProblem returns a run on n items in dimension d with random triplets,
// its factor set to a random X whose d directions stand out (so that the
// rank-d projection is well defined), and a gradient-shaped step with
// entries of size scale.
func stepProblem(t *testing.T, n, d int, scale float64, seed uint64) (*run, []float64) {
	t.Helper()
	s := randomTriplets(n, 20*n, seed)
	r, err := newRun(context.Background(), "test", objective{kind: hinge}, embed.Problem{Dim: d, Train: s}, embed.Options{Seed: seed, Threads: 2}, false)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			r.x.Set(i, j, float64(j+2)*rng.NormFloat64())
		}
	}
	r.warm = mat.DenseCopyOf(r.x)
	step := make([]float64, r.pat.edges()+n)
	for i := range step {
		step[i] = scale * rng.NormFloat64()
	}
	return r, step
}

// denseProjection returns the nearest PSD matrix of rank ≤ d to XXᵀ + S,
// from a full LAPACK eigendecomposition.
func denseProjection(t *testing.T, r *run, step []float64) *mat.SymDense {
	t.Helper()
	n, e := r.n, r.pat.edges()
	a := mat.NewSymDense(n, nil)
	a.SymOuterK(1, r.x)
	for x := 0; x < e; x++ {
		lo, hi := int(r.pat.lo[x]), int(r.pat.hi[x])
		a.SetSym(lo, hi, a.At(lo, hi)+step[x])
	}
	for i := 0; i < n; i++ {
		a.SetSym(i, i, a.At(i, i)+step[e+i])
	}
	var eig mat.EigenSym
	if !eig.Factorize(a, true) {
		t.Fatal("reference eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	p := mat.NewSymDense(n, nil)
	for l := n - r.d; l < n; l++ {
		p.SymRankOne(p, math.Max(vals[l], 0), vecs.ColView(l))
	}
	return p
}

// The projections the methods make, warm-started and stopped by the residual
// test at projectionTol, must agree with the projection computed from a full
// dense eigendecomposition.
func TestProjectionMatchesDenseEigenSym(t *testing.T) {
	cases := []struct {
		name  string
		n, d  int
		scale float64 // size of the step's entries against K's O(1)..O(d) spectrum
	}{
		{"small step d=2", 150, 2, 0.01},
		{"small step d=5", 200, 5, 0.01},
		{"step like K d=3", 200, 3, 0.2},
		{"large step d=4", 160, 4, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, step := stepProblem(t, c.n, c.d, c.scale, 3)
			// A first projection, then a second of a nearby matrix started
			// from the first's eigenvectors, as consecutive steps are.
			for round := 0; round < 2; round++ {
				want := denseProjection(t, r, step)
				x, warm, err := r.project(step, r.warm)
				if err != nil {
					t.Fatal(err)
				}
				var got, diff mat.Dense
				got.Mul(x, x.T())
				diff.Sub(&got, want)
				// The residual tolerance, 10⁻⁶·‖A‖, bounds the error of the
				// projection at about that size relative to ‖A‖ (these
				// matrices have an O(1) gap after the d-th eigenvalue);
				// 10⁻⁵ leaves a margin, and a loose or broken stopping test
				// fails it by orders of magnitude.
				rel := mat.Norm(&diff, 2) / mat.Norm(want, 2)
				t.Logf("round %d: relative error %.3g", round, rel)
				if rel > 1e-5 {
					t.Errorf("round %d: projection differs from the dense one by %.3g (relative Frobenius)", round, rel)
				}
				r.x, r.warm = x, warm
				for i := range step {
					step[i] *= 0.9
				}
			}
		})
	}
}

// A warm start that already spans the wanted eigenvectors must be recognised
// after the first product: the residual test runs after every block, not only
// once the Krylov basis is full.
func TestTopEigenStopsAsSoonAsConverged(t *testing.T) {
	a := randomSym(400, 1, []float64{9, 8, 7, 6, 5}, 13)
	exact, err := TopEigen(DenseOperator{a}, 5, nil, EigenOptions{Tol: 1e-12, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name         string
		warm         *mat.Dense
		maxProducts  int
		wantRestarts int
	}{
		{"exact warm start", exact.Warm, 1, 0},
		{"exact wanted vectors only", exact.Vectors, 1, 0},
		{"cold start", nil, 200, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := TopEigen(DenseOperator{a}, 5, c.warm, EigenOptions{Tol: 1e-8, Seed: 2})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Converged || res.Products > c.maxProducts {
				t.Errorf("converged=%v after %d products, want at most %d", res.Converged, res.Products, c.maxProducts)
			}
			if c.wantRestarts >= 0 && res.Restarts != c.wantRestarts {
				t.Errorf("%d restarts, want %d", res.Restarts, c.wantRestarts)
			}
			if c.warm == nil && res.Products < 2 {
				t.Errorf("a cold start converged after %d product: the test matrix is too easy", res.Products)
			}
			for l, v := range res.Values {
				if math.Abs(v-exact.Values[l]) > 1e-8*math.Abs(exact.Values[0]) {
					t.Errorf("value %d: %g, want %g", l, v, exact.Values[l])
				}
			}
		})
	}
}
