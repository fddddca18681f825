package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/metrics"
	"github.com/oe-lab/oe/lib/oenn"
	"github.com/oe-lab/oe/lib/tripletloss"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("embed", command{
		summary: "learn an embedding: from a triplet file, or from a dataset or points (every method, active ones included)",
		run:     embedCommand,
	})
}

// paramFlags collects repeated --param name=value flags.
type paramFlags embed.Params

func (p paramFlags) String() string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%g", k, p[k])
	}
	return strings.Join(parts, ",")
}

func (p paramFlags) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return fmt.Errorf("parameter %s: %w", name, err)
	}
	p[name] = v
	return nil
}

// embedFlags are oerun embed's flags.
type embedFlags struct {
	fs                                *flag.FlagSet
	src                               *sourceFlags
	algorithm, tripletPath, out, test string
	backend, extendModel, saveModel   string
	optimizer                         string
	dim, epochs, batch, threads       int
	seed                              uint64
	lr                                float64
	noStop, json                      bool
	params                            paramFlags
	columns                           *columnsFlag
}

const embedSynopsis = "--algorithm NAME --dim d (--triplets t.csv|t.npy | --dataset NAME | --points x.npy) [--test test.npy] [--json] --out emb.csv|emb.npy\n" +
	"       (a triplet file of named items, or of people's answers, gives an embedding with the names: CSV name column, or .npy with X.names.txt)"

func newEmbedFlags() *embedFlags {
	fs := newFlags("embed", embedSynopsis)
	f := &embedFlags{fs: fs, params: paramFlags{}}
	fs.StringVar(&f.algorithm, "algorithm", "soe", "method, passive or active (oerun algorithms lists them): "+strings.Join(embed.Names(), ", "))
	fs.IntVar(&f.dim, "dim", 2, "embedding dimension d (also the d of the λ·n·d·log₂ n triplets drawn from --dataset or --points)")
	fs.StringVar(&f.tripletPath, "triplets", "", "training triplets of a passive method, .csv or .npy; a CSV's items may be names, or its rows answers (head,left,right,answer)")
	f.src = addSourceFlags(fs, "number of items: with --dataset a seeded subsample (0: the paper's size); "+
		"with --triplets the items the indices refer to (0: the file's \"# n=N\" line, else the largest index + 1)")
	fs.StringVar(&f.out, "out", "", "output embedding, .csv or .npy (float64, n×d)")
	fs.StringVar(&f.test, "test", "", "test triplets (.csv or .npy) over the same items: prints their triplet error (and the majority error where queries were answered more than once)")
	fs.BoolVar(&f.json, "json", false, "print a JSON summary (metric names as in results.db) on stdout instead of text")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed of the dataset's subsample, the triplets or oracle, and the fit (same seed, same result on CPU)")
	fs.IntVar(&f.epochs, "epochs", 0, "maximum number of epochs (0: the method's default; the stopping rule may end sooner)")
	fs.Float64Var(&f.lr, "lr", 0, "learning rate (0: the method's default, 1 for SOE/STE/t-STE/CKL-x)")
	fs.IntVar(&f.batch, "batch", 0, "batch size in triplets (0: min(#triplets, 1,000,000))")
	fs.IntVar(&f.threads, "threads", 0, "worker threads (0: all cores)")
	fs.StringVar(&f.backend, "backend", "cpu", "cpu, cuda (alias gpu: soe, ste, tste, cklx, gnmdsx, oenn on an NVIDIA GPU, in a binary built by make cuda) "+
		"or auto (cuda where the method and this binary and machine support it, else cpu)")
	fs.StringVar(&f.optimizer, "optimizer", "", "adam (batches, the paper's) or lbfgs (full batch, CPU only; one iteration is an epoch): "+
		"soe, ste, tste, cklx, gnmdsx take both (empty: the method's default, adam; oerun algorithms lists each method's)")
	fs.BoolVar(&f.noStop, "no-stop", false, "run all --epochs, ignoring the stopping rule")
	fs.StringVar(&f.extendModel, "extend", "", "OENN model file: embed the new items of --triplets with the out-of-sample extension")
	fs.StringVar(&f.saveModel, "save-model", "", "with --algorithm oenn: save the trained network here (for --extend)")
	fs.Var(f.params, "param", "method hyper-parameter name=value, repeatable (e.g. mu=0.1 for cklx, alpha=3 for tste; oerun algorithms lists them)")
	f.columns = addColumnsFlag(fs)
	return f
}

