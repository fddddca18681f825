package gram

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/optim"
	"github.com/oe-lab/oe/lib/triplets"
)

// gmmCase is issue #21's synthetic case, drawn as oerun triplets draws it
// with --seed 1: n = 100 points of lib/datasets' gmm, 200,000 training
// triplets with Bernoulli noise 0.15, 10,000 noiseless test triplets.
func gmmCase(b *testing.B) (embed.Problem, *triplets.Set) {
	ds, err := datasets.Load("gmm", datasets.Options{N: 100, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	train, err := triplets.Random(ds.X, 200_000, triplets.Noise{Model: triplets.Bernoulli, Level: 0.15}, 1, 0)
	if err != nil {
		b.Fatal(err)
	}
	test, err := triplets.Random(ds.X, 10_000, triplets.Noise{}, triplets.HeldOutSeed(1), 0)
	if err != nil {
		b.Fatal(err)
	}
	return embed.Problem{Dim: 2, Train: train}, test
}

// diagnosis is one way of minimising GNMDS's or CKL's objective over K on
// the GMM case, for BenchmarkDiagnoseGMM.
type diagnosis struct {
	name   string
	obj    objective
	solver string  // "adam": the paper's Adam steps then projection; "pgd": FORTE's line search
	lr     float64 // Adam's learning rate, or the line search's first step
	batch  int     // Adam's batch (0: all triplets)
	scaleK float64 // the initial K times this (0: as the methods start)
}

// BenchmarkDiagnoseGMM measures why Adam with projections fails on the GMM
// case (bench/gram.md) where the same objectives minimised by projected
// gradient steps with a line search do not. Each case runs 500 epochs
// from the methods' initial K, once, and reports the test error, the trace
// of the final K (its scale), the objective per triplet and, for Adam, the
// test error after the first step (all that the authors' code takes, see
// the package comment) and the largest relative difference between a
// projection and the dense eigendecomposition of the same matrix over the
// run's checks. Run it with -benchtime 1x.
func BenchmarkDiagnoseGMM(b *testing.B) {
	hinge, ckl := objective{kind: hinge}, objective{kind: crowdKernel, mu: cklMu}
	cases := []diagnosis{
		{name: "gnmds/adam/lr=10", obj: hinge, solver: "adam", lr: gnmdsLR},
		{name: "gnmds/adam/lr=1", obj: hinge, solver: "adam", lr: 1},
		{name: "gnmds/adam/lr=0.1", obj: hinge, solver: "adam", lr: 0.1},
		{name: "gnmds/adam/lr=0.01", obj: hinge, solver: "adam", lr: 0.01},
		{name: "gnmds/adam/batch=10000", obj: hinge, solver: "adam", lr: gnmdsLR, batch: 10_000},
		{name: "gnmds/adam/K0×100", obj: hinge, solver: "adam", lr: gnmdsLR, scaleK: 100},
		{name: "gnmds/pgd", obj: hinge, solver: "pgd", lr: gnmdsLR},
		{name: "ckl/adam/lr=100", obj: ckl, solver: "adam", lr: cklLR},
		{name: "ckl/adam/lr=1", obj: ckl, solver: "adam", lr: 1},
		{name: "ckl/adam/lr=0.01", obj: ckl, solver: "adam", lr: 0.01},
		{name: "ckl/adam/mu=0.001", obj: objective{kind: crowdKernel, mu: 0.001}, solver: "adam", lr: cklLR},
		{name: "ckl/adam/mu=10", obj: objective{kind: crowdKernel, mu: 10}, solver: "adam", lr: cklLR},
		{name: "ckl/adam/batch=10000", obj: ckl, solver: "adam", lr: cklLR, batch: 10_000},
		{name: "ckl/adam/K0×100", obj: ckl, solver: "adam", lr: cklLR, scaleK: 100},
		{name: "ckl/pgd", obj: ckl, solver: "pgd", lr: cklLR},
	}
	p, test := gmmCase(b)
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				r, err := newRun(context.Background(), c.name, c.obj, p, embed.Options{Seed: 1}, false)
				if err != nil {
					b.Fatal(err)
				}
				if c.scaleK > 0 {
					r.x.Scale(math.Sqrt(c.scaleK), r.x)
				}
				var loss, worst, first float64
				if c.solver == "adam" {
					loss, worst, first = diagnoseAdam(b, r, c, test)
				} else {
					loss = diagnosePGD(b, r, c)
				}
				b.ReportMetric(metrics.TripletError(r.x, test), "test-error")
				b.ReportMetric(trace(r.x), "trace-K")
				b.ReportMetric(loss/float64(r.m), "loss/triplet")
				if c.solver == "adam" {
					b.ReportMetric(first, "test-error-1st-step")
					b.ReportMetric(worst, "projection-error")
				}
			}
		})
	}
}

