package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/plan"
	"github.com/oe-lab/oe/runner/report"
)

func init() {
	register("plan", command{
		summary: "list the runs scripts declare that results.db lacks, with estimated costs and a split into shards",
		run:     planCommand,
	})
}

// budgetFlag is --budget: a duration, which 0 is too (execute nothing).
type budgetFlag struct {
	d   time.Duration
	set bool
}

func (b *budgetFlag) String() string {
	if !b.set {
		return ""
	}
	return b.d.String()
}

func (b *budgetFlag) Set(v string) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("budget %q: want a duration such as 90m or 2h (0: execute nothing)", v)
	}
	b.d, b.set = d, true
	return nil
}

// filterFlags adds the flags that select which missing runs oerun plan
// lists and oerun run --budget or --shard executes (plan.Filter).
func filterFlags(fs *flag.FlagSet, f *plan.Filter) {
	list := func(dst *[]string) func(string) error {
		return func(v string) error {
			algs, err := plan.ParseAlgorithms(v)
			*dst = algs
			return err
		}
	}
	fs.Func("algorithms", "only the runs of these methods (`a,b,...`)", list(&f.Algorithms))
	fs.Func("exclude-algorithms", "leave out the runs of these methods (`a,b,...`), e.g. those whose versions are about to change", list(&f.Exclude))
	fs.Func("datasets", "only the runs on these datasets (`a,b,...`), or on data standing in for them", func(v string) error {
		names, err := plan.ParseDatasets(v)
		f.Datasets = names
		return err
	})
	fs.IntVar(&f.MaxItems, "max-items", 0, "only the runs of at most `N` items (0: any)")
	fs.Func("backend", "only the runs on this backend: `cpu` or cuda (gpu); a GPU machine's share is its cuda runs", func(v string) error {
		b, err := plan.ParseBackend(v)
		f.Backend = b
		return err
	})
}

// orderFlag adds --order, the order of oerun run --budget's runs (and of
// oerun plan's list).
func orderFlag(fs *flag.FlagSet, o *plan.Order) {
	fs.Func("order", "the runs' `order`: cheapest first (the default), or findings: first the runs that let the most checks of reproduction.go be judged for their cost (give it among the scripts)", func(v string) error {
		var err error
		*o, err = plan.ParseOrder(v)
		return err
	})
}

func planCommand(args []string) error {
	fs := newFlags("plan", "[flags] experiments/X.go ...")
	opt := runner.Options{}
	var filter plan.Filter
	fs.StringVar(&opt.DB, "db", runner.DefaultDB, "results database (SQLite), read only")
	fs.StringVar(&opt.Profile, "profile", runner.DefaultProfile, "scale of the experiment: smoke, quick or paper")
	fs.BoolVar(&opt.RetryFailed, "retry-failed", false, "count runs recorded as failed as missing")
	filterFlags(fs, &filter)
	order := plan.Cheapest
	orderFlag(fs, &order)
	shards := fs.Int("shards", 1, "show how the runs split over this many shards (Slurm array tasks); with 1, runs begun in the database's checkpoints count what is left")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	by := fs.String("by", "", "instead of a row per run, a row per `algorithm`, experiment or size (n ≤ 2,000, ≤ 10,000, more): runs and estimate")
	scripts, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(scripts) == 0 {
		return usageErrorf("no experiment script given")
	}
	if *shards < 1 {
		return usageErrorf("--shards %d: want at least 1", *shards)
	}
	group, ok := planGroups[*by]
	if !ok {
		return usageErrorf("--by %s: want algorithm, experiment or size", *by)
	}
	if *by != "" && *asJSON {
		return usageErrorf("--by groups the table; --json lists every run")
	}
	p, err := plan.Make(context.Background(), opt, scripts)
	if err != nil {
		return err
	}
	var left []execute.Pending
	p.Runs, left = filter.Apply(p.Runs)
	split := plan.Split(p.Runs, *shards)
	// On this machine a budget goes on from the runs an earlier one began
	// (oerun run's checkpoints beside the database); a cluster's tasks
	// keep theirs beside their shards, so a split counts every run whole.
	begun := map[string]embed.CheckpointHeader{}
	if *shards == 1 {
		begun = plan.Begun(p.Runs, runner.CheckpointDir(opt.DB))
		p.Runs = plan.Resumed(p.Runs, begun)
		split = [][]execute.Pending{p.Runs}
	}
	var steps []plan.Step
	beyond := 0
	if order == plan.Findings {
		p.Runs, steps, beyond = plan.FindingsFirst(p.Runs, p.Awaited)
		if *shards == 1 {
			split = [][]execute.Pending{p.Runs}
		}
	}
	if *asJSON {
		return writePlanJSON(os.Stdout, opt, p, split, left, begun, steps)
	}
	writePlan(os.Stdout, opt, p, split, filter, left, begun, *by, group)
	if order == plan.Findings && group == nil {
		writeSteps(os.Stdout, steps, beyond)
	}
	return nil
}

