package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// schemaVersion is stored in PRAGMA user_version; Open migrates a database
// of an older version (see migrations) and refuses one of a newer version.
// A new database is created at version 3 (schemaV3) and migrated from there
// like any other, so that each version's tables are written down once.
const schemaVersion = 7

// schemaV3 creates the tables of schema version 3. Config fields that are
// queried often are columns of runs; the full canonical config is in
// runs.config. A run is referenced by its integer id, not by its 64-digit
// key: the key is what users see, the id what the rows of a run repeat.
// Every number a run measured is a row of metric_values, so new metrics need
// no schema change; its name is stored once, in metric_names, and the view
// metrics joins the two into (run_id, name, value). Version 3's migration
// (migrations[2]) creates these tables too: never edit this text once a later
// version exists, write schemaV4.
const schemaV3 = `
CREATE TABLE IF NOT EXISTS runs (
	id                INTEGER PRIMARY KEY,
	key               TEXT NOT NULL UNIQUE,
	status            TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
	error             TEXT NOT NULL DEFAULT '',
	config            TEXT NOT NULL,
	dataset           TEXT NOT NULL,
	stands_in_for     TEXT NOT NULL DEFAULT '',
	n                 INTEGER NOT NULL,
	dim               INTEGER NOT NULL,
	lambda            REAL NOT NULL,
	noise             TEXT NOT NULL,
	noise_level       REAL NOT NULL,
	algorithm         TEXT NOT NULL,
	algorithm_version INTEGER NOT NULL,
	eval_version      INTEGER NOT NULL,
	seed              INTEGER NOT NULL,
	rep               INTEGER NOT NULL,
	backend           TEXT NOT NULL,
	stop_reason       TEXT NOT NULL DEFAULT '',
	threads           INTEGER NOT NULL DEFAULT 0,
	started_at        TEXT NOT NULL,
	finished_at       TEXT NOT NULL,
	host              TEXT NOT NULL DEFAULT '',
	os                TEXT NOT NULL DEFAULT '',
	cpu               TEXT NOT NULL DEFAULT '',
	cores             INTEGER NOT NULL DEFAULT 0,
	gpu               TEXT NOT NULL DEFAULT '',
	go_version        TEXT NOT NULL DEFAULT '',
	git_commit        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS runs_by_setting ON runs (dataset, algorithm, lambda, noise, noise_level, dim);
CREATE TABLE IF NOT EXISTS metric_names (
	id   INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS metric_values (
	run_id    INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric_id INTEGER NOT NULL REFERENCES metric_names (id),
	value     REAL,
	PRIMARY KEY (run_id, metric_id)
) WITHOUT ROWID;
CREATE VIEW IF NOT EXISTS metrics (run_id, name, value) AS
	SELECT v.run_id, n.name, v.value FROM metric_values v JOIN metric_names n ON n.id = v.metric_id;
CREATE TABLE IF NOT EXISTS epochs (
	run_id          INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	epoch           INTEGER NOT NULL,
	loss            REAL,
	train_error     REAL,
	elapsed_seconds REAL NOT NULL,
	PRIMARY KEY (run_id, epoch)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS embeddings (
	run_id   INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
	kind     TEXT NOT NULL CHECK (kind IN ('full', 'view')),
	rows     INTEGER NOT NULL,
	cols     INTEGER NOT NULL,
	encoding TEXT NOT NULL,
	data     BLOB NOT NULL,
	labels   BLOB
);
CREATE TABLE IF NOT EXISTS experiment_runs (
	experiment TEXT NOT NULL,
	profile    TEXT NOT NULL,
	run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	position   INTEGER,
	declared   TEXT,
	PRIMARY KEY (experiment, profile, run_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS experiments (
	experiment    TEXT NOT NULL,
	profile       TEXT NOT NULL,
	script_sha256 TEXT NOT NULL,
	runs          INTEGER NOT NULL,
	finished_at   TEXT NOT NULL,
	PRIMARY KEY (experiment, profile)
) WITHOUT ROWID;
`

