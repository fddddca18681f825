package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/oe-lab/oe/runner/job"
)

// v1Database writes a database of schema version 1 (testdata/schema_v1.sql)
// holding a run for each seed, with one metric each, and the links of
// experiment_runs: experiment → seeds.
func v1Database(t *testing.T, path string, seeds []uint64, links map[string][]uint64) {
	t.Helper()
	ddl, err := os.ReadFile(filepath.Join("testdata", "schema_v1.sql"))
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{string(ddl), "PRAGMA user_version = 1"}
	for _, seed := range seeds {
		c := canonical(seed)
		stmts = append(stmts,
			fmt.Sprintf(`INSERT INTO runs (key, status, config, dataset, n, dim, lambda, noise, noise_level, algorithm,
				algorithm_version, eval_version, seed, rep, backend, started_at, finished_at)
				VALUES ('%s', 'ok', '%s', 'uniform', 50, 2, 2, '', 0, 'storefake', 3, 1, %d, 0, 'cpu', '', '')`, c.Key, c.JSON, seed),
			fmt.Sprintf("INSERT INTO metrics (run_key, name, value) VALUES ('%s', 'test_error', 0.25)", c.Key))
	}
	for experiment, ss := range links {
		for _, seed := range ss {
			stmts = append(stmts, fmt.Sprintf("INSERT INTO experiment_runs (experiment, run_key) VALUES ('%s', '%s')", experiment, canonical(seed).Key))
		}
	}
	execSQL(t, path, stmts...)
}

// execSQL executes the statements on the database at path, without the
// store: as an older version of it wrote them.
func execSQL(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%v\n%s", err, q)
		}
	}
}

// memberRows lists experiment_runs as "experiment profile seed position
// declared", sorted, naming runs by their seed among seeds.
func memberRows(t *testing.T, s *Store, seeds []uint64) []string {
	t.Helper()
	seedOf := map[string]uint64{}
	for _, seed := range seeds {
		seedOf[canonical(seed).Key] = seed
	}
	rows, err := s.DB().Query("SELECT x.experiment, x.profile, r.key, coalesce(x.position, -1), coalesce(x.declared, 'NULL') FROM experiment_runs x JOIN runs r ON r.id = x.run_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var experiment, profile, key, declared string
		var position int
		if err := rows.Scan(&experiment, &profile, &key, &position, &declared); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %q %d %d %s", experiment, profile, seedOf[key], position, declared))
	}
	sort.Strings(out)
	return out
}

