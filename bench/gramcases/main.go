// Command gramcases fits methods on the cases of issue #21 where the
// Gram-matrix methods went wrong, and prints a Markdown table of test error
// and fit time, one row per case, method, optimiser and seed:
//
//   - gmm: n = 100 points of lib/datasets' gmm, d = 2, 200,000 training
//     triplets with Bernoulli noise 0.15 and 10,000 noiseless test
//     triplets, drawn as `oerun triplets --dataset gmm --n 100 --count
//     200000 --noise bernoulli --level 0.15 --seed S --test-count 10000`
//     draws them;
//
//   - char2: all of CHAR, d = 2, λ = 1, Bernoulli noise 0.1, 10,000 test
//     triplets, likewise (`oerun triplets --dataset char --dim 2 --lambda 1
//     --noise bernoulli --level 0.1 --seed S --test-count 10000`);
//
//   - material: the material similarity comparisons (Lagunas et al.,
//     lib/datasets' material), trained on every vote in its majority's
//     orientation (MajorityVote: the peers' 92,892 triplets, peers.tsv in
//     the shared data) and scored by the dataset authors' majority test
//     error (lib/metrics' MajorityError: the fraction of the 2,738 untied
//     test queries whose majority answer the embedding violates).
//
//     OE_DATA=../shared/data go run ./bench/gramcases -cases gmm,char2,material \
//     -methods gnmdsx,cklx,gnmds,ckl -optimizers adam,lbfgs -seeds 1,2,3
//
// A method "name:param=value" sets a parameter (e.g. cklx:mu=1e-6). A method
// that does not take an optimiser is run with its own only (once). It stores
// nothing; fit times are wall seconds on whatever else the machine runs.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/triplets"
)

// problem is one case at one seed: training and test triplets, d, and the
// test measure.
type problem struct {
	train, test *triplets.Set
	dim         int
	score       func(emb *mat.Dense, test *triplets.Set) float64
}

func main() {
	cases := flag.String("cases", "gmm,char2,material", "comma-separated cases: gmm, char2, material")
	methods := flag.String("methods", "gnmdsx,cklx,gnmds,ckl", "comma-separated methods, name or name:param=value[:param=value]")
	optimizers := flag.String("optimizers", "adam,lbfgs", "comma-separated optimisers to try for each method that takes them")
	seeds := flag.String("seeds", "1,2,3", "comma-separated seeds (data and triplets; the fit's seed is 1)")
	threads := flag.Int("threads", 0, "threads per fit (0: all cores)")
	flag.Parse()
	fmt.Println("| case | seed | method | optimizer | test error | fit (s) | epochs (stop) |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, c := range strings.Split(*cases, ",") {
		for _, s := range strings.Split(*seeds, ",") {
			seed, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				log.Fatalf("gramcases: seed %q: %v", s, err)
			}
			p, err := load(c, seed)
			if err != nil {
				log.Fatal(err)
			}
			for _, m := range strings.Split(*methods, ",") {
				name, params, err := embed.ParseMethod(m)
				if err != nil {
					log.Fatal(err)
				}
				info, err := embed.Lookup(name)
				if err != nil {
					log.Fatal(err)
				}
				for _, o := range strings.Split(*optimizers, ",") {
					opt := embed.Optimizer(o)
					if !slices.Contains(info.Optimizers, opt) {
						if o != strings.Split(*optimizers, ",")[0] {
							continue // its own optimiser, run once
						}
						opt = ""
					}
					fit(c, seed, m, name, params, opt, p, *threads)
				}
			}
			if c == "material" {
				break // one data set: the seeds would repeat it
			}
		}
	}
}

// fit runs one method and prints its row.
func fit(c string, seed uint64, label, name string, params embed.Params, opt embed.Optimizer, p problem, threads int) {
	alg, err := embed.New(name, params)
	if err != nil {
		log.Fatal(err)
	}
	res, err := alg.Fit(context.Background(), embed.Problem{Dim: p.dim, Train: p.train},
		embed.Options{Seed: 1, Threads: threads, Optimizer: opt})
	shown := string(opt)
	if shown == "" {
		shown = "own"
	}
	if err != nil {
		fmt.Printf("| %s | %d | %s | %s | failed: %v | | |\n", c, seed, label, shown, err)
		return
	}
	fmt.Printf("| %s | %d | %s | %s | %.4f | %.2f | %d (%s) |\n", c, seed, label, shown,
		p.score(res.Embedding, p.test), res.Elapsed.Seconds(), res.Epochs, res.StopReason)
}

// load builds a case at a seed.
func load(c string, seed uint64) (problem, error) {
	switch c {
	case "gmm":
		return drawn("gmm", 100, 2, 200_000, triplets.Noise{Model: triplets.Bernoulli, Level: 0.15}, seed)
	case "char2":
		return drawn("char", 0, 2, 0, triplets.Noise{Model: triplets.Bernoulli, Level: 0.1}, seed)
	case "material":
		return material()
	}
	return problem{}, fmt.Errorf("gramcases: unknown case %q (gmm, char2, material)", c)
}

// drawn draws m training triplets (0: λ = 1's count) with noise and 10,000
// noiseless test triplets over n items of a dataset (0: all), as oerun
// triplets does with --seed seed.
func drawn(name string, n, dim, m int, noise triplets.Noise, seed uint64) (problem, error) {
	ds, err := datasets.Load(name, datasets.Options{N: n, Seed: seed})
	if err != nil {
		return problem{}, err
	}
	items, _ := ds.X.Dims()
	if m == 0 {
		m = triplets.Count(1, items, dim)
	}
	train, err := triplets.Random(ds.X, m, noise, seed, 0)
	if err != nil {
		return problem{}, err
	}
	test, err := triplets.Random(ds.X, 10_000, triplets.Noise{}, triplets.HeldOutSeed(seed), 0)
	if err != nil {
		return problem{}, err
	}
	return problem{train: train, test: test, dim: dim, score: metrics.TripletError}, nil
}

// material loads the material comparisons: training triplets, every vote
// in its majority's orientation, and the test votes, scored by the
// majority test error.
func material() (problem, error) {
	c, err := datasets.LoadComparisons("material")
	if err != nil {
		return problem{}, err
	}
	train := c.Triplets(c.Train, datasets.MajorityVote)
	if train.Len() != 92_892 {
		return problem{}, fmt.Errorf("gramcases: material: %d training triplets, want the peers' 92,892", train.Len())
	}
	return problem{train: train, test: c.Triplets(c.Test, datasets.EachVote), dim: 2, score: metrics.MajorityError}, nil
}
