//go:build cuda

package gram

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/cuda"
)

// TestGPUGradientParity compares lib/cuda's port of the sparse Gram
// gradient with objective.evaluate and pattern.gather: coefficients and
// loss up to the last bits of exp/log, and the gather exactly, as it sums
// the same numbers in the same order.
func TestGPUGradientParity(t *testing.T) {
	c, err := cuda.Open(0)
	if err != nil {
		t.Skip("no CUDA device: " + err.Error())
	}
	defer c.Close()
	const n, d, m = 30, 3, 600
	s := randomTriplets(n, m, 8)
	p, err := newPattern(s, n, 2)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	up := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	dx, err := cuda.Upload(c, x.RawMatrix().Data)
	up(err)
	di, err := cuda.Upload(c, s.Idx)
	up(err)
	var dp cuda.GramPattern
	dp.ContribPtr, err = cuda.Upload(c, p.contribPtr)
	up(err)
	dp.Contrib, err = cuda.Upload(c, p.contrib)
	up(err)
	dp.AdjPtr, err = cuda.Upload(c, p.adjPtr)
	up(err)
	dp.AdjEdge, err = cuda.Upload(c, p.adjEdge)
	up(err)
	kinds := map[lossKind]cuda.GramKind{hinge: cuda.GramHinge, crowdKernel: cuda.GramCKL, logistic: cuda.GramLogistic}
	for _, tc := range objectives {
		t.Run(tc.name, func(t *testing.T) {
			coef := make([]float64, 2*m)
			// Half the triplets, as a minibatch step evaluates them.
			const from, to = 100, 400
			wantLoss := tc.obj.evaluate(factorDist(x), s, from, to, coef, 2)
			dc, err := cuda.Alloc[float64](c, 2*m)
			up(err)
			gotLoss, err := c.GramCoef(dx, n, d, di, from, to, kinds[tc.obj.kind], tc.obj.mu, dc)
			up(err)
			if math.Abs(gotLoss-wantLoss) > 1e-12*math.Max(1, math.Abs(wantLoss)) {
				t.Errorf("loss: GPU %v, CPU %v", gotLoss, wantLoss)
			}
			got := make([]float64, 2*m)
			up(dc.CopyTo(got))
			for q := range coef {
				if math.Abs(got[q]-coef[q]) > 1e-12*math.Max(1, math.Abs(coef[q])) {
					t.Fatalf("coefficient slot %d: GPU %v, CPU %v", q, got[q], coef[q])
				}
			}
			// Gather the CPU's coefficients on both sides: equal to the bit.
			up(dc.CopyFrom(coef))
			e := p.edges()
			w, diag := make([]float64, e), make([]float64, n)
			p.gather(coef, w, diag, tc.obj.lambda, 2)
			dw, err := cuda.Alloc[float64](c, e)
			up(err)
			dd, err := cuda.Alloc[float64](c, n)
			up(err)
			up(c.GramGather(dp, dc, tc.obj.lambda, dw, dd))
			gw, gd := make([]float64, e), make([]float64, n)
			up(dw.CopyTo(gw))
			up(dd.CopyTo(gd))
			for q := range w {
				if gw[q] != w[q] {
					t.Fatalf("edge %d weight: GPU %v, CPU %v", q, gw[q], w[q])
				}
			}
			for a := range diag {
				if gd[a] != diag[a] {
					t.Fatalf("diagonal %d: GPU %v, CPU %v", a, gd[a], diag[a])
				}
			}
		})
	}
}
