package store

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeQueries runs every SQL block of the README's results.db section
// (the example queries and the pruning by hand) on a database that Put and
// RecordExecution wrote: each query returns rows, and the pruning deletes
// the embedding no declaration keeps and keeps the declared ones.
func TestReadmeQueries(t *testing.T) {
	ctx := context.Background()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## The `results.db` schema")
	if !ok {
		t.Fatal("README.md has no results.db schema section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	blocks := regexp.MustCompile("(?s)```sql\n(.*?)```").FindAllStringSubmatch(section, -1)
	if len(blocks) < 4 {
		t.Fatalf("%d SQL blocks in the schema section, want the pruning and 3 example queries", len(blocks))
	}

	s := open(t, filepath.Join(t.TempDir(), "results.db"))
	// SOE on CHAR at the quick profile of general and convergence: runs 1 (kept as a view)
	// and 2 (declared before views, true), 3 (its embedding declared by no
	// one), and a failed run 4.
	put(t, s, record(1, 3, 4), record(2, 3, 4), record(3, 3, 4), failed(4))
	if _, err := s.DB().Exec("UPDATE runs SET algorithm = 'soe', dataset = 'char'"); err != nil {
		t.Fatal(err)
	}
	members := []Member{{Key: canonical(1).Key, Declared: `{"keep_embedding":"view"}`}, {Key: canonical(2).Key, Declared: `{"keep_embedding":true}`},
		{Key: canonical(3).Key, Declared: `{}`}, {Key: canonical(4).Key, Declared: `{}`}}
	for _, experiment := range []string{"general", "convergence"} {
		if err := s.RecordExecution(ctx, experiment, "quick", "sha", members); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range blocks {
		q := b[1]
		t.Run(strings.Fields(q)[0], func(t *testing.T) {
			if strings.HasPrefix(q, "DELETE") {
				if _, err := s.DB().Exec(q); err != nil {
					t.Fatalf("%v\n%s", err, q)
				}
				var kept string
				s.DB().QueryRow("SELECT group_concat(seed) FROM (SELECT r.seed FROM embeddings e JOIN runs r ON r.id = e.run_id ORDER BY r.seed)").Scan(&kept)
				if kept != "1,2" {
					t.Errorf("embeddings of runs %s kept, want those of 1 and 2", kept)
				}
				return
			}
			rows, err := s.DB().Query(q)
			if err != nil {
				t.Fatalf("%v\n%s", err, q)
			}
			defer rows.Close()
			if !rows.Next() {
				t.Errorf("no rows:\n%s", q)
			}
		})
	}
}
