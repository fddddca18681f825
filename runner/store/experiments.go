package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Execution is a script's last complete execution at a profile (a row of
// experiments).
type Execution struct {
	// Experiment is the script's name and Profile the profile it ran at.
	Experiment, Profile string
	// ScriptSHA256 is the hex SHA-256 of the script file that ran.
	ScriptSHA256 string
	// Runs counts the runs it declared.
	Runs int
	// Finished is when it completed.
	Finished time.Time
}

// Member is a run that an execution of a script declared (a row of
// experiment_runs).
type Member struct {
	// Key is the run's cache key.
	Key string
	// Declared is the run as the script declared it: JSON of runner/exp's
	// Run, which the store does not interpret.
	Declared string
	// Dataset is the dataset the run loaded, Algorithm its method, and
	// AlgorithmVersion and EvalVersion the versions it was computed with:
	// the run's columns in runs, which Members fills in.
	Dataset, Algorithm            string
	AlgorithmVersion, EvalVersion int
}

// RecordExecution records that the script experiment completed at profile,
// from a file with the given SHA-256, declaring members in that order. In
// one transaction, members replace the runs its previous execution at that
// profile declared, so that the runs of an older version of the script do
// not linger, and rows kept from schema version 1 (empty profile) of the runs
// it declared get their profile. Every member must be stored in runs; a key
// listed twice keeps its first position.
func (s *Store) RecordExecution(ctx context.Context, experiment, profile, scriptSHA256 string, members []Member) error {
	if experiment == "" || profile == "" {
		return fmt.Errorf("store: execution of %q at profile %q: both must be named", experiment, profile)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM experiment_runs WHERE experiment = ? AND profile = ?", experiment, profile); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	id, err := tx.PrepareContext(ctx, "SELECT id FROM runs WHERE key = ?")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer id.Close()
	ins, err := tx.PrepareContext(ctx, "INSERT OR IGNORE INTO experiment_runs (experiment, profile, run_id, position, declared) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer ins.Close()
	legacy, err := tx.PrepareContext(ctx, "DELETE FROM experiment_runs WHERE experiment = ? AND profile = '' AND run_id = ?")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer legacy.Close()
	runs := 0
	for i, m := range members {
		var run int64
		switch err := id.QueryRowContext(ctx, m.Key).Scan(&run); {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("store: %s declares run %.12s, which is not stored", experiment, m.Key)
		case err != nil:
			return fmt.Errorf("store: %w", err)
		}
		res, err := ins.ExecContext(ctx, experiment, profile, run, i, m.Declared)
		if err != nil {
			return fmt.Errorf("store: %s declares run %.12s: %w", experiment, m.Key, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		runs += int(n) // 0 for a key listed before
		if _, err := legacy.ExecContext(ctx, experiment, run); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO experiments (experiment, profile, script_sha256, runs, finished_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (experiment, profile) DO UPDATE SET script_sha256 = excluded.script_sha256, runs = excluded.runs, finished_at = excluded.finished_at`,
		experiment, profile, scriptSHA256, runs, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// LastExecution returns the last complete execution of the script
// experiment at profile; ok is false when it has not completed at that
// profile since schema version 2.
func (s *Store) LastExecution(ctx context.Context, experiment, profile string) (x Execution, ok bool, err error) {
	var finished string
	err = s.db.QueryRowContext(ctx, "SELECT script_sha256, runs, finished_at FROM experiments WHERE experiment = ? AND profile = ?",
		experiment, profile).Scan(&x.ScriptSHA256, &x.Runs, &finished)
	if errors.Is(err, sql.ErrNoRows) {
		return x, false, nil
	}
	if err != nil {
		return x, false, fmt.Errorf("store: %w", err)
	}
	x.Experiment, x.Profile = experiment, profile
	x.Finished, _ = time.Parse(time.RFC3339Nano, finished)
	return x, true, nil
}

// Members returns the runs that the last execution of the script experiment
// at profile declared, in its order.
func (s *Store) Members(ctx context.Context, experiment, profile string) ([]Member, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.key, coalesce(x.declared, ''), r.dataset, r.algorithm, r.algorithm_version, r.eval_version
		FROM experiment_runs x JOIN runs r ON r.id = x.run_id
		WHERE x.experiment = ? AND x.profile = ? ORDER BY x.position`, experiment, profile)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	defer rows.Close()
	var out []Member
	for rows.Next() {
		var m Member
		if err := rows.Scan(&m.Key, &m.Declared, &m.Dataset, &m.Algorithm, &m.AlgorithmVersion, &m.EvalVersion); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
