package plots

import (
	"bytes"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

var (
	inv      = loadlab.ErrInvalid
	nan, inf = math.NaN(), math.Inf(1)
)

// seriesCases probes the series helpers: a nil plot, slices of other
// lengths and values that are not finite are documented panics naming
// the function (gonum cannot draw them).
func seriesCases() []badarg.Case {
	p := New("t", "x", "y")
	xs, ys := []float64{0, 1}, []float64{1, 2}
	var cs []badarg.Case
	add := func(name string, c ...badarg.Case) {
		for i := range c {
			c[i].Func = name
		}
		cs = append(cs, c...)
	}
	pp := badarg.Probe{Panic: true}
	for name, f := range map[string]func(p *plot.Plot, xs, ys []float64){
		"AddLine":   func(p *plot.Plot, xs, ys []float64) { AddLine(p, 0, "a", xs, ys) },
		"AddCurve":  func(p *plot.Plot, xs, ys []float64) { AddCurve(p, 0, "a", xs, ys) },
		"AddPoints": func(p *plot.Plot, xs, ys []float64) { AddPoints(p, 0, "a", xs, ys) },
		"AddBand":   func(p *plot.Plot, xs, ys []float64) { AddBand(p, 0, "a", xs, ys, ys, ys) },
		"AddErrorBars": func(p *plot.Plot, xs, ys []float64) {
			AddErrorBars(p, 0, "a", xs, ys, ys, ys)
		},
		"AddIntervals": func(p *plot.Plot, xs, ys []float64) { AddIntervals(p, 0, "a", xs, ys, ys, ys) },
	} {
		pp.Text = name
		add(name, pp.Panics("p = nil", "plots: "+name+": p is nil", func() { f(nil, xs, ys) }))
		add(name, pp.Entries("ys", ys, 1, badarg.Finite, func(y []float64) error { f(p, xs, y); return nil })...)
		add(name, pp.Entries("xs", xs, 0, badarg.Finite, func(x []float64) error { f(p, x, ys); return nil })...)
		add(name, pp.Lengths("ys", ys, func(y []float64) error { f(p, xs, y); return nil })...)
	}
	// The band's and the bars' bounds are checked too.
	add("AddBand", pp.Panics("lo[0] = NaN", "AddBand", func() { AddBand(p, 0, "", xs, []float64{nan, 1}, ys, ys) }))
	add("AddBand", pp.Panics("len(hi) = 1", "AddBand", func() { AddBand(p, 0, "", xs, ys, ys, ys[:1]) }))
	// A point without an interval has both ends NaN; one NaN end or an
	// infinite one is a programmer error.
	add("AddIntervals", pp.Panics("lo[0] = NaN alone", "AddIntervals", func() { AddIntervals(p, 0, "", xs, []float64{nan, 1}, ys, ys) }))
	add("AddIntervals", pp.Panics("hi[1] = +Inf", "AddIntervals", func() { AddIntervals(p, 0, "", xs, ys, ys, []float64{1, inf}) }))
	add("AddIntervals", pp.Panics("len(lo) = 1", "AddIntervals", func() { AddIntervals(p, 0, "", xs, ys[:1], ys, ys) }))
	var pl PointLabels
	pp.Text = "PointLabels.Add"
	add("PointLabels.Add", pp.Panics("len(labels) = 1", "PointLabels.Add", func() { pl.Add(0, xs, ys, []string{"a"}) }))
	add("PointLabels.Add", pp.Panics("ys[0] = NaN", "PointLabels.Add", func() { pl.Add(0, xs, []float64{nan, 1}, []string{"a", "b"}) }))
	pp.Text = "PointLabels.AvoidBars"
	add("PointLabels.AvoidBars", pp.Panics("len(hi) = 1", "PointLabels.AvoidBars", func() { pl.AvoidBars(xs, ys, ys[:1]) }))
	pp.Text = "AddNoIntervalKey"
	add("AddNoIntervalKey", pp.Panics("p = nil", "plots: AddNoIntervalKey: p is nil", func() { AddNoIntervalKey(nil, "k") }))
	add("AddErrorBars", pp.Panics("hi[1] = +Inf", "AddErrorBars", func() { AddErrorBars(p, 0, "", xs, ys, ys, []float64{1, inf}) }))
	for name, f := range map[string]func(p *plot.Plot, v float64){
		"AddVLine": func(p *plot.Plot, v float64) { AddVLine(p, 0, "r", v) },
		"AddHLine": func(p *plot.Plot, v float64) { AddHLine(p, 0, "r", v) },
	} {
		pp.Text = name
		add(name, pp.Panics("p = nil", "plots: "+name+": p is nil", func() { f(nil, 1) }))
		add(name, pp.Scalar("at", badarg.Finite, func(v float64) error { f(p, v); return nil })...)
	}
	pp.Text = "AddBars"
	add("AddBars",
		pp.Panics("p = nil", "plots: AddBars: p is nil", func() { AddBars(nil, 0, 1, "", ys) }),
		pp.Panics("groups = 0", "", func() { AddBars(p, 0, 0, "", ys) }),
		pp.Panics("i = groups", "", func() { AddBars(p, 2, 2, "", ys) }),
		pp.Panics("i = -1", "", func() { AddBars(p, -1, 2, "", ys) }),
	)
	add("AddBars", pp.Entries("values", ys, 0, badarg.Finite, func(v []float64) error { AddBars(p, 0, 1, "", v); return nil })...)
	return cs
}

// layoutCases probes the layouts, the heat map, the ticks and the table:
// their documented panics.
func layoutCases() []badarg.Case {
	p := New("t", "x", "y")
	canvas := draw.New(vgimg.New(100, 100))
	g := Grid{Xs: []float64{0, 1}, Ys: []float64{0, 1}, Values: [][]float64{{1, 2}, {3, 4}}}
	pp := badarg.Probe{Panic: true}
	cs := []badarg.Case{
		pp.Panics("p = nil", "plots: AddHeatMap: p is nil", func() { AddHeatMap(nil, g, nil) }),
		pp.Panics("ragged rows", "heat map", func() { AddHeatMap(p, Grid{Xs: g.Xs, Ys: g.Ys, Values: [][]float64{{1, 2}, {3}}}, nil) }),
		pp.Panics("a row too few", "heat map", func() { AddHeatMap(p, Grid{Xs: g.Xs, Ys: g.Ys, Values: g.Values[:1]}, nil) }),
		pp.Panics("cm = nil", "plots: ColorBar: cm is nil", func() { ColorBar(nil, "") }),
		pp.Panics("c = 2", "", func() { g.Z(2, 0) }),
		pp.Panics("c = -1", "", func() { g.X(-1) }),
		pp.Panics("r = 2", "", func() { g.Y(2) }),
		pp.Panics("p = nil", "plots: LegendOutside: p is nil", func() { LegendOutside(nil) }),
		pp.Panics("p = nil", "plots: SplitLegend: p is nil", func() { SplitLegend(nil) }),
		pp.Panics("p = nil", "plots: NominalX: p is nil", func() { NominalX(nil, "a") }),
		// Guards: 2²⁰×2²⁰ panels exhausting memory.
		pp.Panics("rows·cols = 2^40", "", func() { NewPanels(1<<20, 1<<20) }),
		pp.Panics("rows = 0", "", func() { NewPanels(0, 1) }),
		pp.Panics("3 cells for 2", "", func() { NewPanels(1, 2, p, p, p) }),
		pp.Panics("ColWeights of length 1", "", func() {
			ps := NewPanels(1, 2, p, p)
			ps.ColWeights = []float64{1}
			ps.Draw(canvas)
		}),
		pp.Panics("Weights of length 1", "", func() {
			s := NewStack(p, New("u", "x", "y"))
			s.Weights = []float64{1}
			s.Draw(canvas)
		}),
		pp.Panics("Kind = 9", "unknown TickKind 9", func() { Ticker{Kind: 9}.Ticks(0, 1) }),
		pp.Panics("k = 9", "plots: XTicks: unknown TickKind 9", func() { XTicks(9) }),
		pp.Panics("k = -1", "plots: YTicks: unknown TickKind -1", func() { YTicks(-1) }),
		pp.Panics("2 values for 1 column", "", func() { NewTable("a").Add(1.0, 2.0) }),
		pp.Panics("w = nil", "plots: Table.WriteCSV: w is nil", func() { _ = NewTable("a").WriteCSV(nil) }),
	}
	names := []string{"AddHeatMap", "AddHeatMap", "AddHeatMap", "ColorBar", "Grid.Z", "Grid.X", "Grid.Y", "LegendOutside", "SplitLegend", "NominalX",
		"NewPanels", "NewPanels", "NewPanels", "Panels.Draw", "Stack.Draw", "Ticker.Ticks", "XTicks", "YTicks", "Table.Add", "Table.WriteCSV"}
	for i := range cs {
		cs[i].Func = names[i]
	}
	return cs
}

// saveCases probes Save (guards: a zero or negative size panicking inside
// gonum, "w and h must both be > 0"; a 10 km canvas failing with
// "makeslice: len out of range"; a negative value on a log axis
// panicking in gonum's log scale) and ParseTickLabel.
func saveCases(dir string) []badarg.Case {
	p := New("t", "x", "y")
	AddCurve(p, 0, "a", []float64{0, 1}, []float64{0, 1})
	path := filepath.Join(dir, "a.png")
	pr := badarg.Probe{Func: "Save", Err: inv, Text: "w = %v"}
	cs := pr.Scalar("w", badarg.Positive, func(w float64) error { return Save(p, vg.Length(w), 10, path) })
	pr.Text = "h = %v"
	cs = append(cs, pr.Scalar("h", badarg.Positive, func(h float64) error { return Save(p, 10, vg.Length(h), path) })...)
	lp := New("t", "x", "y", LogY())
	AddCurve(lp, 0, "a", []float64{0, 1, 2}, []float64{1, -1, 3})
	pr.Text = ""
	cs = append(cs,
		badarg.Probe{Func: "Save", Err: loadlab.ErrTooLarge}.Fails("a 10 km canvas", "", func() error {
			return Save(p, 1e6*vg.Centimeter, 1e6*vg.Centimeter, filepath.Join(dir, "b.png"))
		}),
		pr.Fails("a negative value on a log axis", "drawing failed", func() error {
			return Save(lp, 10*vg.Centimeter, 8*vg.Centimeter, filepath.Join(dir, "c.png"))
		}),
		pr.Fails("an unknown format", "", func() error { return Save(p, 10*vg.Centimeter, 8*vg.Centimeter, filepath.Join(dir, "d.foo")) }),
		pr.Panics("d = nil", "plots: Save: nil Drawer d", func() { _ = Save(nil, 10, 10, filepath.Join(dir, "e.png")) }),
	)
	pr = badarg.Probe{Func: "ParseTickLabel", Err: inv}
	for _, l := range []string{"x", "10^{3", "2·10^{3}", "10^{x}", ""} {
		cs = append(cs, pr.Fails("label "+l, "tick label", func() error { _, err := ParseTickLabel(l); return err }))
	}
	return cs
}

// TestValidate drives every exported entry point of the package with
// nil plots, slices of other lengths, values that are not finite and bad
// sizes: each gives the documented error or the documented panic.
func TestValidate(t *testing.T) {
	cs := slices.Concat(seriesCases(), layoutCases(), saveCases(t.TempDir()))
	badarg.Run(t, cs)
	anyValue := "any value is valid"
	badarg.Coverage(t, ".", cs, map[string]string{
		"Config.Logf":       "a progress line: any format and arguments",
		"Near":              "a headline holds any value; a NaN never agrees (Headline.Lo, Hi)",
		"Within":            "a headline holds any value; a NaN never agrees (Headline.Lo, Hi)",
		"FormatValue":       "formats any float64 (%.4g)",
		"NewTable":          "any column names",
		"PanelSize":         "a size computed from any counts; Save refuses a size that is not positive",
		"NewStack":          "any plots; a plot with an empty legend leaves its part blank",
		"PlotsOf":           "any Drawer: one this package did not make contributes no plot",
		"Color":             "series indices cycle: " + anyValue,
		"Translucent":       "series indices cycle, any alpha: " + anyValue,
		"Glyph":             "series indices cycle: " + anyValue,
		"NoIntervalGlyph":   "series indices cycle (negative: black): " + anyValue,
		"PointLabels.Boxes": "reads the boxes of the last drawing",
		"PointLabels.Plot":  "a plot.Plotter called by gonum while drawing",
		"Overlaps":          "any boxes",
		"Dashes":            "series indices cycle: " + anyValue,
		"XRange":            "sets the axis range as given; gonum draws what the range shows",
		"YRange":            "sets the axis range as given; gonum draws what the range shows",
		"LegendAt":          "two booleans: " + anyValue,
		"New":               "any title, labels and options",
		"Text.Box":          "measures any text (text.Handler)",
		"Text.Draw":         "draws any text (text.Handler)",
		"PlainText":         "any string",
		"Categories.Ticks":  "labels the integer positions of any range",
		"CheckTickLabels":   "any Drawer: one this package did not make has no labels to check",
	})
}

// TestValidRanges: ranges with no ticks give none, and a CSV table
// writes.
func TestValidRanges(t *testing.T) {
	for _, r := range [][2]float64{{nan, 1}, {0, inf}, {1, 0}} {
		assert.Empty(t, Ticker{}.Ticks(r[0], r[1]), "%v", r)
	}
	var b bytes.Buffer
	assert.NoError(t, NewTable("a").WriteCSV(&b))
}

// TestValidSave: a valid plot saves, and a valid grid of panels builds.
func TestValidSave(t *testing.T) {
	p := New("t", "x", "y")
	AddCurve(p, 0, "a", []float64{0, 1}, []float64{0, 1})
	assert.NoError(t, Save(p, 10*vg.Centimeter, 8*vg.Centimeter, filepath.Join(t.TempDir(), "d.png")))
	assert.NotPanics(t, func() { NewPanels(2, 3) })
}
