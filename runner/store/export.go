package store

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// runTableColumns are the columns of runs that RunTable exports, in order.
var runTableColumns = []string{"key", "status", "error", "dataset", "stands_in_for", "n", "dim", "lambda", "noise", "noise_level",
	"algorithm", "algorithm_version", "eval_version", "seed", "rep", "backend", "stop_reason", "threads",
	"started_at", "finished_at", "host", "git_commit", "config"}

// RunTable returns the runs that the last execution of the script
// experiment at profile declared, in its order, as a table: the columns of
// runs (runTableColumns) and then one column per metric name any of them
// measured, sorted; a metric a run lacks (or stored as NULL) is empty.
func (s *Store) RunTable(ctx context.Context, experiment, profile string) (header []string, rows [][]string, err error) {
	cols := make([]string, len(runTableColumns))
	for i, c := range runTableColumns {
		cols[i] = "r." + c
		if c == "host" || c == "git_commit" { // of hosts (schema version 5)
			cols[i] = "h." + c
		}
	}
	q := "SELECT " + strings.Join(cols, ", ") + `
		FROM experiment_runs x JOIN runs r ON r.id = x.run_id LEFT JOIN hosts h ON h.id = r.host_id
		WHERE x.experiment = ? AND x.profile = ? ORDER BY x.position`
	res, err := s.db.QueryContext(ctx, q, experiment, profile)
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	defer res.Close()
	index := map[string]int{} // run key → row
	for res.Next() {
		vals := make([]sql.NullString, len(runTableColumns))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := res.Scan(ptrs...); err != nil {
			return nil, nil, fmt.Errorf("store: %w", err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = v.String
		}
		index[row[0]] = len(rows)
		rows = append(rows, row)
	}
	if err := res.Err(); err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	mres, err := s.db.QueryContext(ctx, `SELECT r.key, m.name, m.value FROM metrics m
		JOIN experiment_runs x ON x.run_id = m.run_id JOIN runs r ON r.id = m.run_id
		WHERE x.experiment = ? AND x.profile = ?`, experiment, profile)
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	defer mres.Close()
	metrics := map[string]map[string]string{} // run key → name → value
	names := map[string]bool{}
	for mres.Next() {
		var key, name string
		var v sql.NullFloat64
		if err := mres.Scan(&key, &name, &v); err != nil {
			return nil, nil, fmt.Errorf("store: %w", err)
		}
		if metrics[key] == nil {
			metrics[key] = map[string]string{}
		}
		names[name] = true
		if v.Valid {
			metrics[key][name] = strconv.FormatFloat(v.Float64, 'g', -1, 64)
		}
	}
	if err := mres.Err(); err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	header = append(append([]string{}, runTableColumns...), sorted...)
	for key, i := range index {
		for _, n := range sorted {
			rows[i] = append(rows[i], metrics[key][n])
		}
	}
	return header, rows, nil
}
