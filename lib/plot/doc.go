// Package plot draws the figures of the experiment reports on top of
// gonum.org/v1/plot: lines of a metric against a swept parameter with error
// bars over repetitions, grouped bar charts, 2D scatter plots coloured by
// label, figures of scatter panels in rows and columns (Panels), and
// annotated heat maps. Save writes a figure as PNG and SVG.
//
// Every function returns a *plot.Plot of gonum/plot, so a caller can adjust
// it before saving. Save and Draw put the legend in a column beside the
// plot, never over the data (gonum/plot draws it inside the data area). Non-finite samples (failed runs) are left out of means
// and error bars rather than drawn.
package plot
