package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oe-lab/oe/lib/plot"
)

func TestWriteAndIndex(t *testing.T) {
	dir := t.TempDir()
	p, err := plot.Lines(plot.Axes{Title: "t"}, []plot.Series{{Name: "soe", X: []float64{1, 2}, Samples: [][]float64{{0.2}, {0.1}}}})
	if err != nil {
		t.Fatal(err)
	}
	d := &Doc{Name: "noise", Question: "What is the effect of noise?", Paper: "Section 4.5", Profile: "smoke", Runs: 4,
		Environment: "- host x", Command: "oerun experiments/noise.go"}
	d.Note("FMNIST stood in for MNIST.")
	d.Note("FMNIST stood in for MNIST.")
	d.Add(Section{Heading: "Results", Text: "SOE wins.", Table: &Table{Caption: "errors", Header: []string{"algorithm", "error"},
		Rows: [][]string{{"soe", "0.1 | 0.2"}, {"ste"}}}})
	d.Add(Section{Figure: &Figure{Name: "error-vs-noise", Caption: "Test error against noise", Plot: p}})
	if err := d.Write(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "noise.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# What is the effect of noise?\n",
		"*Paper: Section 4.5.* Profile **smoke**, 4 runs.",
		"## Notes\n\n- FMNIST stood in for MNIST.\n\n## Results",
		"| algorithm | error |\n|---|---|\n| soe | 0.1 \\| 0.2 |\n| ste |  |\n",
		"![Test error against noise](noise/error-vs-noise.png)",
		"## Rerun\n\n```sh\noerun experiments/noise.go\n```",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	for _, ext := range []string{".png", ".svg"} {
		if _, err := os.Stat(filepath.Join(dir, "noise", "error-vs-noise"+ext)); err != nil {
			t.Error(err)
		}
	}
	if err := Index(dir); err != nil {
		t.Fatal(err)
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if want := "| [noise](noise.md) | What is the effect of noise? | smoke | 4 |"; !strings.Contains(string(idx), want) {
		t.Errorf("index lacks %q:\n%s", want, idx)
	}
}

func TestWriteRejectsBadNames(t *testing.T) {
	for _, name := range []string{"", "../x", "a b"} {
		if err := (&Doc{Name: name, Question: "q"}).Write(t.TempDir()); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
}

func ExampleIndex() {
	dir, _ := os.MkdirTemp("", "reports")
	defer os.RemoveAll(dir)
	(&Doc{Name: "general", Question: "Which algorithm should you use?", Profile: "quick", Runs: 24}).Write(dir)
	Index(dir)
	idx, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	fmt.Println(strings.Split(strings.TrimSpace(string(idx)), "\n")[6])
	// Output: | [general](general.md) | Which algorithm should you use? | quick | 24 |
}

// A report that fails half-way (here: its second figure) leaves the one it
// was to replace, with its figures, as it was, and no staging folder.
func TestWriteFailureKeepsPreviousReport(t *testing.T) {
	dir := t.TempDir()
	p, err := plot.Lines(plot.Axes{}, []plot.Series{{Name: "soe", X: []float64{1, 2}, Samples: [][]float64{{0.2}, {0.1}}}})
	if err != nil {
		t.Fatal(err)
	}
	old := &Doc{Name: "noise", Question: "old", Profile: "quick", Runs: 8}
	old.Add(Section{Figure: &Figure{Name: "a", Plot: p}})
	if err := old.Write(dir); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(dir, "noise.md"))
	if err != nil {
		t.Fatal(err)
	}
	broken := &Doc{Name: "noise", Question: "new", Profile: "quick", Runs: 8}
	broken.Add(Section{Figure: &Figure{Name: "b", Plot: p}})
	broken.Add(Section{Figure: &Figure{Name: "no good", Plot: p}})
	if err := broken.Write(dir); err == nil || !strings.Contains(err.Error(), `bad figure name "no good"`) {
		t.Fatalf("error %v, want the bad figure name", err)
	}
	after, err := os.ReadFile(filepath.Join(dir, "noise.md"))
	if err != nil || string(after) != string(before) {
		t.Errorf("the previous report changed:\n%s", after)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "noise"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "a.png a.svg" {
		t.Errorf("figure folder holds %v, want the previous report's a.png a.svg", names)
	}
	all, _ := os.ReadDir(dir)
	if len(all) != 2 {
		t.Errorf("%d entries in the reports folder, want noise.md and noise/ only", len(all))
	}
	// A complete report replaces the figures: the old one's go.
	if err := (&Doc{Name: "noise", Question: "new", Profile: "quick", Runs: 8}).Write(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "noise")); !os.IsNotExist(err) {
		t.Errorf("a report without figures left the old figure folder (%v)", err)
	}
}

func TestCheckReplace(t *testing.T) {
	dir := t.TempDir()
	if err := (&Doc{Name: "general", Question: "q", Profile: "quick", Runs: 120}).Write(dir); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		doc     Doc
		wantErr string
	}{
		{"same runs", Doc{Name: "general", Profile: "quick", Runs: 120}, ""},
		{"more runs", Doc{Name: "general", Profile: "quick", Runs: 121}, ""},
		{"no report yet", Doc{Name: "noise", Profile: "smoke", Runs: 0}, ""},
		{"fewer runs", Doc{Name: "general", Profile: "quick", Runs: 0},
			"general.md shows 120 runs at profile quick; the new report would show 0 runs, so it is not replaced"},
		{"other profile", Doc{Name: "general", Profile: "smoke", Runs: 500},
			"general.md shows 120 runs at profile quick; the new report would show profile smoke, so it is not replaced"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.doc.CheckReplace(dir)
			if tc.wantErr == "" {
				if err != nil {
					t.Errorf("error %v", err)
				}
				return
			}
			var re *ReplaceError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want a ReplaceError saying %q", err, tc.wantErr)
			}
		})
	}
}

// CheckReplace keeps a report from being replaced by one that shows less.
func ExampleDoc_CheckReplace() {
	dir, _ := os.MkdirTemp("", "reports")
	defer os.RemoveAll(dir)
	(&Doc{Name: "general", Question: "Which algorithm?", Profile: "quick", Runs: 120}).Write(dir)
	rebuilt := &Doc{Name: "general", Question: "Which algorithm?", Profile: "quick", Runs: 0}
	err := rebuilt.CheckReplace(dir)
	var re *ReplaceError
	fmt.Println(errors.As(err, &re), re.Runs, re.NewRuns)
	// Output: true 120 0
}
