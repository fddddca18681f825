//go:build slurm

// The Slurm integration test: `go test -tags slurm -run Slurm ./cmd/oerun/`
// with Debian's slurmctld, slurmd, slurm-client and munge installed (.ci/run
// installs them and runs it). It starts a single-node cluster on localhost
// in a temporary folder, runs experiment scripts there as a job array, and
// stops the daemons it started, by pid.

package main

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

// slurmScripts are the experiment scripts the test runs at the smoke
// profile: 26 runs of every method between them.
var slurmScripts = []string{"../../experiments/general.go", "../../experiments/embdim.go"}

// cluster is a single-node Slurm cluster on localhost.
type cluster struct {
	dir  string
	env  []string
	logs []string
}

// startCluster starts munged, slurmctld and slurmd in the foreground as
// children of the test, which stops them (SIGTERM, then SIGKILL) at its end.
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
	for _, d := range []string{"state", "spool"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			t.Fatal(err)
		}
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
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldPort=%[5]d
SlurmdPort=%[6]d
SlurmctldLogFile=%[4]s/slurmctld.log
SlurmdLogFile=%[4]s/slurmd.log
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmdParameters=config_overrides
MinJobAge=600
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[7]d State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
`, host, me.Username, socket, dir, freePort(t), freePort(t), runtime.NumCPU()), 0o644)
	c.env = append(os.Environ(), "SLURM_CONF="+conf)
	c.logs = []string{filepath.Join(dir, "munged.log"), filepath.Join(dir, "slurmctld.log"), filepath.Join(dir, "slurmd.log")}

	c.daemon(t, "munged", "--foreground", "--force", "--key-file="+filepath.Join(dir, "munge.key"), "--socket="+socket,
		"--pid-file="+filepath.Join(dir, "munged.pid"), "--log-file="+c.logs[0], "--seed-file="+filepath.Join(dir, "munged.seed"))
	c.waitFor(t, "the munge socket", func() bool { _, err := os.Stat(socket); return err == nil })
	c.daemon(t, "slurmctld", "-D")
	c.daemon(t, "slurmd", "-D")
	c.waitFor(t, "the node to be idle", func() bool {
		out, _ := c.command("sinfo", "-h", "-o", "%T").Output()
		return strings.TrimSpace(string(out)) == "idle"
	})
	return c
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

// submit runs oerun slurm --submit in dir for the tasks of list and returns
// the merge job's id.
func (c *cluster) submit(t *testing.T, oerun, dir, list string, scripts []string) string {
	t.Helper()
	args := []string{"slurm", "--profile", "smoke", "--tasks", "3", "--threads", "1", "--submit", "--array", list}
	cmd := c.command(oerun, append(args, scripts...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("oerun slurm --submit --array %s: %v\n%s", list, err, out)
	}
	m := regexp.MustCompile(`submitted array job \d+ \(tasks ` + list + `\) and merge job (\d+) after it`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("oerun slurm --submit did not say what it submitted:\n%s", out)
	}
	return string(m[1])
}

// wait waits for a job to end and returns its state.
func (c *cluster) wait(t *testing.T, job string) string {
	t.Helper()
	var state string
	c.waitFor(t, "job "+job, func() bool {
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
	deadline := time.Now().Add(60 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			c.dumpLogs(t)
			t.Fatalf("waited 60 s for %s", what)
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
	oerun := filepath.Join(work, "oerun")
	if out, err := exec.Command("go", "build", "-o", oerun, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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
	merge := c.submit(t, oerun, array, "0,2", scripts)
	if state := c.wait(t, merge); state != "FAILED" {
		c.fatal(t, array, "merge job %s without shard 1 ended %s, want FAILED", merge, state)
	}
	log, _ := os.ReadFile(filepath.Join(array, "slurm", "logs", "merge-"+merge+".out"))
	if !strings.Contains(string(log), "shards/1.db: no such file or directory; nothing was merged") {
		t.Errorf("the merge job without shard 1 said:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(array, "results.db")); err == nil {
		t.Error("the merge job without shard 1 wrote results.db")
	}
	// Task 1 submitted again alone, with a new merge job.
	merge = c.submit(t, oerun, array, "1", scripts)
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
	for _, q := range []string{
		"SELECT key, status, error, config, algorithm_version, eval_version, stop_reason, threads FROM runs ORDER BY key",
		`SELECT r.key, m.name, m.value FROM metrics m JOIN runs r ON r.id = m.run_id
			WHERE m.name NOT IN ('fit_seconds', 'converge_seconds', 'setup_seconds', 'eval_seconds') ORDER BY r.key, m.name`,
		"SELECT r.key, e.epoch, e.loss, e.train_error FROM epochs e JOIN runs r ON r.id = e.run_id ORDER BY r.key, e.epoch",
		"SELECT r.key, b.kind, b.rows, b.cols, hex(b.data), hex(l.data) FROM embeddings b JOIN runs r ON r.id = b.run_id LEFT JOIN labels l ON l.id = b.labels_id ORDER BY r.key",
		"SELECT x.experiment, x.profile, r.key, x.position, x.declared FROM experiment_runs x JOIN runs r ON r.id = x.run_id ORDER BY 1, 2, 4",
		"SELECT experiment, profile, script_sha256, runs FROM experiments ORDER BY 1, 2",
	} {
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
