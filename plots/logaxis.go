package plots

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// gonum v0.17 reserves room for an axis label around the arithmetic
// midpoint of the axis range. On a log axis that point sits near the
// top (y) or right (x) end, so a long label shrinks the data area and
// leaves a wide empty band. drawPlot and dataCanvas draw the labels of
// log axes themselves, centred on the data area.

// logLabels reports which axes of p have a log scale and a label.
func logLabels(p *plot.Plot) (x, y bool) {
	_, lx := p.X.Scale.(plot.LogScale)
	_, ly := p.Y.Scale.(plot.LogScale)
	return lx && p.X.Label.Text != "", ly && p.Y.Label.Text != ""
}

// withoutLogLabels calls f with the labels of log axes removed and the
// canvas shrunk by the room they take; it restores the labels after.
func withoutLogLabels(p *plot.Plot, c draw.Canvas, f func(draw.Canvas)) {
	lx, ly := logLabels(p)
	xl, yl := p.X.Label, p.Y.Label
	if ly {
		c.Min.X += yl.TextStyle.Height(yl.Text) + yl.TextStyle.FontExtents().Descent + yl.Padding
		p.Y.Label.Text = ""
	}
	if lx {
		c.Min.Y += xl.TextStyle.Height(xl.Text) + xl.Padding + xlDrop(xl.TextStyle.Font.Size)
		p.X.Label.Text = ""
	}
	defer func() { p.X.Label.Text, p.Y.Label.Text = xl.Text, yl.Text }()
	f(c)
}

// drawPlot draws p on c, drawing the labels of log axes itself.
func drawPlot(p *plot.Plot, c draw.Canvas) {
	fitTicks(p)
	lx, ly := logLabels(p)
	if !lx && !ly {
		p.Draw(c)
		return
	}
	xl, yl := p.X.Label, p.Y.Label
	var data draw.Canvas
	withoutLogLabels(p, c, func(pc draw.Canvas) {
		p.Draw(pc)
		data = p.DataCanvas(pc)
	})
	if ly {
		h := yl.TextStyle.Height(yl.Text)
		sty := yl.TextStyle
		sty.Rotation += math.Pi / 2
		c.FillText(sty, vg.Point{X: c.Min.X + h - yl.TextStyle.FontExtents().Descent, Y: data.Center().Y}, yl.Text)
	}
	if lx {
		sty := xl.TextStyle
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
		c.FillText(sty, vg.Point{X: data.Center().X, Y: c.Min.Y + xlDrop(sty.Font.Size)}, xl.Text)
	}
}

// dataCanvas returns the data area drawPlot gives p on c.
func dataCanvas(p *plot.Plot, c draw.Canvas) draw.Canvas {
	fitTicks(p)
	var data draw.Canvas
	withoutLogLabels(p, c, func(pc draw.Canvas) { data = p.DataCanvas(pc) })
	return data
}

// drawAny draws d, routing plots through drawPlot.
func drawAny(d Drawer, c draw.Canvas) {
	if p, ok := d.(*plot.Plot); ok {
		drawPlot(p, c)
		return
	}
	d.Draw(c)
}

// xlDrop is the room below a log-x label for its subscripts.
func xlDrop(size vg.Length) vg.Length { return vg.Length(subShift) * size }
