package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendOutside draws a plot with its legend in a column to the right
// of the axes.
type legendOutside struct{ p *plot.Plot }

// LegendOutside returns a Drawer that draws p with its legend in a
// column to the right of the axes, so that no legend entry can cover
// data. The column is as wide as the longest entry.
func LegendOutside(p *plot.Plot) Drawer { return legendOutside{p} }

func (l legendOutside) Draw(c draw.Canvas) {
	leg := l.p.Legend
	leg.Top, leg.Left = true, true
	leg.XOffs, leg.YOffs = 0, 0
	pad := vg.Points(8)
	w := leg.Rectangle(c).Size().X + pad
	// Draw the axes without the legend, then the legend beside them,
	// starting level with the top of the data area.
	saved := l.p.Legend
	empty := plot.NewLegend()
	l.p.Legend = empty
	pc := c
	pc.Max.X -= w
	drawPlot(l.p, pc)
	l.p.Legend = saved
	lc := c
	lc.Min.X = c.Max.X - w + pad/2
	if l.p.Title.Text != "" {
		lc.Max.Y -= l.p.Title.TextStyle.Rectangle(l.p.Title.Text).Size().Y + l.p.Title.Padding
	}
	lc.Max.Y -= vg.Points(4)
	leg.Draw(lc)
}

// Panels is a multi-panel figure: a grid of Drawers (plots, or plots
// wrapped by LegendOutside) drawn row by row. A nil cell is left blank.
type Panels struct {
	Rows, Cols int
	Cells      []Drawer // row-major, len Rows*Cols
	// ColWeights, if set (len Cols), gives the relative widths of the
	// columns, e.g. {1, 0.15} for a heat map and its colour bar; nil
	// means equal widths.
	ColWeights []float64
	// Pad is the space between tiles; zero means 10 pt.
	Pad vg.Length
}

// NewPanels returns a rows×cols grid holding cells row by row. It panics
// if more cells are given than fit.
func NewPanels(rows, cols int, cells ...Drawer) *Panels {
	if rows < 1 || cols < 1 || len(cells) > rows*cols {
		panic(fmt.Sprintf("plots: %d cells do not fit %d×%d panels", len(cells), rows, cols))
	}
	all := make([]Drawer, rows*cols)
	copy(all, cells)
	return &Panels{Rows: rows, Cols: cols, Cells: all}
}

// Draw implements Drawer. It panics if ColWeights is set with a length
// other than Cols.
func (ps *Panels) Draw(c draw.Canvas) {
	pad := ps.Pad
	if pad == 0 {
		pad = vg.Points(10)
	}
	weights := ps.ColWeights
	if weights == nil {
		weights = make([]float64, ps.Cols)
		for i := range weights {
			weights[i] = 1
		}
	}
	if len(weights) != ps.Cols {
		panic(fmt.Sprintf("plots: %d column weights for %d columns", len(weights), ps.Cols))
	}
	var total float64
	for _, w := range weights {
		total += w
	}
	width := c.Max.X - c.Min.X - vg.Length(ps.Cols-1)*pad
	height := (c.Max.Y - c.Min.Y - vg.Length(ps.Rows-1)*pad) / vg.Length(ps.Rows)
	for k, d := range ps.Cells {
		if d == nil {
			continue
		}
		row, col := k/ps.Cols, k%ps.Cols
		x := c.Min.X
		for j := 0; j < col; j++ {
			x += width*vg.Length(weights[j]/total) + pad
		}
		tile := c
		tile.Min.X = x
		tile.Max.X = x + width*vg.Length(weights[col]/total)
		tile.Max.Y = c.Max.Y - vg.Length(row)*(height+pad)
		tile.Min.Y = tile.Max.Y - height
		drawAny(d, tile)
	}
}

// PanelSize returns a figure size for rows×cols panels of the default
// single-panel size scaled by 0.8, so a 2×2 figure stays readable.
func PanelSize(rows, cols int) (w, h vg.Length) {
	return vg.Length(cols) * DefaultWidth * 0.8, vg.Length(rows) * DefaultHeight * 0.8
}
