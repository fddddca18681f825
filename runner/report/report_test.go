package report

import (
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
