package store

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/job"
)

// failed returns a failed run of the given seed.
func failed(seed uint64) Record {
	return Record{Job: canonical(seed), Status: Failed, Error: "diverged", Start: time.Unix(100, 0), End: time.Unix(101, 0)}
}

// withTestError returns r with another test error: the same run computed
// again elsewhere.
func withTestError(r Record, v float64) Record {
	o := *r.Outcome
	o.Metrics = map[string]float64{}
	for k, x := range r.Outcome.Metrics {
		o.Metrics[k] = x
	}
	o.Metrics["test_error"] = v
	r.Outcome = &o
	return r
}

func put(t *testing.T, s *Store, recs ...Record) {
	t.Helper()
	for _, r := range recs {
		if err := s.Put(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

// recordAt records an execution of experiment at profile finished at the
// given time.
func recordAt(t *testing.T, s *Store, experiment, profile string, finished time.Time, seeds ...uint64) {
	t.Helper()
	var members []Member
	for _, seed := range seeds {
		members = append(members, Member{Key: canonical(seed).Key, Declared: fmt.Sprintf(`{"seed":%d}`, seed)})
	}
	if err := s.RecordExecution(context.Background(), experiment, profile, "sha-"+experiment, members); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DB().Exec("UPDATE experiments SET finished_at = ? WHERE experiment = ? AND profile = ?",
		finished.UTC().Format(time.RFC3339Nano), experiment, profile); err != nil {
		t.Fatal(err)
	}
}

// digest is a hash of every row of every table of the database, which tells
// whether anything changed.
func digest(t *testing.T, s *Store) string {
	t.Helper()
	h := sha256.New()
	for _, q := range []string{
		"SELECT id, " + strings.Join(runColumns, ", ") + " FROM runs ORDER BY key",
		"SELECT id, name FROM metric_names ORDER BY id",
		"SELECT r.key, m.name, m.value FROM metrics m JOIN runs r ON r.id = m.run_id ORDER BY r.key, m.name",
		"SELECT r.key, e.epoch, e.loss, e.train_error, e.elapsed_seconds FROM epochs e JOIN runs r ON r.id = e.run_id ORDER BY r.key, e.epoch",
		"SELECT r.key, b.kind, b.rows, b.cols, b.encoding, hex(b.data), hex(l.data) FROM embeddings b JOIN runs r ON r.id = b.run_id LEFT JOIN labels l ON l.id = b.labels_id ORDER BY r.key",
		"SELECT x.experiment, x.profile, r.key, x.position, x.declared FROM experiment_runs x JOIN runs r ON r.id = x.run_id ORDER BY x.experiment, x.profile, r.key",
		"SELECT experiment, profile, script_sha256, runs, finished_at FROM experiments ORDER BY experiment, profile",
	} {
		rows, err := s.DB().Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(h, vals...)
		}
		rows.Close()
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestMerge(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	dst := open(t, filepath.Join(dir, "results.db"))
	shardPath := filepath.Join(dir, "shard.db")
	shard := open(t, shardPath)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

	// The database: 1 ok, 2 failed, 3 ok; executions a (older than the
	// shard's) and c (newer), z (the shard has none).
	put(t, dst, record(1, 5, 4), failed(2), record(3, 5, 4))
	recordAt(t, dst, "a", "quick", t0, 1)
	recordAt(t, dst, "c", "quick", t0.Add(time.Hour), 3)
	recordAt(t, dst, "z", "smoke", t0, 1, 2)
	// The shard: 1 computed again (another test error), 2 ok, 4 ok, 5
	// failed; a newer execution of a, an older one of c, a new one b. Its
	// ids and metric ids differ from the database's: run 4, stored first
	// with its view, measured "queries", a metric the database lacks, which
	// sorts before "test_error", on another machine (the shard's host 1; the
	// others ran where the database's did, its host 1, the shard's 2).
	four := record(4, 3, 2)
	four.Outcome.Metrics[job.Queries] = 7
	four.View = true
	four.Host = hostinfo.Host{Name: "gpu1", OS: "linux/amd64", CPU: "Xeon", Cores: 16, GPU: "H200", GoVersion: "go1.26.8", Commit: "abc"}
	put(t, shard, four, withTestError(record(1, 5, 4), 0.5), record(2, 7, 6), failed(5))
	recordAt(t, shard, "a", "quick", t0.Add(time.Minute), 1, 2, 4)
	recordAt(t, shard, "c", "quick", t0, 4)
	recordAt(t, shard, "b", "paper", t0, 5)

	got, err := dst.Merge(ctx, shardPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Merged{Added: 2, Replaced: 1, Kept: 1, Executions: 2}); got != want {
		t.Errorf("merge: %v, want %v", got, want)
	}
	checks := []struct {
		name, query, want string
	}{
		{"run 1 keeps the database's result", fmt.Sprintf("SELECT m.value FROM metrics m JOIN runs r ON r.id = m.run_id WHERE r.key = '%s' AND m.name = 'test_error'", canonical(1).Key), "0.125"},
		{"failed run 2 is replaced by the shard's ok one", fmt.Sprintf("SELECT status || ' ' || (SELECT count(*) FROM epochs WHERE run_id = id) || ' ' || (SELECT rows FROM embeddings WHERE run_id = id) FROM runs WHERE key = '%s'", canonical(2).Key), "ok 7 6"},
		{"failed run 2 keeps its id", fmt.Sprintf("SELECT id FROM runs WHERE key = '%s'", canonical(2).Key), "2"},
		{"labels are stored once (of 2, 4 and 6 items; the shard's of 4 are the database's)", "SELECT count(*) FROM labels", "3"},
		{"run 4 is added whole", fmt.Sprintf("SELECT (SELECT count(*) FROM epochs WHERE run_id = id) || ' ' || (SELECT cols || ' ' || kind FROM embeddings WHERE run_id = id) FROM runs WHERE key = '%s'", canonical(4).Key), "3 2 view"},
		{"run 4's metrics keep their names", fmt.Sprintf("SELECT group_concat(name || '=' || coalesce(value, 'NULL'), ' ') FROM (SELECT m.name, m.value FROM metrics m JOIN runs r ON r.id = m.run_id WHERE r.key = '%s' ORDER BY m.name)", canonical(4).Key),
			"epochs=3.0 knn_error=NULL queries=7.0 test_error=0.125"},
		{"hosts are stored once, the shard's matched to the database's by content (this machine, the failed runs' unknown one, gpu1)", "SELECT count(*) FROM hosts", "3"},
		{"run 4 keeps its machine", fmt.Sprintf("SELECT h.host || ' ' || h.gpu || ' ' || h.cores FROM runs r JOIN hosts h ON h.id = r.host_id WHERE r.key = '%s'", canonical(4).Key), "gpu1 H200 16"},
		{"run 2 takes the database's id of its machine", fmt.Sprintf("SELECT host_id FROM runs WHERE key = '%s'", canonical(2).Key), "1"},
		{"added runs get the next ids", "SELECT group_concat(id || ':' || seed, ' ') FROM (SELECT id, seed FROM runs ORDER BY id)", "1:1 2:2 3:3 4:4 5:5"},
		{"failed run 5 is added", fmt.Sprintf("SELECT status || ' ' || error FROM runs WHERE key = '%s'", canonical(5).Key), "failed diverged"},
		{"the shard's newer execution of a replaces the database's", "SELECT group_concat(declared, ' ') FROM (SELECT declared FROM experiment_runs WHERE experiment = 'a' ORDER BY position)", `{"seed":1} {"seed":2} {"seed":4}`},
		{"the database's newer execution of c stays", "SELECT group_concat(declared) FROM experiment_runs WHERE experiment = 'c'", `{"seed":3}`},
		{"the shard's execution of b is added", "SELECT profile || ' ' || runs || ' ' || finished_at FROM experiments WHERE experiment = 'b'", "paper 1 " + t0.Format(time.RFC3339Nano)},
		{"z, which the shard lacks, stays", "SELECT count(*) FROM experiment_runs WHERE experiment = 'z'", "2"},
	}
	for _, c := range checks {
		var v sql.NullString
		if err := dst.DB().QueryRow(c.query).Scan(&v); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if v.String != c.want {
			t.Errorf("%s: got %q, want %q", c.name, v.String, c.want)
		}
	}
	for seed, want := range map[uint64]string{2: "[0 1 2 3 0 1]", 4: "[0 1]", 3: "[0 1 2 3]"} {
		if r, err := dst.Get(ctx, canonical(seed).Key); err != nil || fmt.Sprint(r.Outcome.Labels) != want {
			t.Errorf("run %d's labels: %v, %v; want %s", seed, r.Outcome.Labels, err, want)
		}
	}
	if res, err := dst.IntegrityCheck(ctx); err != nil || res != "ok" {
		t.Errorf("integrity_check = %q, %v", res, err)
	}
	var violations int
	rows, err := dst.DB().Query("PRAGMA foreign_key_check")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		violations++
	}
	rows.Close()
	if violations != 0 {
		t.Errorf("%d foreign key violations", violations)
	}

	// Merging again changes nothing.
	before := digest(t, dst)
	again, err := dst.Merge(ctx, shardPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Merged{Kept: 4}); again != want {
		t.Errorf("second merge: %v, want %v", again, want)
	}
	if digest(t, dst) != before {
		t.Error("merging the shard a second time changed the database")
	}
}

func TestMergeRefuses(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// shard prepares the shard at path; it returns the path to merge.
		shard func(t *testing.T, path string) string
		want  []string
	}{
		{"a missing file", func(t *testing.T, path string) string { return path + ".missing" },
			[]string{"shard.db.missing", "no such file"}},
		{"another schema version", func(t *testing.T, path string) string {
			s := open(t, path)
			put(t, s, record(7, 2, 2))
			if _, err := s.DB().Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion+1)); err != nil {
				t.Fatal(err)
			}
			return path
		}, []string{"shard.db", fmt.Sprintf("schema version %d", schemaVersion+1), fmt.Sprintf("version %d", schemaVersion)}},
		{"a file that is no oe database", func(t *testing.T, path string) string {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}, []string{"shard.db", "schema version 0"}},
		{"one key, another config", func(t *testing.T, path string) string {
			s := open(t, path)
			put(t, s, record(7, 2, 2), record(1, 5, 4))
			if _, err := s.DB().Exec("UPDATE runs SET config = replace(config, '\"n\":50', '\"n\":51') WHERE key = ?", canonical(1).Key); err != nil {
				t.Fatal(err)
			}
			return path
		}, []string{"shard.db", "1 runs conflict", canonical(1).Key, `"n":51`, "nothing was merged"}},
		{"the database itself", func(t *testing.T, path string) string { return filepath.Join(filepath.Dir(path), "results.db") },
			[]string{"the database itself"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			dst := open(t, filepath.Join(dir, "results.db"))
			put(t, dst, record(1, 5, 4), failed(2))
			before := digest(t, dst)
			shard := tc.shard(t, filepath.Join(dir, "shard.db"))
			_, err := dst.Merge(ctx, shard, 0)
			if err == nil {
				t.Fatal("merged")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if digest(t, dst) != before {
				t.Error("the refused merge changed the database")
			}
		})
	}
}

// TestMergeIntoDatabaseBeingWritten: while another process holds the write
// lock, Merge waits, then fails saying so, and merges once the lock is gone.
func TestMergeIntoDatabaseBeingWritten(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "results.db")
	dst := open(t, path)
	shardPath := filepath.Join(dir, "shard.db")
	put(t, open(t, shardPath), record(4, 3, 2))
	writer := open(t, path)
	tx, err := writer.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("DELETE FROM runs WHERE key = 'none'"); err != nil {
		t.Fatal(err)
	}
	_, err = dst.Merge(ctx, shardPath, 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "another process is writing "+path) || !strings.Contains(err.Error(), "nothing was merged") {
		t.Fatalf("error %v, want one that says another process is writing %s", err, path)
	}
	tx.Rollback()
	if got, err := dst.Merge(ctx, shardPath, 100*time.Millisecond); err != nil || got.Added != 1 {
		t.Fatalf("merge after the writer finished: %v, %v", got, err)
	}
}

