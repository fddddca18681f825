package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner"
	"github.com/oe-lab/oe/runner/execute"
	"github.com/oe-lab/oe/runner/job"
	"github.com/oe-lab/oe/runner/plan"
	"github.com/oe-lab/oe/runner/report"
	"github.com/oe-lab/oe/runner/store"
)

// cheapScript is an experiment script whose smoke profile declares a few
// runs.
const cheapScript = "../../experiments/embdim.go"

func TestSlurmScripts(t *testing.T) {
	j := slurmJob{command: "oerun slurm --tasks 4 x.go", oerun: "/opt/oe/bin/oerun", workdir: "/home/me/my oe", dir: "slurm",
		profile: "paper", db: "results.db", reports: "reports", scripts: []string{"experiments/general.go", "experiments/it's.go"},
		tasks: 4, cpus: 8, jobs: 2, threads: 4, partition: "gpu", time: "2-00:00:00", gres: "gpu:1", retryFailed: true,
		checkpointEvery: 5 * time.Minute, filter: plan.Filter{Backend: job.CUDA, MaxItems: 7291}}
	array, merge := j.arrayScript("slurm/array.sbatch", "slurm/merge.sbatch"), j.mergeScript()
	tests := []struct {
		name, script, want string
	}{
		{"one task per shard", array, "#SBATCH --array=0-3\n"},
		{"in the folder oerun slurm ran in", array, "#SBATCH --chdir=/home/me/my oe\n"},
		{"resources", array, "#SBATCH --cpus-per-task=8\n#SBATCH --partition=gpu\n#SBATCH --time=2-00:00:00\n#SBATCH --gres=gpu:1\n"},
		{"task I runs shard I/N into its own database", array,
			`exec /opt/oe/bin/oerun run --profile paper --shard "$task/4" --base results.db --db slurm/shards/"$task".db --jobs 2 --threads 4 --retry-failed --checkpoint-every 5m0s --max-items 7291 --backend cuda experiments/general.go 'experiments/it'\''s.go'`},
		{"how to submit failed tasks again", array, "oerun slurm ... --submit --array 3,7"},
		{"the merge job merges every shard", merge, "/opt/oe/bin/oerun merge results.db slurm/shards/0.db slurm/shards/1.db slurm/shards/2.db slurm/shards/3.db\n"},
		{"then writes the reports, executing nothing", merge, "/opt/oe/bin/oerun run --profile paper --budget 0 --db results.db --reports reports experiments/general.go"},
	}
	for _, tc := range tests {
		if !strings.Contains(tc.script, tc.want) {
			t.Errorf("%s: the script lacks %q:\n%s", tc.name, tc.want, tc.script)
		}
	}
	for _, s := range []string{array, merge} {
		cmd := exec.Command("bash", "-n")
		cmd.Stdin = strings.NewReader(s)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("bash -n: %v\n%s\n%s", err, out, s)
		}
	}
}

func TestCheckArray(t *testing.T) {
	tests := []struct {
		list string
		err  string
	}{
		{"3,7", ""},
		{"0-4", ""},
		{"0-2,5,7", ""},
		{"8", `--array "8": task 8 is not among 0-7 (--tasks 8)`},
		{"6-9", `task 6-9 is not among 0-7`},
		{"4-2", `task 4-2 is not among`},
		{"a", `--array "a": want task indices and ranges`},
		{"3,", `want task indices`},
	}
	for _, tc := range tests {
		err := checkArray(tc.list, 8)
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("checkArray(%q): %v, want %q", tc.list, err, tc.err)
		}
	}
}

func TestSlurmCommandRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	base := []string{"--dir", filepath.Join(dir, "slurm"), "--db", filepath.Join(dir, "results.db")}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no tasks", []string{cheapScript}, "--tasks 0"},
		{"no script", []string{"--tasks", "2"}, "no experiment script"},
		{"a missing script", []string{"--tasks", "2", "nope.go"}, "nope.go"},
		{"--array without --submit", []string{"--tasks", "2", "--array", "1", cheapScript}, "needs --submit"},
		{"--array out of range", []string{"--tasks", "2", "--array", "2", "--submit", cheapScript}, `--array "2"`},
		{"a zero --checkpoint-every", []string{"--tasks", "2", "--checkpoint-every", "0", cheapScript}, "--checkpoint-every 0s: want a positive duration"},
	}
	for _, tc := range tests {
		err := slurmCommand(append(append([]string{}, base...), tc.args...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "slurm")); err == nil {
		t.Error("a refused command wrote scripts")
	}
}