// check validates the flags before anything is read or computed.
func (f *embedFlags) check() error {
	if err := noArgs(f.fs); err != nil {
		return err
	}
	sources := 0
	for _, s := range []string{f.tripletPath, f.src.dataset, f.src.points} {
		if s != "" {
			sources++
		}
	}
	switch {
	case f.out == "":
		return usageErrorf("--out is required")
	case sources != 1:
		return usageErrorf("give one of --triplets, --dataset and --points")
	case f.dim < 1:
		return usageErrorf("--dim must be ≥ 1, got %d", f.dim)
	case f.epochs < 0:
		return usageErrorf("--epochs must be ≥ 0, got %d", f.epochs)
	case f.batch < 0:
		return usageErrorf("--batch must be ≥ 0, got %d", f.batch)
	case f.threads < 0:
		return usageErrorf("--threads must be ≥ 0, got %d", f.threads)
	case math.IsNaN(f.lr) || math.IsInf(f.lr, 0) || f.lr < 0:
		return usageErrorf("--lr must be finite and ≥ 0, got %v", f.lr)
	case f.tripletPath != "" && f.src.n < 0:
		return usageErrorf("--n must be ≥ 0, got %d", f.src.n)
	}
	if f.src.given() {
		return f.src.check()
	}
	for _, name := range []string{"lambda", "count", "noise", "level", "data-dim", "pca"} {
		if set(f.fs, name) {
			return usageErrorf("--%s draws triplets from --dataset or --points, not from --triplets", name)
		}
	}
	return nil
}

// embedSummary is what oerun embed --json prints; the metric names are
// those of results.db (README, "The results.db schema").
type embedSummary struct {
	Algorithm       string   `json:"algorithm"`
	Backend         string   `json:"backend"`
	Optimizer       string   `json:"optimizer,omitempty"`
	Source          string   `json:"source"`
	Items           int      `json:"items"`
	Dim             int      `json:"dim"`
	Triplets        int      `json:"triplets,omitempty"`
	Queries         int64    `json:"queries,omitempty"`
	Epochs          int      `json:"epochs"`
	StopReason      string   `json:"stop_reason"`
	FitSeconds      float64  `json:"fit_seconds"`
	ConvergeSeconds float64  `json:"converge_seconds"`
	TrainError      *float64 `json:"train_error,omitempty"`
	TestError       *float64 `json:"test_error,omitempty"`
	TestTriplets    int      `json:"test_triplets,omitempty"`
	// MajorityTestError is metrics.MajorityError over TestQueries untied
	// queries, where the test set repeats queries (answers people gave).
	MajorityTestError *float64 `json:"majority_test_error,omitempty"`
	TestQueries       int      `json:"test_queries,omitempty"`
	Out               string   `json:"out"`
}

