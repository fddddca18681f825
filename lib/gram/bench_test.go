package gram

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// stepOperator returns the matrix one Adam step of GNMDS makes on n uniform
// points in dim dimensions with the paper's 2·n·d·log₂n triplets: a rank-d K
// plus ±lr on every pattern entry.
func stepOperator(b *testing.B, n, d int) (*lowRankPlusSparse, *mat.Dense) {
	rng := rand.New(rand.NewPCG(1, 1))
	pts := mat.NewDense(n, d, nil)
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			pts.Set(i, j, rng.Float64())
			x.Set(i, j, rng.Float64())
		}
	}
	s, err := triplets.Random(pts, triplets.Count(2, n, d), triplets.Noise{}, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	p, err := newPattern(s, n, 0)
	if err != nil {
		b.Fatal(err)
	}
	off := make([]float64, p.edges())
	for e := range off {
		off[e] = 10 * (2*rng.Float64() - 1)
	}
	diag := make([]float64, n)
	return newLowRankPlusSparse(x, p, off, diag, 0, nil), x
}

// BenchmarkProjection measures one warm-started projection (top-d
// eigenpairs of K + step) at n = 2,000 and 10,000 items, d = 2 and 10 (the
// sizes of the paper's Gram-method experiments); the cold solve that
// produces the warm start is not timed.
func BenchmarkProjection(b *testing.B) {
	for _, c := range []struct{ n, d int }{{2000, 2}, {2000, 10}, {10000, 2}, {10000, 10}} {
		b.Run(fmt.Sprintf("n=%d/d=%d", c.n, c.d), func(b *testing.B) {
			op, x := stepOperator(b, c.n, c.d)
			opt := EigenOptions{Tol: projectionTol, Depth: projectionDepth, Seed: 1}
			first, err := TopEigen(op, c.d, x, opt)
			if err != nil {
				b.Fatal(err)
			}
			products := 0
			for i := 0; b.Loop(); i++ {
				// Perturb the step a little, as consecutive steps do.
				op.diag[i%c.n] += 1
				res, err := TopEigen(op, c.d, first.Warm, opt)
				if err != nil {
					b.Fatal(err)
				}
				products += res.Products
			}
			b.ReportMetric(float64(products)/float64(b.N), "products/op")
			b.ReportMetric(float64(op.p.edges()), "edges")
		})
	}
}

// BenchmarkProjectionPath compares, on GNMDS step operators whose Krylov
// basis (Depth·b columns) is a large share of n, a warm-started Krylov
// projection with the dense one (the matrix formed by n products, then
// gonum's EigenSym): the measurements behind denseShare.
func BenchmarkProjectionPath(b *testing.B) {
	for _, c := range []struct{ n, d int }{{300, 30}, {400, 50}, {500, 30}, {600, 50}} {
		op, x := stepOperator(b, c.n, c.d)
		opt := EigenOptions{Tol: projectionTol, Depth: projectionDepth, Seed: 1}.withDefaults(c.d)
		bs := c.d + opt.Oversample
		first, err := new(eigenWork).krylovTopEigen(op, c.d, x, opt)
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("n=%d/d=%d/basis=%d", c.n, c.d, opt.Depth*bs)
		b.Run(name+"/krylov", func(b *testing.B) {
			var w eigenWork
			for i := 0; b.Loop(); i++ {
				op.diag[i%c.n] += 1
				if _, err := w.krylovTopEigen(op, c.d, first.Warm, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/dense", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				op.diag[i%c.n] += 1
				if _, err := denseTopEigen(op, c.d, bs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSparseProduct measures one product of the step operator with an
// n×(d+oversample) block.
func BenchmarkSparseProduct(b *testing.B) {
	for _, c := range []struct{ n, d int }{{1797, 30}, {10000, 2}, {7291, 50}} {
		b.Run(fmt.Sprintf("n=%d/d=%d", c.n, c.d), func(b *testing.B) {
			op, _ := stepOperator(b, c.n, c.d)
			cols := c.d + EigenOptions{}.withDefaults(c.d).Oversample
			src := mat.NewDense(c.n, cols, nil)
			for i := 0; i < c.n; i++ {
				src.Set(i, i%cols, 1)
			}
			dst := mat.NewDense(c.n, cols, nil)
			for b.Loop() {
				op.MulTo(dst, src)
			}
			perEntry := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(op.p.adjEdge)*cols)
			b.ReportMetric(perEntry, "ns/entry·col")
		})
	}
}

// BenchmarkCHAR runs the paper's protocol on CHAR (n = 1,797, d = 30,
// 2·n·d·log₂n triplets, stopping rule every 50 epochs, at most 500 epochs)
// and reports the test triplet error on 10,000 fresh triplets and the time
// to converge, to compare with Table 3 (GNMDS 0.20 in 0.7 s, CKL 0.21 in
// 1 s, FORTE 0.07 in 438 s, on a GPU). Run it with -benchtime 1x: one run
// takes minutes.
func BenchmarkCHAR(b *testing.B) {
	p, test := charProblem(b, 30)
	for _, method := range []string{"gnmds", "ckl", "forte"} {
		b.Run(method, func(b *testing.B) {
			alg, err := embed.New(method, nil)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; b.Loop(); i++ {
				res, err := alg.Fit(context.Background(), p, embed.Options{Seed: uint64(i + 1)})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(metrics.TripletError(res.Embedding, test), "test-error")
				b.ReportMetric(res.TimeToConverge.Seconds(), "s-to-converge")
				b.ReportMetric(float64(res.Epochs), "epochs")
			}
		})
	}
}

// BenchmarkEpoch measures the cost of one GNMDS / FORTE epoch (gradient,
// Adam step or line search, projection) on n uniform points after the first
// epoch, whose cold projection and the pattern build are excluded; n = 7,291
// and d = 50 is the USPS size of the paper's experiments.
func BenchmarkEpoch(b *testing.B) {
	for _, method := range []string{"gnmds", "forte"} {
		for _, c := range []struct{ n, d int }{{2000, 2}, {2000, 10}, {10000, 2}, {10000, 10}, {7291, 50}} {
			b.Run(fmt.Sprintf("%s/n=%d/d=%d", method, c.n, c.d), func(b *testing.B) {
				p, _ := problem(b, testpoints.Uniform(c.n, c.d, 1), c.d)
				alg, err := embed.New(method, nil)
				if err != nil {
					b.Fatal(err)
				}
				const epochs = 6
				perEpoch := 0.0
				for b.Loop() {
					res, err := alg.Fit(context.Background(), p, embed.Options{Seed: 1, MaxEpochs: epochs})
					if err != nil {
						b.Fatal(err)
					}
					tr := res.Trace
					perEpoch += (tr[len(tr)-1].Elapsed - tr[0].Elapsed).Seconds() / float64(len(tr)-1)
				}
				b.ReportMetric(perEpoch/float64(b.N), "s/epoch")
			})
		}
	}
}

// BenchmarkFullEigenSym is the cost a full symmetric eigendecomposition
// would add to every step, for comparison with BenchmarkProjection.
func BenchmarkFullEigenSym(b *testing.B) {
	a := randomSym(2000, 1, []float64{5, 4}, 1)
	var eig mat.EigenSym
	for b.Loop() {
		if !eig.Factorize(a, true) {
			b.Fatal("eigendecomposition failed")
		}
	}
}
