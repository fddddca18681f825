package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/job"
)

func init() {
	embed.Register(embed.Info{Name: "storefake", Version: 3, Params: embed.Params{"mu": 0.5},
		New: func(embed.Params) (embed.Algorithm, error) { return nil, errors.New("not runnable") }})
}

func canonical(seed uint64) job.Canonical {
	c, err := job.Config{Dataset: "uniform", N: 50, Dim: 2, Lambda: 2, Algorithm: "storefake", Seed: seed}.Normalize()
	if err != nil {
		panic(err)
	}
	return c
}

// bigRecord is record with a trace of five times the epochs, measured at
// every epoch (a convergence curve, which Put stores thinned to about the
// given number of epochs), so that writing or merging it takes as long as
// the kill tests need.
func bigRecord(seed uint64, epochs, n int) Record {
	return record(seed, 5*epochs, n)
}

// record builds an ok run with epochs trace entries, each with a train
// error, and an n×2 embedding whose values float32 holds exactly.
func record(seed uint64, epochs, n int) Record {
	emb := mat.NewDense(n, 2, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		emb.Set(i, 0, float64(i)+0.25)
		emb.Set(i, 1, -float64(i)/4)
		labels[i] = i % 4
	}
	trace := make([]embed.Epoch, epochs)
	for e := range trace {
		trace[e] = embed.Epoch{Epoch: e + 1, Loss: 1 / float64(e+1), TrainError: 0.5 / float64(e+1), Elapsed: time.Duration(e) * time.Millisecond}
	}
	return Record{
		Job: canonical(seed), Status: OK,
		Outcome: &job.Outcome{
			Metrics:    map[string]float64{job.TestError: 0.125, job.KNNError: math.NaN(), job.Epochs: float64(epochs)},
			Trace:      trace,
			StopReason: embed.StopConverged.String(), Embedding: emb, Labels: labels, Threads: 2,
		},
		Start: time.Unix(100, 0), End: time.Unix(101, 5), Host: hostinfo.Current(),
	}
}

func open(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestPutGetRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	want := record(1, 5, 7)
	if err := s.Put(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, want.Job.Key)
	if err != nil {
		t.Fatal(err)
	}
	o := got.Outcome
	checks := []struct {
		what string
		ok   bool
	}{
		{"status", got.Status == OK},
		{"config", got.Job.Config.Algorithm == "storefake" && got.Job.Config.Params["mu"] == 0.5 && got.Job.Version == 3},
		{"metric", o.Metrics[job.TestError] == 0.125},
		{"NaN metric", math.IsNaN(o.Metrics[job.KNNError])},
		{"trace", len(o.Trace) == 5 && o.Trace[4].Loss == 0.2 && o.Trace[4].TrainError == 0.1},
		{"embedding", o.Embedding != nil && mat.Equal(o.Embedding, want.Outcome.Embedding)},
		{"labels", len(o.Labels) == 7 && o.Labels[5] == 1},
		{"stop reason", o.StopReason == embed.StopConverged.String() && o.Threads == 2},
		{"times", got.Start.Equal(want.Start) && got.End.Equal(want.End)},
		{"host", got.Host == want.Host},
		{"config's key", sameKey(got.Job.Config, want.Job.Key)},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s not round-tripped: %+v", c.what, got)
		}
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(missing) error = %v, want ErrNotFound", err)
	}
}

// sameKey reports whether c, normalised again, has the given key: what a
// config read back from runs.config must give.
func sameKey(c job.Config, key string) bool {
	n, err := c.Normalize()
	return err == nil && n.Key == key
}