// TestSlurmSubmitWithoutSbatch: where sbatch is missing, --submit says so
// and the scripts are written all the same.
func TestSlurmSubmitWithoutSbatch(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	err := slurmCommand([]string{"--tasks", "2", "--profile", "smoke", "--dir", filepath.Join(dir, "slurm"),
		"--db", filepath.Join(dir, "results.db"), "--submit", cheapScript})
	if err == nil || !strings.Contains(err.Error(), "sbatch is not on $PATH ("+dir+")") {
		t.Fatalf("error %v, want one that says sbatch is not on $PATH", err)
	}
	for _, f := range []string{"array.sbatch", "merge.sbatch"} {
		if _, err := os.Stat(filepath.Join(dir, "slurm", f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

func TestRunShardRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "shard.db")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"index not below the count", []string{"--shard", "3/2", "--db", db}, `shard "3/2": the index I must be from 0 to 1`},
		{"no shards", []string{"--shard", "0/0", "--db", db}, `shard "0/0": the number of shards N must be at least 1`},
		{"not numbers", []string{"--shard", "a/b", "--db", db}, `shard "a/b": want I/N`},
		{"the shard writing the database it splits", []string{"--shard", "0/2", "--base", db, "--db", db},
			"--db " + db + " is the database the runs are split from"},
		{"a budget that is no duration", []string{"--budget", "soon"}, `budget "soon": want a duration`},
		{"a negative budget", []string{"--budget", "-1h"}, `budget "-1h"`},
	}
	for _, tc := range tests {
		err := runScripts("run", append(tc.args, cheapScript), false)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("a refused shard created its database")
	}
}

func TestPlanCommandRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	st, err := store.Open(newer)
	if err != nil {
		t.Fatal(err)
	}
	st.DB().Exec("PRAGMA user_version = 9")
	st.Close()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no shards", []string{"--shards", "0", cheapScript}, "--shards 0"},
		{"no script", nil, "no experiment script"},
		{"an unknown profile", []string{"--profile", "huge", cheapScript}, `unknown profile "huge"`},
		{"a database of another schema version", []string{"--db", newer, cheapScript}, newer + ": schema version 9"},
		{"an unknown method", []string{"--exclude-algorithms", "soe,nosuch", cheapScript}, `unknown algorithm "nosuch" (known: `},
		{"an unknown method to keep", []string{"--algorithms", "nosuch", cheapScript}, `unknown algorithm "nosuch"`},
		{"an unknown backend", []string{"--backend", "tpu", cheapScript}, `backend "tpu": want cpu or cuda`},
	}
	for _, tc := range tests {
		err := planCommand(tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// The filter selects the runs of a budget or a shard, not of a script
	// run as a whole.
	err = runScripts("run", []string{"--max-items", "100", "--db", filepath.Join(dir, "r.db"), cheapScript}, false)
	if err == nil || !strings.Contains(err.Error(), "--max-items 100 selects the runs of --budget or --shard") {
		t.Errorf("--max-items without --budget: error %v", err)
	}
	err = runScripts("run", []string{"--whole-runs", "--db", filepath.Join(dir, "r.db"), cheapScript}, false)
	if err == nil || !strings.Contains(err.Error(), "--whole-runs chooses the runs a --budget starts") {
		t.Errorf("--whole-runs without --budget: error %v", err)
	}
	err = runScripts("run", []string{"--checkpoint-every", "-1m", "--db", filepath.Join(dir, "r.db"), cheapScript}, false)
	if err == nil || !strings.Contains(err.Error(), "--checkpoint-every -1m0s: want a positive duration") {
		t.Errorf("a negative --checkpoint-every: error %v", err)
	}
}

// TestPlanFilter: the filter flags list the runs they keep and say how many
// they leave out, in the table and in JSON.
func TestPlanFilter(t *testing.T) {
	db := filepath.Join(t.TempDir(), "none.db")
	all, err := plan.Make(context.Background(), runner.Options{DB: db, Profile: "smoke"}, []string{cheapScript})
	if err != nil {
		t.Fatal(err)
	}
	soe := 0
	for _, r := range all.Runs {
		if r.Job.Config.Algorithm == "soe" {
			soe++
		}
	}
	if soe == 0 || soe == len(all.Runs) {
		t.Fatalf("%d of %d runs are SOE's: the test needs some of each", soe, len(all.Runs))
	}
	stdout, stderr, code := cli(t, "plan", "--profile", "smoke", "--db", db, "--algorithms", "soe", cheapScript)
	if code != 0 {
		t.Fatal(stderr)
	}
	for _, want := range []string{fmt.Sprintf("%d runs missing from ", soe), fmt.Sprintf("--algorithms soe left out %d more, estimated ", len(all.Runs)-soe)} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plan --algorithms soe lacks %q:\n%s", want, stdout)
		}
	}
	stdout, stderr, code = cli(t, "plan", "--profile", "smoke", "--db", db, "--by", "algorithm", cheapScript)
	if code != 0 || !regexp.MustCompile(fmt.Sprintf(`(?m)^algorithm +runs +estimate\n(.*\n)*soe +%d +\S`, soe)).MatchString(stdout) ||
		!strings.Contains(stdout, fmt.Sprintf("total: %d runs", len(all.Runs))) {
		t.Errorf("plan --by algorithm: exit %d, %s\n%s", code, stderr, stdout)
	}
	if _, stderr, code := cli(t, "plan", "--profile", "smoke", "--db", db, "--by", "colour", cheapScript); code != 1 || !strings.Contains(stderr, "--by colour: want algorithm, experiment or size\nsee oerun plan --help") {
		t.Errorf("plan --by colour: exit %d, %s", code, stderr)
	}
	// A script without GPU runs leaves the GPU's share empty.
	stdout, stderr, code = cli(t, "plan", "--profile", "smoke", "--db", db, "--backend", "gpu", cheapScript)
	if code != 0 || !strings.Contains(stdout, "0 runs missing from ") ||
		!strings.Contains(stdout, fmt.Sprintf("--backend cuda left out %d more", len(all.Runs))) {
		t.Errorf("plan --backend gpu: exit %d, %s\n%s", code, stderr, stdout)
	}
	// The smoke profile's embdim.go runs on Uniform alone.
	stdout, stderr, code = cli(t, "plan", "--profile", "smoke", "--db", db, "--datasets", "char", cheapScript)
	if code != 0 || !strings.Contains(stdout, "0 runs missing from ") ||
		!strings.Contains(stdout, fmt.Sprintf("--datasets char left out %d more", len(all.Runs))) {
		t.Errorf("plan --datasets char: exit %d, %s\n%s", code, stderr, stdout)
	}
	stdout, stderr, code = cli(t, "plan", "--profile", "smoke", "--db", db, "--datasets", "Uniform,char", cheapScript)
	if code != 0 || !strings.Contains(stdout, fmt.Sprintf("%d runs missing from ", len(all.Runs))) {
		t.Errorf("plan --datasets Uniform,char: exit %d, %s\n%s", code, stderr, stdout)
	}
	if _, stderr, code := cli(t, "plan", "--profile", "smoke", "--db", db, "--datasets", "cifar", cheapScript); code != 1 || !strings.Contains(stderr, `invalid value "cifar" for flag -datasets: plan: dataset "cifar": want one of aggregation, `) {
		t.Errorf("plan --datasets cifar: exit %d, %s", code, stderr)
	}
	// At quick, cpugpu.go declares its GPU runs on a machine without a GPU
	// too: the GPU's share is listed here, for a GPU machine to execute. On
	// the Gaussian mixture (synthetic, whatever data is here): the 5
	// methods with a GPU path at n = 100, 200 and 400.
	stdout, stderr, code = cli(t, "plan", "--profile", "quick", "--db", db, "--backend", "gpu", "../../experiments/cpugpu.go")
	if code != 0 || len(regexp.MustCompile(`(?m)^\S+ +cpugpu +gmm .* cuda +\S+$`).FindAllString(stdout, -1)) != 15 {
		t.Errorf("plan --backend gpu of cpugpu.go: exit %d, %s\n%s", code, stderr, stdout)
	}
	stdout, stderr, code = cli(t, "plan", "--profile", "smoke", "--db", db, "--exclude-algorithms", "soe", "--json", cheapScript)
	var got planJSON
	if code != 0 || json.Unmarshal([]byte(stdout), &got) != nil {
		t.Fatalf("exit %d, %s\n%s", code, stderr, stdout)
	}
	if got.Count != len(all.Runs)-soe || got.LeftOut != soe || got.LeftOutSeconds <= 0 {
		t.Errorf("plan --exclude-algorithms soe --json: %d runs, %d left out (%gs); want %d, %d", got.Count, got.LeftOut, got.LeftOutSeconds, len(all.Runs)-soe, soe)
	}
}

