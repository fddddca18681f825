package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/oe-lab/oe/lib/crossval"
	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("cv", command{
		summary: "choose a method and dimension d by cross-validation: held-out triplet error per method and d, the best d and the smallest within one standard error",
		run:     cvCommand,
	})
}

// cvSummary is what oerun cv --json prints.
type cvSummary struct {
	Source   string    `json:"source"`
	Triplets int       `json:"triplets"`
	Queries  int       `json:"queries"`
	Folds    int       `json:"folds"`
	By       string    `json:"by"`
	Seed     uint64    `json:"seed"`
	Cells    []cvCell  `json:"cells"`
	Choices  []cvPick  `json:"choices"`
	Seconds  float64   `json:"seconds"` // wall time of the whole run
	Threads  int       `json:"threads"`
	Methods  []string  `json:"methods"`
	Dims     []int     `json:"dims"`
	Options  cvOptions `json:"options"`
}

type cvCell struct {
	Algorithm string `json:"algorithm"`
	Dim       int    `json:"dim"`
	// Mean, SD and SE (SD/√folds) of the folds' held-out triplet errors.
	Mean       float64   `json:"mean_error"`
	SD         float64   `json:"sd"`
	SE         float64   `json:"se"`
	Errors     []float64 `json:"fold_errors"`
	FitSeconds float64   `json:"fit_seconds"` // mean over the folds
}

type cvPick struct {
	Algorithm string `json:"algorithm"`
	BestDim   int    `json:"best_dim"`
	OneSEDim  int    `json:"one_se_dim"`
}

type cvOptions struct {
	Epochs       int     `json:"epochs,omitempty"`
	LearningRate float64 `json:"lr,omitempty"`
}