// TestCompactConfig: runs.config leaves out the canonical JSON's top-level
// members of zero value and keeps the rest, in order and byte for byte.
func TestCompactConfig(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a":0,"b":1,"c":"","d":"x","e":false,"f":true,"g":null,"h":{},"i":[],"j":{"k":0}}`, `{"b":1,"d":"x","f":true,"j":{"k":0}}`},
		{`{"lambda":0.05,"n":0,"noise_level":1e-7,"seed":18446744073709551615}`, `{"lambda":0.05,"noise_level":1e-7,"seed":18446744073709551615}`},
		{`{"run":{"n":0},"comparisons":{"fold":0}}`, `{"comparisons":{"fold":0},"run":{"n":0}}`},
		{`{}`, `{}`},
	}
	for _, c := range cases {
		got, err := compactConfig([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("compactConfig(%s) = %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{``, `[1]`, `{"a":`} {
		if _, err := compactConfig([]byte(bad)); err == nil {
			t.Errorf("compactConfig(%q): no error", bad)
		}
	}
	// A real config: Put stores it compact, and it reads back to its key.
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	r := record(1, 1, 2)
	if err := s.Put(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	var stored string
	s.DB().QueryRow("SELECT config FROM runs").Scan(&stored)
	if strings.Contains(stored, `"pca":0`) || strings.Contains(stored, `"noise":""`) || !strings.Contains(stored, `"dataset":"uniform"`) {
		t.Errorf("stored config %s, want the canonical %s without its zero members", stored, r.Job.JSON)
	}
}

func TestPutSemantics(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name       string
		first      string // status of the first Put
		second     string // status of the second Put
		wantStatus string
	}{
		{"failed run is replaced by ok", Failed, OK, OK},
		{"failed run is replaced by a new failure", Failed, Failed, Failed},
		{"ok run is kept", OK, Failed, OK},
		{"ok run twice stays one run", OK, OK, OK},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t, filepath.Join(t.TempDir(), "r.db"))
			mk := func(status string) Record {
				r := record(uint64(i), 3, 4)
				if status == Failed {
					r.Status, r.Error, r.Outcome = Failed, "diverged (NaN or Inf)", nil
				}
				return r
			}
			for _, st := range []string{tc.first, tc.second} {
				if err := s.Put(ctx, mk(st)); err != nil {
					t.Fatal(err)
				}
			}
			key := mk(OK).Job.Key
			st, err := s.Statuses(ctx, []string{key, "absent"})
			if err != nil {
				t.Fatal(err)
			}
			if len(st) != 1 || st[key] != tc.wantStatus {
				t.Errorf("statuses = %v, want {%s: %s}", st, key[:8], tc.wantStatus)
			}
			var epochs int
			s.DB().QueryRow("SELECT count(*) FROM epochs").Scan(&epochs)
			if want := map[string]int{OK: 3, Failed: 0}[tc.wantStatus]; epochs != want {
				t.Errorf("%d epoch rows, want %d", epochs, want)
			}
		})
	}
}

func TestEmbeddingSizeLimit(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	s.MaxEmbedding = 10 // a 7×2 embedding has 14 values
	r := record(1, 1, 7)
	if err := s.Put(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, r.Job.Key)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome.Embedding != nil {
		t.Error("embedding over the size limit was stored")
	}
}

// TestEmbeddingKinds: a run's embedding is stored as the embedding or as
// the view a report draws (Record.View), and read back as such.
func TestEmbeddingKinds(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	for i, tc := range []struct {
		name              string
		view              bool
		wantKind, wantEnc string
		tol               float64 // half a 10-bit step of the 4 items' ranges, 3 and 0.75
	}{
		{"the embedding", false, "full", encodingF32, 0},
		{"its view", true, "view", encodingQ10, 3.0 / 1023 / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := record(uint64(i), 1, 4)
			r.View = tc.view
			if err := s.Put(ctx, r); err != nil {
				t.Fatal(err)
			}
			got, err := s.Get(ctx, r.Job.Key)
			if err != nil {
				t.Fatal(err)
			}
			var kind, enc string
			s.DB().QueryRow("SELECT kind, encoding FROM embeddings JOIN runs ON runs.id = run_id WHERE key = ?", r.Job.Key).Scan(&kind, &enc)
			if got.View != tc.view || kind != tc.wantKind || enc != tc.wantEnc || !mat.EqualApprox(got.Outcome.Embedding, r.Outcome.Embedding, tc.tol) {
				t.Errorf("read back view %v, kind %q, encoding %q, embedding %v; want %v, %q, %q, %v",
					got.View, kind, enc, mat.Formatted(got.Outcome.Embedding), tc.view, tc.wantKind, tc.wantEnc, mat.Formatted(r.Outcome.Embedding))
			}
		})
	}
}

