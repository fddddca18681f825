package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"

	_ "github.com/oe-lab/oe/lib/algorithms"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/tripletloss"
	"github.com/oe-lab/oe/lib/triplets"
)

func init() {
	register("embed", command{
		summary: "learn an embedding from a triplet file with a passive method (soe, ste, tste, cklx, ...)",
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

func embedCommand(args []string) error {
	fs := newFlags("embed", "--algorithm soe --dim 2 --triplets t.csv|t.npy [--n N] --out emb.csv|emb.npy")
	algName := fs.String("algorithm", "soe", "method: "+strings.Join(embed.Names(), ", "))
	dim := fs.Int("dim", 2, "embedding dimension d")
	tripPath := fs.String("triplets", "", "training triplets, .csv or .npy (required)")
	n := fs.Int("n", 0, "number of items (0: from the file, else the largest index + 1)")
	out := fs.String("out", "", "output embedding, .csv or .npy (float64, n×d) (required)")
	seed := fs.Uint64("seed", 1, "random seed (same seed and --threads, same result)")
	epochs := fs.Int("epochs", 0, "maximum number of epochs (0: the method's default; the stopping rule may end sooner)")
	lr := fs.Float64("lr", 0, "learning rate (0: the method's default, 1 for SOE/STE/t-STE/CKL-x)")
	batch := fs.Int("batch", 0, "batch size in triplets (0: min(#triplets, 1,000,000))")
	threads := fs.Int("threads", 0, "worker threads (0: all cores)")
	backend := fs.String("backend", "cpu", "cpu, cuda (alias gpu: soe, ste, tste, cklx, oenn on an NVIDIA GPU, in a binary built by make cuda) "+
		"or auto (cuda where the method and this binary and machine support it, else cpu)")
	noStop := fs.Bool("no-stop", false, "run all --epochs, ignoring the stopping rule")
	quiet := fs.Bool("quiet", false, "no progress bar")
	extendModel := fs.String("extend", "", "OENN model file: embed the new items of --triplets with the out-of-sample extension")
	saveModel := fs.String("save-model", "", "with --algorithm oenn: save the trained network here (for --extend)")
	params := paramFlags{}
	fs.Var(params, "param", "method hyper-parameter name=value, repeatable (e.g. mu=0.1 for cklx, alpha=3 for tste)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *tripPath == "" || *out == "" {
		fs.Usage()
		return errors.New("--triplets and --out are required")
	}
	if *extendModel != "" {
		return runExtend(*extendModel, *tripPath, *out, *seed, *epochs)
	}
	switch {
	case *dim < 1:
		return fmt.Errorf("--dim must be ≥ 1, got %d", *dim)
	case *n < 0:
		return fmt.Errorf("--n must be ≥ 0, got %d", *n)
	case *epochs < 0:
		return fmt.Errorf("--epochs must be ≥ 0, got %d", *epochs)
	case *batch < 0:
		return fmt.Errorf("--batch must be ≥ 0, got %d", *batch)
	case *threads < 0:
		return fmt.Errorf("--threads must be ≥ 0, got %d", *threads)
	case math.IsNaN(*lr) || math.IsInf(*lr, 0) || *lr < 0:
		return fmt.Errorf("--lr must be finite and ≥ 0, got %v", *lr)
	}
	info, err := embed.Lookup(*algName)
	if err != nil {
		return err
	}
	if info.Active {
		return fmt.Errorf("%s is an active method: it queries an oracle and cannot learn from a triplet file", info.Name)
	}
	// Resolved and checked before the triplets are read, so that a backend
	// that cannot run fails at once, saying why.
	be, err := info.ResolveBackend(*backend)
	if err != nil {
		return err
	}
	if err := info.Available(be); err != nil {
		return err
	}
	alg, err := embed.New(info.Name, embed.Params(params))
	if err != nil {
		return err
	}
	train, err := triplets.ReadFile(*tripPath, *n)
	if err != nil {
		return err
	}

	opt := embed.Options{Seed: *seed, MaxEpochs: *epochs, LearningRate: *lr, BatchSize: *batch, Threads: *threads, Backend: be}
	if *noStop {
		opt.Stop = embed.DefaultStopRule()
		opt.Stop.Disabled = true
	}
	var bar *progressBar
	if !*quiet {
		total := *epochs
		if total == 0 {
			// The methods' own cap; nominal for methods with another default.
			total = tripletloss.DefaultMaxEpochs
		}
		bar = newProgressBar(os.Stderr, info.Name, total, !*noStop)
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
	res, err := alg.Fit(ctx, embed.Problem{N: *n, Dim: *dim, Train: train}, opt)
	if bar != nil && res != nil && len(res.Trace) > 0 {
		last := res.Trace[len(res.Trace)-1]
		bar.Finish(last.Epoch, fmt.Sprintf("loss %.4g  %s", last.Loss, res.StopReason))
	} else if bar != nil {
		fmt.Fprintln(os.Stderr)
	}
	if err != nil {
		return err
	}
	if err := embed.WriteEmbedding(*out, res.Embedding); err != nil {
		return err
	}
	if *saveModel != "" {
		if err := saveOENNModel(alg, *saveModel); err != nil {
			return err
		}
	}
	rows, _ := res.Embedding.Dims()
	fmt.Fprintf(os.Stderr, "%s on %s: %d items in %d dimensions from %d triplets: %d epochs (%s), %v (time to converge %v) → %s\n",
		info.Name, be, rows, *dim, train.Len(), res.Epochs, res.StopReason,
		roundDuration(res.Elapsed), roundDuration(res.TimeToConverge), *out)
	return nil
}

func formatErr(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%.4f", v)
}
