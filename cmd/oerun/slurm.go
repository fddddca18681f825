package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/plan"
	"github.com/oe-lab/oe/runner/report"
)

func init() {
	register("slurm", command{
		summary: "write (--submit: submit) a Slurm job array that executes the missing runs in shards, then merges them",
		run:     slurmCommand,
	})
}

// slurmJob is what the two generated sbatch scripts run.
type slurmJob struct {
	// command is the oerun slurm command line that wrote them.
	command string
	// oerun is the binary the jobs run, workdir the folder they run in.
	oerun, workdir string
	// dir holds the scripts, the shard databases and the logs.
	dir                        string
	profile, db, reports       string
	scripts                    []string
	tasks, cpus, jobs, threads int
	partition, time, gres, mem string
	retryFailed                bool
	maxEmbedding               int
	checkpointEvery            time.Duration
	// filter selects the runs the tasks execute (a GPU array's share:
	// --backend cuda), as oerun run's flags do.
	filter plan.Filter
}

func slurmCommand(args []string) error {
	fs := newFlags("slurm", "[flags] experiments/X.go ...")
	j := slurmJob{command: "oerun slurm " + strings.Join(args, " ")}
	fs.StringVar(&j.profile, "profile", runner.DefaultProfile, "scale of the experiment: smoke, quick or paper")
	fs.IntVar(&j.tasks, "tasks", 0, "array tasks, each executing one shard of the missing runs (required)")
	fs.StringVar(&j.db, "db", runner.DefaultDB, "results database the runs are planned from and merged into")
	fs.StringVar(&j.reports, "reports", runner.DefaultReports, "folder the merge job writes the reports to")
	fs.StringVar(&j.dir, "dir", "slurm", "folder for the sbatch scripts, the shard databases and the logs")
	fs.StringVar(&j.partition, "partition", "", "sbatch --partition of both jobs")
	fs.StringVar(&j.time, "time", "", "sbatch --time (limit) of each array task")
	fs.IntVar(&j.cpus, "cpus-per-task", 1, "sbatch --cpus-per-task of each array task")
	fs.StringVar(&j.gres, "gres", "", "sbatch --gres of each array task, e.g. gpu:1")
	fs.StringVar(&j.mem, "mem", "", "sbatch --mem of each array task, e.g. 16G")
	fs.IntVar(&j.jobs, "jobs", 1, "runs a task executes at once")
	fs.IntVar(&j.threads, "threads", 0, "threads per run (0: --cpus-per-task ÷ --jobs)")
	fs.BoolVar(&j.retryFailed, "retry-failed", false, "execute runs recorded as failed again")
	fs.IntVar(&j.maxEmbedding, "max-embedding", 0, "store the embeddings and views (KeepEmbedding) of at most this many values (0: 200000, -1: none)")
	fs.DurationVar(&j.checkpointEvery, "checkpoint-every", embed.DefaultCheckpointEvery, checkpointEveryUsage)
	fs.StringVar(&j.oerun, "oerun", "", "the oerun binary the jobs run (default: this one)")
	filterFlags(fs, &j.filter)
	submit := fs.Bool("submit", false, "submit the array and the merge job with sbatch")
	array := fs.String("array", "", "with --submit: submit only these tasks, e.g. 3,7 or 0-4 (to run failed tasks again)")
	scripts, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	j.scripts = scripts
	if err := j.check(); err != nil {
		return err
	}
	if *array != "" {
		if err := checkArray(*array, j.tasks); err != nil {
			return err
		}
		if !*submit {
			return usageErrorf("--array selects the tasks to submit: it needs --submit")
		}
	}
	if j.oerun == "" {
		if j.oerun, err = os.Executable(); err != nil {
			return err
		}
	}
	if j.workdir, err = os.Getwd(); err != nil {
		return err
	}
	p, err := plan.Make(context.Background(), runner.Options{DB: j.db, Profile: j.profile, RetryFailed: j.retryFailed}, scripts)
	if err != nil {
		return err
	}
	runs, left := j.filter.Apply(p.Runs)
	var largest time.Duration
	for _, sh := range plan.Split(runs, j.tasks) {
		largest = max(largest, plan.Total(sh))
	}
	fmt.Fprintf(stderr(fs), "%d runs missing from %s at profile %s, estimated %s; the largest of %d shards %s\n",
		len(runs), j.db, j.profile, report.FormatCost(plan.Total(runs)), j.tasks, report.FormatCost(largest))
	if !j.filter.IsZero() {
		fmt.Fprintf(stderr(fs), "%s left out %d more, estimated %s\n", j.filter, len(left), report.FormatCost(plan.Total(left)))
	}
	if note := p.SkippedNote(); note != "" {
		fmt.Fprintln(stderr(fs), note)
	}
	arrayPath, mergePath, err := j.write()
	if err != nil {
		return err
	}
	for _, f := range []string{arrayPath, mergePath} {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		fmt.Printf("# %s\n%s\n", f, b)
	}
	if !*submit {
		return nil
	}
	return j.submit(arrayPath, mergePath, *array)
}

