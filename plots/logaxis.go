package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// drawPlot draws p on c. For a log-scaled y axis it draws the y label
// itself: gonum v0.17 reserves room for that label around the arithmetic
// midpoint of the data range, which on a log axis sits near the top and
// left a wide empty band above the data.
func drawPlot(p *plot.Plot, c draw.Canvas) {
	if _, log := p.Y.Scale.(plot.LogScale); !log || p.Y.Label.Text == "" {
		p.Draw(c)
		return
	}
	label := p.Y.Label
	h := label.TextStyle.Height(label.Text)
	descent := label.TextStyle.FontExtents().Descent
	p.Y.Label.Text = ""
	defer func() { p.Y.Label.Text = label.Text }()
	pc := c
	pc.Min.X += h + descent + label.Padding
	p.Draw(pc)
	data := p.DataCanvas(pc)
	sty := label.TextStyle
	sty.Rotation += math.Pi / 2
	c.FillText(sty, vg.Point{X: c.Min.X + h - descent, Y: data.Center().Y}, label.Text)
}

// dataCanvas returns the data area drawPlot gives p on c.
func dataCanvas(p *plot.Plot, c draw.Canvas) draw.Canvas {
	if _, log := p.Y.Scale.(plot.LogScale); !log || p.Y.Label.Text == "" {
		return p.DataCanvas(c)
	}
	label := p.Y.Label
	p.Y.Label.Text = ""
	defer func() { p.Y.Label.Text = label.Text }()
	c.Min.X += label.TextStyle.Height(label.Text) + label.TextStyle.FontExtents().Descent + label.Padding
	return p.DataCanvas(c)
}

// drawAny draws d, routing plots through drawPlot.
func drawAny(d Drawer, c draw.Canvas) {
	if p, ok := d.(*plot.Plot); ok {
		drawPlot(p, c)
		return
	}
	d.Draw(c)
}