// writeSteps prints the steps of the findings' order (plan.FindingsFirst):
// what each costs, in all so far, and the checks it lets be judged.
func writeSteps(w io.Writer, steps []plan.Step, beyond int) {
	fmt.Fprintf(w, "findings first: %s\n", findingsNote(steps, beyond))
	if len(steps) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "step\truns\testimate\tby then\tlets be judged")
	var cum time.Duration
	for i, s := range steps {
		cum += plan.Total(s.Runs)
		first := s.Completes[0]
		judged := fmt.Sprintf("%s, on %s", shorten(first.Check, 70), first.Group)
		if len(s.Completes) > 1 {
			judged += fmt.Sprintf(" (and %d more)", len(s.Completes)-1)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\n", i+1, len(s.Runs), report.FormatCost(plan.Total(s.Runs)), report.FormatCost(cum), judged)
	}
	tw.Flush()
}

// findingsNote says what the steps of the findings' order let be judged,
// and how many checks wait on runs beyond them.
func findingsNote(steps []plan.Step, beyond int) string {
	checks, runs := 0, 0
	var total time.Duration
	for _, s := range steps {
		checks += len(s.Completes)
		runs += len(s.Runs)
		total += plan.Total(s.Runs)
	}
	return fmt.Sprintf("the first %d runs (estimated %s) let %d checks be judged on a group each, in %d steps; %d more wait on runs not listed here",
		runs, report.FormatCost(total), checks, len(steps), beyond)
}

// shorten cuts s to at most n runes, marking a cut with "…".
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// planGroups are the groupings of --by: the group of a run ("" is no
// grouping).
var planGroups = map[string]func(execute.Pending) string{
	"":           nil,
	"algorithm":  func(r execute.Pending) string { return r.Job.Config.Algorithm },
	"experiment": func(r execute.Pending) string { return r.Experiment },
	"size": func(r execute.Pending) string {
		switch n := plan.Items(r.Job.Config); {
		case n <= 2000:
			return "n ≤ 2,000"
		case n <= 10000:
			return "2,000 < n ≤ 10,000"
		default:
			return "n > 10,000"
		}
	},
}

