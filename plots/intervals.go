package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// AddIntervals adds series i as a mean line with markers and, where an
// interval is given, its band: lo[k] and hi[k] both NaN say that point k
// has no interval that can be shown (too few distinct runs, say). The
// band covers every run of consecutive points with an interval; a point
// with one between two without is drawn with an error bar, and a point
// without one gets an open ring (NoIntervalGlyph) round its marker, so
// that no interval is ever drawn with zero width where there is none.
// The legend entry (none if name is empty) shows the band, line and
// marker. It panics if p is nil, the slices differ in length, a mean or
// x is not finite, or exactly one of lo[k], hi[k] is NaN or either is
// infinite.
func AddIntervals(p *plot.Plot, i int, name string, xs, lo, mean, hi []float64) {
	mustPlot("AddIntervals", p)
	if len(lo) != len(xs) || len(hi) != len(xs) {
		panic(fmt.Sprintf("plots: AddIntervals: lengths %d, %d, %d differ", len(xs), len(lo), len(hi)))
	}
	pts := xy("AddIntervals", xs, mean)
	var rings plotter.XYs
	start := 0
	flush := func(end int) { // points start..end-1 have intervals
		switch {
		case end-start >= 2:
			addBandPolygon(p, i, xs[start:end], lo[start:end], hi[start:end])
		case end-start == 1:
			AddErrorBars(p, i, "", xs[start:end], mean[start:end], lo[start:end], hi[start:end])
		}
		start = end + 1
	}
	for k := range xs {
		switch ln, hn := math.IsNaN(lo[k]), math.IsNaN(hi[k]); {
		case ln != hn || math.IsInf(lo[k], 0) || math.IsInf(hi[k], 0):
			panic(fmt.Sprintf("plots: AddIntervals: point %d has interval [%v, %v]; want both finite or both NaN", k, lo[k], hi[k]))
		case ln:
			flush(k)
			rings = append(rings, pts[k])
		}
	}
	flush(len(xs))
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		panic(err)
	}
	l.LineStyle = lineStyle(i)
	s.GlyphStyle = Glyph(i)
	p.Add(l, s)
	if len(rings) > 0 {
		r, err := plotter.NewScatter(rings)
		if err != nil {
			panic(err)
		}
		r.GlyphStyle = NoIntervalGlyph(i)
		p.Add(r)
	}
	if name != "" {
		band, _ := plotter.NewPolygon(plotter.XYs{{}, {}, {}})
		band.Color, band.LineStyle.Width = Translucent(i, 0x48), 0
		p.Legend.Add(name, band, l, s)
	}
}

// addBandPolygon adds the translucent band of series i from lo to hi.
func addBandPolygon(p *plot.Plot, i int, xs, lo, hi []float64) {
	poly := make(plotter.XYs, 0, 2*len(xs))
	poly = append(poly, xy("AddIntervals", xs, hi)...)
	for k := len(xs) - 1; k >= 0; k-- {
		poly = append(poly, plotter.XY{X: xs[k], Y: lo[k]})
	}
	band, err := plotter.NewPolygon(poly)
	if err != nil {
		panic(err)
	}
	band.Color = Translucent(i, 0x48)
	band.LineStyle.Width = 0
	p.Add(band)
}

// NoIntervalGlyph is the open ring AddIntervals draws round a marker of
// series i that has no interval (i < 0: black, for a legend key).
func NoIntervalGlyph(i int) draw.GlyphStyle {
	g := Glyph(i)
	if i < 0 {
		g = Glyph(7)
	}
	g.Shape, g.Radius = draw.RingGlyph{}, vg.Points(5)
	return g
}

// AddNoIntervalKey adds the legend entry that explains the rings of
// AddIntervals, with the text given. It panics if p is nil.
func AddNoIntervalKey(p *plot.Plot, text string) {
	mustPlot("AddNoIntervalKey", p)
	s, err := plotter.NewScatter(plotter.XYs{})
	if err != nil {
		panic(err)
	}
	s.GlyphStyle = NoIntervalGlyph(-1)
	p.Legend.Add(text, s)
}