const (
	mergeChildEnv = "OE_STORE_MERGE_CHILD" // "results.db:shard.db"
	// bigShardRuns makes a shard whose merge outlasts the 50–150 ms after
	// which the test kills it: 40 runs took 160–250 ms to merge at schema
	// version 3 (on a loaded 2-core machine), so that one kill in six came
	// after the commit.
	bigShardRuns = 80
)

// mergeUntilKilled merges a shard into a database, printing "merging"
// before and "merged" after; the test kills it in between.
func mergeUntilKilled(paths string) {
	dst, shard, _ := strings.Cut(paths, ":")
	s, err := Open(dst)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("merging")
	if _, err := s.Merge(context.Background(), shard, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("merged")
	os.Exit(0)
}

// TestKillMidMergeLeavesDatabaseAsBefore kills (SIGKILL) a process in the
// middle of merging a large shard: the database is as it was before, sound
// and writable, and merging again then takes the whole shard.
func TestKillMidMergeLeavesDatabaseAsBefore(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "results.db")
	shardPath := filepath.Join(dir, "shard.db")
	dst := open(t, path)
	put(t, dst, record(1, 5, 4), failed(2))
	recordAt(t, dst, "a", "quick", time.Unix(0, 0), 1)
	shard := open(t, shardPath)
	shard.MaxEmbedding = -1
	for seed := uint64(2); seed < 2+bigShardRuns; seed++ {
		put(t, shard, bigRecord(seed, childEpochs*8, 5000))
	}
	recordAt(t, shard, "a", "quick", time.Now(), 2, 3)
	shard.Close()
	before := digest(t, dst)

	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), mergeChildEnv+"="+path+":"+shardPath)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "merging" {
	}
	time.Sleep(time.Duration(50+time.Now().UnixNano()%100) * time.Millisecond)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	rest := ""
	for sc.Scan() {
		rest += sc.Text()
	}
	cmd.Wait()
	if rest != "" || stderr.Len() > 0 {
		t.Fatalf("the child was to be killed mid-merge, but it said %q %q", rest, stderr.String())
	}

	if res, err := dst.IntegrityCheck(ctx); err != nil || res != "ok" {
		t.Fatalf("integrity_check = %q, %v", res, err)
	}
	if digest(t, dst) != before {
		t.Fatal("the killed merge changed the database")
	}
	got, err := dst.Merge(ctx, shardPath, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Merged{Added: bigShardRuns - 1, Replaced: 1, Executions: 1}); got != want {
		t.Errorf("merge after the kill: %v, want %v", got, want)
	}
}

// ExampleStore_Merge folds a shard's run into a database; merging the shard
// again changes nothing.
func ExampleStore_Merge() {
	dir, _ := os.MkdirTemp("", "merge")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	shard, err := Open(filepath.Join(dir, "shard.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := job.Config{Dataset: "uniform", N: 100, Dim: 2, Lambda: 2, Algorithm: "storefake", Seed: 1}.Normalize()
	shard.Put(ctx, Record{Job: c, Status: Failed, Error: "diverged", Start: time.Now(), End: time.Now()})
	shard.Close()
	dst, err := Open(filepath.Join(dir, "results.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer dst.Close()
	for i := 0; i < 2; i++ {
		m, err := dst.Merge(ctx, filepath.Join(dir, "shard.db"), 0)
		fmt.Println(m, err)
	}
	// Output:
	// 1 runs added, 0 replaced, 0 kept; 0 executions <nil>
	// 0 runs added, 0 replaced, 1 kept; 0 executions <nil>
}
