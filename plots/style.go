package plots

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Font sizes of the house style, in points (vg.Length is in points).
const (
	TitleSize  vg.Length = 12
	LabelSize  vg.Length = 11
	TickSize   vg.Length = 9
	LegendSize vg.Length = 9.5
)

// palette is the Okabe–Ito colour-blind-safe palette (black moved last),
// so series i keeps its colour in every loadlab figure.
var seriesColors = []color.RGBA{
	{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}, // blue
	{R: 0xD5, G: 0x5E, B: 0x00, A: 0xff}, // vermillion
	{R: 0x00, G: 0x9E, B: 0x73, A: 0xff}, // bluish green
	{R: 0xCC, G: 0x79, B: 0xA7, A: 0xff}, // reddish purple
	{R: 0xE6, G: 0x9F, B: 0x00, A: 0xff}, // orange
	{R: 0x56, G: 0xB4, B: 0xE9, A: 0xff}, // sky blue
	{R: 0xF0, G: 0xE4, B: 0x42, A: 0xff}, // yellow
	{R: 0x00, G: 0x00, B: 0x00, A: 0xff}, // black
}

// Color returns the colour of series i (cycling through eight colours).
func Color(i int) color.RGBA { return seriesColors[mod(i, len(seriesColors))] }

// Translucent returns the colour of series i with alpha a (0–255), for
// confidence bands.
func Translucent(i int, a uint8) color.NRGBA {
	c := Color(i)
	return color.NRGBA{R: c.R, G: c.G, B: c.B, A: a}
}

var glyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{},
}

// Glyph returns the marker style of series i.
func Glyph(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: Color(i), Radius: vg.Points(2.6), Shape: glyphs[mod(i, len(glyphs))]}
}

// Dashes returns the dash pattern of series i: solid for i = 0, then
// distinct patterns, so series stay apart in greyscale print.
func Dashes(i int) []vg.Length {
	switch mod(i, 4) {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(2), vg.Points(2)}
	case 3:
		return []vg.Length{vg.Points(6), vg.Points(2), vg.Points(2), vg.Points(2)}
	}
	return nil
}

func mod(i, n int) int { return ((i % n) + n) % n }

// Option changes a plot made by New.
type Option func(p *plot.Plot)

// LogX puts the x axis on a base-10 log scale; every x value must be > 0.
func LogX() Option {
	return func(p *plot.Plot) {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = Ticker{Kind: Log}
	}
}

// LogY puts the y axis on a base-10 log scale; every y value must be > 0.
func LogY() Option {
	return func(p *plot.Plot) {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = Ticker{Kind: Log}
	}
}

// XRange fixes the x axis to [min, max].
func XRange(min, max float64) Option {
	return func(p *plot.Plot) { p.X.Min, p.X.Max = min, max }
}

// YRange fixes the y axis to [min, max].
func YRange(min, max float64) Option {
	return func(p *plot.Plot) { p.Y.Min, p.Y.Max = min, max }
}

// LegendAt places the legend inside the axes at the given corner
// (top or bottom, left or right). Use it when the data leave that
// corner empty; otherwise draw the plot with LegendOutside.
func LegendAt(top, left bool) Option {
	return func(p *plot.Plot) {
		p.Legend.Top, p.Legend.Left = top, left
		// Inset the legend from the corner's two axes lines.
		p.Legend.XOffs, p.Legend.YOffs = vg.Points(6), vg.Points(4)
		if !left {
			p.Legend.XOffs = -p.Legend.XOffs
		}
		if top {
			p.Legend.YOffs = -p.Legend.YOffs
		}
	}
}

// New returns a plot in the house style: title, axis labels (say the
// unit, as "time (s)"), fonts of the sizes above, light grid lines, the
// legend at the top left, tick labels equal to their values (Ticker) and
// sub- and superscripts written as x_{i} and 10^{3} (Text).
func New(title, xlabel, ylabel string, opts ...Option) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(plot.DefaultFont, TitleSize)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = font.From(plot.DefaultFont, LabelSize)
		ax.Tick.Label.Font = font.From(plot.DefaultFont, TickSize)
		ax.Padding = vg.Points(2)
		ax.Tick.Marker = Ticker{Kind: Linear}
	}
	p.X.Label.Padding = vg.Points(3)
	p.Y.Label.Padding = vg.Points(3)
	p.Legend.TextStyle.Font = font.From(plot.DefaultFont, LegendSize)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.ThumbnailWidth = vg.Points(18)
	p.Legend.Padding = vg.Points(1.5) // keeps markers of adjacent entries apart
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(6), -vg.Points(4)
	useHouseText(p)
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 0xE4}
	g.Horizontal.Color = color.Gray{Y: 0xE4}
	p.Add(g)
	for _, o := range opts {
		o(p)
	}
	return p
}
