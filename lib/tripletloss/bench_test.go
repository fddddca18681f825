package tripletloss

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// Benchmark sizes of the issue: CHAR (n=1797, d=30, λ=2 → 807,989 triplets)
// and USPS (n=7291, d=50, 6.49M triplets). One op is one full SOE epoch.
var epochSizes = []struct {
	name    string
	n, d, m int
}{
	{"CHAR", 1797, 30, 807_989},
	{"USPS", 7291, 50, 6_490_000},
}

func BenchmarkSOEEpoch(b *testing.B) {
	for _, sz := range epochSizes {
		b.Run(fmt.Sprintf("%s_n%d_d%d", sz.name, sz.n, sz.d), func(b *testing.B) {
			r, err := SOE{}.runFor(sz.d)
			if err != nil {
				b.Fatal(err)
			}
			k, batch, err := benchKernel(r, sz.n, sz.d, sz.m, 0, 1)
			if err != nil {
				b.Fatal(err)
			}
			idx := syntheticTriplets(sz.n, sz.m, 1)
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				for from := 0; from < sz.m; from += batch {
					if _, err := k.step(idx[3*from : 3*min(from+batch, sz.m)]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(sz.m)*float64(b.N)/time.Since(start).Seconds()/1e6, "Mtriplets/s")
		})
	}
}

// One op is a whole SOE fit of CHAR (d=30, λ=2) until the paper's stopping
// rule fires; the target is ≤ 2 s on 2 cores. Needs OE_DATA.
func BenchmarkSOECHARFit(b *testing.B) {
	x, _ := loadCHAR(b)
	n, _ := x.Dims()
	train := mustTriplets(b, x, triplets.Count(2, n, 30), 1)
	b.ResetTimer()
	for range b.N {
		res, err := SOE{}.Fit(context.Background(), embed.Problem{Dim: 30, Train: train}, embed.Options{Seed: 7})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Epochs), "epochs")
		b.ReportMetric(res.TimeToConverge.Seconds(), "s-to-converge")
	}
}