func userVersion(t *testing.T, s *Store) int {
	t.Helper()
	var v int
	if err := s.DB().QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestMigrateVersion1 opens a database of schema version 1: its runs are
// kept, each link of a script to a run is kept with an unknown (empty)
// profile, and the next execution of the script at a profile gives its
// links that profile.
func TestMigrateVersion1(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v1.db")
	seeds := []uint64{1, 2, 3}
	v1Database(t, path, seeds, map[string][]uint64{"general": {1, 2}, "noise": {2}})

	steps := []struct {
		name string
		do   func(s *Store) error
		want []string
	}{
		{"migrated: links kept with an empty profile", nil, []string{
			`general "" 1 -1 NULL`, `general "" 2 -1 NULL`, `noise "" 2 -1 NULL`}},
		{"reopened: nothing changes", nil, []string{
			`general "" 1 -1 NULL`, `general "" 2 -1 NULL`, `noise "" 2 -1 NULL`}},
		{"general runs at quick: its links get the profile", func(s *Store) error {
			return s.RecordExecution(ctx, "general", "quick", "h", []Member{{Key: canonical(2).Key, Declared: "{2}"}, {Key: canonical(3).Key, Declared: "{3}"}})
		}, []string{`general "" 1 -1 NULL`, `general "quick" 2 0 {2}`, `general "quick" 3 1 {3}`, `noise "" 2 -1 NULL`}},
	}
	for _, st := range steps {
		s, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if st.do != nil {
			if err := st.do(s); err != nil {
				t.Fatalf("%s: %v", st.name, err)
			}
		}
		if v := userVersion(t, s); v != schemaVersion {
			t.Errorf("%s: user_version %d, want %d", st.name, v, schemaVersion)
		}
		if got := memberRows(t, s, seeds); !reflect.DeepEqual(got, st.want) {
			t.Errorf("%s: experiment_runs\n%s\nwant\n%s", st.name, strings.Join(got, "\n"), strings.Join(st.want, "\n"))
		}
		for _, seed := range seeds {
			r, err := s.Get(ctx, canonical(seed).Key)
			if err != nil || r.Outcome.Metrics["test_error"] != 0.25 || r.Job.Config.Seed != seed {
				t.Errorf("%s: run %d not kept: %+v, %v", st.name, seed, r, err)
			}
		}
		s.Close()
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	s := open(t, path)
	if _, err := s.DB().Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "is newer than this program's") {
		t.Errorf("Open of a newer schema: %v", err)
	}
}

// TestRecordExecution records executions of scripts one after the other:
// each replaces only the runs that the same script declared at the same
// profile before.
func TestRecordExecution(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	for seed := uint64(1); seed <= 4; seed++ {
		if err := s.Put(ctx, record(seed, 1, 3)); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name, experiment, profile, hash string
		seeds                           []uint64 // declared, in order; 99 is not stored
		wantErr                         string
		want                            map[string][]uint64 // experiment/profile → members, in order
	}{
		{"first execution", "general", "quick", "h1", []uint64{3, 1, 2}, "",
			map[string][]uint64{"general/quick": {3, 1, 2}}},
		{"another profile is another set", "general", "smoke", "h1", []uint64{4}, "",
			map[string][]uint64{"general/quick": {3, 1, 2}, "general/smoke": {4}}},
		{"another script is another set", "noise", "quick", "n1", []uint64{1}, "",
			map[string][]uint64{"general/quick": {3, 1, 2}, "general/smoke": {4}, "noise/quick": {1}}},
		{"the next execution replaces the set", "general", "quick", "h2", []uint64{2, 4}, "",
			map[string][]uint64{"general/quick": {2, 4}, "general/smoke": {4}, "noise/quick": {1}}},
		{"a run declared twice is listed once", "general", "quick", "h3", []uint64{1, 2, 1}, "",
			map[string][]uint64{"general/quick": {1, 2}, "general/smoke": {4}, "noise/quick": {1}}},
		{"an execution declaring no runs", "noise", "quick", "n2", nil, "",
			map[string][]uint64{"general/quick": {1, 2}, "general/smoke": {4}, "noise/quick": nil}},
		{"a run not stored fails and changes nothing", "general", "quick", "h4", []uint64{3, 99}, "not stored",
			map[string][]uint64{"general/quick": {1, 2}, "general/smoke": {4}, "noise/quick": nil}},
	}
	hashes := map[string]string{}
	for _, st := range steps {
		var members []Member
		for _, seed := range st.seeds {
			members = append(members, Member{Key: canonical(seed).Key, Declared: fmt.Sprint(seed)})
		}
		err := s.RecordExecution(ctx, st.experiment, st.profile, st.hash, members)
		if st.wantErr == "" && err != nil || st.wantErr != "" && (err == nil || !strings.Contains(err.Error(), st.wantErr)) {
			t.Fatalf("%s: error %v, want %q", st.name, err, st.wantErr)
		}
		if err == nil {
			hashes[st.experiment+"/"+st.profile] = st.hash
		}
		for set, want := range st.want {
			experiment, profile, _ := strings.Cut(set, "/")
			got, err := s.Members(ctx, experiment, profile)
			if err != nil {
				t.Fatal(err)
			}
			var seeds []uint64
			for _, m := range got {
				var seed uint64
				fmt.Sscan(m.Declared, &seed)
				if m.Key != canonical(seed).Key || m.Dataset != "uniform" || m.Algorithm != "storefake" || m.AlgorithmVersion != 3 || m.EvalVersion < 1 {
					t.Errorf("%s: %s: member %+v", st.name, set, m)
				}
				seeds = append(seeds, seed)
			}
			if !reflect.DeepEqual(seeds, want) {
				t.Errorf("%s: %s declares %v, want %v", st.name, set, seeds, want)
			}
			x, ok, err := s.LastExecution(ctx, experiment, profile)
			if err != nil || !ok || x.ScriptSHA256 != hashes[set] || x.Runs != len(want) || x.Finished.IsZero() {
				t.Errorf("%s: %s: last execution %+v, %v, %v; want hash %s, %d runs", st.name, set, x, ok, err, hashes[set], len(want))
			}
		}
	}
	if _, ok, err := s.LastExecution(ctx, "general", "paper"); ok || err != nil {
		t.Errorf("an execution at a profile never run: %v, %v", ok, err)
	}
}

// TestRetriedRunStaysDeclared: a failed run executed again (--retry-failed)
// by one script stays among the runs of every script that declared it.
func TestRetriedRunStaysDeclared(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "r.db"))
	failed := record(1, 3, 4)
	failed.Status, failed.Error, failed.Outcome = Failed, "diverged (NaN or Inf)", nil
	if err := s.Put(ctx, failed); err != nil {
		t.Fatal(err)
	}
	for _, experiment := range []string{"general", "noise"} {
		if err := s.RecordExecution(ctx, experiment, "quick", "h", []Member{{Key: failed.Job.Key, Declared: "{}"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Put(ctx, record(1, 3, 4)); err != nil {
		t.Fatal(err)
	}
	for _, experiment := range []string{"general", "noise"} {
		m, err := s.Members(ctx, experiment, "quick")
		if err != nil || len(m) != 1 {
			t.Errorf("%s declares %d runs after the retry (%v), want 1", experiment, len(m), err)
		}
	}
	if r, err := s.Get(ctx, failed.Job.Key); err != nil || r.Status != OK || len(r.Outcome.Trace) != 3 {
		t.Errorf("retried run: %+v, %v", r, err)
	}
}

// v2Database writes the frozen database of schema version 2
// (testdata/results_v2.sql) at path.
func v2Database(t *testing.T, path string) {
	t.Helper()
	dump, err := os.ReadFile(filepath.Join("testdata", "results_v2.sql"))
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, path, string(dump))
}

// checkMigrated checks that s, just migrated, is at the current schema
// version, sound, and without foreign key violations.
func checkMigrated(t *testing.T, s *Store) {
	t.Helper()
	if v := userVersion(t, s); v != schemaVersion {
		t.Fatalf("user_version %d, want %d", v, schemaVersion)
	}
	// Version 6: every config compact, and still the config of its key.
	rows, err := s.DB().Query("SELECT key, config FROM runs")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var key, config string
		var c job.Config
		if err := rows.Scan(&key, &config); err != nil {
			t.Fatal(err)
		}
		compact, err := compactConfig([]byte(config))
		if err != nil || string(compact) != config || json.Unmarshal([]byte(config), &c) != nil || !sameKey(c, key) {
			t.Errorf("run %.12s: config %s after the migration, want it compact (%s, %v) and of its key", key, config, compact, err)
		}
	}
	rows.Close()
	if res, err := s.IntegrityCheck(context.Background()); err != nil || res != "ok" {
		t.Errorf("integrity_check = %q, %v", res, err)
	}
	if rows, err := s.DB().Query("PRAGMA foreign_key_check"); err != nil {
		t.Fatal(err)
	} else {
		if rows.Next() {
			t.Error("foreign key violations after the migration")
		}
		rows.Close()
	}
}

// TestMigrateVersion2 opens the frozen database of schema version 2: every
// run, metric (NULL included), trace epoch, embedding (float32 and float64)
// and script execution reads back as version 2 stored it, runs get ids in
// the order they finished, and the migrated database takes new runs and
// merges.
func TestMigrateVersion2(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "v2.db")
	v2Database(t, path)
	s := open(t, path)
	checkMigrated(t, s)
	var tables string
	s.DB().QueryRow("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name)").Scan(&tables)
	if want := "embeddings epochs experiment_runs experiments hosts labels metric_names metric_values metrics runs"; tables != want {
		t.Errorf("tables %q, want %q", tables, want)
	}

	// The values are those the fixture's INSERT statements hold.
	host := "node1 linux/amd64 AMD EPYC 2  go1.26.8 d9e564453c5f78d04b55dd82a91167398a2e8372"
	tests := []struct {
		seed                uint64
		id                  int // by finished_at, then key
		status, stop        string
		metrics             string // name=value, sorted
		epochs              string // epoch:loss:train error
		embedding, encoding string // rows×cols and values, labels
	}{
		{1, 1, OK, "converged", "epochs=120 fit_seconds=3.5 items=3 knn_error=NaN test_error=0.125",
			"50:0.5:0.25 100:0.25:0.125 120:0.125:NaN", "3×2 [0.25 -0 1.25 -0.25 2.25 -0.5] [0 1 2]", encodingF32},
		{2, 2, OK, "max-epochs", "epochs=7 test_error=0.5", "7:2:NaN", "", ""},
		{3, 3, Failed, "", "", "", "", ""},
		{4, 4, OK, "converged", "test_error=0.25", "", "2×2 [0.25 -0 1.25 -0.25] []", encodingF64},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("run %d", tc.seed), func(t *testing.T) {
			key := canonical(tc.seed).Key
			r, err := s.Get(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			var id int
			var enc sql.NullString
			s.DB().QueryRow("SELECT r.id, b.encoding FROM runs r LEFT JOIN embeddings b ON b.run_id = r.id WHERE r.key = ?", key).Scan(&id, &enc)
			h := r.Host
			gotHost := fmt.Sprint(h.Name, " ", h.OS, " ", h.CPU, " ", h.Cores, " ", h.GPU, " ", h.GoVersion, " ", h.Commit)
			if id != tc.id || r.Status != tc.status || r.Job.Config.Seed != tc.seed || gotHost != host || enc.String != tc.encoding || r.View {
				t.Errorf("id %d, status %s, seed %d, host %q, encoding %q, view %v; want %d, %s, %d, %q, %q, false",
					id, r.Status, r.Job.Config.Seed, gotHost, enc.String, r.View, tc.id, tc.status, tc.seed, host, tc.encoding)
			}
			if r.Status == Failed {
				if r.Outcome != nil || r.Error != "diverged (NaN or Inf)" {
					t.Errorf("failed run: outcome %v, error %q", r.Outcome, r.Error)
				}
				return
			}
			o := r.Outcome
			var metrics, epochs []string
			for name, v := range o.Metrics {
				metrics = append(metrics, fmt.Sprintf("%s=%v", name, v))
			}
			sort.Strings(metrics)
			for _, e := range o.Trace {
				epochs = append(epochs, fmt.Sprintf("%d:%v:%v", e.Epoch, e.Loss, e.TrainError))
			}
			emb := ""
			if o.Embedding != nil {
				rows, cols := o.Embedding.Dims()
				emb = fmt.Sprintf("%d×%d %v %v", rows, cols, o.Embedding.RawMatrix().Data, o.Labels)
			}
			got := []string{o.StopReason, strings.Join(metrics, " "), strings.Join(epochs, " "), emb}
			want := []string{tc.stop, tc.metrics, tc.epochs, tc.embedding}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("read back\n%q\nwant\n%q", got, want)
			}
		})
	}

	seeds := []uint64{1, 2, 3, 4}
	wantMembers := []string{`general "quick" 1 0 {"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":1,"keep_embedding":true}`,
		`general "quick" 2 1 {"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":2}`,
		`general "quick" 3 2 {"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":3}`,
		`noise "" 4 -1 NULL`,
		`reproduction "quick" 1 0 {"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":1,"keep_embedding":true}`}
	if got := memberRows(t, s, seeds); !reflect.DeepEqual(got, wantMembers) {
		t.Errorf("experiment_runs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantMembers, "\n"))
	}
	if x, ok, err := s.LastExecution(ctx, "reproduction", "quick"); err != nil || !ok || x.ScriptSHA256 != "a2b3" || x.Runs != 1 ||
		!x.Finished.Equal(time.Date(2026, 11, 20, 10, 5, 0, 0, time.UTC)) {
		t.Errorf("last execution of reproduction: %+v, %v, %v", x, ok, err)
	}
	if _, rows, err := s.RunTable(ctx, "general", "quick"); err != nil || len(rows) != 3 || rows[0][0] != canonical(1).Key {
		t.Errorf("RunTable: %d rows, %v", len(rows), err)
	}

	// Reopening changes nothing; the migrated database takes a new run
	// (the next id), a script execution and a merge.
	before := digest(t, s)
	s.Close()
	s = open(t, path)
	if digest(t, s) != before {
		t.Error("reopening the migrated database changed it")
	}
	put(t, s, record(5, 2, 3))
	var id int
	s.DB().QueryRow("SELECT id FROM runs WHERE key = ?", canonical(5).Key).Scan(&id)
	if id != 5 {
		t.Errorf("new run has id %d, want 5", id)
	}
	recordAt(t, s, "general", "quick", time.Now(), 5, 1)
	shardPath := filepath.Join(dir, "shard.db")
	put(t, open(t, shardPath), record(6, 2, 3), record(2, 1, 1))
	if m, err := s.Merge(ctx, shardPath, 0); err != nil || m != (Merged{Added: 1, Kept: 1}) {
		t.Errorf("merge into the migrated database: %v, %v", m, err)
	}
}