func cvCommand(args []string) error {
	fs := newFlags("cv", "[--algorithm soe,ste,tste,cklx:init=1,forte] [--dims 1,2,3,5,8] [--folds 5] [--by query|triplet] [--seed s] [--json] (FILE | --dataset material)")
	algs := fs.String("algorithm", "soe,ste,tste,cklx:init=1,forte", "passive methods to compare, comma-separated, each optionally with parameters as name:param=value (oerun algorithms lists them; cklx:init=1 starts CKL-x from SOE's embedding)")
	dimList := fs.String("dims", "1,2,3,5,8", "embedding dimensions d to try, comma-separated")
	folds := fs.Int("folds", 5, "number of folds k ≥ 2")
	by := fs.String("by", "query", "what a fold holds out: query (the head with the unordered pair of candidates: all its answers) or triplet")
	seed := fs.Uint64("seed", 1, "random seed of the folds and of every fit (same seed, same result)")
	threads := fs.Int("threads", 0, "fits run at once, each on one thread (0: all cores); the result does not depend on it")
	epochs := fs.Int("epochs", 0, "maximum number of epochs of every fit (0: each method's default; the stopping rule may end sooner)")
	lr := fs.Float64("lr", 0, "learning rate of every fit (0: each method's default)")
	n := fs.Int("n", 0, "number of numbered items of FILE (0: its \"# n=N\" line, else the largest index + 1)")
	dataset := fs.String("dataset", "", "a dataset of comparisons (material): cross-validate on its training answers")
	asJSON := fs.Bool("json", false, "print the table as JSON on stdout")
	columns := addColumnsFlag(fs)
	files, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	dims, err := parseInts(*dimList)
	if err != nil {
		return usageErrorf("--dims %s: %v", *dimList, err)
	}
	unit, byErr := triplets.ParseSplitBy(*by)
	switch {
	case len(files) > 1:
		return usageErrorf("give one triplet file, got %d", len(files))
	case (len(files) == 1) == (*dataset != ""):
		return usageErrorf("give a triplet file or --dataset, one of them")
	case *folds < 2:
		return usageErrorf("--folds must be ≥ 2, got %d", *folds)
	case byErr != nil:
		return usageErrorf("--by %s: want query or triplet", *by)
	case *threads < 0 || *epochs < 0 || *n < 0:
		return usageErrorf("--threads, --epochs and --n must be ≥ 0")
	case !(*lr >= 0):
		return usageErrorf("--lr must be ≥ 0, got %v", *lr)
	case *dataset != "" && *n != 0:
		return usageErrorf("--n applies to a triplet file")
	}
	cfg := crossval.Config{Dims: dims, Folds: *folds, By: unit, Seed: *seed, Threads: *threads,
		Fit: embed.Options{MaxEpochs: *epochs, LearningRate: *lr}}
	for _, spec := range strings.Split(*algs, ",") {
		name, params, err := embed.ParseMethod(spec)
		if err != nil {
			return usageErrorf("--algorithm: %v", err)
		}
		cfg.Methods = append(cfg.Methods, crossval.Method{Name: name, Params: params})
	}
	var s *triplets.Set
	source := *dataset
	if *dataset != "" {
		if !isComparisons(*dataset) {
			return usageErrorf("--dataset %s: cv takes a dataset of comparisons (oerun data lists them); for points, draw triplets with oerun triplets and give the file", *dataset)
		}
		c, err := datasets.LoadComparisons(*dataset)
		if err != nil {
			return err
		}
		s = c.Triplets(c.Train, datasets.EachVote)
	} else {
		source = files[0]
		if s, _, err = readTriplets(source, *n, columns); err != nil {
			return err
		}
	}
	log := stderr(fs)
	total := len(cfg.Methods) * len(cfg.Dims) * cfg.Folds
	var bar *epochBar // started by the first fit, so that a configuration Run rejects draws none
	if !quiet(fs) {
		cfg.Progress = func(p crossval.Progress) {
			if bar == nil {
				bar = newEpochBar(log, "cv", total, false)
			}
			bar.Update(p.Done, fmt.Sprintf("%s d=%d fold %d: %.4f", p.Method, p.Dim, p.Fold, p.Error))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	res, err := crossval.Run(ctx, s, cfg)
	elapsed := time.Since(start)
	if bar != nil {
		status := "done"
		if err != nil {
			status = "failed"
		}
		bar.Finish(total, status)
	}
	if err != nil {
		if source != "" {
			return fmt.Errorf("%s: %w", source, err)
		}
		return err
	}
	sum := cvSummary{Source: source, Triplets: s.Len(), Queries: len(triplets.Tallies(s)), Folds: cfg.Folds, By: unit.String(), Seed: cfg.Seed,
		Threads: *threads, Options: cvOptions{Epochs: *epochs, LearningRate: *lr}, Seconds: elapsed.Seconds()}
	for _, m := range cfg.Methods {
		sum.Methods = append(sum.Methods, m.String())
	}
	for c, cell := range res.Cells {
		if c < len(dims) {
			sum.Dims = append(sum.Dims, cell.Dim) // in increasing order
		}
		c := cell
		sum.Cells = append(sum.Cells, cvCell{Algorithm: c.Method, Dim: c.Dim, Mean: c.Mean, SD: c.SD, SE: c.SE(), Errors: c.Errors, FitSeconds: c.MeanSeconds()})
	}
	for _, ch := range res.Choices {
		sum.Choices = append(sum.Choices, cvPick{Algorithm: ch.Method, BestDim: ch.Best, OneSEDim: ch.OneSE})
	}
	if *asJSON {
		return printJSON(os.Stdout, sum)
	}
	writeCVTable(sum, res)
	return nil
}

// writeCVTable prints the cells with the best and one-SE choices marked.
func writeCVTable(sum cvSummary, res *crossval.Result) {
	fmt.Printf("held-out triplet error, %d folds by %s (seed %d), %d triplets (%d queries) of %s\n\n",
		sum.Folds, sum.By, sum.Seed, sum.Triplets, sum.Queries, sum.Source)
	width := len("method")
	for _, c := range res.Cells {
		width = max(width, len(c.Method))
	}
	fmt.Printf("%-*s %4s  %-17s  %9s\n", width, "method", "d", "error (mean ± sd)", "fit time")
	for m, ch := range res.Choices {
		for _, c := range res.Cells[m*len(sum.Dims) : (m+1)*len(sum.Dims)] {
			var marks []string
			if c.Dim == ch.Best {
				marks = append(marks, "best")
			}
			if c.Dim == ch.OneSE {
				marks = append(marks, "smallest within 1 SE")
			}
			line := fmt.Sprintf("%-*s %4d  %.4f ± %.4f  %8.2fs  %s", width, c.Method, c.Dim, c.Mean, c.SD, c.MeanSeconds(), strings.Join(marks, ", "))
			fmt.Println(strings.TrimRight(line, " "))
		}
	}
}

// parseInts reads a comma-separated list of integers.
func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", f)
		}
		out = append(out, v)
	}
	return out, nil
}
