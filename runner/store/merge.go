package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
)

// Merged counts what Merge took from a shard.
type Merged struct {
	// Added runs were not in the database; Replaced ones were, as failed,
	// and the shard has them ok; Kept ones the database already held (ok, or
	// failed as in the shard), so they stay as they were.
	Added, Replaced, Kept int
	// Executions are the script executions (experiments rows, with their
	// experiment_runs) taken from the shard because they are newer.
	Executions int
}

// String reads like "12 runs added, 1 replaced, 3 kept; 2 executions".
func (m Merged) String() string {
	return fmt.Sprintf("%d runs added, %d replaced, %d kept; %d executions", m.Added, m.Replaced, m.Kept, m.Executions)
}

// Add returns the sum of two counts.
func (m Merged) Add(o Merged) Merged {
	return Merged{Added: m.Added + o.Added, Replaced: m.Replaced + o.Replaced, Kept: m.Kept + o.Kept, Executions: m.Executions + o.Executions}
}

// Merge folds the database at shard — another oerun's results, such as one
// task's of a Slurm array (oerun run --shard) — into s, in one transaction:
// all of it or, on any error or a kill, nothing. Merging the same shard twice
// changes nothing.
//
// A run whose key s lacks is copied whole (its metrics, epochs and
// embedding); a run s holds as failed is replaced by the shard's ok one; any
// other run s holds stays as it is. A script execution at a profile
// (experiments, with the runs it declared in experiment_runs) is taken when
// s has none or an older one: the latest complete execution wins, as
// RecordExecution's replacement does in one database.
//
// Merge refuses a shard whose schema version differs from s's, and one that
// holds a key of s with another config or versions (two builds that disagree
// on what the key means); errors name the file and the run. It waits up to
// wait (≤ 0: the busy timeout of Open, 60 s) for another process that is
// writing s, then gives up with an error that says so.
func (s *Store) Merge(ctx context.Context, shard string, wait time.Duration) (Merged, error) {
	var m Merged
	fail := func(format string, a ...any) (Merged, error) {
		return Merged{}, fmt.Errorf("store: merge %s into %s: "+format, append([]any{shard, s.path}, a...)...)
	}
	if _, err := os.Stat(shard); err != nil {
		return fail("%w", err)
	}
	if same, err := sameFile(shard, s.path); err != nil {
		return fail("%w", err)
	} else if same {
		return fail("it is the database itself")
	}
	if wait <= 0 {
		wait = busyTimeout
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fail("%w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", wait.Milliseconds())); err != nil {
		return fail("%w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("PRAGMA busy_timeout = %d", busyTimeout.Milliseconds()))
	q := url.Values{}
	q.Set("mode", "ro")
	if _, err := conn.ExecContext(ctx, "ATTACH DATABASE ? AS shard", "file:"+shard+"?"+q.Encode()); err != nil {
		return fail("%w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DETACH DATABASE shard")
	var v int
	if err := conn.QueryRowContext(ctx, "PRAGMA shard.user_version").Scan(&v); err != nil {
		return fail("%w", err)
	}
	if v != schemaVersion {
		return fail("the shard has schema version %d, %s has version %d: merge only databases of one oerun version (oerun run migrates an older database when it opens it)", v, filepath.Base(s.path), schemaVersion)
	}
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE: takes the write lock now
	if err != nil {
		if isBusy(err) {
			return fail("another process is writing %s (still locked after %v): merge when it has finished; nothing was merged", s.path, wait)
		}
		return fail("begin: %w", err)
	}
	defer tx.Rollback()
	if err := conflicts(ctx, tx); err != nil {
		return fail("%w; nothing was merged", err)
	}
	if m, err = mergeRuns(ctx, tx); err != nil {
		return fail("%w", err)
	}
	if m.Executions, err = mergeExecutions(ctx, tx); err != nil {
		return fail("%w", err)
	}
	if err := tx.Commit(); err != nil {
		if isBusy(err) {
			return fail("another process is reading or writing %s (commit locked after %v); nothing was merged", s.path, wait)
		}
		return fail("commit: %w", err)
	}
	return m, nil
}

// conflicts returns an error naming the first run that the shard and the
// database hold under one key with different configs or versions.
func conflicts(ctx context.Context, tx *sql.Tx) error {
	const where = `FROM shard.runs r JOIN main.runs m ON m.key = r.key
		WHERE r.config != m.config OR r.algorithm_version != m.algorithm_version OR r.eval_version != m.eval_version`
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) "+where).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	var key, shardCfg, mainCfg string
	var shardAlg, mainAlg, shardEval, mainEval int
	err := tx.QueryRowContext(ctx, "SELECT r.key, r.config, r.algorithm_version, r.eval_version, m.config, m.algorithm_version, m.eval_version "+where+" ORDER BY r.key LIMIT 1").
		Scan(&key, &shardCfg, &shardAlg, &shardEval, &mainCfg, &mainAlg, &mainEval)
	if err != nil {
		return err
	}
	return fmt.Errorf("%d runs conflict: run %s is, in the shard, %s (algorithm version %d, evaluation version %d) and, in the database, %s (versions %d, %d): the same key must mean the same run",
		n, key, shardCfg, shardAlg, shardEval, mainCfg, mainAlg, mainEval)
}

// mergeRuns copies the shard's runs that the database lacks or holds as
// failed, with their metrics, epochs and embeddings.
func mergeRuns(ctx context.Context, tx *sql.Tx) (Merged, error) {
	var m Merged
	counts := []struct {
		n     *int
		query string
	}{
		{&m.Added, "SELECT count(*) FROM shard.runs r WHERE NOT EXISTS (SELECT 1 FROM main.runs m WHERE m.key = r.key)"},
		{&m.Replaced, "SELECT count(*) FROM shard.runs r JOIN main.runs m ON m.key = r.key WHERE m.status = 'failed' AND r.status = 'ok'"},
		{&m.Kept, "SELECT count(*) FROM shard.runs r JOIN main.runs m ON m.key = r.key WHERE NOT (m.status = 'failed' AND r.status = 'ok')"},
	}
	for _, c := range counts {
		if err := tx.QueryRowContext(ctx, c.query).Scan(c.n); err != nil {
			return m, err
		}
	}
	cols := strings.Join(runColumns, ", ")
	// The shard's host ids are its own: a run takes the id of the same
	// machine and build in the database (added by the step before).
	shardCols := strings.Replace(cols, "host_id", `(SELECT mh.id FROM main.hosts mh JOIN shard.hosts sh ON sh.host = mh.host
		AND sh.os = mh.os AND sh.cpu = mh.cpu AND sh.cores = mh.cores AND sh.gpu = mh.gpu AND sh.go_version = mh.go_version
		AND sh.git_commit = mh.git_commit WHERE sh.id = shard.runs.host_id)`, 1)
	set := make([]string, len(runColumns)-1)
	for i, c := range runColumns[1:] {
		set[i] = c + " = excluded." + c
	}
	steps := []string{
		// The keys to take, fixed before the runs are written (which would
		// change what the condition sees).
		`CREATE TEMP TABLE merge_take AS SELECT r.key FROM shard.runs r LEFT JOIN main.runs m ON m.key = r.key
			WHERE m.key IS NULL OR (m.status = 'failed' AND r.status = 'ok')`,
		// Hosts are stored once: the shard's are matched to the database's by content.
		`INSERT OR IGNORE INTO main.hosts (host, os, cpu, cores, gpu, go_version, git_commit)
			SELECT host, os, cpu, cores, gpu, go_version, git_commit FROM shard.hosts WHERE id IN
			(SELECT host_id FROM shard.runs WHERE key IN (SELECT key FROM temp.merge_take)) ORDER BY id`,
		// A failed run is updated in place, as Put does (upsertRun), so that
		// it keeps its id and experiment_runs keeps it. New runs get ids in
		// the order they finished, as the migration to version 3 gave them.
		"INSERT INTO main.runs (" + cols + ") SELECT " + shardCols + " FROM shard.runs WHERE key IN (SELECT key FROM temp.merge_take) " +
			"ORDER BY julianday(finished_at), key ON CONFLICT (key) DO UPDATE SET " + strings.Join(set, ", "),
		// Ids are the database's own: the shard's rows are remapped by key.
		`CREATE TEMP TABLE merge_ids AS SELECT s.id AS shard_id, m.id AS main_id FROM shard.runs s JOIN main.runs m ON m.key = s.key
			WHERE s.key IN (SELECT key FROM temp.merge_take)`,
		`INSERT OR IGNORE INTO main.metric_names (name) SELECT DISTINCT n.name FROM shard.metric_values v
			JOIN temp.merge_ids i ON i.shard_id = v.run_id JOIN shard.metric_names n ON n.id = v.metric_id ORDER BY n.name`,
		`INSERT INTO main.metric_values (run_id, metric_id, value) SELECT i.main_id, mn.id, v.value FROM shard.metric_values v
			JOIN temp.merge_ids i ON i.shard_id = v.run_id JOIN shard.metric_names sn ON sn.id = v.metric_id
			JOIN main.metric_names mn ON mn.name = sn.name`,
		`INSERT INTO main.epochs (run_id, epoch, loss, train_error, elapsed_seconds) SELECT i.main_id, e.epoch, e.loss, e.train_error, e.elapsed_seconds
			FROM shard.epochs e JOIN temp.merge_ids i ON i.shard_id = e.run_id`,
		// Labels are stored once: the shard's are matched to the database's by content.
		`INSERT OR IGNORE INTO main.labels (data) SELECT l.data FROM shard.labels l WHERE l.id IN
			(SELECT b.labels_id FROM shard.embeddings b JOIN temp.merge_ids i ON i.shard_id = b.run_id) ORDER BY l.id`,
		`INSERT INTO main.embeddings (run_id, kind, rows, cols, encoding, data, labels_id) SELECT i.main_id, b.kind, b.rows, b.cols, b.encoding, b.data, ml.id
			FROM shard.embeddings b JOIN temp.merge_ids i ON i.shard_id = b.run_id
			LEFT JOIN shard.labels sl ON sl.id = b.labels_id LEFT JOIN main.labels ml ON ml.data = sl.data`,
		"DROP TABLE temp.merge_ids",
		"DROP TABLE temp.merge_take",
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return m, err
		}
	}
	return m, nil
}

// shardMembers selects the shard's experiment_runs with the database's run
// ids: mergeRuns has stored every run of the shard by then.
const shardMembers = `SELECT x.experiment, x.profile, m.id AS run_id, x.position, x.declared FROM shard.experiment_runs x
	JOIN shard.runs s ON s.id = x.run_id JOIN main.runs m ON m.key = s.key`

// mergeExecutions takes the shard's script executions that are newer than
// the database's (or that it lacks), and the shard's rows kept from schema
// version 1 (with an empty profile) for runs no execution in the database
// declares.
func mergeExecutions(ctx context.Context, tx *sql.Tx) (int, error) {
	type execution struct {
		experiment, profile, finished string
	}
	rows, err := tx.QueryContext(ctx, `SELECT x.experiment, x.profile, x.finished_at, coalesce(m.finished_at, '')
		FROM shard.experiments x LEFT JOIN main.experiments m ON m.experiment = x.experiment AND m.profile = x.profile
		ORDER BY x.experiment, x.profile`)
	if err != nil {
		return 0, err
	}
	var newer []execution
	for rows.Next() {
		var x execution
		var mine string
		if err := rows.Scan(&x.experiment, &x.profile, &x.finished, &mine); err != nil {
			rows.Close()
			return 0, err
		}
		theirs, err := time.Parse(time.RFC3339Nano, x.finished)
		if err != nil {
			rows.Close()
			return 0, fmt.Errorf("execution of %s at %s: finished_at %q: %w", x.experiment, x.profile, x.finished, err)
		}
		if ours, err := time.Parse(time.RFC3339Nano, mine); mine == "" || (err == nil && theirs.After(ours)) {
			newer = append(newer, x)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, x := range newer {
		steps := []string{
			"DELETE FROM main.experiment_runs WHERE experiment = ?1 AND profile = ?2",
			`DELETE FROM main.experiment_runs WHERE experiment = ?1 AND profile = '' AND run_id IN
				(SELECT run_id FROM (` + shardMembers + `) WHERE experiment = ?1 AND profile = ?2)`,
			`INSERT INTO main.experiment_runs (experiment, profile, run_id, position, declared)
				SELECT experiment, profile, run_id, position, declared FROM (` + shardMembers + `) WHERE experiment = ?1 AND profile = ?2`,
			`INSERT INTO main.experiments (experiment, profile, script_sha256, runs, finished_at)
				SELECT experiment, profile, script_sha256, runs, finished_at FROM shard.experiments WHERE experiment = ?1 AND profile = ?2
				ON CONFLICT (experiment, profile) DO UPDATE SET script_sha256 = excluded.script_sha256, runs = excluded.runs, finished_at = excluded.finished_at`,
		}
		for _, q := range steps {
			if _, err := tx.ExecContext(ctx, q, x.experiment, x.profile); err != nil {
				return 0, fmt.Errorf("execution of %s at %s: %w", x.experiment, x.profile, err)
			}
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT OR IGNORE INTO main.experiment_runs (experiment, profile, run_id, position, declared)
		SELECT experiment, profile, run_id, position, declared FROM (`+shardMembers+`) x WHERE x.profile = ''
		AND NOT EXISTS (SELECT 1 FROM main.experiment_runs y WHERE y.experiment = x.experiment AND y.run_id = x.run_id)`)
	return len(newer), err
}

func isBusy(err error) bool {
	var e sqlite3.Error
	return errors.As(err, &e) && (e.Code == sqlite3.ErrBusy || e.Code == sqlite3.ErrLocked)
}

// sameFile reports whether the two paths name one file.
func sameFile(a, b string) (bool, error) {
	fa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	fb, err := os.Stat(b)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(fa, fb), nil
}
