package oenn

import (
	"context"
	"testing"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// BenchmarkStep times one Adam step on a full batch of 50,000 triplets
// (forward and backward over the batch's distinct items) at the network
// shapes of the paper's uniform (n = 1000, d = 2, w = 120) and CHAR
// (n = 1797, d = 30, w = 648) experiments. An epoch of CHAR at λ = 2 is 24
// such steps.
func BenchmarkStep(b *testing.B) {
	for _, bc := range []struct {
		name string
		n, d int
	}{
		{"uniform-n1000-d2", 1000, 2},
		{"char-n1797-d30", 1797, 30},
	} {
		b.Run(bc.name, func(b *testing.B) {
			set, err := triplets.Random(uniform(bc.n, bc.d, 1), DefaultBatchSize, triplets.Noise{}, 1, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			_, err = (&OENN{}).Fit(context.Background(), embed.Problem{Dim: bc.d, Train: set},
				embed.Options{Seed: 1, MaxEpochs: b.N, Stop: embed.StopRule{Disabled: true}})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
