package report

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"slices"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	vgdraw "gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/oe-lab/oe/lib/plot"
)

// A figure is saved in one format, chosen by size: SVG, which stays sharp
// at any zoom, unless it is more than svgAllowance times the PNG. A PNG has
// a palette of at most paletteColours colours (a ramp of greyLevels greys
// for the text and axes, lib/plot's series colours, then the image's most
// frequent other colours, such as their commonest antialiased edges),
// and a heat map's cells take the nearest of them (their values are printed
// in the cells). On the paper profile's reports at 4,381 of 9,181 runs the
// figures took 6.38 MB with 256 colours and 4.46 MB with 32: the embedding
// grids 30–40% smaller and alike to the eye, and 59 line and heat-map plots
// PNG at 6–9 kB instead of SVG at 11–20 kB. With 16 colours (4 greys) a PNG
// takes 4 bits a pixel: at 7,224 runs the reports took 4.61 MB (paper) and
// 1.49 MB (quick) with 32 colours, 3.49 and 1.16 MB with 16, the grids'
// points and the text legible as before.
//
// A PNG is at most maxPNGWidth pixels wide (a canvas wider than
// maxPNGWidth/96 inches is drawn at a lower resolution): Markdown viewers
// show a report at about 900 pixels wide (GitHub's column), so wider images
// are only scaled down on screen. The embedding grids (13–16 inches wide)
// took 2.84 MB of the reports at 96 dpi. At 8,925 of 9,451 runs the paper
// profile's reports took 5.15 MB at 1,000 pixels and 4.81 MB at 900 (the
// widest grid 156 kB instead of 182 kB, its labels as legible), and the
// tracked files have to stay under 20 MB while the campaign goes on.
const (
	svgAllowance   = 1.5
	paletteColours = 16
	greyLevels     = 4
	maxPNGWidth    = 900
)

// encodeFigure draws p at w × h and returns it encoded as SVG or PNG (see
// svgAllowance), with its file extension. A plot that cannot be drawn is an
// error.
func encodeFigure(p *gplot.Plot, w, h vg.Length) (data []byte, ext string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("report: draw: %v", r)
		}
	}()
	svg := vgsvg.New(w, h)
	plot.Draw(vgdraw.New(svg), p)
	var sb bytes.Buffer
	if _, err := svg.WriteTo(&sb); err != nil {
		return nil, "", fmt.Errorf("report: %w", err)
	}
	dpi := min(vgimg.DefaultDPI, int(maxPNGWidth/(w/vg.Inch)))
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
	plot.Draw(vgdraw.New(img), p)
	var pb bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&pb, paletted(img.Image())); err != nil {
		return nil, "", fmt.Errorf("report: %w", err)
	}
	if float64(sb.Len()) > svgAllowance*float64(pb.Len()) {
		return pb.Bytes(), ".png", nil
	}
	return sb.Bytes(), ".svg", nil
}

// paletted returns img with its colours reduced to a palette of at most
// paletteColours: a ramp of greyLevels greys from black to white, lib/plot's
// series colours, then the image's most frequent other colours (equal counts by colour value,
// so that the result is deterministic); each pixel takes the nearest.
func paletted(img image.Image) *image.Paletted {
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	pal := make(color.Palette, 0, paletteColours)
	in := map[color.RGBA]bool{}
	for i := 0; i < greyLevels; i++ {
		v := uint8(i * 255 / (greyLevels - 1))
		c := color.RGBA{v, v, v, 255}
		pal, in[c] = append(pal, c), true
	}
	for i := 0; i < plot.NumColors(); i++ {
		if c := color.RGBAModel.Convert(plot.Color(i)).(color.RGBA); !in[c] {
			pal, in[c] = append(pal, c), true
		}
	}
	byCount := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		if !in[c] {
			byCount = append(byCount, c)
		}
	}
	slices.SortFunc(byCount, func(a, b color.RGBA) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(rgbaValue(a), rgbaValue(b))
	})
	for _, c := range byCount[:min(len(byCount), paletteColours-len(pal))] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	draw.Draw(out, b, img, b.Min, draw.Src)
	return out
}

func rgbaValue(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}
