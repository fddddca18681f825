// Package store is the run cache: a SQLite database (results.db) holding
// every run an experiment script executed, keyed by the run's config hash
// (runner/job). A run lands in one transaction or not at all, so a process
// killed mid-run leaves no partial rows; the database is opened in WAL mode
// with a busy timeout so that several oerun processes can share it.
//
// The schema (tables runs, metrics, epochs, embeddings, experiment_runs,
// experiments) is documented in runner/README.md.
package store
