package report

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

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
	_, ext, err := encodeFigure(p, 7*vg.Inch, 4.5*vg.Inch) // a figure's default size
	if err != nil {
		t.Fatal(err)
	}
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
		"![Test error against noise](noise/error-vs-noise" + ext + ")\n\n*Test error against noise*\n\n",
		"## Rerun\n\n```sh\noerun experiments/noise.go\n```",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	// The figure is saved in one format: one file.
	if figs, err := os.ReadDir(filepath.Join(dir, "noise")); err != nil || len(figs) != 1 || figs[0].Name() != "error-vs-noise"+ext {
		t.Errorf("figure folder %v, %v; want error-vs-noise%s alone", figs, err, ext)
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
	if len(names) != 1 || strings.TrimSuffix(names[0], filepath.Ext(names[0])) != "a" {
		t.Errorf("figure folder holds %v, want the previous report's a alone", names)
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

func TestFormatCost(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{400 * time.Millisecond, "0.4s"},
		{12 * time.Second, "12s"},
		{200 * time.Second, "3m20s"},
		{2*time.Hour + 5*time.Minute + 40*time.Second, "2h05m"},
		{76 * time.Hour, "3d04h"},
	}
	for _, tc := range tests {
		if got := FormatCost(tc.d); got != tc.want {
			t.Errorf("FormatCost(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestProgress: a report says how far its profile is when runs are missing,
// in its text, its header and the indexes.
func TestProgress(t *testing.T) {
	tests := []struct {
		name       string
		doc        Doc
		text, meta string
		indexRuns  string
	}{
		{"complete", Doc{Runs: 120}, "Profile **paper**, 120 runs.", `runs="120" missing="0"`, "| 120 |"},
		{"under way, estimated", Doc{Runs: 120, Missing: 280, MissingCost: 3*time.Hour + 10*time.Minute},
			"Profile **paper**, 120 of 400 runs done; 280 missing (estimated cost 3h10m).", `runs="120" missing="280"`, "| 120 of 400 |"},
		{"under way, not estimated", Doc{Runs: 0, Missing: 12}, "Profile **paper**, 0 of 12 runs done; 12 missing.", `runs="0" missing="12"`, "| 0 of 12 |"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			d := tc.doc
			d.Name, d.Question, d.Profile = "general", "Which algorithm?", "paper"
			if err := d.Write(dir); err != nil {
				t.Fatal(err)
			}
			if err := Index(dir); err != nil {
				t.Fatal(err)
			}
			md, _ := os.ReadFile(filepath.Join(dir, "general.md"))
			idx, _ := os.ReadFile(filepath.Join(dir, "README.md"))
			for _, want := range []struct{ file, text string }{{string(md), tc.text}, {string(md), tc.meta}, {string(idx), tc.indexRuns}} {
				if !strings.Contains(want.file, want.text) {
					t.Errorf("lacks %q:\n%s", want.text, want.file)
				}
			}
		})
	}
}

// TestOverview: the reports of the profiles with a column side by side,
// each linking its report with its runs, a dash where a profile has none;
// a profile without a column only described; a missing folder is no error.
func TestOverview(t *testing.T) {
	root := t.TempDir()
	for _, d := range []*Doc{
		{Name: "general", Question: "Which algorithm?", Profile: "quick", Runs: 120},
		{Name: "noise", Question: "What does noise do?", Profile: "quick", Runs: 80},
		{Name: "general", Question: "Which algorithm?", Profile: "paper", Runs: 30, Missing: 370},
		{Name: "triplets", Question: "How many triplets?", Profile: "smoke", Runs: 4},
	} {
		if err := d.Write(filepath.Join(root, d.Profile)); err != nil {
			t.Fatal(err)
		}
	}
	profiles := []Profile{{Name: "quick", About: "small.", Column: true}, {Name: "paper", About: "the paper's.", Column: true},
		{Name: "smoke", About: "ignored."}, {Name: "extra", About: "no folder.", Column: true}}
	if err := Overview(root, profiles); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"- **quick** (`quick/`): small.\n- **paper** (`paper/`): the paper's.\n- **smoke** (`smoke/`): ignored.\n",
		"| report | question | quick | paper | extra |\n|---|---|---|---|---|\n",
		"| general | Which algorithm? | [120 runs](quick/general.md) | [30 of 400 runs](paper/general.md) | — |\n",
		"| noise | What does noise do? | [80 runs](quick/noise.md) | — | — |\n",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("overview lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(string(md), "triplets") {
		t.Errorf("overview lists a report of a profile without a column:\n%s", md)
	}
}

func ExampleOverview() {
	root, _ := os.MkdirTemp("", "reports")
	defer os.RemoveAll(root)
	(&Doc{Name: "general", Question: "Which algorithm?", Profile: "quick", Runs: 120}).Write(filepath.Join(root, "quick"))
	(&Doc{Name: "general", Question: "Which algorithm?", Profile: "paper", Runs: 30, Missing: 370}).Write(filepath.Join(root, "paper"))
	Overview(root, []Profile{{Name: "quick", About: "reduced scale.", Column: true}, {Name: "paper", About: "the paper's scale.", Column: true}})
	md, _ := os.ReadFile(filepath.Join(root, "README.md"))
	lines := strings.Split(strings.TrimSpace(string(md)), "\n")
	fmt.Println(lines[len(lines)-1])
	// Output: | general | Which algorithm? | [120 runs](quick/general.md) | [30 of 400 runs](paper/general.md) |
}

// TestFigureFormat: a figure is saved as the smaller of SVG and PNG — SVG
// for a line plot on a large canvas (little ink, many pixels), PNG (with a
// palette) for a scatter plot of many points — and the PNG keeps the plot's
// colours and the black of its text, at most maxPNGWidth pixels wide.
func TestFigureFormat(t *testing.T) {
	lines, err := plot.Lines(plot.Axes{Title: "error"}, []plot.Series{{Name: "soe", X: []float64{1, 2, 4}, Samples: [][]float64{{0.3}, {0.2}, {0.1}}}})
	if err != nil {
		t.Fatal(err)
	}
	pts := mat.NewDense(5000, 2, nil)
	labels := make([]int, 5000)
	for i := range labels {
		pts.Set(i, 0, math.Cos(float64(i)))
		pts.Set(i, 1, math.Sin(float64(i)*1.7))
		labels[i] = i % 3
	}
	scatter, err := plot.Scatter(plot.Axes{Title: "embedding"}, pts, labels)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		p       *gplot.Plot
		width   vg.Length
		wantExt string
	}{
		{"line plot, 10 inches wide", lines, 10 * vg.Inch, ".svg"},
		{"scatter plot of 5,000 points", scatter, 5 * vg.Inch, ".png"},
		{"scatter plot, 16 inches wide", scatter, 16 * vg.Inch, ".png"},
	}
	for _, tc := range tests {
		data, ext, err := encodeFigure(tc.p, tc.width, tc.width*4/5)
		if err != nil {
			t.Fatal(err)
		}
		if ext != tc.wantExt {
			t.Errorf("%s: saved as %s (%d bytes), want %s", tc.name, ext, len(data), tc.wantExt)
		}
		if ext != ".png" {
			continue
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if wide := img.Bounds().Dx(); wide > maxPNGWidth || wide < maxPNGWidth*9/10 && tc.width > 11*vg.Inch {
			t.Errorf("%s: PNG %d pixels wide, want at most %d (and near it for a wide canvas)", tc.name, wide, maxPNGWidth)
		}
		pal, ok := img.(*image.Paletted)
		if !ok || len(pal.Palette) > paletteColours {
			t.Fatalf("%s: PNG of %T, want a palette of at most %d colours", tc.name, img, paletteColours)
		}
		for _, want := range []color.Color{color.Black, plot.Color(0), plot.Color(1), plot.Color(2)} {
			if pal.Palette[pal.Palette.Index(want)] != color.RGBAModel.Convert(want) {
				t.Errorf("%s: the palette lacks %v", tc.name, want)
			}
		}
	}
}

// The fixed part of a PNG's palette, the greys and lib/plot's series
// colours, must leave room in paletteColours (paletted slices the rest).
func TestPaletteHoldsSeriesColours(t *testing.T) {
	if fixed := greyLevels + plot.NumColors(); fixed > paletteColours {
		t.Errorf("%d greys and %d series colours exceed a palette of %d", greyLevels, plot.NumColors(), paletteColours)
	}
}