func TestRejectsBadRecords(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	r := record(1, 1, 3)
	for _, bad := range []Record{{Job: r.Job, Status: "done"}, {Job: r.Job, Status: OK}} {
		if err := s.Put(context.Background(), bad); err == nil {
			t.Errorf("Put(%q, outcome %v) succeeded", bad.Status, bad.Outcome)
		}
	}
}

// TestConcurrentWriters has two connections (as two processes would) write
// interleaved runs, some the same, to one database.
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	stores := []*Store{open(t, path), open(t, path)}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for _, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				if err := s.Put(context.Background(), record(uint64(i), 20, 30)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var runs int
	stores[0].DB().QueryRow("SELECT count(*) FROM runs").Scan(&runs)
	if runs != 20 {
		t.Errorf("%d runs, want 20", runs)
	}
}

const (
	childEnv    = "OE_STORE_KILL_CHILD"
	childEpochs = 2000
)

// TestMain runs the test binary as the child process of
// TestKillMidWriteKeepsDatabaseSound when childEnv names a database, and
// of TestKillMidMergeLeavesDatabaseAsBefore when mergeChildEnv names two.
func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		writeUntilKilled(path)
	}
	if paths := os.Getenv(mergeChildEnv); paths != "" {
		mergeUntilKilled(paths)
	}
	os.Exit(m.Run())
}

// writeUntilKilled writes large runs to the database at path until the
// process is killed, printing each committed seed.
func writeUntilKilled(path string) {
	s, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s.MaxEmbedding = -1
	for seed := uint64(0); ; seed++ {
		if err := s.Put(context.Background(), bigRecord(seed, 2*childEpochs, 5000)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("committed", seed)
	}
}

// TestKillMidWriteKeepsDatabaseSound kills (SIGKILL) a process while it
// writes runs and checks that the database is intact, that every committed
// run is complete and that no partial run was left.
func TestKillMidWriteKeepsDatabaseSound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	committed := -1
	sc := bufio.NewScanner(out)
	for committed < 3 && sc.Scan() {
		var seed int
		if _, err := fmt.Sscanf(sc.Text(), "committed %d", &seed); err == nil {
			committed = seed
		}
	}
	// Kill at a random point of the next transactions.
	time.Sleep(time.Duration(time.Now().UnixNano()%40) * time.Millisecond)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if committed < 3 {
		t.Fatalf("child committed only up to %d before it ended", committed)
	}

	s := open(t, path)
	ctx := context.Background()
	if res, err := s.IntegrityCheck(ctx); err != nil || res != "ok" {
		t.Fatalf("integrity_check = %q, %v", res, err)
	}
	var runs, partial int
	s.DB().QueryRow("SELECT count(*) FROM runs").Scan(&runs)
	if runs < committed+1 {
		t.Errorf("%d runs stored, want at least the %d committed", runs, committed+1)
	}
	err = s.DB().QueryRow(`SELECT count(*) FROM runs r WHERE
		(SELECT count(*) FROM epochs e WHERE e.run_id = r.id) != ` + strconv.Itoa(len(storedEpochs(bigRecord(1, 2*childEpochs, 1).Outcome.Trace))) + ` OR
		(SELECT count(*) FROM metrics m WHERE m.run_id = r.id) != 3 OR
		NOT EXISTS (SELECT 1 FROM embeddings b WHERE b.run_id = r.id)`).Scan(&partial)
	if err != nil || partial != 0 {
		t.Errorf("%d partial runs (err %v)", partial, err)
	}
	var orphans int
	s.DB().QueryRow(`SELECT (SELECT count(*) FROM epochs WHERE run_id NOT IN (SELECT id FROM runs)) +
		(SELECT count(*) FROM metric_values WHERE run_id NOT IN (SELECT id FROM runs)) +
		(SELECT count(*) FROM embeddings WHERE run_id NOT IN (SELECT id FROM runs))`).Scan(&orphans)
	if orphans != 0 {
		t.Errorf("%d orphan rows", orphans)
	}
	// The database is writable again after the crash.
	if err := s.Put(ctx, record(1_000_000, 1, 3)); err != nil {
		t.Fatal(err)
	}
}

