package algorithms_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

// TestResultIndependentOfThreads fits every registered method on the CPU
// with 1, 2, 3 and 7 threads (Options.Threads and GOMAXPROCS both, since
// some methods size their pools by GOMAXPROCS) and checks that the
// embeddings agree bit for bit: a run's result must not depend on the
// machine it ran on (issue #15). The problem is large enough that every
// method splits its work: 300 items, 20,000 triplets, more than one chunk
// of each parallel pass.
func TestResultIndependentOfThreads(t *testing.T) {
	problem := uniformProblem(t, 300, 20_000, triplets.Noise{Model: triplets.Bernoulli, Level: 0.1})
	for _, name := range embed.Names() {
		t.Run(name, func(t *testing.T) {
			info, err := embed.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			fit := func(threads int) []float64 {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
				alg, err := info.New(nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := alg.Fit(context.Background(), problem(info), embed.Options{Seed: 9, Threads: threads, MaxEpochs: 20})
				if err != nil {
					t.Fatal(err)
				}
				return res.Embedding.RawMatrix().Data
			}
			one := fit(1)
			for _, threads := range []int{2, 3, 7} {
				got := fit(threads)
				for e := range one {
					if math.Float64bits(got[e]) != math.Float64bits(one[e]) {
						t.Fatalf("%d threads: entry %d is %v, 1 thread gave %v", threads, e, got[e], one[e])
					}
				}
			}
		})
	}
}
