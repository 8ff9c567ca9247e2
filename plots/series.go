package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// xy builds plotter.XYs for the function fn, panicking on a length
// mismatch or a value that is not finite (programmer errors: gonum's
// plotters cannot draw it).
func xy(fn string, xs, ys []float64) plotter.XYs {
	if len(xs) != len(ys) {
		panic(fmt.Sprintf("plots: %s: len(xs) = %d, len(ys) = %d", fn, len(xs), len(ys)))
	}
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		if !finite(xs[i]) || !finite(ys[i]) {
			panic(fmt.Sprintf("plots: %s: point %d = (%v, %v) is not finite", fn, i, xs[i], ys[i]))
		}
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	return pts
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// mustPlot panics, naming the function fn, if p is nil (a programmer
// error).
func mustPlot(fn string, p *plot.Plot) {
	if p == nil {
		panic("plots: " + fn + ": p is nil")
	}
}

func lineStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: Color(i), Width: vg.Points(1.4), Dashes: Dashes(i)}
}

// AddLine adds series i as a line with markers (measured or simulated
// values) and a legend entry name (none if name is empty). It panics if
// p is nil, len(xs) != len(ys) or a value is not finite.
func AddLine(p *plot.Plot, i int, name string, xs, ys []float64) {
	mustPlot("AddLine", p)
	l, s, err := plotter.NewLinePoints(xy("AddLine", xs, ys))
	if err != nil {
		panic(err)
	}
	l.LineStyle = lineStyle(i)
	s.GlyphStyle = Glyph(i)
	p.Add(l, s)
	if name != "" {
		p.Legend.Add(name, l, s)
	}
}

// AddCurve adds series i as a line without markers (a closed form or a
// dense trajectory). It panics if p is nil, len(xs) != len(ys) or a
// value is not finite.
func AddCurve(p *plot.Plot, i int, name string, xs, ys []float64) {
	mustPlot("AddCurve", p)
	l, err := plotter.NewLine(xy("AddCurve", xs, ys))
	if err != nil {
		panic(err)
	}
	l.LineStyle = lineStyle(i)
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
}

// AddPoints adds series i as markers only. It panics if p is nil,
// len(xs) != len(ys) or a value is not finite.
func AddPoints(p *plot.Plot, i int, name string, xs, ys []float64) {
	mustPlot("AddPoints", p)
	s, err := plotter.NewScatter(xy("AddPoints", xs, ys))
	if err != nil {
		panic(err)
	}
	s.GlyphStyle = Glyph(i)
	p.Add(s)
	if name != "" {
		p.Legend.Add(name, s)
	}
}

// AddBand adds series i as a mean line with markers inside a translucent
// band from lo to hi (a 95% confidence interval, say). It panics if p is
// nil, the slices differ in length or a value is not finite.
func AddBand(p *plot.Plot, i int, name string, xs, lo, mean, hi []float64) {
	mustPlot("AddBand", p)
	if len(lo) != len(xs) || len(hi) != len(xs) {
		panic(fmt.Sprintf("plots: AddBand: lengths %d, %d, %d differ", len(xs), len(lo), len(hi)))
	}
	xy("AddBand", xs, lo) // checks lo
	poly := make(plotter.XYs, 0, 2*len(xs))
	poly = append(poly, xy("AddBand", xs, hi)...)
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
	l, s, err := plotter.NewLinePoints(xy("AddBand", xs, mean))
	if err != nil {
		panic(err)
	}
	l.LineStyle = lineStyle(i)
	s.GlyphStyle = Glyph(i)
	p.Add(l, s)
	if name != "" {
		p.Legend.Add(name, band, l, s)
	}
}

