package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/runner/hostinfo"
	"github.com/oe-lab/oe/runner/job"
)

// Statuses of a stored run.
const (
	OK     = "ok"
	Failed = "failed"
)

// DefaultMaxEmbedding is the default limit, in values (rows × columns), up to
// which a run's embedding is stored: 2D embeddings of up to 100,000 items, or
// 2,000 items in 50 dimensions.
const DefaultMaxEmbedding = 200_000

// busyTimeout is how long a writer waits for another process's transaction.
const busyTimeout = 60 * time.Second

// pageSize is the database's page size in bytes, set when Open creates the
// file and by Vacuum on a file that has another. Measured on results.db at
// 7,224 runs, vacuumed: 11.26 MB with 8 KiB pages, 11.67 MB with SQLite's
// default 4 KiB (2 KiB 12.15 MB, 16 KiB 11.58 MB, 64 KiB 11.73 MB).
const pageSize = 8192

// Store is an open results database.
type Store struct {
	db   *sql.DB
	path string
	// MaxEmbedding is the largest embedding, in values, that Put stores;
	// 0 stores none, a negative value stores all.
	MaxEmbedding int
}

// Record is one run as stored.
type Record struct {
	// Job is the run's canonical config and key. Read back, Job.JSON is
	// the config as runs.config stores it, without its members of zero
	// value (compactConfig); Job.Config decodes from it as it was.
	Job job.Canonical
	// Status is OK or Failed; Error says why a run failed.
	Status string
	Error  string
	// Outcome is the result of an OK run (nil for a failed one). Put stores
	// its embedding, if it has one within MaxEmbedding, as float32 (a view
	// quantized to 10 bits: encodingQ10), and of
	// its trace the epochs storedEpochs keeps; read back, Outcome holds what
	// was stored (Embedding nil if none).
	Outcome *job.Outcome
	// View says that Outcome.Embedding is not the run's embedding but the
	// 2-D view of it that a report draws (runner/exp), and Outcome.Labels
	// the classes of the view's items (embeddings.kind 'view').
	View bool
	// Start and End bound the run's execution.
	Start, End time.Time
	// Host is where it ran.
	Host hostinfo.Host
}

// Open opens (creating if needed) the database at path, in WAL mode with a
// busy timeout, and brings its schema up to date.
func Open(path string) (*Store, error) {
	if err := create(path); err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "1")
	q.Set("_txlock", "immediate") // take the write lock at BEGIN: no upgrade deadlocks
	q.Set("_synchronous", "NORMAL")
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{db: db, path: path, MaxEmbedding: DefaultMaxEmbedding}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	return s, nil
}

// create makes path an empty database with pageSize pages in WAL mode if
// it does not exist or is empty: the page size has to be set before the
// first table and before WAL mode, which keeps the page size it finds.
func create(path string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.Size() > 0:
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("store: %w", err)
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		return fmt.Errorf("store: open %s: %w", path, err)
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf("PRAGMA page_size = %d; PRAGMA journal_mode = WAL", pageSize)); err != nil {
		return fmt.Errorf("store: create %s: %w", path, err)
	}
	return db.Close()
}

// OpenReadOnly opens the existing database at path for reading only: it
// fails if the file does not exist (rather than creating an empty database)
// and writes nothing to it, not even a schema migration. A database of an
// older schema version is refused with the command that migrates it.
func OpenReadOnly(path string) (*Store, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("store: %s is not a database file", path)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: %s: %w", path, err)
	}
	if v != schemaVersion {
		db.Close()
		switch {
		case v == 0:
			return nil, fmt.Errorf("store: %s is not a results database (it has no schema)", path)
		case v > schemaVersion:
			return nil, fmt.Errorf("store: %s: schema version %d is newer than this program's %d", path, v, schemaVersion)
		}
		return nil, fmt.Errorf("store: %s has schema version %d, this program reads version %d (running an experiment script on it with oerun run migrates it)", path, v, schemaVersion)
	}
	return &Store{db: db, path: path}, nil
}