func (j *slurmJob) check() error {
	switch {
	case len(j.scripts) == 0:
		return usageErrorf("no experiment script given")
	case j.tasks < 1:
		return usageErrorf("--tasks %d: want the number of array tasks, at least 1", j.tasks)
	case j.cpus < 1:
		return usageErrorf("--cpus-per-task %d: want at least 1", j.cpus)
	case j.jobs < 1:
		return usageErrorf("--jobs %d: want at least 1", j.jobs)
	case j.checkpointEvery <= 0:
		return usageErrorf("--checkpoint-every %v: want a positive duration", j.checkpointEvery)
	}
	for _, s := range j.scripts {
		if _, err := os.Stat(s); err != nil {
			return err
		}
	}
	if j.threads == 0 {
		j.threads = max(1, j.cpus/j.jobs)
	}
	return nil
}

// arraySpec matches Slurm's --array lists of indices and ranges.
var arraySpec = regexp.MustCompile(`^\d+(-\d+)?(,\d+(-\d+)?)*$`)

// checkArray checks a list of task indices (3,7 or 0-4) against the tasks.
func checkArray(list string, tasks int) error {
	if !arraySpec.MatchString(list) {
		return usageErrorf("--array %q: want task indices and ranges such as 3,7 or 0-4", list)
	}
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			hi = lo
		}
		a, _ := strconv.Atoi(lo)
		b, _ := strconv.Atoi(hi)
		if a > b || b >= tasks {
			return usageErrorf("--array %q: task %s is not among 0-%d (--tasks %d)", list, part, tasks-1, tasks)
		}
	}
	return nil
}

func (j *slurmJob) shardDB(task string) string {
	return filepath.Join(j.dir, "shards", task+".db")
}

// write writes the array and merge scripts into j.dir, with the folders
// their logs and databases go to, and returns their paths.
func (j *slurmJob) write() (arrayPath, mergePath string, err error) {
	for _, d := range []string{j.dir, filepath.Join(j.dir, "shards"), filepath.Join(j.dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", "", err
		}
	}
	arrayPath, mergePath = filepath.Join(j.dir, "array.sbatch"), filepath.Join(j.dir, "merge.sbatch")
	if err := os.WriteFile(arrayPath, []byte(j.arrayScript(arrayPath, mergePath)), 0o755); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(mergePath, []byte(j.mergeScript()), 0o755); err != nil {
		return "", "", err
	}
	return arrayPath, mergePath, nil
}

