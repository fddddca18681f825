//go:build slurm

// The Slurm integration test: `go test -tags slurm -run Slurm ./cmd/oerun/`
// with Debian's slurmctld, slurmd, slurm-client and munge installed (.ci/run
// installs them and runs it). It starts a cluster of two nodes on localhost
// (one slurmd each, one CPU each) in a temporary folder, runs experiment
// scripts there as job arrays whose tasks land on both nodes, and stops the
// daemons it started, by pid.

package main

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/oe-lab/oe/lib/embed"
)

// slurmScripts are the experiment scripts the test runs at the smoke
// profile: 26 runs of every method between them.
var slurmScripts = []string{"../../experiments/general.go", "../../experiments/embdim.go"}

// nodes are the test cluster's nodes. Each has one CPU, so two one-CPU
// tasks pending at once run on different nodes: what one writes for
// another (shards, checkpoints) must be in the shared folder, as on a
// real cluster, not in a node's spool.
var nodes = []string{"n0", "n1"}

// cluster is a Slurm cluster of len(nodes) nodes on localhost.
type cluster struct {
	dir  string
	env  []string
	logs []string
}

// startCluster starts munged, slurmctld and one slurmd per node in the
// foreground as children of the test, which stops them (SIGTERM, then
// SIGKILL) at its end.
func startCluster(t *testing.T) *cluster {
	for _, bin := range []string{"munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scontrol"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is not installed (apt-get install slurmctld slurmd slurm-client munge): %v", bin, err)
		}
	}
	// Short paths: the munge socket's must fit in a sockaddr_un.
	dir, err := os.MkdirTemp("", "oe-slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &cluster{dir: dir}
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	key := make([]byte, 1024)
	rand.Read(key)
	write(t, filepath.Join(dir, "munge.key"), string(key), 0o600)
	for _, d := range []string{"state", "spool-" + nodes[0], "spool-" + nodes[1]} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	var nodeLines strings.Builder
	for _, n := range nodes {
		// Each slurmd listens on its own port: several nodes on one host.
		fmt.Fprintf(&nodeLines, "NodeName=%s NodeAddr=127.0.0.1 NodeHostname=%s Port=%d CPUs=1 State=UNKNOWN\n", n, host, freePort(t))
	}
	socket := filepath.Join(dir, "munge.socket")
	conf := filepath.Join(dir, "slurm.conf")
	write(t, conf, fmt.Sprintf(`ClusterName=oetest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmUser=%[2]s
SlurmdUser=%[2]s
AuthType=auth/munge
AuthInfo=socket=%[3]s
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool-%%n
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd-%%n.pid
SlurmctldPort=%[5]d
SlurmctldLogFile=%[4]s/slurmctld.log
SlurmdLogFile=%[4]s/slurmd-%%n.log
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmdParameters=config_overrides
MinJobAge=600
%[6]sPartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, host, me.Username, socket, dir, freePort(t), nodeLines.String()), 0o644)
	c.env = append(os.Environ(), "SLURM_CONF="+conf)
	c.logs = []string{filepath.Join(dir, "munged.log"), filepath.Join(dir, "slurmctld.log")}
	for _, n := range nodes {
		c.logs = append(c.logs, filepath.Join(dir, "slurmd-"+n+".log"))
	}

	c.daemon(t, "munged", "--foreground", "--force", "--key-file="+filepath.Join(dir, "munge.key"), "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "munged.pid"), "--log-file="+c.logs[0], "--seed-file="+filepath.Join(dir, "munged.seed"))
	c.waitFor(t, "the munge socket", func() bool { _, err := os.Stat(socket); return err == nil })
	c.daemon(t, "slurmctld", "-D")
	for _, n := range nodes {
		c.daemon(t, "slurmd", "-D", "-N", n)
	}
	c.waitFor(t, "the nodes to be idle", func() bool {
		out, _ := c.command("sinfo", "-h", "-N", "-o", "%T").Output()
		return strings.Count(string(out), "idle\n") == len(nodes)
	})
	return c
}

// hosts returns the nodes the tasks of an array job ran on, by task.
func (c *cluster) hosts(t *testing.T, job string) map[string]string {
	t.Helper()
	out, err := c.command("scontrol", "show", "job", job, "-o").Output()
	if err != nil {
		t.Fatalf("scontrol show job %s: %v", job, err)
	}
	hosts := map[string]string{}
	for _, m := range regexp.MustCompile(`ArrayTaskId=(\d+) .*BatchHost=(\S+)`).FindAllStringSubmatch(string(out), -1) {
		hosts[m[1]] = m[2]
	}
	return hosts
}

// only leaves node the one node that takes jobs: the others are drained
// (they finish what runs there, then take nothing).
func (c *cluster) only(t *testing.T, node string) {
	t.Helper()
	for _, n := range nodes {
		args := []string{"update", "NodeName=" + n, "State=RESUME"}
		if n != node {
			args = []string{"update", "NodeName=" + n, "State=DRAIN", "Reason=test"}
		}
		// RESUME on a node that is not drained is refused: nothing to do.
		if out, err := c.command("scontrol", args...).CombinedOutput(); err != nil && !strings.Contains(string(out), "Invalid node state") {
			t.Fatalf("scontrol %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// daemon starts a daemon in the foreground and stops it at the test's end.
func (c *cluster) daemon(t *testing.T, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Env = c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s (pid %d) said:\n%s", name, cmd.Process.Pid, out.String())
		}
	})
}

// submit runs oerun slurm --submit in dir with flags for the tasks of list
// and returns the array job's id and the merge job's.
func (c *cluster) submit(t *testing.T, oerun, dir, list string, flags, scripts []string) (array, merge string) {
	t.Helper()
	args := append([]string{"slurm", "--profile", "smoke", "--submit", "--array", list}, flags...)
	cmd := c.command(oerun, append(args, scripts...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("oerun slurm --submit --array %s: %v\n%s", list, err, out)
	}
	m := regexp.MustCompile(`submitted array job (\d+) \(tasks ` + list + `\) and merge job (\d+) after it`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("oerun slurm --submit did not say what it submitted:\n%s", out)
	}
	return string(m[1]), string(m[2])
}

// wait waits up to a minute for a job to end and returns its state.
func (c *cluster) wait(t *testing.T, job string) string {
	t.Helper()
	return c.waitLong(t, job, time.Minute)
}

// waitLong waits up to limit for a job to end and returns its state.
func (c *cluster) waitLong(t *testing.T, job string, limit time.Duration) string {
	t.Helper()
	var state string
	c.waitUntil(t, "job "+job, limit, func() bool {
		out, _ := c.command("scontrol", "show", "job", job, "-o").Output()
		if s := regexp.MustCompile(`JobState=(\S+)`).FindSubmatch(out); s != nil {
			state = string(s[1])
		}
		switch state {
		case "", "PENDING", "CONFIGURING", "RUNNING", "COMPLETING":
			return false
		}
		return true
	})
	return state
}

// fatal logs the jobs' output in dir and the daemons' logs, then fails.
func (c *cluster) fatal(t *testing.T, dir, format string, args ...any) {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "slurm", "logs", "*"))
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		t.Logf("%s:\n%s", l, b)
	}
	c.dumpLogs(t)
	t.Fatalf(format, args...)
}

func (c *cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = c.env
	return cmd
}

func (c *cluster) waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	c.waitUntil(t, what, time.Minute, ok)
}

func (c *cluster) waitUntil(t *testing.T, what string, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			c.dumpLogs(t)
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (c *cluster) dumpLogs(t *testing.T) {
	for _, l := range c.logs {
		b, _ := os.ReadFile(l)
		t.Logf("%s:\n%s", l, b)
	}
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func write(t *testing.T, path, content string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
}

// TestSlurmArrayMatchesOneProcess runs two scripts at the smoke profile as
// a Slurm array of 3 tasks and, separately, in one process, both with one
// thread per run: the merged results.db must hold exactly the runs, metrics
// and script executions of the single process's.
func TestSlurmArrayMatchesOneProcess(t *testing.T) {
	start := time.Now()
	c := startCluster(t)
	t.Logf("cluster up in %v", time.Since(start).Round(time.Millisecond))
	work := t.TempDir()
	oerun := buildOerun(t, work)
	scripts := make([]string, len(slurmScripts))
	for i, s := range slurmScripts {
		abs, err := filepath.Abs(s)
		if err != nil {
			t.Fatal(err)
		}
		scripts[i] = abs
	}

	single := filepath.Join(work, "single")
	os.Mkdir(single, 0o755)
	ref := exec.Command(oerun, append([]string{"run", "--profile", "smoke", "--jobs", "1", "--threads", "1"}, scripts...)...)
	ref.Dir = single
	if out, err := ref.CombinedOutput(); err != nil {
		t.Fatalf("oerun run: %v\n%s", err, out)
	}

	array := filepath.Join(work, "array")
	os.Mkdir(array, 0o755)
	submitted := time.Now()
	// As if task 1 had failed: tasks 0 and 2 run, and the merge job fails on
	// the missing shard without merging any.
	threeTasks := []string{"--tasks", "3", "--threads", "1"}
	first, merge := c.submit(t, oerun, array, "0,2", threeTasks, scripts)
	if state := c.wait(t, merge); state != "FAILED" {
		c.fatal(t, array, "merge job %s without shard 1 ended %s, want FAILED", merge, state)
	}
	// Pending together, one CPU each, the two tasks ran on the two nodes.
	if h := c.hosts(t, first); len(h) != 2 || h["0"] == h["2"] {
		c.fatal(t, array, "tasks 0 and 2 ran on %v, want one on each node", h)
	}
	log, _ := os.ReadFile(filepath.Join(array, "slurm", "logs", "merge-"+merge+".out"))
	if !strings.Contains(string(log), "shards/1.db: no such file or directory; nothing was merged") {
		t.Errorf("the merge job without shard 1 said:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(array, "results.db")); err == nil {
		t.Error("the merge job without shard 1 wrote results.db")
	}
	// Task 1 submitted again alone, with a new merge job.
	_, merge = c.submit(t, oerun, array, "1", threeTasks, scripts)
	if state := c.wait(t, merge); state != "COMPLETED" {
		c.fatal(t, array, "merge job %s ended %s", merge, state)
	}
	t.Logf("array, resubmitted task and merge jobs done %v after the first submission", time.Since(submitted).Round(time.Millisecond))

	// The three shards are disjoint and hold every run between them.
	seen := map[string]int{}
	for i := 0; i < 3; i++ {
		for _, k := range strings.Fields(query(t, filepath.Join(array, "slurm", "shards", fmt.Sprintf("%d.db", i)), "SELECT key FROM runs")) {
			seen[k]++
		}
	}
	runs := strings.Fields(query(t, filepath.Join(single, "results.db"), "SELECT key FROM runs"))
	if ok := query(t, filepath.Join(single, "results.db"), "SELECT count(*) FROM runs WHERE status = 'ok'"); ok == "0\n" {
		t.Fatal("the single process stored no ok run")
	}
	if len(seen) != len(runs) {
		t.Errorf("the shards hold %d runs, one process %d", len(seen), len(runs))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("run %.12s is in %d shards", k, n)
		}
	}
	for _, q := range sameRuns {
		a, b := query(t, filepath.Join(array, "results.db"), q), query(t, filepath.Join(single, "results.db"), q)
		if a != b {
			t.Errorf("%s differs:\nSlurm array:\n%.2000s\none process:\n%.2000s", q, a, b)
		}
	}
	for _, s := range scripts {
		report := strings.TrimSuffix(filepath.Base(s), ".go") + ".md"
		if _, err := os.Stat(filepath.Join(array, "reports", "smoke", report)); err != nil {
			t.Errorf("the merge job wrote no %s: %v", report, err)
		}
	}
	t.Logf("integration test %v in all", time.Since(start).Round(time.Millisecond))
}

// TestSlurmArraysFollowStoredResults: runs a script declares from others'
// results (testdata/follows.go: STE's run follows SOE's result, t-STE's
// STE's) are not in the array that stores those results, whose tasks split
// one plan, but the next array, planned from the merged results.db, holds
// them: three arrays in turn store the chain, and a fourth has nothing to
// run.
func TestSlurmArraysFollowStoredResults(t *testing.T) {
	c := startCluster(t)
	work := t.TempDir()
	oerun := buildOerun(t, work)
	script, err := filepath.Abs(filepath.Join("testdata", "follows.go"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(work, "results.db")
	for _, want := range []string{"soe:2", "soe:2,ste:3", "soe:2,ste:3,tste:4"} {
		_, merge := c.submit(t, oerun, work, "0", []string{"--tasks", "1", "--threads", "1"}, []string{script})
		if state := c.wait(t, merge); state != "COMPLETED" {
			c.fatal(t, work, "merge job %s ended %s", merge, state)
		}
		if got := strings.TrimSpace(query(t, db, storedRunsQuery)); got != want {
			t.Fatalf("after the merge job %s results.db holds %q, want %q", merge, got, want)
		}
	}
	cmd := c.command(oerun, "slurm", "--profile", "smoke", "--tasks", "1", script)
	cmd.Dir = work
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "0 runs missing from results.db at profile smoke") {
		t.Errorf("oerun slurm after the chain (%v):\n%s", err, out)
	}
}

// buildOerun builds oerun into dir and returns its path.
func buildOerun(t *testing.T, dir string) string {
	t.Helper()
	oerun := filepath.Join(dir, "oerun")
	if out, err := exec.Command("go", "build", "-o", oerun, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return oerun
}

// longScript declares one OENN run on a synthetic dataset (no data files)
// of the given epochs.
const longScript = `//go:build experiment

package main

import "github.com/oe-lab/oe/runner/exp"

func main() {
	e := exp.Begin("A run longer than its task's time limit")
	e.Run([]exp.Run{{Dataset: "gmm", N: 1000, Dim: 10, Lambda: 1, Algorithm: "oenn", MaxEpochs: %d, NoStop: true, Seed: 1}})
}
`

// longRun writes into dir a script (longScript) whose run takes about
// seconds on one thread of this machine, timed on 200 epochs of it, and
// returns its path.
func longRun(t *testing.T, oerun, dir string, seconds float64) string {
	t.Helper()
	const probe = 200
	script := filepath.Join(dir, "probe.go")
	write(t, script, fmt.Sprintf(longScript, probe), 0o644)
	cmd := exec.Command(oerun, "run", "--profile", "smoke", "--jobs", "1", "--threads", "1", "--db", filepath.Join(dir, "probe.db"), "--reports", filepath.Join(dir, "probe"), script)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("oerun run %s: %v\n%s", script, err, out)
	}
	var fit float64
	if _, err := fmt.Sscan(query(t, filepath.Join(dir, "probe.db"), "SELECT value FROM metrics WHERE name = 'fit_seconds'"), &fit); err != nil || fit <= 0 {
		t.Fatalf("the probe run's fit time: %v, %v", fit, err)
	}
	epochs := int(math.Ceil(seconds / fit * probe))
	script = filepath.Join(dir, "long.go")
	write(t, script, fmt.Sprintf(longScript, epochs), 0o644)
	t.Logf("%d epochs took %.1f s: the long run has %d", probe, fit, epochs)
	return script
}

// TestSlurmTimeLimitResumes: a task whose time limit (one minute) cuts its
// OENN run (about two minutes, longRun) short ends TIMEOUT, its merge job is cancelled, and the run's
// checkpoint stays beside the shard; the task submitted again, on the other
// node (the one it was cut on is drained), goes on from it, until one
// finishes the run, and the merged run is the one a single
// uninterrupted process stores, bit for bit, its fit time counting what
// every task computed. A task that finishes the run after its time limit,
// before slurmctld (which checks every 30 s or so) kills it, ends TIMEOUT
// too: its run is in the shard, and the task submitted again finds it
// there, cached.
func TestSlurmTimeLimitResumes(t *testing.T) {
	start := time.Now()
	c := startCluster(t)
	work := t.TempDir()
	oerun := buildOerun(t, work)
	// Two minutes alone, more beside the reference run: longer than the
	// one-minute limit (Slurm's least) and the 30 s slurmctld may take to
	// enforce it.
	script := longRun(t, oerun, work, 120)

	// The uninterrupted run, beside the cluster's task (one core each).
	single := filepath.Join(work, "single")
	os.Mkdir(single, 0o755)
	ref := exec.Command(oerun, "run", "--profile", "smoke", "--jobs", "1", "--threads", "1", script)
	ref.Dir = single
	var refOut bytes.Buffer
	ref.Stdout, ref.Stderr = &refOut, &refOut
	if err := ref.Start(); err != nil {
		t.Fatal(err)
	}
	refDone := make(chan error, 1)
	go func() { refDone <- ref.Wait() }()
	t.Cleanup(func() { ref.Process.Kill() })

	cluster := filepath.Join(work, "cluster")
	os.Mkdir(cluster, 0o755)
	// Every task gets a minute: a cut task is submitted again until one
	// finishes the run, each going on from the last one's checkpoint.
	flags := []string{"--tasks", "1", "--threads", "1", "--time", "1", "--checkpoint-every", "5s"}
	shard := filepath.Join(cluster, "slurm", "shards", "0.db")
	var last embed.CheckpointHeader
	cutOn := ""
	finishedLate := false
	for cuts := 0; ; cuts++ {
		arrayJob, merge := c.submit(t, oerun, cluster, "0", flags, []string{script})
		state := c.waitLong(t, merge, 5*time.Minute)
		host := c.hosts(t, arrayJob)["0"]
		if cutOn != "" && host == cutOn {
			c.fatal(t, cluster, "task %s ran on %s, the node drained after the last cut", arrayJob, host)
		}
		if state == "COMPLETED" {
			if cuts == 0 {
				c.fatal(t, cluster, "the task finished its run within the time limit")
			}
			log, _ := os.ReadFile(filepath.Join(cluster, "slurm", "logs", "array-"+arrayJob+"_0.out"))
			if finishedLate && !strings.Contains(string(log), "1 cached, 0 run") {
				c.fatal(t, cluster, "task %s, after the last task stored the run, did not find it cached", arrayJob)
			}
			t.Logf("task %s finished the run on %s", arrayJob, host)
			break
		}
		if state != "CANCELLED" {
			c.fatal(t, cluster, "the merge job after task %s ended %s, want CANCELLED (its task cut short) or COMPLETED", arrayJob, state)
		}
		if task := c.wait(t, arrayJob); task != "TIMEOUT" {
			c.fatal(t, cluster, "task %s ended %s, want TIMEOUT", arrayJob, task)
		}
		stored := strings.TrimSpace(query(t, shard, "SELECT count(*) FROM runs"))
		cps, _ := filepath.Glob(filepath.Join(shard+"-checkpoints", "*"))
		switch {
		case stored == "1" && len(cps) == 0 && cuts > 0 && !finishedLate:
			// The run ended within the seconds slurmctld takes to
			// enforce the limit: Slurm ends the task TIMEOUT all the same.
			finishedLate = true
			t.Logf("task %s on %s stored the run after its time limit, %v after the test's start",
				arrayJob, host, time.Since(start).Round(time.Second))
		case stored != "0":
			c.fatal(t, cluster, "the shard of task %s, cut short, holds %s runs and checkpoints %q; want 0 runs and one checkpoint", arrayJob, stored, cps)
		case len(cps) != 1:
			c.fatal(t, cluster, "task %s, cut short, left checkpoints %q, want one", arrayJob, cps)
		default:
			h, ok, err := embed.ReadCheckpoint(cps[0], nil)
			if err != nil || !ok || h.Epochs <= last.Epochs {
				c.fatal(t, cluster, "after task %s the checkpoint %s holds %+v (%v, %v); want more epochs than %d", arrayJob, cps[0], h, ok, err, last.Epochs)
			}
			last = h
			t.Logf("the time limit cut task %s on %s at epoch %d of its run (%v computed), %v after the test's start",
				arrayJob, host, h.Epochs, h.Elapsed.Round(time.Second), time.Since(start).Round(time.Second))
		}
		// The next task runs on the other node, from the checkpoint this
		// one left in the shared folder.
		cutOn = host
		for _, n := range nodes {
			if n != host {
				c.only(t, n)
				break
			}
		}
		if cuts == 5 {
			c.fatal(t, cluster, "six tasks did not finish the run")
		}
	}
	if err := <-refDone; err != nil {
		t.Fatalf("oerun run: %v\n%s", err, refOut.String())
	}
	merged := filepath.Join(cluster, "results.db")
	for _, q := range sameRuns {
		a, b := query(t, merged, q), query(t, filepath.Join(single, "results.db"), q)
		if a != b {
			t.Errorf("%s differs:\nresumed on Slurm:\n%.2000s\nuninterrupted:\n%.2000s", q, a, b)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(shard+"-checkpoints", "*")); len(left) != 0 {
		t.Errorf("the stored run's checkpoint is still there: %q", left)
	}
	// The last task computed only what the others had not: the run's wall
	// time there is its fit time less what their checkpoint held.
	var wall, fit float64
	if _, err := fmt.Sscan(query(t, merged, `SELECT (julianday(r.finished_at) - julianday(r.started_at)) * 86400, m.value
		FROM runs r JOIN metrics m ON m.run_id = r.id AND m.name = 'fit_seconds'`), &wall, &fit); err != nil {
		t.Fatal(err)
	}
	if resumed := last.Elapsed.Seconds(); wall > fit-resumed/2 {
		t.Errorf("the last task's run took %.1f s of a fit of %.1f s, of which the checkpoint held %.1f s: it did not go on from it", wall, fit, resumed)
	}
	t.Logf("the last task's run took %.0f s, its fit %.0f s in all; test %v in all", wall, fit, time.Since(start).Round(time.Second))
}

// sameRuns are the queries whose rows two databases holding the same runs
// agree on: everything but times.
var sameRuns = []string{
	"SELECT key, status, error, config, algorithm_version, eval_version, stop_reason, threads FROM runs ORDER BY key",
	`SELECT r.key, m.name, m.value FROM metrics m JOIN runs r ON r.id = m.run_id
		WHERE m.name NOT IN ('fit_seconds', 'converge_seconds', 'setup_seconds', 'eval_seconds') ORDER BY r.key, m.name`,
	"SELECT r.key, e.epoch, e.loss, e.train_error FROM epochs e JOIN runs r ON r.id = e.run_id ORDER BY r.key, e.epoch",
	"SELECT r.key, b.kind, b.rows, b.cols, hex(b.data), hex(l.data) FROM embeddings b JOIN runs r ON r.id = b.run_id LEFT JOIN labels l ON l.id = b.labels_id ORDER BY r.key",
	"SELECT x.experiment, x.profile, r.key, x.position, x.declared FROM experiment_runs x JOIN runs r ON r.id = x.run_id ORDER BY 1, 2, 4",
	"SELECT experiment, profile, script_sha256, runs FROM experiments ORDER BY 1, 2",
}

// query returns the rows of a query on a database, one line each.
func query(t *testing.T, path, q string) string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, vals...)
	}
	return b.String()
}