func TestPlanJSON(t *testing.T) {
	opt := runner.Options{DB: filepath.Join(t.TempDir(), "none.db"), Profile: "smoke"}
	p, err := plan.Make(context.Background(), opt, []string{cheapScript})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := writePlanJSON(&buf, opt, p, plan.Split(p.Runs, 2), nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	var got planJSON
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v:\n%s", err, buf.String())
	}
	var sum float64
	shardRuns := 0
	for _, s := range got.Shards {
		sum += s.CostSeconds
		shardRuns += s.Runs
	}
	if got.Count == 0 || got.Count != len(got.Runs) || shardRuns != got.Count || len(got.Shards) != 2 ||
		got.Profile != "smoke" || got.Runs[0].Key == "" || got.Runs[0].N == 0 || got.Runs[0].CostSeconds <= 0 {
		t.Errorf("plan JSON incomplete:\n%s", buf.String())
	}
	if d := sum - got.TotalSeconds; d > 1e-6 || d < -1e-6 {
		t.Errorf("the shards' costs add to %v, the total is %v", sum, got.TotalSeconds)
	}
}

// TestPlanBegun: a run with a checkpoint beside the database is listed as
// begun, with its epochs and time done, and its estimate is what is left, in
// the table and in JSON, and a budget says how many it goes on from; a
// split over shards counts every run whole.
func TestPlanBegun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	p, err := plan.Make(context.Background(), runner.Options{DB: db, Profile: "smoke"}, []string{cheapScript})
	if err != nil {
		t.Fatal(err)
	}
	run := p.Runs[len(p.Runs)-1]
	done := run.Cost / 2
	h := embed.CheckpointHeader{ID: run.Job.Key, Epochs: 42, Elapsed: done}
	if err := embed.WriteCheckpoint(filepath.Join(runner.CheckpointDir(db), run.Job.Key), h, &struct{ X int }{1}); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := cli(t, "plan", "--profile", "smoke", "--db", db, cheapScript)
	row := regexp.MustCompile(fmt.Sprintf(`(?m)^%.12s .* (\S+) +42 epochs, \S+$`, run.Job.Key)).FindStringSubmatch(stdout)
	if code != 0 || row == nil || !strings.Contains(stdout, "1 of them begun (") || !regexp.MustCompile(`(?m) estimate +begun$`).MatchString(stdout) {
		t.Fatalf("plan with a begun run: exit %d, %s\n%s", code, stderr, stdout)
	}
	if want := report.FormatCost(run.Cost - done); row[1] != want {
		t.Errorf("the begun run's estimate is %s, want %s (its estimate less the time done)", row[1], want)
	}
	stdout, stderr, code = cli(t, "plan", "--profile", "smoke", "--db", db, "--json", cheapScript)
	var got planJSON
	if code != 0 || json.Unmarshal([]byte(stdout), &got) != nil {
		t.Fatalf("exit %d, %s\n%s", code, stderr, stdout)
	}
	for _, r := range got.Runs {
		if (r.Key == run.Job.Key) != (r.BegunEpochs == 42 && r.BegunSeconds == done.Seconds()) {
			t.Errorf("run %.12s in JSON: begun %d epochs, %g s", r.Key, r.BegunEpochs, r.BegunSeconds)
		}
	}
	stdout, _, _ = cli(t, "plan", "--profile", "smoke", "--db", db, "--shards", "2", cheapScript)
	if strings.Contains(stdout, "begun") || !strings.Contains(stdout, "total: ") {
		t.Errorf("a split over shards counts begun runs:\n%s", stdout)
	}
	// A budget says so too.
	_, msgs, code := cli(t, "run", "--profile", "smoke", "--db", db, "--reports", filepath.Join(filepath.Dir(db), "reports"), "--budget", "0", cheapScript)
	if code != 0 || !strings.Contains(msgs, "budget 0s: 1 of them begun (") {
		t.Errorf("run --budget 0 with a begun run: exit %d\n%s", code, msgs)
	}
}

