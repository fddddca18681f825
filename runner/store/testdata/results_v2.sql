-- A results.db of schema version 2 as runner/store wrote it before version 3 (oerun at d9e5644): four
-- runs (ok with a float32 embedding, ok without one, failed, ok with a float64 embedding kept from before),
-- two script executions at quick and a row kept from version 1 (empty profile). The migration test
-- (TestMigrateVersion2) starts from it. Written by Put and RecordExecution, dumped with sqlite3 .dump.
BEGIN TRANSACTION;
CREATE TABLE runs (
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
INSERT INTO runs VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":1,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,1,0,'cpu','converged',2,'1970-01-01T00:01:40Z','1970-01-01T00:01:41.000000005Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
INSERT INTO runs VALUES('cba85f01e0c5537b8df1dd5add1bf91c0228d86e25279b5eb35060a5b37ea864','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":2,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,2,0,'cpu','max-epochs',2,'1970-01-01T00:01:40Z','1970-01-01T00:01:41.000000005Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
INSERT INTO runs VALUES('659d5fcc10ec34760cb5623888c7ee9a17a12acb38545bc24b697f3bd7f7f5fd','failed','diverged (NaN or Inf)','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":3,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,3,0,'cpu','',0,'1970-01-01T00:03:20Z','1970-01-01T00:03:21Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
INSERT INTO runs VALUES('984913f278021da9c51b605b1697865a590d294087819f7599309848178d988b','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":4,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,4,0,'cpu','converged',2,'1970-01-01T00:05:00Z','1970-01-01T00:05:02Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
CREATE TABLE metrics (
	run_key TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	value   REAL,
	PRIMARY KEY (run_key, name)
) WITHOUT ROWID;
INSERT INTO metrics VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54','epochs',120.0);
INSERT INTO metrics VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54','fit_seconds',3.5);
INSERT INTO metrics VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54','items',3.0);
INSERT INTO metrics VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54','knn_error',NULL);
INSERT INTO metrics VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54','test_error',0.125);
INSERT INTO metrics VALUES('984913f278021da9c51b605b1697865a590d294087819f7599309848178d988b','test_error',0.25);
INSERT INTO metrics VALUES('cba85f01e0c5537b8df1dd5add1bf91c0228d86e25279b5eb35060a5b37ea864','epochs',7.0);
INSERT INTO metrics VALUES('cba85f01e0c5537b8df1dd5add1bf91c0228d86e25279b5eb35060a5b37ea864','test_error',0.5);
CREATE TABLE epochs (
	run_key         TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	epoch           INTEGER NOT NULL,
	loss            REAL,
	train_error     REAL,
	elapsed_seconds REAL NOT NULL,
	PRIMARY KEY (run_key, epoch)
) WITHOUT ROWID;
INSERT INTO epochs VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54',50,0.5,0.25,1.5);
INSERT INTO epochs VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54',100,0.25,0.125,3.0);
INSERT INTO epochs VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54',120,0.125,NULL,3.5);
INSERT INTO epochs VALUES('cba85f01e0c5537b8df1dd5add1bf91c0228d86e25279b5eb35060a5b37ea864',7,2.0,NULL,1.0);
CREATE TABLE embeddings (
	run_key  TEXT PRIMARY KEY REFERENCES runs (key) ON DELETE CASCADE,
	rows     INTEGER NOT NULL,
	cols     INTEGER NOT NULL,
	encoding TEXT NOT NULL,
	data     BLOB NOT NULL,
	labels   BLOB
);
INSERT INTO embeddings VALUES('8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54',3,2,'f32le+gzip',X'1f8b08000000000000ff626068b06360606860605860cfc0d0b08f8141c0818181613f200000ffff6232055118000000',X'1f8b08000000000000ff62606060606460606062606000040000ffff7a0e761d0c000000');
INSERT INTO embeddings VALUES('984913f278021da9c51b605b1697865a590d294087819f7599309848178d988b',2,2,'f64le+gzip',X'1f8b08000000000000ff6200830bf6109aa101427d81f22fec07040000ffff562460a720000000',NULL);
CREATE TABLE experiment_runs (
	experiment TEXT NOT NULL,
	profile    TEXT NOT NULL,
	run_key    TEXT NOT NULL REFERENCES runs (key) ON DELETE CASCADE,
	position   INTEGER,
	declared   TEXT,
	PRIMARY KEY (experiment, profile, run_key)
) WITHOUT ROWID;
INSERT INTO experiment_runs VALUES('general','quick','659d5fcc10ec34760cb5623888c7ee9a17a12acb38545bc24b697f3bd7f7f5fd',2,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":3}');
INSERT INTO experiment_runs VALUES('general','quick','8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54',0,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":1,"keep_embedding":true}');
INSERT INTO experiment_runs VALUES('general','quick','cba85f01e0c5537b8df1dd5add1bf91c0228d86e25279b5eb35060a5b37ea864',1,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":2}');
INSERT INTO experiment_runs VALUES('noise','','984913f278021da9c51b605b1697865a590d294087819f7599309848178d988b',NULL,NULL);
INSERT INTO experiment_runs VALUES('reproduction','quick','8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54',0,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":1,"keep_embedding":true}');
CREATE TABLE experiments (
	experiment    TEXT NOT NULL,
	profile       TEXT NOT NULL,
	script_sha256 TEXT NOT NULL,
	runs          INTEGER NOT NULL,
	finished_at   TEXT NOT NULL,
	PRIMARY KEY (experiment, profile)
) WITHOUT ROWID;
INSERT INTO experiments VALUES('general','quick','0f1e',3,'2026-11-20T10:00:00Z');
INSERT INTO experiments VALUES('reproduction','quick','a2b3',1,'2026-11-20T10:05:00Z');
CREATE INDEX runs_by_setting ON runs (dataset, algorithm, lambda, noise, noise_level, dim);
COMMIT;
PRAGMA user_version = 2;
