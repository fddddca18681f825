-- A results.db of schema version 3 as runner/store wrote it before version 4 (oerun at f4c2b47): the
-- version 2 fixture (results_v2.sql) opened by that oerun, plus three runs whose embeddings carry labels, two
-- of them (a full embedding and a view of 4 items) the same labels blob, and their script execution at paper.
-- The migration test (TestMigrateVersion3) starts from it. Written by Put and RecordExecution, dumped with
-- sqlite3 .dump.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE experiments (
	experiment    TEXT NOT NULL,
	profile       TEXT NOT NULL,
	script_sha256 TEXT NOT NULL,
	runs          INTEGER NOT NULL,
	finished_at   TEXT NOT NULL,
	PRIMARY KEY (experiment, profile)
) WITHOUT ROWID;
INSERT INTO experiments VALUES('general','paper','sha-general',3,'2026-11-26T06:41:50.50623859Z');
INSERT INTO experiments VALUES('general','quick','0f1e',3,'2026-11-20T10:00:00Z');
INSERT INTO experiments VALUES('reproduction','quick','a2b3',1,'2026-11-20T10:05:00Z');
CREATE TABLE runs (
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
INSERT INTO runs VALUES(1,'8a0b37d62eab2bd90fa18b206b2f19fa8f15c93a406b7ba090c8c1eaaa2d6b54','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":1,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,1,0,'cpu','converged',2,'1970-01-01T00:01:40Z','1970-01-01T00:01:41.000000005Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
INSERT INTO runs VALUES(2,'cba85f01e0c5537b8df1dd5add1bf91c0228d86e25279b5eb35060a5b37ea864','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":2,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,2,0,'cpu','max-epochs',2,'1970-01-01T00:01:40Z','1970-01-01T00:01:41.000000005Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
INSERT INTO runs VALUES(3,'659d5fcc10ec34760cb5623888c7ee9a17a12acb38545bc24b697f3bd7f7f5fd','failed','diverged (NaN or Inf)','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":3,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,3,0,'cpu','',0,'1970-01-01T00:03:20Z','1970-01-01T00:03:21Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
INSERT INTO runs VALUES(4,'984913f278021da9c51b605b1697865a590d294087819f7599309848178d988b','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":4,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,4,0,'cpu','converged',2,'1970-01-01T00:05:00Z','1970-01-01T00:05:02Z','node1','linux/amd64','AMD EPYC',2,'','go1.26.8','d9e564453c5f78d04b55dd82a91167398a2e8372');
INSERT INTO runs VALUES(5,'4ff78e5d9443fca691b6088e10738ebdc4a598b81fa24f11e9f29a88bbbf378f','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":6,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,6,0,'cpu','converged',2,'1970-01-01T00:01:40Z','1970-01-01T00:01:41.000000005Z','vm','linux/amd64','AMD EPYC',2,'','go1.26.8','f4c2b4730d3505847a5f58a1863d1e6973b5271b');
INSERT INTO runs VALUES(6,'ec8bca2ee59c0b65c147e9ba0e46189c4d5366e74a3887c4abcc85f69102fc73','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":5,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,5,0,'cpu','converged',2,'1970-01-01T00:01:40Z','1970-01-01T00:01:41.000000005Z','vm','linux/amd64','AMD EPYC',2,'','go1.26.8','f4c2b4730d3505847a5f58a1863d1e6973b5271b');
INSERT INTO runs VALUES(7,'0730615d334f3f7736d8e83d7fc7024b25c39c85565026342af026b920228b19','ok','','{"algorithm":"storefake","backend":"cpu","batch_size":0,"data_dim":0,"dataset":"uniform","dim":2,"lambda":2,"learning_rate":0,"max_epochs":0,"n":50,"noise":"","noise_level":0,"params":{"mu":0.5},"pca":0,"rep":0,"seed":7,"test_triplets":10000}','uniform','',50,2,2.0,'',0.0,'storefake',3,1,7,0,'cpu','converged',2,'1970-01-01T00:01:40Z','1970-01-01T00:01:41.000000005Z','vm','linux/amd64','AMD EPYC',2,'','go1.26.8','f4c2b4730d3505847a5f58a1863d1e6973b5271b');
CREATE TABLE metric_names (
	id   INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);
INSERT INTO metric_names VALUES(1,'epochs');
INSERT INTO metric_names VALUES(2,'fit_seconds');
INSERT INTO metric_names VALUES(3,'items');
INSERT INTO metric_names VALUES(4,'knn_error');
INSERT INTO metric_names VALUES(5,'test_error');
CREATE TABLE metric_values (
	run_id    INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	metric_id INTEGER NOT NULL REFERENCES metric_names (id),
	value     REAL,
	PRIMARY KEY (run_id, metric_id)
) WITHOUT ROWID;
INSERT INTO metric_values VALUES(1,1,120.0);
INSERT INTO metric_values VALUES(1,2,3.5);
INSERT INTO metric_values VALUES(1,3,3.0);
INSERT INTO metric_values VALUES(1,4,NULL);
INSERT INTO metric_values VALUES(1,5,0.125);
INSERT INTO metric_values VALUES(2,1,7.0);
INSERT INTO metric_values VALUES(2,5,0.5);
INSERT INTO metric_values VALUES(4,5,0.25);
INSERT INTO metric_values VALUES(5,1,3.0);
INSERT INTO metric_values VALUES(5,4,NULL);
INSERT INTO metric_values VALUES(5,5,0.125);
INSERT INTO metric_values VALUES(6,1,3.0);
INSERT INTO metric_values VALUES(6,4,NULL);
INSERT INTO metric_values VALUES(6,5,0.125);
INSERT INTO metric_values VALUES(7,1,3.0);
INSERT INTO metric_values VALUES(7,4,NULL);
INSERT INTO metric_values VALUES(7,5,0.125);
CREATE TABLE epochs (
	run_id          INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	epoch           INTEGER NOT NULL,
	loss            REAL,
	train_error     REAL,
	elapsed_seconds REAL NOT NULL,
	PRIMARY KEY (run_id, epoch)
) WITHOUT ROWID;
INSERT INTO epochs VALUES(1,50,0.5,0.25,1.5);
INSERT INTO epochs VALUES(1,100,0.25,0.125,3.0);
INSERT INTO epochs VALUES(1,120,0.125,NULL,3.5);
INSERT INTO epochs VALUES(2,7,2.0,NULL,1.0);
INSERT INTO epochs VALUES(5,1,1.0,0.5,0.0);
INSERT INTO epochs VALUES(5,2,0.5,0.25,0.0010000000000000000208);
INSERT INTO epochs VALUES(5,3,0.33333333333333331482,0.16666666666666665741,0.0020000000000000000416);
INSERT INTO epochs VALUES(6,1,1.0,0.5,0.0);
INSERT INTO epochs VALUES(6,2,0.5,0.25,0.0010000000000000000208);
INSERT INTO epochs VALUES(6,3,0.33333333333333331482,0.16666666666666665741,0.0020000000000000000416);
INSERT INTO epochs VALUES(7,1,1.0,0.5,0.0);
INSERT INTO epochs VALUES(7,2,0.5,0.25,0.0010000000000000000208);
INSERT INTO epochs VALUES(7,3,0.33333333333333331482,0.16666666666666665741,0.0020000000000000000416);
CREATE TABLE embeddings (
	run_id   INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
	kind     TEXT NOT NULL CHECK (kind IN ('full', 'view')),
	rows     INTEGER NOT NULL,
	cols     INTEGER NOT NULL,
	encoding TEXT NOT NULL,
	data     BLOB NOT NULL,
	labels   BLOB
);
INSERT INTO embeddings VALUES(1,'full',3,2,'f32le+gzip',X'1f8b08000000000000ff626068b06360606860605860cfc0d0b08f8141c0818181613f200000ffff6232055118000000',X'1f8b08000000000000ff62606060606460606062606000040000ffff7a0e761d0c000000');
INSERT INTO embeddings VALUES(4,'full',2,2,'f64le+gzip',X'1f8b08000000000000ff6200830bf6109aa101427d81f22fec07040000ffff562460a720000000',NULL);
INSERT INTO embeddings VALUES(5,'full',4,2,'f32le+gzip',X'1f8b08000000000000ff04c0810000211004c04178a26f11425a94483ab586fe2867d1cb170c3b645e000000ffffba0a746220000000',X'1f8b08000000000000ff04c0010100000001a0f0ffb3202886070000ffffa9af8e2710000000');
INSERT INTO embeddings VALUES(6,'view',4,2,'q10le',X'000000000000d03f061860800106683f000000000000e8bf061860800106483f00fc5f95aaaa56f53f00',X'1f8b08000000000000ff04c0010100000001a0f0ffb3202886070000ffffa9af8e2710000000');
INSERT INTO embeddings VALUES(7,'full',5,2,'f32le+gzip',X'1f8b08000000000000ff04c0510180201403c08b60225d0423ed931824e155e3e88bb23f7a7882e10f1956e8dc000000ffff18d9683f28000000',X'1f8b08000000000000ff6260606060646060606260606066800040000000ffff609309c314000000');
CREATE TABLE experiment_runs (
	experiment TEXT NOT NULL,
	profile    TEXT NOT NULL,
	run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
	position   INTEGER,
	declared   TEXT,
	PRIMARY KEY (experiment, profile, run_id)
) WITHOUT ROWID;
INSERT INTO experiment_runs VALUES('general','paper',5,1,'{"seed":6}');
INSERT INTO experiment_runs VALUES('general','paper',6,0,'{"seed":5}');
INSERT INTO experiment_runs VALUES('general','paper',7,2,'{"seed":7}');
INSERT INTO experiment_runs VALUES('general','quick',1,0,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":1,"keep_embedding":true}');
INSERT INTO experiment_runs VALUES('general','quick',2,1,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":2}');
INSERT INTO experiment_runs VALUES('general','quick',3,2,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":3}');
INSERT INTO experiment_runs VALUES('noise','',4,NULL,NULL);
INSERT INTO experiment_runs VALUES('reproduction','quick',1,0,'{"dataset":"uniform","n":50,"algorithm":"storefake","dim":2,"seed":1,"keep_embedding":true}');
CREATE INDEX runs_by_setting ON runs (dataset, algorithm, lambda, noise, noise_level, dim);
CREATE VIEW metrics (run_id, name, value) AS
	SELECT v.run_id, n.name, v.value FROM metric_values v JOIN metric_names n ON n.id = v.metric_id;
COMMIT;
