package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/tripletloss"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("bench", command{
		summary: "time full training epochs of the triplet-loss kernel at CHAR and USPS sizes",
		run:     benchCommand,
	})
}

// benchSizes are the reference inputs: CHAR with d = 30 and USPS with
// d = 50, each at its paper size (lib/datasets) with λ = 2, i.e.
// triplets.Count(2, n, d) triplets (1,165,683 and 9,355,740), as the
// experiments generate them.
var benchSizes = []struct {
	name string
	d    int
}{{"char", 30}, {"usps", 50}}

func benchCommand(args []string) error {
	fs := newFlags("bench", "[--algorithm soe] [--sizes char,usps] [--epochs 5] [--threads N] | --gpu-suite [--suite mnist,covtype]")
	algName := fs.String("algorithm", "soe", "triplet-loss method: soe, ste, tste or cklx")
	sizes := fs.String("sizes", "char,usps", "comma-separated inputs to time: char, usps")
	epochs := fs.Int("epochs", 5, "timed epochs per size (after one warm-up epoch)")
	threads := fs.Int("threads", 0, "worker threads (0: all cores)")
	seed := fs.Uint64("seed", 1, "seed of the synthetic triplets and embedding")
	gpuSuite := fs.Bool("gpu-suite", false, "instead: the GPU targets of bench/gpu.md (SOE to the stopping rule at MNIST and COVTYPE size on the cuda backend)")
	suite := fs.String("suite", "mnist,covtype", "with --gpu-suite: which of mnist, covtype to run")
	profileEpochs := fs.Int("profile-epochs", 3, "with --gpu-suite: epochs of the per-kernel timing run after each fit (0: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if *gpuSuite {
		return gpuSuiteCommand(*algName, strings.Split(*suite, ","), *profileEpochs, *seed)
	}
	if *epochs < 1 {
		return usageErrorf("--epochs must be ≥ 1, got %d", *epochs)
	}
	if *threads < 0 {
		return usageErrorf("--threads must be ≥ 0, got %d", *threads)
	}
	alg, err := embed.New(*algName, nil)
	if err != nil {
		return err
	}
	nthreads := *threads
	if nthreads == 0 {
		nthreads = runtime.GOMAXPROCS(0)
	}
	want := strings.Split(*sizes, ",")
	ran := 0
	fmt.Printf("%s, %d threads, %d epochs each (median, min); synthetic uniform triplets\n", alg.Name(), nthreads, *epochs)
	for _, sz := range benchSizes {
		if !slices.Contains(want, sz.name) {
			continue
		}
		ran++
		spec, err := datasets.Lookup(sz.name)
		if err != nil {
			return err
		}
		n := spec.N
		m := triplets.Count(2, n, sz.d)
		times, err := tripletloss.EpochTimes(alg, n, sz.d, m, *epochs, *seed, nthreads)
		if err != nil {
			return err
		}
		slices.Sort(times)
		med := times[len(times)/2]
		fmt.Printf("%-5s n=%-5d d=%-3d m=%-9d %9.2f ms/epoch (min %.2f)  %6.1f Mtriplets/s\n",
			sz.name, n, sz.d, m, ms(med), ms(times[0]), float64(m)/med.Seconds()/1e6)
	}
	if ran == 0 {
		return usageErrorf("--sizes names none of: char, usps")
	}
	fmt.Fprintln(stderr(fs), "compare: make -C bench/baseline run (the plain C loop, same work)")
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