func (s *Store) migrate() error {
	// The transaction takes the write lock at BEGIN (_txlock=immediate) and
	// reads the version under it, so that of two processes opening an old
	// database the second finds it migrated.
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v > schemaVersion {
		return fmt.Errorf("schema version %d is newer than this program's %d", v, schemaVersion)
	}
	if v == 0 { // a new, empty database
		if _, err := tx.Exec(schemaV3); err != nil {
			return err
		}
		v = 3
	}
	for ; v < schemaVersion; v++ {
		if m, ok := migrations[v]; ok {
			if _, err := tx.Exec(m); err != nil {
				return fmt.Errorf("migrating schema version %d to %d: %w", v, v+1, err)
			}
		}
		if m, ok := migrationsInGo[v]; ok {
			if err := m(context.Background(), tx); err != nil {
				return fmt.Errorf("migrating schema version %d to %d: %w", v, v+1, err)
			}
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// DB returns the underlying database for read-only queries.
func (s *Store) DB() *sql.DB { return s.db }

// IntegrityCheck runs PRAGMA integrity_check and returns its verdict ("ok"
// for a sound database).
func (s *Store) IntegrityCheck(ctx context.Context) (string, error) {
	var res string
	err := s.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&res)
	return res, err
}

// Statuses returns the stored status (OK or Failed) of each of keys that is
// in the database.
func (s *Store) Statuses(ctx context.Context, keys []string) (map[string]string, error) {
	out := make(map[string]string, len(keys))
	err := s.eachByKeys(ctx, "SELECT key, status FROM runs WHERE key IN (%s)", keys, func(rows *sql.Rows) error {
		var k, st string
		if err := rows.Scan(&k, &st); err != nil {
			return err
		}
		out[k] = st
		return nil
	})
	return out, err
}

// Summary is what Summaries reads of a stored run: its status and, for an
// OK run, its metrics and stop reason; not its trace or embedding.
type Summary struct {
	Status     string
	StopReason string
	Metrics    map[string]float64
}

// Summaries returns the Summary of each of keys that is in the database: what
// a script reads of its runs to decide what it declares next (runner's
// Declare), in a few queries where Get takes several a run.
func (s *Store) Summaries(ctx context.Context, keys []string) (map[string]Summary, error) {
	out := make(map[string]Summary, len(keys))
	// A run without metrics (a failed one) is one row of NULL name and value.
	const query = `SELECT r.key, r.status, r.stop_reason, n.name, v.value FROM runs r
		LEFT JOIN metric_values v ON v.run_id = r.id LEFT JOIN metric_names n ON n.id = v.metric_id
		WHERE r.key IN (%s)`
	err := s.eachByKeys(ctx, query, keys, func(rows *sql.Rows) error {
		var k, st, stop string
		var name sql.NullString
		var v sql.NullFloat64
		if err := rows.Scan(&k, &st, &stop, &name, &v); err != nil {
			return err
		}
		sum, ok := out[k]
		if !ok {
			sum = Summary{Status: st}
			if st == OK {
				sum.StopReason, sum.Metrics = stop, map[string]float64{}
			}
		}
		if name.Valid && sum.Metrics != nil {
			sum.Metrics[name.String] = orNaN(v)
		}
		out[k] = sum
		return nil
	})
	return out, err
}

// eachByKeys runs query, whose "%s" is the list of bound keys its WHERE
// clause takes, for keys in batches below SQLite's bound-variable limit,
// and calls scan for each row.
func (s *Store) eachByKeys(ctx context.Context, query string, keys []string, scan func(*sql.Rows) error) error {
	const batch = 500
	for from := 0; from < len(keys); from += batch {
		part := keys[from:min(from+batch, len(keys))]
		args := make([]any, len(part))
		for i, k := range part {
			args[i] = k
		}
		rows, err := s.db.QueryContext(ctx, fmt.Sprintf(query, placeholders(len(part))), args...)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		for rows.Next() && err == nil {
			err = scan(rows)
		}
		if err == nil {
			err = rows.Err()
		}
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

func placeholders(n int) string {
	b := make([]byte, 0, 2*n)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '?')
	}
	return string(b)
}

// Put stores a run in one transaction. An OK run already stored (by a
// concurrent process) is kept and Put returns nil; a stored failed run is
// replaced. Which scripts declared the run is recorded by RecordExecution.
func (s *Store) Put(ctx context.Context, r Record) error {
	if r.Status != OK && r.Status != Failed {
		return fmt.Errorf("store: status %q, want ok or failed", r.Status)
	}
	if r.Status == OK && r.Outcome == nil {
		return errors.New("store: an ok run needs an outcome")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	var prev string
	switch err := tx.QueryRowContext(ctx, "SELECT status FROM runs WHERE key = ?", r.Job.Key).Scan(&prev); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return fmt.Errorf("store: %w", err)
	case prev == OK:
		return nil
	}
	if err := s.insert(ctx, tx, r); err != nil {
		return fmt.Errorf("store: run %s: %w", r.Job.Key[:12], err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// runColumns are the columns of runs that insert writes, in its order: all
// but the id, which SQLite assigns.
var runColumns = []string{"key", "status", "error", "config", "dataset", "stands_in_for", "n", "dim",
	"lambda", "noise", "noise_level", "algorithm", "algorithm_version", "eval_version", "seed", "rep", "backend", "stop_reason",
	"threads", "started_at", "finished_at", "host_id"}

// upsertRun writes a run and returns its id, overwriting a stored failed one
// in place: an UPDATE rather than DELETE and INSERT, which keeps the run's id
// and whose ON DELETE CASCADE would take the run out of experiment_runs for
// every script that declared it. (A failed run has no metrics, epochs or
// embeddings rows to replace.)
var upsertRun = func() string {
	set := make([]string, len(runColumns)-1)
	for i, c := range runColumns[1:] {
		set[i] = c + " = excluded." + c
	}
	return "INSERT INTO runs (" + strings.Join(runColumns, ", ") + ") VALUES (" + placeholders(len(runColumns)) +
		") ON CONFLICT (key) DO UPDATE SET " + strings.Join(set, ", ") + " RETURNING id"
}()

func (s *Store) insert(ctx context.Context, tx *sql.Tx, r Record) error {
	c := r.Job.Config
	var stop string
	var threads int
	if r.Outcome != nil {
		stop, threads = r.Outcome.StopReason, r.Outcome.Threads
	}
	host, err := hostRow(ctx, tx, r.Host)
	if err != nil {
		return err
	}
	config, err := compactConfig(r.Job.JSON)
	if err != nil {
		return fmt.Errorf("run %s: %w", r.Job.Key, err)
	}
	var id int64
	err = tx.QueryRowContext(ctx, upsertRun,
		r.Job.Key, r.Status, r.Error, string(config), c.Dataset, c.StandsInFor, c.N, c.Dim,
		c.Lambda, c.Noise, c.NoiseLevel, c.Algorithm, r.Job.Version, job.EvalVersion, int64(c.Seed), c.Rep, c.Backend, stop,
		threads, r.Start.UTC().Format(time.RFC3339Nano), r.End.UTC().Format(time.RFC3339Nano), host).Scan(&id)
	if err != nil || r.Outcome == nil {
		return err
	}
	o := r.Outcome
	names := make([]string, 0, len(o.Metrics))
	for k := range o.Metrics {
		names = append(names, k)
	}
	sort.Strings(names)
	name, err := tx.PrepareContext(ctx, "INSERT INTO metric_names (name) VALUES (?) ON CONFLICT (name) DO NOTHING")
	if err != nil {
		return err
	}
	defer name.Close()
	value, err := tx.PrepareContext(ctx, "INSERT INTO metric_values (run_id, metric_id, value) SELECT ?, id, ? FROM metric_names WHERE name = ?")
	if err != nil {
		return err
	}
	defer value.Close()
	for _, k := range names {
		if _, err := name.ExecContext(ctx, k); err != nil {
			return err
		}
		if _, err := value.ExecContext(ctx, id, nullable(o.Metrics[k]), k); err != nil {
			return err
		}
	}
	ep, err := tx.PrepareContext(ctx, "INSERT INTO epochs (run_id, epoch, loss, train_error, elapsed_seconds) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer ep.Close()
	for _, e := range storedEpochs(o.Trace) {
		if _, err := ep.ExecContext(ctx, id, e.Epoch, nullable(e.Loss), nullable(e.TrainError), e.Elapsed.Seconds()); err != nil {
			return err
		}
	}
	if o.Embedding != nil {
		rows, cols := o.Embedding.Dims()
		if s.MaxEmbedding < 0 || rows*cols <= s.MaxEmbedding {
			kind, enc := kindFull, encodingF32
			if r.View {
				kind, enc = kindView, encodingQ10
			}
			data, labels, err := encodeEmbedding(o.Embedding, o.Labels, enc)
			if err != nil {
				return err
			}
			var labelsID sql.NullInt64
			if labels != nil {
				if labelsID.Int64, err = labelsRow(ctx, tx, labels); err != nil {
					return err
				}
				labelsID.Valid = true
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO embeddings (run_id, kind, rows, cols, encoding, data, labels_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
				id, kind, rows, cols, enc, data, labelsID); err != nil {
				return err
			}
		}
	}
	return nil
}

// hostRow returns the id of the hosts row of h, adding it if no run has
// recorded that machine and build before.
func hostRow(ctx context.Context, tx *sql.Tx, h hostinfo.Host) (int64, error) {
	if _, err := tx.ExecContext(ctx, `INSERT INTO hosts (host, os, cpu, cores, gpu, go_version, git_commit) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, h.Name, h.OS, h.CPU, h.Cores, h.GPU, h.GoVersion, h.Commit); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM hosts WHERE host = ? AND os = ? AND cpu = ? AND cores = ? AND gpu = ?
		AND go_version = ? AND git_commit = ?`, h.Name, h.OS, h.CPU, h.Cores, h.GPU, h.GoVersion, h.Commit).Scan(&id)
	return id, err
}

// labelsRow returns the id of the labels row holding the encoded labels
// blob, adding it if no embedding has stored those labels before.
func labelsRow(ctx context.Context, tx *sql.Tx, blob []byte) (int64, error) {
	if _, err := tx.ExecContext(ctx, "INSERT INTO labels (data) VALUES (?) ON CONFLICT (data) DO NOTHING", blob); err != nil {
		return 0, err
	}
	var id int64
	err := tx.QueryRowContext(ctx, "SELECT id FROM labels WHERE data = ?", blob).Scan(&id)
	return id, err
}

// storedEpochs returns the epochs of a trace that Put stores. A trace
// measured at every epoch is a convergence curve (a run without the stopping
// rule, job.Config.NoStop, which the reports draw): it keeps its first
// denseEpochs epochs and then every traceStride-th, and its last. A curve of
// 500 epochs drawn at most 1,000 pixels wide loses nothing to the eye, and
// its rows were 20 kB a run. A trace measured only at the stopping rule's
// checks (every 50 epochs by default: lib/embed's StopRule) is not stored:
// the run's final train error, epochs and time to converge are metrics, and
// no report reads the checks before. They were 1.25 MB of 11.5 (34,219 rows
// of 7,578 runs) in the campaign database of 2026-11-27, which travels with
// the code, and the loss of the epochs between checks was most of the
// quick profile's database before (82,320 rows of 778 runs). pruneEpochs
// applies the same rules to the rows of a database written before.
func storedEpochs(trace []embed.Epoch) []embed.Epoch {
	for _, e := range trace {
		if nullable(e.TrainError) == nil {
			return nil // a trace of checks
		}
	}
	var out []embed.Epoch
	for i, e := range trace {
		if e.Epoch <= denseEpochs || e.Epoch%traceStride == 0 || i == len(trace)-1 {
			out = append(out, e)
		}
	}
	return out
}

// A trace measured at every epoch is stored at epochs 1 to denseEpochs, where
// the train error falls fastest, then at every traceStride-th (a divisor of
// the stopping rule's 50, so that the epochs the reports read, 200 and 500,
// stay).
const (
	denseEpochs = 20
	traceStride = 5
)

// nullable stores NaN and ±Inf as NULL, which SQLite has no REAL for.
func nullable(v float64) any {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}
