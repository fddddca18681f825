package tripletloss

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// epochSizes are the benchmark inputs: CHAR (d = 30) and USPS (d = 50) at
// their paper sizes (lib/datasets) with λ = 2, λ·n·d·log₂n triplets
// (triplets.Count: 1,165,683 and 9,355,740), which take the lane scatter;
// and one full batch (DefaultBatchSize) at COVTYPE's n = 581,012, d = 30,
// which takes the row-block scatter (400 MB of embedding, gradient and Adam
// state).
func epochSizes(b *testing.B) []benchSize {
	var sizes []benchSize
	for _, c := range []struct {
		name    string
		d       int
		oneStep bool
	}{{"char", 30, false}, {"usps", 50, false}, {"covtype", 30, true}} {
		spec, err := datasets.Lookup(c.name)
		if err != nil {
			b.Fatal(err)
		}
		m := triplets.Count(2, spec.N, c.d)
		if c.oneStep {
			m = DefaultBatchSize
		}
		sizes = append(sizes, benchSize{name: strings.ToUpper(c.name), n: spec.N, d: c.d, m: m})
	}
	return sizes
}

// benchSize is one benchmark input: m random triplets over n items in d
// dimensions.
type benchSize struct {
	name    string
	n, d, m int
}

// BenchmarkSOEEpoch times one SOE epoch per op.
func BenchmarkSOEEpoch(b *testing.B) {
	for _, sz := range epochSizes(b) {
		b.Run(fmt.Sprintf("%s_n%d_d%d_m%d", sz.name, sz.n, sz.d, sz.m), func(b *testing.B) {
			r, err := (&SOE{}).resolve(sz.d)
			if err != nil {
				b.Fatal(err)
			}
			k, batch, err := benchKernel(r, sz.n, sz.d, sz.m, 1, 0)
			if err != nil {
				b.Fatal(err)
			}
			idx := syntheticTriplets(sz.n, sz.m, 1)
			for b.Loop() {
				for from := 0; from < sz.m; from += batch {
					if _, err := k.step(idx[3*from : 3*min(from+batch, sz.m)]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(sz.m)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mtriplets/s")
		})
	}
}

// BenchmarkCHARFit fits CHAR (n = 1,797, d = 30, λ = 2: 1,165,683
// triplets) with the paper's stopping rule, by SOE and by the factored forms
// of the Gram methods (GNMDS-x; STE is FORTE's), with Adam and with L-BFGS:
// issue #21 wants GNMDS-x's and FORTE-x's fit at most twice SOE's.
func BenchmarkCHARFit(b *testing.B) {
	x, _ := loadCHAR(b)
	n, _ := x.Dims()
	train := mustTriplets(b, x, triplets.Count(2, n, 30), 1)
	for _, alg := range []embed.Algorithm{&SOE{}, &GNMDSX{}, &STE{}} {
		for _, o := range optimizers {
			b.Run(alg.Name()+"/"+o.String(), func(b *testing.B) {
				for b.Loop() {
					res, err := alg.Fit(context.Background(), embed.Problem{Dim: 30, Train: train}, embed.Options{Seed: 7, Optimizer: o})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(res.Epochs), "epochs")
					b.ReportMetric(res.TimeToConverge.Seconds(), "s-to-converge")
				}
			})
		}
	}
}