// Example shows a run's life in the cache: stored once, then found by key.
func Example() {
	dir, _ := os.MkdirTemp("", "store")
	defer os.RemoveAll(dir)
	s, err := Open(filepath.Join(dir, "results.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	c, _ := job.Config{Dataset: "uniform", N: 100, Dim: 2, Lambda: 2, Algorithm: "storefake", Seed: 1}.Normalize()
	ctx := context.Background()
	before, _ := s.Statuses(ctx, []string{c.Key})
	s.Put(ctx, Record{Job: c, Status: Failed, Error: "diverged", Start: time.Now(), End: time.Now()})
	after, _ := s.Statuses(ctx, []string{c.Key})
	fmt.Println(len(before), after[c.Key])
	// Output: 0 failed
}

// OpenReadOnly reads what Open wrote, writes nothing (not even a file that
// is missing) and refuses what is not a current results database.
func TestOpenReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := record(1, 2, 3)
	if err := s.Put(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	defer s.Close() // open while read: the run may still be in the WAL file only

	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ro.Get(context.Background(), rec.Job.Key)
	if err != nil || got.Outcome.Metrics[job.TestError] != 0.125 {
		t.Errorf("Get through the read-only store: %+v, %v", got, err)
	}
	if err := ro.Put(context.Background(), record(2, 2, 3)); err == nil {
		t.Error("Put on a read-only store succeeded")
	}
	ro.Close()

	v1 := filepath.Join(dir, "v1.db")
	v1Database(t, v1, []uint64{1}, nil)
	v2 := filepath.Join(dir, "v2.db")
	v2Database(t, v2)
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing file", filepath.Join(dir, "typo.db"), "typo.db: no such file"},
		{"folder", dir, "is not a database file"},
		{"empty file", empty, "empty.db is not a results database"},
		{"schema version 1", v1, "v1.db has schema version 1"},
		{"schema version 2", v2, fmt.Sprintf("v2.db has schema version 2, this program reads version %d", schemaVersion)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := OpenReadOnly(tc.path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); !os.IsNotExist(err) {
		t.Errorf("OpenReadOnly created the missing database (%v)", err)
	}
	if b, _ := os.ReadFile(empty); len(b) != 0 {
		t.Errorf("OpenReadOnly wrote %d bytes into an empty file", len(b))
	}
}

// TestSummaries: Summaries reads what Get reads of a run's status, metrics
// and stop reason, for every stored key asked (more than one batch) and no
// other.
func TestSummaries(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	var keys []string
	const runs = 1203 // three batches of the query
	for i := 0; i < runs; i++ {
		r := record(uint64(i), 2, 3)
		r.Outcome.Metrics[job.FitSeconds] = float64(i)
		if i%3 == 1 {
			r.Status, r.Error, r.Outcome = Failed, "diverged (NaN or Inf)", nil
		}
		if err := s.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, r.Job.Key)
	}
	got, err := s.Summaries(ctx, append(keys, "absent"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != runs {
		t.Fatalf("%d summaries, want %d: one per stored key", len(got), runs)
	}
	for _, i := range []int{0, 1, 2, 600, 1201, 1202} {
		want, err := s.Get(ctx, keys[i])
		if err != nil {
			t.Fatal(err)
		}
		sum := got[keys[i]]
		if sum.Status != want.Status {
			t.Errorf("run %d: status %q, want %q", i, sum.Status, want.Status)
		}
		if want.Outcome == nil {
			if sum.Metrics != nil || sum.StopReason != "" {
				t.Errorf("failed run %d: metrics %v, stop reason %q; want none", i, sum.Metrics, sum.StopReason)
			}
			continue
		}
		if sum.StopReason != want.Outcome.StopReason || len(sum.Metrics) != len(want.Outcome.Metrics) {
			t.Errorf("run %d: stop reason %q, %d metrics; want %q, %d", i, sum.StopReason, len(sum.Metrics), want.Outcome.StopReason, len(want.Outcome.Metrics))
		}
		for name, v := range want.Outcome.Metrics {
			if g, ok := sum.Metrics[name]; !ok || !(g == v || math.IsNaN(g) && math.IsNaN(v)) {
				t.Errorf("run %d: %s = %v (present %v), want %v", i, name, g, ok, v)
			}
		}
	}
}
