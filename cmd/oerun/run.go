package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	_ "github.com/oe-lab/oe/lib/algorithms" // every method, by name
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/plan"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

func init() {
	register("run", command{
		summary: "run experiment scripts, executing only the runs not yet in results.db, and write their reports",
		run:     func(args []string) error { return runScripts("run", args, false) },
	})
}

// scriptFlags are the flags of run and report.
type scriptFlags struct {
	opt runner.Options
	// shard, base and budget select the runs to execute, and filter which
	// of them (plan.go).
	shard, base string
	budget      budgetFlag
	filter      plan.Filter
	// order is the order a budget executes its runs in.
	order plan.Order
}

// checkpointEveryUsage describes --checkpoint-every, of oerun run and of the
// tasks oerun slurm writes.
const checkpointEveryUsage = "write a resumable run's checkpoint at most this often: what a run killed without warning loses (one stopped by SIGTERM or Ctrl-C writes it as it stops)"

func newScriptFlags(name, synopsis string, execute bool) (*flag.FlagSet, *scriptFlags) {
	fs := newFlags(name, synopsis)
	f := &scriptFlags{order: plan.Cheapest}
	fs.StringVar(&f.opt.DB, "db", runner.DefaultDB, "results database (SQLite)")
	fs.StringVar(&f.opt.Reports, "reports", runner.DefaultReports, "folder the reports are written to")
	fs.StringVar(&f.opt.Profile, "profile", runner.DefaultProfile, "scale of the experiment: smoke, quick or paper")
	if execute {
		fs.IntVar(&f.opt.Jobs, "jobs", 0, "runs executed at once (0: one per CPU)")
		fs.IntVar(&f.opt.Threads, "threads", 0, "threads per run (0: the CPUs shared among the jobs)")
		fs.BoolVar(&f.opt.RetryFailed, "retry-failed", false, "execute runs recorded as failed again")
		fs.IntVar(&f.opt.MaxEmbedding, "max-embedding", 0, "store the embeddings and views (KeepEmbedding) of at most this many values (0: 200000, -1: none)")
		fs.DurationVar(&f.opt.CheckpointEvery, "checkpoint-every", embed.DefaultCheckpointEvery, checkpointEveryUsage)
		fs.StringVar(&f.shard, "shard", "", "execute only shard `I/N` (from 0) of the runs missing from --base, into --db (a Slurm array task's)")
		fs.StringVar(&f.base, "base", runner.DefaultDB, "with --shard: the database whose missing runs are split (read only)")
		fs.BoolVar(&f.opt.WholeRuns, "whole-runs", false, "with --budget: start only runs expected to finish within it, resumable ones too (on a machine whose checkpoints will not outlive the budget, the time a cut run would compute goes to runs that finish)")
		fs.Var(&f.budget, "budget", "execute the missing runs cheapest first (see --order) until this `duration` is spent, then write the reports (0: execute none)")
		orderFlag(fs, &f.order)
		filterFlags(fs, &f.filter)
	} else {
		fs.BoolVar(&f.opt.Force, "force", false, "replace a report even if it shows more runs, or another profile, than the rebuilt one")
	}
	return fs, f
}

// parseInterleaved parses flags that may come before, between or after the
// script paths, and returns the paths.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var scripts []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return scripts, nil
		}
		scripts = append(scripts, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func runScripts(name string, args []string, reportOnly bool) error {
	fs, f := newScriptFlags(name, "[flags] experiments/X.go ... [flags]", !reportOnly)
	scripts, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(scripts) == 0 {
		return usageErrorf("no experiment script given")
	}
	f.opt.Quiet = quiet(fs)
	if !f.filter.IsZero() && f.shard == "" && !f.budget.set {
		return usageErrorf("%s selects the runs of --budget or --shard: give one of them", f.filter)
	}
	if f.order != plan.Cheapest && !f.budget.set {
		return usageErrorf("--order %s orders the runs of --budget: give it", f.order)
	}
	if f.opt.WholeRuns && !f.budget.set {
		return usageErrorf("--whole-runs chooses the runs a --budget starts: give it")
	}
	if f.opt.CheckpointEvery <= 0 && !reportOnly {
		return usageErrorf("--checkpoint-every %v: want a positive duration", f.opt.CheckpointEvery)
	}
	// A campaign stopped by kill (SIGTERM), as by Ctrl-C, cancels its runs
	// in flight, which leave nothing but the checkpoints of resumable ones,
	// and keeps every finished one.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !reportOnly && f.shard == "" {
		if err := migrate(f.opt.DB); err != nil {
			return err
		}
	}
	if f.shard != "" || f.budget.set {
		return runPlanned(ctx, f, scripts, stderr(fs))
	}
	opt := f.opt
	opt.ReportOnly = reportOnly
	// A report states the estimated cost of the runs it lacks.
	model, err := plan.ModelFor(ctx, opt.DB)
	if err != nil {
		return err
	}
	opt.Estimate = model.Estimate
	return runEach(ctx, name, opt, scripts, stderr(fs))
}

// migrate brings the database at path that oerun run writes, if it exists,
// to the current schema (store.Open migrates), before the cost model and
// the plan read it. (A shard's database is written, not read; the one it is
// split from, --base, is the merge's to migrate.)
func migrate(path string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	return st.Close()
}

// runEach runs the scripts one after another with opt, going on after a
// script that fails; msgs receives what each did.
func runEach(ctx context.Context, name string, opt runner.Options, scripts []string, msgs io.Writer) error {
	var failed []string
	for _, script := range scripts {
		opt.Script = script
		res, err := runner.Run(ctx, opt)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			if len(scripts) == 1 {
				return explain(err)
			}
			fmt.Fprintf(os.Stderr, "oerun %s: %s: %v\n", name, script, explain(err))
			failed = append(failed, script)
			continue
		}
		switch {
		case opt.ReportOnly:
			fmt.Fprintf(msgs, "%s: report %s rebuilt from %s (nothing run)\n", script, res.Report, opt.DB)
		case res.Doc.Missing > 0 && res.Summary.Elsewhere > 0:
			fmt.Fprintf(msgs, "%s: report %s, %d runs still missing (%d on a backend this machine cannot run: `oerun plan --backend cuda` lists them)\n",
				script, res.Report, res.Doc.Missing, res.Summary.Elsewhere)
		case res.Doc.Missing > 0:
			fmt.Fprintf(msgs, "%s: report %s, %d runs still missing\n", script, res.Report, res.Doc.Missing)
		default:
			fmt.Fprintf(msgs, "%s: %v; report %s\n", script, res.Summary, res.Report)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d scripts failed: %v", len(failed), len(scripts), failed)
	}
	return nil
}

// explain adds to err what the user can do about it.
func explain(err error) error {
	var re *report.ReplaceError
	if errors.As(err, &re) {
		return fmt.Errorf("%w (--force replaces it)", err)
	}
	return err
}
