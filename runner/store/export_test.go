package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oe-lab/oe/runner/job"
)

// RunTable lists an execution's runs in its order, the runs' columns then
// one column per metric; a metric a run lacks, or stored as NULL (NaN), is
// empty.
func TestRunTable(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	a, b, other := record(1, 2, 3), record(2, 2, 3), record(3, 2, 3)
	b.Outcome.Metrics = map[string]float64{job.Queries: 1234}
	for _, r := range []Record{a, b, other} {
		if err := s.Put(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// Declared in the order b, a; the other run belongs to another script.
	if err := s.RecordExecution(ctx, "demo", "smoke", "sha", []Member{{Key: b.Job.Key}, {Key: a.Job.Key}}); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordExecution(ctx, "other", "smoke", "sha", []Member{{Key: other.Job.Key}}); err != nil {
		t.Fatal(err)
	}
	header, rows, err := s.RunTable(ctx, "demo", "smoke")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(header[len(runTableColumns):], ","), "epochs,knn_error,queries,test_error"; got != want {
		t.Errorf("metric columns %s, want %s", got, want)
	}
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s in %v", name, header)
		return -1
	}
	tests := []struct {
		row                                  int
		key, seed, epochs, knn, queries, err string
	}{
		{0, b.Job.Key, "2", "", "", "1234", ""},
		{1, a.Job.Key, "1", "2", "", "", "0.125"},
	}
	if len(rows) != len(tests) {
		t.Fatalf("%d rows, want %d", len(rows), len(tests))
	}
	for _, tc := range tests {
		r := rows[tc.row]
		got := []string{r[col("key")], r[col("seed")], r[col("epochs")], r[col("knn_error")], r[col("queries")], r[col("test_error")]}
		want := []string{tc.key, tc.seed, tc.epochs, tc.knn, tc.queries, tc.err}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("row %d: %v, want %v", tc.row, got, want)
		}
	}
	if _, rows, err := s.RunTable(ctx, "demo", "quick"); err != nil || len(rows) != 0 {
		t.Errorf("another profile: %d rows, %v", len(rows), err)
	}
}

// A report reads the database without writing to it.
func ExampleOpenReadOnly() {
	dir, _ := os.MkdirTemp("", "store")
	defer os.RemoveAll(dir)
	if _, err := OpenReadOnly(filepath.Join(dir, "typo.db")); err != nil {
		fmt.Println("refused a missing database")
	}
	s, _ := Open(filepath.Join(dir, "results.db"))
	s.Close()
	ro, err := OpenReadOnly(filepath.Join(dir, "results.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ro.Close()
	_, ok, _ := ro.LastExecution(context.Background(), "general", "quick")
	fmt.Println("general has run at quick:", ok)
	// Output:
	// refused a missing database
	// general has run at quick: false
}