// writeGroups prints one row per group of runs: its runs and their
// estimated cost, the costliest first.
func writeGroups(w io.Writer, by string, group func(execute.Pending) string, runs []execute.Pending) {
	runsOf := map[string][]execute.Pending{}
	for _, r := range runs {
		runsOf[group(r)] = append(runsOf[group(r)], r)
	}
	names := make([]string, 0, len(runsOf))
	for g := range runsOf {
		names = append(names, g)
	}
	sort.Slice(names, func(a, b int) bool {
		ca, cb := plan.Total(runsOf[names[a]]), plan.Total(runsOf[names[b]])
		if ca != cb {
			return ca > cb
		}
		return names[a] < names[b]
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\truns\testimate\n", by)
	for _, g := range names {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", g, len(runsOf[g]), report.FormatCost(plan.Total(runsOf[g])))
	}
	tw.Flush()
}

// writePlan prints the plan as a table, its total and its split, and what
// the filter left out.
func writePlan(w io.Writer, opt runner.Options, p *plan.Plan, split [][]execute.Pending, filter plan.Filter, left []execute.Pending,
	begun map[string]embed.CheckpointHeader, by string, group func(execute.Pending) string) {
	fmt.Fprintf(w, "%d runs missing from %s at profile %s, estimated %s (cost model calibrated on %d runs there%s)\n",
		len(p.Runs), opt.DB, opt.Profile, report.FormatCost(plan.Total(p.Runs)), p.Model.Calibrated, speedNote(p.Model))
	if len(begun) > 0 {
		fmt.Fprintln(w, begunNote(begun, runner.CheckpointDir(opt.DB)))
	}
	if !filter.IsZero() {
		fmt.Fprintf(w, "%s left out %d more, estimated %s\n", filter, len(left), report.FormatCost(plan.Total(left)))
	}
	if note := p.SkippedNote(); note != "" {
		fmt.Fprintln(w, note)
	}
	if len(p.Runs) == 0 {
		return
	}
	if group != nil {
		writeGroups(w, by, group, p.Runs)
	} else {
		writeRuns(w, p.Runs, begun)
	}
	fmt.Fprintf(w, "total: %d runs, estimated %s\n", len(p.Runs), report.FormatCost(plan.Total(p.Runs)))
	if len(split) > 1 {
		fmt.Fprintf(w, "over %d shards:\n", len(split))
		for i, sh := range split {
			fmt.Fprintf(w, "  %v: %d runs, %s\n", plan.Shard{I: i, N: len(split)}, len(sh), report.FormatCost(plan.Total(sh)))
		}
	}
}

// begunNote says how many of the runs were begun, as checkpoints in dir
// hold them, and how much of their fits was computed.
func begunNote(begun map[string]embed.CheckpointHeader, dir string) string {
	var done time.Duration
	for _, h := range begun {
		done += h.Elapsed
	}
	return fmt.Sprintf("%d of them begun (%s computed, kept in %s/): their estimates count what is left", len(begun), report.FormatCost(done), dir)
}

// writeRuns prints a row per run, with what was done of those begun.
func writeRuns(w io.Writer, runs []execute.Pending, begun map[string]embed.CheckpointHeader) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "key\texperiment\tdataset\tn\td\talgorithm\tbackend\testimate")
	if len(begun) > 0 {
		fmt.Fprint(tw, "\tbegun")
	}
	fmt.Fprintln(tw)
	for _, r := range runs {
		c := r.Job.Config
		dataset := c.Dataset
		if c.StandsInFor != "" {
			dataset += " (for " + c.StandsInFor + ")"
		}
		fmt.Fprintf(tw, "%.12s\t%s\t%s\t%d\t%d\t%s\t%s\t%s", r.Job.Key, r.Experiment, dataset, plan.Items(c), c.Dim,
			c.Algorithm, c.Backend, report.FormatCost(r.Cost))
		if h, ok := begun[r.Job.Key]; ok {
			fmt.Fprintf(tw, "\t%d epochs, %s", h.Epochs, report.FormatCost(h.Elapsed))
		} else if len(begun) > 0 {
			fmt.Fprint(tw, "\t-")
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// speedNote says how the model scaled its estimates to this machine, if it
// did.
func speedNote(m *plan.Model) string {
	if m.MachineRuns == 0 {
		return ""
	}
	return fmt.Sprintf("; scaled ×%.2f to this machine, as its %d one-thread runs there took", m.Speed, m.MachineRuns)
}

type planJSON struct {
	Database     string `json:"database"`
	Profile      string `json:"profile"`
	CalibratedOn int    `json:"calibrated_on"`
	// Speed is the factor that scaled the estimates to this machine
	// (plan.Model.Speed).
	Speed        float64     `json:"speed"`
	Count        int         `json:"count"`
	TotalSeconds float64     `json:"total_seconds"`
	Runs         []runJSON   `json:"runs"`
	Shards       []shardJSON `json:"shards"`
	// LeftOut counts the missing runs the filter flags left out, and
	// LeftOutSeconds is their estimated cost.
	LeftOut        int     `json:"left_out"`
	LeftOutSeconds float64 `json:"left_out_seconds"`
	// SkippedForData counts, by dataset, the runs the scripts declare
	// but the plan lacks because the dataset's files are not here.
	SkippedForData map[string]int `json:"skipped_for_data,omitempty"`
	// Steps are the findings' order's steps (--order findings), whose
	// runs come first in Runs, in that order.
	Steps []stepJSON `json:"steps,omitempty"`
}

type stepJSON struct {
	Runs        int           `json:"runs"`
	CostSeconds float64       `json:"cost_seconds"`
	Completes   []checkedJSON `json:"completes"`
}

// checkedJSON is a group of runs a check is judged on once they are stored.
type checkedJSON struct {
	Check string `json:"check"`
	Group string `json:"group"`
}

type runJSON struct {
	Key         string  `json:"key"`
	Experiment  string  `json:"experiment"`
	Dataset     string  `json:"dataset"`
	StandsInFor string  `json:"stands_in_for,omitempty"`
	N           int     `json:"n"`
	Dim         int     `json:"dim"`
	Algorithm   string  `json:"algorithm"`
	Backend     string  `json:"backend"`
	CostSeconds float64 `json:"cost_seconds"`
	// KeepEmbedding: what a script declares the run keeps of its
	// embedding, "view" or "full" (runner/exp's Run.KeepEmbedding).
	KeepEmbedding execute.Keep `json:"keep_embedding,omitempty"`
	// BegunEpochs and BegunSeconds are what the fit of a run begun in the
	// database's checkpoints did (then CostSeconds is what is left).
	BegunEpochs  int     `json:"begun_epochs,omitempty"`
	BegunSeconds float64 `json:"begun_seconds,omitempty"`
}

type shardJSON struct {
	Shard       string  `json:"shard"`
	Runs        int     `json:"runs"`
	CostSeconds float64 `json:"cost_seconds"`
}

func writePlanJSON(w io.Writer, opt runner.Options, p *plan.Plan, split [][]execute.Pending, left []execute.Pending, begun map[string]embed.CheckpointHeader, steps []plan.Step) error {
	out := planJSON{Database: opt.DB, Profile: opt.Profile, CalibratedOn: p.Model.Calibrated, Speed: p.Model.Speed, Count: len(p.Runs),
		TotalSeconds: plan.Total(p.Runs).Seconds(), Runs: []runJSON{}, LeftOut: len(left), LeftOutSeconds: plan.Total(left).Seconds(),
		SkippedForData: p.SkippedForData}
	for _, r := range p.Runs {
		c := r.Job.Config
		out.Runs = append(out.Runs, runJSON{Key: r.Job.Key, Experiment: r.Experiment, Dataset: c.Dataset, StandsInFor: c.StandsInFor,
			N: plan.Items(c), Dim: c.Dim, Algorithm: c.Algorithm, Backend: c.Backend, CostSeconds: r.Cost.Seconds(), KeepEmbedding: r.Keep,
			BegunEpochs: begun[r.Job.Key].Epochs, BegunSeconds: begun[r.Job.Key].Elapsed.Seconds()})
	}
	for i, sh := range split {
		out.Shards = append(out.Shards, shardJSON{Shard: plan.Shard{I: i, N: len(split)}.String(), Runs: len(sh), CostSeconds: plan.Total(sh).Seconds()})
	}
	for _, s := range steps {
		st := stepJSON{Runs: len(s.Runs), CostSeconds: plan.Total(s.Runs).Seconds()}
		for _, a := range s.Completes {
			st.Completes = append(st.Completes, checkedJSON{Check: a.Check, Group: a.Group})
		}
		out.Steps = append(out.Steps, st)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// runPlanned is `oerun run` with --shard or --budget: it plans the missing
// runs of all the scripts at once and executes a selection of them
// directly, in the plan's order. A shard's runs go into its own database
// (--db), and nothing else is written: `oerun merge` folds the shards into
// results.db. Under a budget, with time left, it plans again for the runs
// that scripts declare from the results it stored (executeRevealed); the
// scripts then run once more, executing nothing: each writes its report
// and, when all its runs are stored, records its execution.
func runPlanned(ctx context.Context, f *scriptFlags, scripts []string, msgs io.Writer) error {
	opt := f.opt
	planned := opt
	var shard plan.Shard
	if f.shard != "" {
		var err error
		if shard, err = plan.ParseShard(f.shard); err != nil {
			return err
		}
		if sameDB(f.base, opt.DB) {
			return fmt.Errorf("--shard %v: --db %s is the database the runs are split from (--base): give each shard its own, such as --db shards/%d.db", shard, opt.DB, shard.I)
		}
		planned.DB = f.base
	}
	start := time.Now()
	p, err := plan.Make(ctx, planned, scripts)
	if err != nil {
		return err
	}
	runs, outside := f.filter.Apply(p.Runs)
	label := ""
	if shard.N > 0 {
		runs, label = plan.Split(runs, shard.N)[shard.I], "shard "+shard.String()
	}
	var deadline time.Time
	var begun map[string]embed.CheckpointHeader
	orderNote := ""
	if f.budget.set {
		begun = plan.Begun(runs, runner.CheckpointDir(opt.DB))
		runs = plan.Resumed(runs, begun)
		deadline = start.Add(f.budget.d)
		label = strings.TrimPrefix(label+", budget "+f.budget.d.String(), ", ")
		if f.order == plan.Findings {
			var steps []plan.Step
			var beyond int
			runs, steps, beyond = plan.FindingsFirst(runs, p.Awaited)
			orderNote = "ordered by findings: " + findingsNote(steps, beyond)
		} else {
			runs = plan.CheapestFirst(runs)
		}
	}
	fmt.Fprintf(msgs, "%s: %d of the %d runs missing from %s at profile %s, estimated %s\n", label, len(runs), len(p.Runs), planned.DB,
		opt.Profile, report.FormatCost(plan.Total(runs)))
	if len(begun) > 0 {
		fmt.Fprintf(msgs, "%s: %s\n", label, begunNote(begun, runner.CheckpointDir(opt.DB)))
	}
	if orderNote != "" {
		fmt.Fprintf(msgs, "%s: %s\n", label, orderNote)
	}
	if !f.filter.IsZero() {
		fmt.Fprintf(msgs, "%s: %s leaves out %d of them, estimated %s\n", label, f.filter, len(outside), report.FormatCost(plan.Total(outside)))
	}
	if note := p.SkippedNote(); note != "" {
		fmt.Fprintf(msgs, "%s: %s\n", label, note)
	}
	st, err := runner.OpenStore(opt)
	if err != nil {
		return err
	}
	defer st.Close()
	x := runner.Executor(opt, st, label)
	sum, left, err := plan.Execute(ctx, x, runs, deadline)
	if err == nil && f.budget.set && shard.N == 0 {
		var more execute.Summary
		more, left, outside, err = executeRevealed(ctx, f, planned, scripts, x, p.Runs, sum, left, outside, deadline, label, msgs)
		sum = sum.Add(more)
	}
	if err != nil {
		if ctx.Err() != nil {
			// Stopped (Ctrl-C, kill): the finished runs are stored.
			fmt.Fprintf(msgs, "%s: stopped after %v into %s; the same command goes on from there\n", label, sum, opt.DB)
		}
		return err
	}
	fmt.Fprintf(msgs, "%s: %v into %s in %s\n", label, sum, opt.DB, time.Since(start).Round(time.Second))
	if f.budget.d > 0 && sum.Ran == 0 && len(left) > 0 && left[0].Cost > f.budget.d {
		// Otherwise a budget too small for any run looks like a campaign
		// with nothing to do.
		fmt.Fprintf(msgs, "%s: no run fits the budget: the cheapest left is estimated at %s (by the cost model of %s, at one thread)\n",
			label, report.FormatCost(left[0].Cost), planned.DB)
	}
	if shard.N > 0 {
		if len(left) > 0 {
			fmt.Fprintf(msgs, "%s: %d runs left, estimated %s\n", label, len(left), report.FormatCost(plan.Total(left)))
		}
		fmt.Fprintf(msgs, "%s: fold it into %s with `oerun merge %s %s`\n", label, f.base, f.base, opt.DB)
		return nil
	}
	if err := writeReports(ctx, opt, p.Model, scripts, msgs); err != nil {
		return err
	}
	// What remains, last, where a campaign's log ends.
	fmt.Fprintf(msgs, "%s: %d runs remain at profile %s, estimated %s", label, len(left)+len(outside), opt.Profile,
		report.FormatCost(plan.Total(left)+plan.Total(outside)))
	if !f.filter.IsZero() {
		fmt.Fprintf(msgs, ": %d within %s (%s), %d outside (%s)", len(left), f.filter, report.FormatCost(plan.Total(left)),
			len(outside), report.FormatCost(plan.Total(outside)))
	}
	fmt.Fprintln(msgs, " (oerun plan lists them)")
	return nil
}

// executeRevealed goes on with a budget's time left after the runs it
// planned: a script may declare runs from others' results (crowd.go fits
// each method at the d its cross-validation picks), which a plan lists only
// once those are stored. While runs were executed (ran, then each round's)
// and the deadline is ahead, it plans the scripts again and executes the
// runs no plan of this budget listed before, with those left, in the
// budget's order (--order). It returns what it ran and the runs left and
// outside the filter, as runPlanned counts them. A shard never plans again:
// its tasks split one plan of --base, and the runs a merge reveals are the
// next array's.
func executeRevealed(ctx context.Context, f *scriptFlags, planned runner.Options, scripts []string, x *execute.Executor,
	listed []execute.Pending, ran execute.Summary, left, outside []execute.Pending, deadline time.Time, label string, msgs io.Writer) (execute.Summary, []execute.Pending, []execute.Pending, error) {
	seen := make(map[string]bool, len(listed))
	for _, r := range listed {
		seen[r.Job.Key] = true
	}
	var sum execute.Summary
	for ran.Ran > 0 && time.Now().Before(deadline) {
		p, err := plan.Make(ctx, planned, scripts)
		if err != nil {
			return sum, left, outside, err
		}
		var fresh []execute.Pending
		for _, r := range p.Runs {
			if !seen[r.Job.Key] {
				seen[r.Job.Key] = true
				fresh = append(fresh, r)
			}
		}
		in, out := f.filter.Apply(fresh)
		outside = append(outside, out...)
		if len(in) == 0 {
			break
		}
		in = plan.Resumed(in, plan.Begun(in, runner.CheckpointDir(x.Store.Path())))
		fmt.Fprintf(msgs, "%s: %d more runs declared from the results stored since, estimated %s\n", label, len(in), report.FormatCost(plan.Total(in)))
		if ran, left, err = plan.Execute(ctx, x, f.order.Sort(append(left, in...), p.Awaited), deadline); err != nil {
			return sum.Add(ran), left, outside, err
		}
		sum = sum.Add(ran)
	}
	return sum, left, outside, nil
}

// writeReports runs each script executing nothing (every run it declares is
// stored, or left missing): it writes the report, which states the cost of
// its missing runs by model, and records the execution of the scripts whose
// runs are all stored.
func writeReports(ctx context.Context, opt runner.Options, model *plan.Model, scripts []string, msgs io.Writer) error {
	opt.Defer = func([]execute.Pending) {}
	opt.Estimate = model.Estimate
	return runEach(ctx, "run", opt, scripts, msgs)
}

// sameDB reports whether two paths name one database file.
func sameDB(a, b string) bool {
	if pa, errA := filepath.Abs(a); errA == nil {
		if pb, errB := filepath.Abs(b); errB == nil && pa == pb {
			return true
		}
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}