func (j *slurmJob) arrayScript(arrayPath, mergePath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by: %s\n", j.command)
	fmt.Fprintf(&b, "# Task I of %d executes shard I/%d of the runs missing from %s into its own database, %s;\n",
		j.tasks, j.tasks, j.db, j.shardDB("I"))
	fmt.Fprintf(&b, "# the job in %s then merges them into %s and writes the reports. Submit both with\n", mergePath, j.db)
	fmt.Fprintf(&b, "#   id=$(sbatch --parsable %s) && sbatch --dependency=afterok:$id --kill-on-invalid-dep=yes %s\n", arrayPath, mergePath)
	b.WriteString("# (or oerun slurm ... --submit). Tasks that failed run again alone, their finished runs cached:\n")
	fmt.Fprintf(&b, "#   oerun slurm ... --submit --array 3,7   (or sbatch --array=3,7 %s, then the merge job as above)\n", arrayPath)
	directive(&b, "job-name", "oe-"+j.profile)
	directive(&b, "array", fmt.Sprintf("0-%d", j.tasks-1))
	directive(&b, "output", filepath.Join(j.dir, "logs", "array-%A_%a.out"))
	directive(&b, "chdir", j.workdir)
	directive(&b, "cpus-per-task", strconv.Itoa(j.cpus))
	directive(&b, "partition", j.partition)
	directive(&b, "time", j.time)
	directive(&b, "gres", j.gres)
	directive(&b, "mem", j.mem)
	b.WriteString("set -euo pipefail\ntask=$SLURM_ARRAY_TASK_ID\n")
	args := []string{"run", "--profile", j.profile, "--shard", "\"$task/" + strconv.Itoa(j.tasks) + "\"", "--base", shellQuote(j.db),
		"--db", shellQuote(filepath.Join(j.dir, "shards")) + "/\"$task\".db", "--jobs", strconv.Itoa(j.jobs), "--threads", strconv.Itoa(j.threads)}
	if j.retryFailed {
		args = append(args, "--retry-failed")
	}
	if j.maxEmbedding != 0 {
		args = append(args, "--max-embedding", strconv.Itoa(j.maxEmbedding))
	}
	if j.checkpointEvery > 0 && j.checkpointEvery != embed.DefaultCheckpointEvery {
		args = append(args, "--checkpoint-every", j.checkpointEvery.String())
	}
	args = append(args, j.filter.Args()...)
	fmt.Fprintf(&b, "exec %s %s %s\n", shellQuote(j.oerun), strings.Join(args, " "), quoteAll(j.scripts))
	return b.String()
}

func (j *slurmJob) mergeScript() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by: %s\n", j.command)
	fmt.Fprintf(&b, "# After every task of the array: merges the shard databases into %s, then runs the scripts\n", j.db)
	b.WriteString("# executing nothing (--budget 0): they write the reports and record which runs they declared.\n")
	directive(&b, "job-name", "oe-"+j.profile+"-merge")
	directive(&b, "output", filepath.Join(j.dir, "logs", "merge-%j.out"))
	directive(&b, "chdir", j.workdir)
	directive(&b, "partition", j.partition)
	b.WriteString("set -euo pipefail\n")
	shards := make([]string, j.tasks)
	for i := range shards {
		shards[i] = j.shardDB(strconv.Itoa(i))
	}
	fmt.Fprintf(&b, "%s merge %s %s\n", shellQuote(j.oerun), shellQuote(j.db), quoteAll(shards))
	fmt.Fprintf(&b, "%s run --profile %s --budget 0 --db %s --reports %s %s\n", shellQuote(j.oerun), j.profile,
		shellQuote(j.db), shellQuote(j.reports), quoteAll(j.scripts))
	return b.String()
}

// directive writes an #SBATCH line, none for an empty value.
func directive(b *strings.Builder, name, value string) {
	if value != "" {
		fmt.Fprintf(b, "#SBATCH --%s=%s\n", name, value)
	}
}

// submit submits the array (only the tasks of list, when given) and the
// merge job that waits for it.
func (j *slurmJob) submit(arrayPath, mergePath, list string) error {
	sbatch, err := exec.LookPath("sbatch")
	if err != nil {
		return fmt.Errorf("sbatch is not on $PATH (%s): submit from a machine with Slurm's client commands; %s and %s are written", os.Getenv("PATH"), arrayPath, mergePath)
	}
	args := []string{"--parsable"}
	if list != "" {
		args = append(args, "--array="+list)
	}
	arrayID, err := sbatchRun(sbatch, append(args, arrayPath)...)
	if err != nil {
		return err
	}
	mergeID, err := sbatchRun(sbatch, "--parsable", "--dependency=afterok:"+arrayID, "--kill-on-invalid-dep=yes", mergePath)
	if err != nil {
		return fmt.Errorf("%w (the array job %s is submitted: submit %s after it by hand)", err, arrayID, mergePath)
	}
	tasks := list
	if tasks == "" {
		tasks = fmt.Sprintf("0-%d", j.tasks-1)
	}
	fmt.Printf("submitted array job %s (tasks %s) and merge job %s after it\n", arrayID, tasks, mergeID)
	return nil
}

// sbatchRun runs sbatch --parsable and returns the job id it prints.
func sbatchRun(sbatch string, args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.Command(sbatch, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";") // "id;cluster" on multi-cluster sites
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s printed %q, not a job id", strings.Join(args, " "), out)
	}
	return id, nil
}

// shellQuote quotes s for bash where it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,+-@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = shellQuote(s)
	}
	return strings.Join(q, " ")
}
