package main

import (
	"fmt"
	"path/filepath"

	"gonum.org/v1/gonum/mat"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/oe-lab/oe/lib/datasets"
	"github.com/oe-lab/oe/lib/embed"
	"github.com/oe-lab/oe/lib/plot"
)

func init() {
	register("map", command{
		summary: "draw an embedding as a picture: every item at its place, labelled with its name (PNG or SVG)",
		run:     mapCommand,
	})
}

func mapCommand(args []string) error {
	fs := newFlags("map", "--embedding emb.csv --out map.png|map.svg [--labels y.csv] [--title T] [--width 10 --height 8]")
	embPath := fs.String("embedding", "", "the embedding, .csv or .npy (named rows: a CSV name column, or X.names.txt beside X.npy); "+
		"more than 2 dimensions are shown on the first two principal components")
	out := fs.String("out", "", "the picture, .png or .svg")
	labelsPath := fs.String("labels", "", "for an embedding without names: one class label per item (.csv or .npy), to colour the points by")
	title := fs.String("title", "", "title above the picture (default: the embedding's file name)")
	width := fs.Float64("width", 10, "width in inches")
	height := fs.Float64("height", 8, "height in inches")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	switch {
	case *embPath == "" || *out == "":
		return usageErrorf("--embedding and --out are required")
	case !(*width > 0 && *width <= 100 && *height > 0 && *height <= 100):
		return usageErrorf("--width and --height must lie in (0, 100] inches")
	}
	if err := checkOutput("out", *out, []string{".png", ".svg"}); err != nil {
		return err
	}
	emb, names, err := embed.ReadNamedEmbedding(*embPath)
	if err != nil {
		return err
	}
	var labels []int
	if *labelsPath != "" {
		if names != nil {
			return usageErrorf("--labels colours an embedding without names; %s names its items", *embPath)
		}
		if labels, err = embed.ReadLabels(*labelsPath); err != nil {
			return err
		}
	}
	pts, note, err := plane(emb)
	if err != nil {
		return fmt.Errorf("%s: %w", *embPath, err)
	}
	ax := plot.Axes{Title: orDefault(*title, filepath.Base(*embPath))}
	var p *gplot.Plot
	if names != nil {
		p, err = plot.LabelledScatter(ax, pts, names)
	} else {
		p, err = plot.Scatter(ax, pts, labels)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", *embPath, err)
	}
	if err := plot.SaveFile(p, *out, vg.Length(*width)*vg.Inch, vg.Length(*height)*vg.Inch); err != nil {
		return err
	}
	r, _ := pts.Dims()
	fmt.Fprintf(stderr(fs), "drew the %d items of %s%s → %s\n", r, *embPath, note, *out)
	return nil
}

// plane returns the embedding as points in the plane: as it is in 2-D, on
// the x axis in 1-D, on its first two principal components above.
func plane(emb *mat.Dense) (*mat.Dense, string, error) {
	n, d := emb.Dims()
	switch {
	case d == 2:
		return emb, "", nil
	case d == 1:
		pts := mat.NewDense(n, 2, nil)
		pts.SetCol(0, mat.Col(nil, 0, emb))
		return pts, " (1-D: on the x axis)", nil
	}
	pts, err := datasets.ProjectPCA(emb, 2)
	return pts, fmt.Sprintf(" (%d-D: first two principal components)", d), err
}