// migrations[v] brings a database of schema version v to version v+1; Open
// applies them in order, in the transaction that sets the new version, and
// then the schema, which creates the tables a version added. They are the
// history of the schema: never edit one, add the next.
var migrations = map[int]string{
	// Version 2 records the profile a script declared a run at, where in its
	// declaration order and how (experiment_runs.profile, position and
	// declared), and each script's last complete execution (the new table
	// experiments). Version 1 linked a run to a script at whatever profile
	// the script ran, so which profile an existing row belongs to is not
	// known: it is kept with profile '' and no position or declaration, and
	// the next execution of its script records the profile (RecordExecution).
	1: `
CREATE TABLE experiment_runs_v2 (
	experiment TEXT NOT NULL,
	profile    TEXT NOT NULL,
	run_key    TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	position   INTEGER,
	declared   TEXT,
	PRIMARY KEY (experiment, profile, run_key)
) WITHOUT ROWID;
INSERT INTO experiment_runs_v2 (experiment, profile, run_key) SELECT experiment, '', run_key FROM experiment_runs;
DROP TABLE experiment_runs;
ALTER TABLE experiment_runs_v2 RENAME TO experiment_runs;
`,
	// Version 3 gives each run an integer id, by which metric_values,
	// epochs, embeddings and experiment_runs refer to it instead of the
	// 64-digit key (the key was most of those rows and of their indexes),
	// stores each metric name once (metric_names; the view metrics reads
	// like version 2's table, with run_id for run_key), and says whether a
	// stored embedding is the embedding or the 2-D view a report draws
	// (embeddings.kind; every embedding before is the embedding). Ids follow
	// the order in which the runs finished. The old tables are renamed,
	// copied into the new ones and dropped.
	2: `
ALTER TABLE runs RENAME TO runs_v2;
ALTER TABLE metrics RENAME TO metrics_v2;
ALTER TABLE epochs RENAME TO epochs_v2;
ALTER TABLE embeddings RENAME TO embeddings_v2;
ALTER TABLE experiment_runs RENAME TO experiment_runs_v2;
DROP INDEX runs_by_setting;
` + schemaV3 + `
INSERT INTO runs (key, status, error, config, dataset, stands_in_for, n, dim, lambda, noise, noise_level, algorithm,
	algorithm_version, eval_version, seed, rep, backend, stop_reason, threads, started_at, finished_at,
	host, os, cpu, cores, gpu, go_version, git_commit)
SELECT key, status, error, config, dataset, stands_in_for, n, dim, lambda, noise, noise_level, algorithm,
	algorithm_version, eval_version, seed, rep, backend, stop_reason, threads, started_at, finished_at,
	host, os, cpu, cores, gpu, go_version, git_commit
FROM runs_v2 ORDER BY julianday(finished_at), key;
INSERT INTO metric_names (name) SELECT DISTINCT name FROM metrics_v2 ORDER BY name;
INSERT INTO metric_values (run_id, metric_id, value)
	SELECT r.id, n.id, m.value FROM metrics_v2 m JOIN runs r ON r.key = m.run_key JOIN metric_names n ON n.name = m.name;
INSERT INTO epochs (run_id, epoch, loss, train_error, elapsed_seconds)
	SELECT r.id, e.epoch, e.loss, e.train_error, e.elapsed_seconds FROM epochs_v2 e JOIN runs r ON r.key = e.run_key;
INSERT INTO embeddings (run_id, kind, rows, cols, encoding, data, labels)
	SELECT r.id, 'full', b.rows, b.cols, b.encoding, b.data, b.labels FROM embeddings_v2 b JOIN runs r ON r.key = b.run_key;
INSERT INTO experiment_runs (experiment, profile, run_id, position, declared)
	SELECT x.experiment, x.profile, r.id, x.position, x.declared FROM experiment_runs_v2 x JOIN runs r ON r.key = x.run_key;
DROP TABLE experiment_runs_v2;
DROP TABLE embeddings_v2;
DROP TABLE epochs_v2;
DROP TABLE metrics_v2;
DROP TABLE runs_v2;
`,
	// Version 4 stores each distinct labels blob once, in the new table
	// labels, to which embeddings.labels_id refers instead of a blob of its
	// own (embeddings.labels): the views of one dataset, size and seed share
	// their items and so their labels, and on results.db at 7,224 runs 1,157
	// embeddings held 14 distinct blobs, 249 kB of which 6.6 kB distinct.
	3: `
CREATE TABLE labels (
	id   INTEGER PRIMARY KEY,
	data BLOB NOT NULL UNIQUE
);
INSERT OR IGNORE INTO labels (data) SELECT labels FROM embeddings WHERE labels IS NOT NULL ORDER BY run_id;
ALTER TABLE embeddings ADD COLUMN labels_id INTEGER REFERENCES labels (id);
UPDATE embeddings SET labels_id = (SELECT l.id FROM labels l WHERE l.data = embeddings.labels) WHERE labels IS NOT NULL;
ALTER TABLE embeddings DROP COLUMN labels;
`,
	// Version 5 stores each machine and build that ran runs once, in the new
	// table hosts, to which runs.host_id refers instead of seven columns of
	// its own (host, os, cpu, cores, gpu, go_version, git_commit: 75 bytes
	// a run, repeated by every run of a session), and drops the index
	// runs_by_setting, which no query of oe's uses and which a scan of
	// runs, 10,000 rows at the paper profile, does not need: on the
	// campaign's results.db at 8,136 runs, vacuumed, 11.78 → 10.67 MB.
	// results.db travels with the code (to a GPU machine, under 64 MiB),
	// and grows by a paper-profile campaign's thousands of runs.
	4: `
CREATE TABLE hosts (
	id         INTEGER PRIMARY KEY,
	host       TEXT NOT NULL,
	os         TEXT NOT NULL,
	cpu        TEXT NOT NULL,
	cores      INTEGER NOT NULL,
	gpu        TEXT NOT NULL,
	go_version TEXT NOT NULL,
	git_commit TEXT NOT NULL,
	UNIQUE (host, os, cpu, cores, gpu, go_version, git_commit)
);
INSERT INTO hosts (host, os, cpu, cores, gpu, go_version, git_commit)
	SELECT host, os, cpu, cores, gpu, go_version, git_commit FROM runs
	GROUP BY host, os, cpu, cores, gpu, go_version, git_commit ORDER BY min(id);
ALTER TABLE runs ADD COLUMN host_id INTEGER REFERENCES hosts (id);
UPDATE runs SET host_id = (SELECT h.id FROM hosts h WHERE h.host = runs.host AND h.os = runs.os AND h.cpu = runs.cpu
	AND h.cores = runs.cores AND h.gpu = runs.gpu AND h.go_version = runs.go_version AND h.git_commit = runs.git_commit);
DROP INDEX runs_by_setting;
ALTER TABLE runs DROP COLUMN host;
ALTER TABLE runs DROP COLUMN os;
ALTER TABLE runs DROP COLUMN cpu;
ALTER TABLE runs DROP COLUMN cores;
ALTER TABLE runs DROP COLUMN gpu;
ALTER TABLE runs DROP COLUMN go_version;
ALTER TABLE runs DROP COLUMN git_commit;
`,
	// Version 7 keys runs by the first 128 bits of the config's SHA-256
	// (job.KeyBytes: 32 hex digits, not 64), which a key of before is the
	// prefix of; the key is in every run's row and in its unique index: on
	// results.db at 9,058 runs, vacuumed, 10.14 → 9.65 MB (as oerun prune migrates and vacuums).
	6: `
UPDATE runs SET key = substr(key, 1, 32);
`,
}