func embedCommand(args []string) error {
	f := newEmbedFlags()
	if err := f.fs.Parse(args); err != nil {
		return err
	}
	if f.extendModel != "" {
		if err := noArgs(f.fs); err != nil {
			return err
		}
		if f.tripletPath == "" || f.out == "" {
			return usageErrorf("--extend needs --triplets and --out")
		}
		return runExtend(f.extendModel, f.tripletPath, f.out, f.seed, f.epochs, stderr(f.fs))
	}
	if err := f.check(); err != nil {
		return err
	}
	info, err := embed.Lookup(f.algorithm)
	if err != nil {
		return err
	}
	switch {
	case info.Active && f.tripletPath != "":
		return usageErrorf("%s is an active method: it asks an oracle for the triplets it needs; give --dataset or --points instead of --triplets", info.Name)
	case info.Active && (set(f.fs, "lambda") || set(f.fs, "count")):
		return usageErrorf("%s is an active method: how many queries it asks is its own (e.g. --param multiplier=2), not --lambda or --count", info.Name)
	}
	// Resolved and checked before anything is read, so that an optimiser or
	// a backend that cannot run fails at once, saying why.
	optimizer, err := info.ResolveOptimizer(f.optimizer)
	if err != nil {
		return err
	}
	be, err := info.ResolveBackendFor(f.backend, optimizer)
	if err != nil {
		return err
	}
	if requested, _ := embed.ParseBackend(f.backend); requested == embed.BackendAuto && be == embed.BackendCPU &&
		info.Backends[embed.BackendCUDA] != nil && !quiet(f.fs) {
		why := fmt.Sprintf("%s runs on the CPU only", optimizer)
		if !optimizer.CPUOnly() {
			why = fmt.Sprint(info.Available(embed.BackendCUDA))
		}
		fmt.Fprintf(os.Stderr, "oerun embed: --backend auto: %s, so %s runs on cpu\n", why, info.Name)
	}
	if err := info.Available(be); err != nil {
		return err
	}
	alg, err := embed.New(info.Name, embed.Params(f.params))
	if err != nil {
		return err
	}
	if err := checkOutput("out", f.out, matrixExts); err != nil {
		return err
	}
	if f.saveModel != "" {
		if _, ok := alg.(*oenn.OENN); !ok {
			return usageErrorf("--save-model: %s has no model to save (only oenn has)", info.Name)
		}
		if err := checkOutput("save-model", f.saveModel, nil); err != nil {
			return err
		}
	}
	prob, source, test, err := f.problem(info)
	if err != nil {
		return err
	}
	var names []string
	if prob.Train != nil {
		names = prob.Train.Names
	}
	if f.test != "" {
		if test, err = readTest(f.test, prob.Items(), names, source, f.columns); err != nil {
			return err
		}
	}

	opt := embed.Options{Seed: f.seed, MaxEpochs: f.epochs, LearningRate: f.lr, BatchSize: f.batch, Threads: f.threads, Backend: be,
		Optimizer: optimizer}
	if f.noStop {
		opt.Stop = embed.DefaultStopRule()
		opt.Stop.Disabled = true
	}
	var bar *epochBar
	if !quiet(f.fs) {
		total := f.epochs
		switch {
		case info.Active:
			total = 0 // LOE and LLOE report no epochs while they run
		case total == 0:
			// The methods' own cap; nominal for methods with another default.
			total = tripletloss.DefaultMaxEpochs
		}
		bar = newEpochBar(os.Stderr, info.Name, total, !f.noStop)
		if total == 0 {
			bar.Update(0, "running")
		}
		lastErr := math.NaN()
		opt.Progress = func(e embed.Epoch) {
			if !math.IsNaN(e.TrainError) {
				lastErr = e.TrainError
			}
			bar.Update(e.Epoch, fmt.Sprintf("loss %.4g  train err %s", e.Loss, formatErr(lastErr)))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := alg.Fit(ctx, prob, opt)
	if bar != nil {
		if res != nil && len(res.Trace) > 0 {
			last := res.Trace[len(res.Trace)-1]
			bar.Finish(last.Epoch, fmt.Sprintf("loss %.4g  %s", last.Loss, res.StopReason))
		} else if res != nil {
			bar.Finish(res.Epochs, fmt.Sprintf("%d epochs, %s", res.Epochs, res.StopReason))
		} else {
			bar.Finish(0, "failed")
		}
	}
	if err != nil {
		return err
	}

	rows, _ := res.Embedding.Dims()
	sum := embedSummary{Algorithm: info.Name, Backend: be.String(), Optimizer: optimizer.String(), Source: source, Items: rows, Dim: f.dim, Queries: res.Queries,
		Epochs: res.Epochs, StopReason: res.StopReason.String(), FitSeconds: res.Elapsed.Seconds(), ConvergeSeconds: res.TimeToConverge.Seconds(), Out: f.out}
	if prob.Train != nil {
		sum.Triplets = prob.Train.Len()
		e := metrics.TripletError(res.Embedding, prob.Train)
		sum.TrainError = &e
	}
	if test != nil {
		sc := scoreTest(res.Embedding, test)
		sum.TestError, sum.TestTriplets, sum.MajorityTestError, sum.TestQueries = sc.err, sc.triplets, sc.majority, sc.untied
	}
	outs := []output{{f.out, func() error { return embed.WriteNamedEmbedding(f.out, res.Embedding, names) }}}
	if f.saveModel != "" {
		outs = append(outs, output{f.saveModel, func() error { return saveOENNModel(alg, f.saveModel) }})
	}
	if err := writeAll(outs); err != nil {
		return err
	}
	input := fmt.Sprintf("%d triplets", sum.Triplets)
	if info.Active {
		input = fmt.Sprintf("%d oracle queries", sum.Queries)
	}
	fmt.Fprintf(stderr(f.fs), "%s on %s: %d items of %s in %d dimensions from %s: %d epochs (%s), %v (time to converge %v) → %s\n",
		info.Name, be, rows, source, f.dim, input, res.Epochs, res.StopReason,
		roundDuration(res.Elapsed), roundDuration(res.TimeToConverge), f.out)
	if f.json {
		return printJSON(os.Stdout, sum)
	}
	if info.Active {
		fmt.Printf("queries      %d\n", sum.Queries)
	}
	if sum.TrainError != nil {
		fmt.Printf("train error  %.4f  (%d training triplets)\n", *sum.TrainError, sum.Triplets)
	}
	if sum.TestError != nil {
		fmt.Printf("test error   %.4f  (%d triplets of %s)\n", *sum.TestError, sum.TestTriplets, orDefault(f.test, source+"'s test comparisons"))
	}
	if sum.MajorityTestError != nil {
		fmt.Printf("majority     %.4f  (test queries without a tie whose majority answer the embedding violates, of %d)\n", *sum.MajorityTestError, sum.TestQueries)
	}
	return nil
}

// orDefault returns s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// problem reads or draws what the method learns from: the training
// triplets (passive) or an oracle (active), and names where they came
// from. A dataset of comparisons brings its own training triplets and its
// test comparisons, which it returns as test.
func (f *embedFlags) problem(info embed.Info) (p embed.Problem, source string, test *triplets.Set, err error) {
	p = embed.Problem{Dim: f.dim}
	if f.tripletPath != "" {
		train, _, err := readTriplets(f.tripletPath, f.src.n, f.columns)
		if err != nil {
			return p, "", nil, err
		}
		p.N, p.Train = f.src.n, train
		return p, f.tripletPath, nil, nil
	}
	if isComparisons(f.src.dataset) {
		if info.Active {
			return p, "", nil, usageErrorf("%s is an active method: it asks about points, and %s is a dataset of comparisons people answered", info.Name, f.src.dataset)
		}
		if err := checkComparisonsFlags(f.fs, f.src.dataset, "test"); err != nil {
			return p, "", nil, err
		}
		c, err := datasets.LoadComparisons(f.src.dataset)
		if err != nil {
			return p, "", nil, err
		}
		p.Train = c.Triplets(c.Train, datasets.EachVote)
		return p, c.Name, c.Triplets(c.Test, datasets.EachVote), nil
	}
	it, err := f.src.load(f.seed)
	if err != nil {
		return p, "", nil, err
	}
	n, _ := it.x.Dims()
	p.N = n
	if info.Active {
		p.Oracle, err = triplets.NewOracle(it.x, f.src.noiseModel(), f.seed)
		return p, it.name, nil, err
	}
	m, _ := f.src.tripletCount(n, f.dim)
	if m < 1 {
		return p, "", nil, fmt.Errorf("%s: %d items give no triplets", it.name, n)
	}
	p.Train, err = triplets.Random(it.x, m, f.src.noiseModel(), f.seed, f.threads)
	if err != nil {
		return p, "", nil, fmt.Errorf("%s: %w", it.name, err)
	}
	return p, it.name, nil, nil
}

func formatErr(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.4f", v)
}

// printJSON writes v as indented JSON and a newline.
func printJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// saveOENNModel saves the network that alg, an OENN that has been fitted,
// trained; `oerun embed --save-model path` calls it after Fit.
func saveOENNModel(alg embed.Algorithm, path string) error {
	o, ok := alg.(*oenn.OENN)
	if !ok {
		return fmt.Errorf("--save-model: only oenn has a model to save, not %s", alg.Name())
	}
	m := o.Model()
	if m == nil {
		return errors.New("--save-model: oenn has no trained model (Fit did not succeed)")
	}
	return m.Save(path)
}