// diagnoseAdam runs 500 epochs of Adam steps with projections, as adamScheme.fit
// does, and returns the last epoch's objective, the largest relative
// difference (Frobenius) between a projection and the dense one, checked
// every 50 epochs, and the test error after the first step.
func diagnoseAdam(b *testing.B, r *run, c diagnosis, test *triplets.Set) (loss, worst, first float64) {
	size := r.pat.edges() + r.n
	adam, err := optim.NewAdam[float64](size, c.lr)
	if err != nil {
		b.Fatal(err)
	}
	g, step := make([]float64, size), make([]float64, size)
	batch := r.m
	if c.batch > 0 {
		batch = c.batch
	}
	batches := (r.m + batch - 1) / batch
	for epoch := 1; epoch <= DefaultMaxEpochs; epoch++ {
		loss = 0
		for k := 0; k < batches; k++ {
			loss += r.gradient(k*r.m/batches, (k+1)*r.m/batches, g)
			if err := adam.NextStep(); err != nil {
				b.Fatal(err)
			}
			adam.DeltaRange(step, g, 0)
			for i, v := range step {
				step[i] = -v
			}
			before := r.x
			if r.x, r.warm, err = r.project(step, r.warm); err != nil {
				b.Fatal(err)
			}
			if k == 0 && epoch%50 == 0 {
				worst = math.Max(worst, denseDifference(b, r, before, step))
			}
			if epoch == 1 && k == 0 {
				first = metrics.TripletError(r.x, test)
			}
		}
	}
	return loss, worst, first
}

// denseDifference returns ‖P − P_dense‖_F / ‖P_dense‖_F for the projection
// P = r.x r.xᵀ of XXᵀ + step (X = before) and the dense eigendecomposition's.
func denseDifference(b *testing.B, r *run, before *mat.Dense, step []float64) float64 {
	e := r.pat.edges()
	res, err := denseTopEigen(newLowRankPlusSparse(before, r.pat, step[:e], step[e:], 1, nil), r.d, r.d)
	if err != nil {
		b.Fatal(err)
	}
	xd := mat.DenseCopyOf(res.Vectors)
	for l, v := range res.Values {
		col := xd.ColView(l).(*mat.VecDense)
		col.ScaleVec(math.Sqrt(math.Max(v, 0)), col)
	}
	var got, want mat.Dense
	want.Mul(xd, xd.T())
	got.Mul(r.x, r.x.T())
	got.Sub(&got, &want)
	return mat.Norm(&got, 2) / mat.Norm(&want, 2)
}

// diagnosePGD runs 500 epochs of FORTE's solver on the objective and
// returns the last objective.
func diagnosePGD(b *testing.B, r *run, c diagnosis) float64 {
	size := r.pat.edges() + r.n
	g, step, w := make([]float64, size), make([]float64, size), make([]float64, r.pat.edges())
	f := &FORTE{Rho: forteRho, C1: forteC1}
	alpha, loss := c.lr, 0.0
	for epoch := 1; epoch <= DefaultMaxEpochs; epoch++ {
		loss = r.gradient(0, r.m, g)
		for e := range w {
			w[e] = -g[e]
		}
		ok, err := false, error(nil)
		if alpha, ok, err = r.lineSearch(f, g, w, step, loss, alpha, epoch == 1); err != nil {
			b.Fatal(err)
		}
		if !ok {
			break // no descent: a minimum at the search's resolution
		}
	}
	return loss
}