// migrationsInGo[v] follows migrations[v] (where there is one), in the same
// transaction, for what SQL does not say as plainly. Like migrations, they
// are history: never edit one, add the next.
var migrationsInGo = map[int]func(ctx context.Context, tx *sql.Tx) error{
	// Version 6 stores each run's config without its members of zero value
	// (compactConfig), as Put does from then on: on the campaign's results.db
	// at 9,058 runs they were 86 of a config's 264 bytes (learning_rate,
	// batch_size, max_epochs, noise_level, data_dim, pca, noise, n, rep and
	// empty params, in that order of weight).
	5: compactConfigs,
}

// compactConfigs rewrites every stored config with compactConfig.
func compactConfigs(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, key, config FROM runs ORDER BY id")
	if err != nil {
		return err
	}
	type stored struct {
		id          int64
		key, config string
	}
	var all []stored
	for rows.Next() {
		var r stored
		if err := rows.Scan(&r.id, &r.key, &r.config); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	update, err := tx.PrepareContext(ctx, "UPDATE runs SET config = ? WHERE id = ?")
	if err != nil {
		return err
	}
	defer update.Close()
	for _, r := range all {
		compact, err := compactConfig([]byte(r.config))
		if err != nil {
			return fmt.Errorf("run %s: %w", r.key, err)
		}
		if _, err := update.ExecContext(ctx, string(compact), r.id); err != nil {
			return err
		}
	}
	return nil
}

// compactConfig returns a run's canonical config JSON (job.Canonical.JSON)
// as runs.config stores it: without its top-level members of zero value
// (0, "", false, null, {} or []), which decode to the zero values they
// were. The members keep their sorted order and their values' bytes, so that
// one config is always stored as one text, which Merge compares; the key,
// stored beside it, is still the hash of the canonical JSON.
func compactConfig(js []byte) ([]byte, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(js, &members); err != nil {
		return nil, fmt.Errorf("config %.80q is not a JSON object: %w", js, err)
	}
	for name, v := range members {
		switch string(v) {
		case "0", `""`, "false", "null", "{}", "[]":
			delete(members, name)
		}
	}
	return json.Marshal(members)
}
