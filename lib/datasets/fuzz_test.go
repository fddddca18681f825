package datasets

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadAnswers checks that the reader of the authors' answers files
// never panics, and that whatever it accepts over 4 items is a list of
// queries of three different items in range with the majority's votes
// first.
func FuzzReadAnswers(f *testing.F) {
	f.Add([]byte(tinyAnswers))
	f.Add([]byte(`{"answers": [], "agreement": []}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "answers.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		answers, err := readAnswers(path, 4)
		if err != nil {
			return
		}
		for q, a := range answers {
			items := []int32{a.Ref, a.A, a.B}
			for _, v := range items {
				if v < 0 || v >= 4 {
					t.Fatalf("query %d: item %d out of range", q, v)
				}
			}
			if a.Ref == a.A || a.Ref == a.B || a.A == a.B || a.ForA < a.ForB || a.ForB < 0 || a.ForA == 0 {
				t.Fatalf("query %d accepted: %+v", q, a)
			}
		}
	})
}
