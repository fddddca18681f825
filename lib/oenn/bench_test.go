package oenn

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/optim"
	"github.com/oe-lab/oe/lib/triplets"
)

// BenchmarkStep times one Adam step on a full batch of 50,000 triplets
// (forward and backward over the batch's distinct items) at the network
// shapes of the paper's uniform (n = 1000, d = 2, w = 120) and CHAR
// (n = 1797, d = 30, w = 648) experiments, and of §4.7's largest uniform
// runs (n = 100,000: about 78,000 distinct items a batch). An epoch of CHAR
// at λ = 2 is 24 such steps. With -cpu 1,2,4,… it measures how a run
// scales with its threads.
func BenchmarkStep(b *testing.B) {
	for _, bc := range []struct {
		name string
		n, d int
	}{
		{"uniform-n1000-d2", 1000, 2},
		{"char-n1797-d30", 1797, 30},
		{"uniform-n100000-d2", 100000, 2},
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

// BenchmarkCheckpoint times one write of a CPU fit's checkpoint (its
// parameters, AMSGrad's three moments, the triplets' order, a trace of 100
// epochs) into a temporary folder, at the shapes of the paper profile's
// CHAR (n = 1797) and USPS-size (n = 7291) runs at d = 50 and λ = 2, the
// largest there: a fit writes one at most every minute
// (embed.DefaultCheckpointEvery), so a write should cost a small part of it.
func BenchmarkCheckpoint(b *testing.B) {
	for _, bc := range []struct {
		name string
		n, d int
	}{
		{"char-n1797-d50", 1797, 50},
		{"usps-n7291-d50", 7291, 50},
	} {
		b.Run(bc.name, func(b *testing.B) {
			width, in := (&OENN{}).Shape(bc.n, bc.d)
			net := newEmbNet(in, width, bc.d)
			adam, err := optim.NewAdam[float32](len(net.params), DefaultLearningRate)
			if err != nil {
				b.Fatal(err)
			}
			p := len(net.params)
			if err := adam.SetState(optim.AdamState[float32]{Steps: 1, M: make([]float32, p), V: make([]float32, p), VMax: make([]float32, p)}); err != nil {
				b.Fatal(err)
			}
			perm := make([]int32, triplets.Count(2, bc.n, bc.d))
			res := &embed.Result{Trace: make([]embed.Epoch, 100)}
			tracker := embed.NewTracker(embed.DefaultStopRule())
			cp := &embed.Checkpoint{Path: filepath.Join(b.TempDir(), "run"), ID: "run"}
			shuffle := rand.NewPCG(1, 2)
			for b.Loop() {
				if err := saveCheckpoint(cp, 100, withinEpoch{}, &cpuNet{net: net, adam: adam}, shuffle, perm, tracker, 2, res, time.Minute); err != nil {
					b.Fatal(err)
				}
			}
			if fi, err := os.Stat(cp.Path); err == nil {
				b.ReportMetric(float64(fi.Size())/1e6, "MB/write")
			}
		})
	}
}

// BenchmarkPackPanels times packing an operand of OENN's weight-gradient
// and forward products at §4.7's largest uniform runs (the batch's 78,000
// items × w = 120) into panels of the AVX-512 kernel's widths (mr = 12 for
// A, nr = 32 for B), block by block of kc rows as gemm.mul does, from both
// layouts: rows of the panels contiguous in the operand ("runs"), or its
// columns ("gather", a transpose). At w = 120 packing is a third of a step.
func BenchmarkPackPanels(b *testing.B) {
	const items, width = 78000, 120
	rng := rand.New(rand.NewPCG(1, 2))
	for _, bc := range []struct {
		name    string
		w       int
		columns bool
		trans   bool
	}{
		{"A-runs-w12", 12, true, true},
		{"A-gather-w12", 12, true, false},
		{"B-runs-w32", 32, false, false},
		{"B-gather-w32", 32, false, true},
	} {
		// The packed dimension has width entries; the other (the product's
		// inner one) has items.
		r, c := items, width
		if bc.columns {
			r, c = c, r
		}
		x := randomMatrix(rng, r, c, bc.trans)
		panels := (width + bc.w - 1) / bc.w
		dst := make([]float32, panels*kc*bc.w)
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				for p0 := 0; p0 < items; p0 += kc {
					packPanels(dst, x, p0, min(p0+kc, items), 0, width, bc.w, bc.columns)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(items*width), "ns/float")
		})
	}
}
