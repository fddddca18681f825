package store

// schemaVersion is stored in PRAGMA user_version; Open migrates a database
// of an older version (see migrations) and refuses one of a newer version.
const schemaVersion = 2

// schema creates the tables. Config fields that are queried often are columns
// of runs; the full canonical config is in runs.config. Every number a run
// measured is a row of metrics, so new metrics need no schema change.
const schema = `
CREATE TABLE IF NOT EXISTS runs (
	key               TEXT PRIMARY KEY,
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
CREATE TABLE IF NOT EXISTS metrics (
	run_key TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	value   REAL,
	PRIMARY KEY (run_key, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS epochs (
	run_key         TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	epoch           INTEGER NOT NULL,
	loss            REAL,
	train_error     REAL,
	elapsed_seconds REAL NOT NULL,
	PRIMARY KEY (run_key, epoch)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS embeddings (
	run_key  TEXT PRIMARY KEY REFERENCES runs (key) ON DELETE CASCADE,
	rows     INTEGER NOT NULL,
	cols     INTEGER NOT NULL,
	encoding TEXT NOT NULL,
	data     BLOB NOT NULL,
	labels   BLOB
);
CREATE TABLE IF NOT EXISTS experiment_runs (
	experiment TEXT NOT NULL,
	profile    TEXT NOT NULL,
	run_key    TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	position   INTEGER,
	declared   TEXT,
	PRIMARY KEY (experiment, profile, run_key)
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
}