// TestMergeCommand merges two shards, refuses a list with a missing shard
// without merging any, and changes nothing when merging again.
func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "results.db")
	var shards []string
	for i := 0; i < 2; i++ {
		path := filepath.Join(dir, []string{"a.db", "b.db"}[i])
		st, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for seed := i * 3; seed < i*3+4; seed++ { // seed 3 is in both
			c, err := job.Config{Dataset: "uniform", N: 10, Dim: 2, Lambda: 1, Algorithm: "soe", Seed: uint64(seed)}.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			out := &job.Outcome{Metrics: map[string]float64{job.TestError: float64(seed)}, StopReason: embed.StopConverged.String()}
			if err := st.Put(context.Background(), store.Record{Job: c, Status: store.OK, Outcome: out, Start: time.Now(), End: time.Now()}); err != nil {
				t.Fatal(err)
			}
		}
		st.Close()
		shards = append(shards, path)
	}
	if err := mergeCommand([]string{dst, shards[0], filepath.Join(dir, "missing.db"), shards[1]}); err == nil ||
		!strings.Contains(err.Error(), "missing.db") || !strings.Contains(err.Error(), "nothing was merged") {
		t.Errorf("a missing shard: error %v", err)
	}
	if _, err := os.Stat(dst); err == nil {
		t.Error("the refused merge wrote results.db")
	}
	for i := 0; i < 2; i++ {
		if err := mergeCommand(append([]string{dst}, shards...)); err != nil {
			t.Fatalf("merge %d: %v", i, err)
		}
		st, err := store.OpenReadOnly(dst)
		if err != nil {
			t.Fatal(err)
		}
		var runs, metrics int
		st.DB().QueryRow("SELECT count(*), (SELECT count(*) FROM metrics) FROM runs").Scan(&runs, &metrics)
		st.Close()
		if runs != 7 || metrics != 7 {
			t.Errorf("merge %d: %d runs, %d metrics; want 7 and 7", i, runs, metrics)
		}
	}
}