// errorPoints implements plotter.XYer and plotter.YErrorer.
type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// AddErrorBars adds series i as markers with vertical error bars from
// lo to hi (absolute values, not offsets). It panics if p is nil, the
// slices differ in length or a value is not finite.
func AddErrorBars(p *plot.Plot, i int, name string, xs, ys, lo, hi []float64) {
	mustPlot("AddErrorBars", p)
	if len(lo) != len(xs) || len(hi) != len(xs) {
		panic(fmt.Sprintf("plots: AddErrorBars: lengths %d, %d, %d differ", len(xs), len(lo), len(hi)))
	}
	xy("AddErrorBars", xs, lo) // checks lo
	xy("AddErrorBars", xs, hi) // checks hi
	e := errorPoints{XYs: xy("AddErrorBars", xs, ys), YErrors: make(plotter.YErrors, len(xs))}
	for k := range xs {
		e.YErrors[k].Low = ys[k] - lo[k]
		e.YErrors[k].High = hi[k] - ys[k]
	}
	bars, err := plotter.NewYErrorBars(e)
	if err != nil {
		panic(err)
	}
	bars.LineStyle = draw.LineStyle{Color: Color(i), Width: vg.Points(1)}
	s, err := plotter.NewScatter(e.XYs)
	if err != nil {
		panic(err)
	}
	s.GlyphStyle = Glyph(i)
	p.Add(bars, s)
	if name != "" {
		p.Legend.Add(name, s)
	}
}

// refLine is a vertical or horizontal reference line that spans the
// whole data area, whatever the axis ranges turn out to be.
type refLine struct {
	vertical bool
	at       float64
	style    draw.LineStyle
}

func (r refLine) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var a, b vg.Point
	if r.vertical {
		x := trX(r.at)
		a, b = vg.Point{X: x, Y: c.Min.Y}, vg.Point{X: x, Y: c.Max.Y}
	} else {
		y := trY(r.at)
		a, b = vg.Point{X: c.Min.X, Y: y}, vg.Point{X: c.Max.X, Y: y}
	}
	c.StrokeLines(r.style, c.ClipLinesXY([]vg.Point{a, b})...)
}

func (r refLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(r.style, c.Min.X, y, c.Max.X, y)
}

// DataRange makes the reference value part of the axis range on its
// own axis only.
func (r refLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	inf := 1.0e308
	if r.vertical {
		return r.at, r.at, inf, -inf
	}
	return inf, -inf, r.at, r.at
}

// AddVLine adds a dashed vertical reference line at x in the colour of
// series i (i < 0: grey), with a legend entry if name is not empty. It
// panics if p is nil or x is not finite.
func AddVLine(p *plot.Plot, i int, name string, x float64) {
	addRef("AddVLine", p, i, name, true, x)
}

// AddHLine adds a dashed horizontal reference line at y. It panics if p
// is nil or y is not finite.
func AddHLine(p *plot.Plot, i int, name string, y float64) {
	addRef("AddHLine", p, i, name, false, y)
}

func addRef(fn string, p *plot.Plot, i int, name string, vertical bool, at float64) {
	mustPlot(fn, p)
	if !finite(at) {
		panic(fmt.Sprintf("plots: %s at %v, want a finite value", fn, at))
	}
	var c color.Color = color.Gray{Y: 0x70}
	if i >= 0 {
		c = Color(i)
	}
	r := refLine{vertical: vertical, at: at, style: draw.LineStyle{
		Color: c, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)},
	}}
	p.Add(r)
	if name != "" {
		p.Legend.Add(name, r)
	}
}

// AddBars adds series i as one set of bars in a grouped bar chart with
// groups series: bar k of series i stands at x = k, shifted so that the
// groups series sit side by side within a category of width 0.8 (data
// units, so bars never overlap whatever the figure size). Label the
// categories with p.NominalX. It panics if p is nil, groups < 1,
// i ∉ [0, groups) or a value is not finite.
func AddBars(p *plot.Plot, i, groups int, name string, values []float64) {
	mustPlot("AddBars", p)
	if groups < 1 || i < 0 || i >= groups {
		panic(fmt.Sprintf("plots: AddBars series %d of %d", i, groups))
	}
	for k, v := range values {
		if !finite(v) {
			panic(fmt.Sprintf("plots: AddBars: values[%d] = %v is not finite", k, v))
		}
	}
	w := 0.8 / float64(groups)
	var first *plotter.Polygon
	for k, v := range values {
		x0 := float64(k) - 0.4 + float64(i)*w
		bar, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: 0}, {X: x0 + w, Y: 0}, {X: x0 + w, Y: v}, {X: x0, Y: v}})
		if err != nil {
			panic(err)
		}
		bar.Color = Color(i)
		bar.LineStyle.Width = 0
		p.Add(bar)
		if first == nil {
			first = bar
		}
	}
	if name != "" && first != nil {
		p.Legend.Add(name, first)
	}
}