// TestMigrateVersion3 opens the frozen database of schema version 3: each
// distinct labels blob is stored once in labels, the embeddings refer to it,
// every run reads back the embedding and labels version 3 stored, new runs
// share the stored labels, and Prune deletes the labels no embedding keeps.
func TestMigrateVersion3(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v3.db")
	dump, err := os.ReadFile(filepath.Join("testdata", "results_v3.sql"))
	if err != nil {
		t.Fatal(err)
	}
	execSQL(t, path, string(dump))
	// What version 3 stored, by run key: its embedding and labels, decoded.
	want := map[string]string{}
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := raw.Query("SELECT r.key, b.encoding, b.rows, b.cols, b.data, b.labels FROM embeddings b JOIN runs r ON r.id = b.run_id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var key, enc string
		var r, c int
		var data, labels []byte
		if err := rows.Scan(&key, &enc, &r, &c, &data, &labels); err != nil {
			t.Fatal(err)
		}
		x, l, err := decodeEmbedding(enc, r, c, data, labels)
		if err != nil {
			t.Fatal(err)
		}
		want[key[:2*job.KeyBytes]] = fmt.Sprint(mat.Formatted(x), l) // the key's prefix, since version 7
	}
	rows.Close()
	raw.Close()
	if len(want) != 5 {
		t.Fatalf("fixture holds %d embeddings, want 5", len(want))
	}

	s := open(t, path)
	defer s.Close()
	checkMigrated(t, s)
	count := func(q string) int {
		t.Helper()
		var n int
		if err := s.DB().QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Runs 1, 5 and 6, 7 have labels (5 and 6 the same), run 4 none.
	if got := count("SELECT count(*) FROM labels"); got != 3 {
		t.Errorf("%d labels rows, want 3 (one per distinct blob)", got)
	}
	if got := count("SELECT count(*) FROM embeddings WHERE labels_id IS NULL"); got != 1 {
		t.Errorf("%d embeddings without labels, want 1", got)
	}
	for key, w := range want {
		r, err := s.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(mat.Formatted(r.Outcome.Embedding), r.Outcome.Labels); got != w {
			t.Errorf("run %s: %s, want %s", key[:12], got, w)
		}
	}

	// A new run with labels stored before refers to them; one with new
	// labels adds a row.
	put(t, s, record(8, 3, 4), record(9, 3, 6))
	if got := count("SELECT count(*) FROM labels"); got != 4 {
		t.Errorf("%d labels rows after two runs (one with known labels), want 4", got)
	}
	if r, err := s.Get(ctx, canonical(8).Key); err != nil || fmt.Sprint(r.Outcome.Labels) != "[0 1 2 3]" {
		t.Errorf("run 8's labels %v, %v; want [0 1 2 3]", r.Outcome.Labels, err)
	}
	// Prune deletes labels no embedding refers to any more.
	if _, err := s.DB().Exec("DELETE FROM embeddings WHERE run_id IN (SELECT id FROM runs WHERE key = ?)", canonical(9).Key); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Prune(ctx, PruneRules{}); err != nil {
		t.Fatal(err)
	}
	if got := count("SELECT count(*) FROM labels"); got != 3 {
		t.Errorf("%d labels rows after Prune, want 3 (run 9's gone with its embedding)", got)
	}
}
