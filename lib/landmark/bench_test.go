package landmark

import (
	"context"
	"testing"

	"github.com/oe-lab/oe/lib/internal/testpoints"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// The paper's Uniform hyper-parameter set: n = 1000 points in the plane.
func BenchmarkUniform1000(b *testing.B) {
	x := testpoints.Uniform(1000, 2, 1)
	for _, alg := range []embed.Algorithm{&LOE{}, &LLOE{}} {
		b.Run(alg.Name(), func(b *testing.B) {
			for b.Loop() {
				o, err := triplets.NewOracle(x, triplets.Noise{}, 1)
				if err != nil {
					b.Fatal(err)
				}
				res, err := alg.Fit(context.Background(), embed.Problem{Dim: 2, Oracle: o}, embed.Options{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.Queries), "queries/op")
			}
		})
	}
}
