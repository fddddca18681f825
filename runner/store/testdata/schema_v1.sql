-- The results.db schema of version 1 (PRAGMA user_version = 1), as runner/store
-- created it before version 2: the database the migration test starts from.
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
	run_key    TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	PRIMARY KEY (experiment, run_key)
) WITHOUT ROWID;