// TestRunBudget: --budget 0 executes nothing but writes the report; a
// budget that suffices executes every run and records the script's
// execution.
func TestRunBudget(t *testing.T) {
	dir := t.TempDir()
	db, reports := filepath.Join(dir, "results.db"), filepath.Join(dir, "reports")
	count := func() (runs, executions int) {
		st, err := store.OpenReadOnly(db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		st.DB().QueryRow("SELECT count(*), (SELECT count(*) FROM experiments) FROM runs").Scan(&runs, &executions)
		return runs, executions
	}
	args := []string{"--profile", "smoke", "--db", db, "--reports", reports, "--jobs", "1", "--threads", "1", cheapScript}
	if err := runScripts("run", append([]string{"--budget", "0"}, args...), false); err != nil {
		t.Fatal(err)
	}
	if runs, executions := count(); runs != 0 || executions != 0 {
		t.Errorf("--budget 0: %d runs, %d executions recorded; want none", runs, executions)
	}
	md, err := os.ReadFile(filepath.Join(reports, "smoke", "embdim.md"))
	if err != nil {
		t.Fatalf("--budget 0 wrote no report: %v", err)
	}
	missing := func() []execute.Pending {
		p, err := plan.Make(context.Background(), runner.Options{DB: db, Profile: "smoke"}, []string{cheapScript})
		if err != nil {
			t.Fatal(err)
		}
		return p.Runs
	}
	all := len(missing())
	if want := fmt.Sprintf("Profile **smoke**, 0 of %d runs done; %d missing (estimated cost ", all, all); !strings.Contains(string(md), want) {
		t.Errorf("--budget 0: report lacks %q:\n%s", want, md)
	}
	// A campaign that leaves out a method executes the others' runs only,
	// and says what remains.
	_, msgs, code := cli(t, append([]string{"run", "--budget", "1h", "--exclude-algorithms", "SOE"}, args...)...)
	if code != 0 {
		t.Fatal(msgs)
	}
	left := missing()
	soe := 0
	for _, r := range left {
		if r.Job.Config.Algorithm == "soe" {
			soe++
		}
	}
	if soe == 0 || soe != len(left) {
		t.Errorf("--exclude-algorithms soe: %d runs left, %d of SOE; want SOE's alone", len(left), soe)
	}
	if want := fmt.Sprintf("%d runs remain at profile smoke, estimated ", soe); !strings.Contains(msgs, want) ||
		!strings.Contains(msgs, fmt.Sprintf(": 0 within --exclude-algorithms soe (0.0s), %d outside (", soe)) {
		t.Errorf("messages do not say what remains:\n%s", msgs)
	}
	if runs, executions := count(); runs != all-soe || executions != 0 {
		t.Errorf("--exclude-algorithms soe: %d runs stored, %d executions recorded; want %d, none", runs, executions, all-soe)
	}
	// A budget shorter than the cheapest run executes nothing, and says why.
	_, msgs, code = cli(t, append([]string{"run", "--budget", "1ns"}, args...)...)
	if code != 0 {
		t.Fatal(msgs)
	}
	if runs, _ := count(); runs != all-soe || !strings.Contains(msgs, "no run fits the budget: the cheapest left is estimated at ") {
		t.Errorf("--budget 1ns: %d runs stored, want %d; messages do not say that no run fits:\n%s", runs, all-soe, msgs)
	}
	if err := runScripts("run", append([]string{"--budget", "1h"}, args...), false); err != nil {
		t.Fatal(err)
	}
	if runs, executions := count(); runs != all || len(missing()) != 0 || executions != 1 {
		t.Errorf("--budget 1h: %d runs stored, %d still missing, %d executions recorded; want all, none, 1", runs, len(missing()), executions)
	}
	if md, _ := os.ReadFile(filepath.Join(reports, "smoke", "embdim.md")); !strings.Contains(string(md), fmt.Sprintf("Profile **smoke**, %d runs.", all)) {
		t.Errorf("the complete report:\n%s", md)
	}
}

// storedRunsQuery lists a results database's runs as algorithm:d, in the
// order they were stored: the chain of testdata/follows.go reads
// "soe:2,ste:3,tste:4".
const storedRunsQuery = "SELECT group_concat(algorithm || ':' || dim, ',') FROM (SELECT algorithm, dim FROM runs ORDER BY id)"

// TestRunBudgetFollowsStoredResults: a budget with time left after its
// plan plans again, as often as new runs appear, and executes the runs that
// scripts declare from the results it stored (testdata/follows.go: STE's
// run follows SOE's result, and t-STE's STE's), so that its reports miss
// none of them.
func TestRunBudgetFollowsStoredResults(t *testing.T) {
	dir := t.TempDir()
	db, reports := filepath.Join(dir, "results.db"), filepath.Join(dir, "reports")
	_, msgs, code := cli(t, "run", "--profile", "smoke", "--db", db, "--reports", reports, "--jobs", "1", "--threads", "1",
		"--budget", "1h", "testdata/follows.go")
	if code != 0 {
		t.Fatal(msgs)
	}
	st, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var algorithms string
	st.DB().QueryRow(storedRunsQuery).Scan(&algorithms)
	if revealed := strings.Count(msgs, "budget 1h0m0s: 1 more runs declared from the results stored since, estimated "); algorithms != "soe:2,ste:3,tste:4" || revealed != 2 {
		t.Errorf("runs stored %q, want soe:2,ste:3,tste:4; %d plans revealed a run, want 2; messages:\n%s", algorithms, revealed, msgs)
	}
	md, err := os.ReadFile(filepath.Join(reports, "smoke", "follows.md"))
	if err != nil || !strings.Contains(string(md), "Profile **smoke**, 3 runs.") {
		t.Errorf("report (%v):\n%s", err, md)
	}
}

// TestRunMigratesDatabase: oerun run, with or without a budget, brings a
// results database of schema version 2 (runner/store's frozen fixture) to
// the current version before it plans, keeping its runs.
func TestRunMigratesDatabase(t *testing.T) {
	dump, err := os.ReadFile(filepath.Join("..", "..", "runner", "store", "testdata", "results_v2.sql"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"a budget", []string{"--budget", "0"}},
		{"a script", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "results.db")
			raw, err := sql.Open("sqlite3", "file:"+db)
			if err != nil {
				t.Fatal(err)
			}
			_, err = raw.Exec(string(dump))
			raw.Close()
			if err != nil {
				t.Fatal(err)
			}
			args := append(tc.args, "--profile", "smoke", "--db", db, "--reports", filepath.Join(dir, "reports"), "--jobs", "1", "--threads", "1", "--quiet", cheapScript)
			if err := runScripts("run", args, false); err != nil {
				t.Fatal(err)
			}
			st, err := store.OpenReadOnly(db)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var kept int
			st.DB().QueryRow("SELECT count(*) FROM runs WHERE config LIKE '%storefake%'").Scan(&kept)
			if kept != 4 {
				t.Errorf("%d of the version 2 database's 4 runs kept", kept)
			}
		})
	}
}
