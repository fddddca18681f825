package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/signal"
	"slices"
	"time"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/tripletloss"
	"github.com/oe-lab/oe/lib/triplets"
)

// gpuCase is one input of the GPU suite (bench/gpu.md): the paper's dataset
// and the one that stands in for it where the GPU machine has no copy.
type gpuCase struct {
	name, standsIn, note string
	dataset              string
	opt                  datasets.Options
	dim                  int
	// target is issue #16's time target (bench/gpu.md), for the summary line.
	target time.Duration
}

var gpuCases = []gpuCase{
	{name: "mnist", dataset: "fmnist", standsIn: "MNIST",
		note: "Fashion-MNIST stands in for MNIST (same shape, 60,000 × 784; the GPU machine has no MNIST copy)",
		dim:  50, target: 20 * time.Second},
	{name: "covtype", dataset: "uniform", standsIn: "COVTYPE", opt: datasets.Options{N: 581_012, Dim: 54},
		note: "synthetic uniform [0,10]^54, 581,012 points, stands in for COVTYPE (same size and dimension; no COVTYPE copy)",
		dim:  30, target: 3 * time.Minute},
}

// gpuSuiteCommand runs SOE (or alg) to the paper's stopping rule on the
// cuda backend for each case, with triplets (λ = 2) drawn on the GPU, and
// prints time, test triplet error, kNN error where there are labels, and
// device memory; then a short run with every kernel timed.
func gpuSuiteCommand(alg string, names []string, profileEpochs int, seed uint64) error {
	a, err := embed.New(alg, nil)
	if err != nil {
		return err
	}
	if profileEpochs < 0 {
		return usageErrorf("--profile-epochs must be ≥ 0, got %d", profileEpochs)
	}
	info, err := embed.Lookup(alg)
	if err != nil {
		return err
	}
	// Before loading hundreds of MB of data: fail at once where CUDA cannot run.
	if err := info.Available(embed.BackendCUDA); err != nil {
		return err
	}
	ran := 0
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for _, gc := range gpuCases {
		if !slices.Contains(names, gc.name) {
			continue
		}
		ran++
		if err := runGPUCase(ctx, a, gc, profileEpochs, seed); err != nil {
			return fmt.Errorf("%s: %w", gc.name, err)
		}
	}
	if ran == 0 {
		return usageErrorf("--suite names none of: mnist, covtype")
	}
	return nil
}

func runGPUCase(ctx context.Context, alg embed.Algorithm, gc gpuCase, profileEpochs int, seed uint64) error {
	opt := gc.opt
	opt.Seed = seed
	loadStart := time.Now()
	ds, err := datasets.Load(gc.dataset, opt)
	if err != nil {
		return err
	}
	x := ds.X
	n, dataDim := x.Dims()
	m := triplets.Count(2, n, gc.dim)
	fmt.Printf("== %s size: %s\n", gc.standsIn, gc.note)
	fmt.Printf("   n=%d, data dim %d, embedding dim %d, λ=2: %d training triplets drawn on the GPU; data loaded in %v\n",
		n, dataDim, gc.dim, m, roundDuration(time.Since(loadStart)))
	run := tripletloss.GPURun{Data: x, M: m, TripletSeed: seed + 1}
	// The stopping rule's checks go to stderr as they come, so that a run
	// stopped by a time limit still shows how far it got.
	progress := func(e embed.Epoch) {
		if !math.IsNaN(e.TrainError) {
			fmt.Fprintf(os.Stderr, "   epoch %d: loss %.5g, training error %.4f, %v\n",
				e.Epoch, e.Loss, e.TrainError, roundDuration(e.Elapsed))
		}
	}
	res, rep, err := tripletloss.FitGPU(ctx, alg, embed.Problem{Dim: gc.dim}, embed.Options{Seed: seed, Progress: progress}, run)
	if err != nil {
		return err
	}
	test, err := triplets.Random(x, 10_000, triplets.Noise{}, seed+2, 0)
	if err != nil {
		return err
	}
	testErr := metrics.TripletError(res.Embedding, test)
	fmt.Printf("   device: %s\n", rep.Device)
	fmt.Printf("   %s: %d epochs (%s); fit %v (drawing the triplets %v, then training), time to converge %v; target ≤ %v\n",
		alg.Name(), res.Epochs, res.StopReason, roundDuration(res.Elapsed), roundDuration(rep.Generate),
		roundDuration(res.TimeToConverge), gc.target)
	fmt.Printf("   test triplet error %.4f (10,000 fresh noiseless triplets)", testErr)
	if ds.Labels != nil {
		knn, err := metrics.KNNError(res.Embedding, ds.Labels, seed+3)
		if err != nil {
			return err
		}
		fmt.Printf(", kNN error %.4f", knn)
	}
	fmt.Println()
	fmt.Printf("   GPU memory: peak %s in oe's buffers, %s in use on the device during training\n",
		gib(rep.PeakAllocated), gib(rep.DeviceUsed))
	if profileEpochs == 0 {
		return nil
	}
	// A separate run times each kernel: the events and the wait after each
	// launch slow it down, so the fit above stays untimed.
	popt := embed.Options{Seed: seed, MaxEpochs: profileEpochs, Stop: embed.DefaultStopRule()}
	popt.Stop.Disabled = true
	run.Timing = true
	pres, prep, err := tripletloss.FitGPU(ctx, alg, embed.Problem{Dim: gc.dim}, popt, run)
	if err != nil {
		return fmt.Errorf("timing run: %w", err)
	}
	fmt.Printf("   kernel times over %d timed epochs (each launch waited for; %v in all):\n", pres.Epochs, roundDuration(pres.Elapsed))
	for _, k := range prep.Kernels {
		fmt.Printf("     %-16s %7d calls %10.1f ms  %8.3f ms/call  %9.1f ms/epoch\n", k.Name, k.Calls,
			ms(k.Total), ms(k.Total)/float64(k.Calls), ms(k.Total)/float64(max(1, pres.Epochs)))
	}
	return nil
}

func gib(b int64) string { return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30)) }
