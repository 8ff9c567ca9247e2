package plots

import (
	"fmt"

	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendOutside draws a plot with its legend in a column to the right
// of the axes.
type legendOutside struct{ p *plot.Plot }

// LegendOutside returns a Drawer that draws p with its legend in a
// column to the right of the axes, so that no legend entry can cover
// data. The column is as wide as the longest entry. It panics if p is
// nil.
func LegendOutside(p *plot.Plot) Drawer {
	mustPlot("LegendOutside", p)
	return legendOutside{p}
}

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

// maxPanels bounds rows·cols in NewPanels.
const maxPanels = 1 << 16

// NewPanels returns a rows×cols grid holding cells row by row. It panics
// if rows or cols is below 1, rows·cols exceeds maxPanels, or more cells
// are given than fit.
//
// (rows·cols is at most maxPanels = 65536: more panels than that cannot be
// drawn legibly, and a grid of 2²⁰×2²⁰ would exhaust memory.)
func NewPanels(rows, cols int, cells ...Drawer) *Panels {
	if n, ok := size.Mul(rows, cols); rows < 1 || cols < 1 || !ok || n > maxPanels {
		panic(fmt.Sprintf("plots: %d×%d panels, want rows, cols ≥ 1 and at most %d panels", rows, cols, maxPanels))
	}
	if len(cells) > rows*cols {
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

// Stack draws plots one above the other with aligned data areas (the
// same left and right edges whatever their tick labels) and their
// legends in one column of common width on the right, each level with
// the top of its panel's data area, so that no legend covers data. A
// plot with an empty legend leaves its part of the column blank.
// Weights, if set (one per plot), give the relative panel heights.
type Stack struct {
	Plots   []*plot.Plot
	Weights []float64
}

// NewStack returns a Stack of equal heights.
func NewStack(ps ...*plot.Plot) *Stack { return &Stack{Plots: ps} }

// Draw implements Drawer. It panics if Weights is set with a length
// other than len(Plots).
func (s *Stack) Draw(c draw.Canvas) {
	if s.Weights != nil && len(s.Weights) != len(s.Plots) {
		panic(fmt.Sprintf("plots: %d stack weights for %d plots", len(s.Weights), len(s.Plots)))
	}
	pad := vg.Points(8)
	var lw vg.Length
	for _, p := range s.Plots {
		if hasLegend(p, c) {
			// pad/2 before the column and some spare after it: the
			// last glyph of an entry may overhang its advance width.
			lw = max(lw, p.Legend.Rectangle(c).Size().X+pad)
		}
	}
	if lw > 0 {
		lw += pad
	}
	pc := c
	pc.Max.X -= lw
	for i, tile := range s.tiles(pc) {
		p := s.Plots[i]
		leg := p.Legend
		p.Legend = plot.NewLegend() // axes and data only
		drawPlot(p, tile)
		p.Legend = leg
		if !hasLegend(p, c) {
			continue
		}
		lc := tile
		lc.Min.X, lc.Max.X = c.Max.X-lw+pad/2, c.Max.X
		lc.Max.Y = dataCanvas(p, tile).Max.Y
		leg.Top, leg.Left = true, true
		leg.XOffs, leg.YOffs = 0, 0
		leg.Draw(lc)
	}
}

// tiles returns one canvas per plot, whose data areas share their left
// and right edges.
func (s *Stack) tiles(c draw.Canvas) []draw.Canvas {
	pad := vg.Points(10)
	total := 0.0
	for i := range s.Plots {
		total += s.weight(i)
	}
	height := c.Max.Y - c.Min.Y - vg.Length(len(s.Plots)-1)*pad
	// The widest left margin (y tick labels and label) and right margin
	// of any plot, so that every data area spans the same x range.
	var left, right vg.Length
	for _, p := range s.Plots {
		dc := dataCanvas(p, c)
		left, right = max(left, dc.Min.X-c.Min.X), max(right, c.Max.X-dc.Max.X)
	}
	out := make([]draw.Canvas, len(s.Plots))
	top := c.Max.Y
	for i, p := range s.Plots {
		t := c
		t.Max.Y = top
		t.Min.Y = top - height*vg.Length(s.weight(i)/total)
		top = t.Min.Y - pad
		dc := dataCanvas(p, t)
		t.Min.X += left - (dc.Min.X - t.Min.X)
		t.Max.X -= right - (t.Max.X - dc.Max.X)
		out[i] = t
	}
	return out
}

func (s *Stack) weight(i int) float64 {
	if s.Weights == nil {
		return 1
	}
	return s.Weights[i]
}

// PlotsOf returns the plots a Drawer made by this package draws: p
// itself, the plot of LegendOutside, the cells of Panels and the plots
// of a Stack, in drawing order. Other Drawers contribute nothing.
func PlotsOf(d Drawer) []*plot.Plot {
	switch x := d.(type) {
	case *plot.Plot:
		return []*plot.Plot{x}
	case legendOutside:
		return []*plot.Plot{x.p}
	case noLegend:
		return []*plot.Plot{x.p}
	case *Stack:
		return x.Plots
	case *Panels:
		var out []*plot.Plot
		for _, c := range x.Cells {
			if c != nil {
				out = append(out, PlotsOf(c)...)
			}
		}
		return out
	}
	return nil
}

// hasLegend reports whether p's legend has entries.
func hasLegend(p *plot.Plot, c draw.Canvas) bool {
	return p.Legend.Rectangle(c).Size().Y > 0
}

// noLegend draws a plot without its legend; legendOnly draws only the
// legend, at the top left of its tile.
type (
	noLegend   struct{ p *plot.Plot }
	legendOnly struct{ p *plot.Plot }
)

// SplitLegend returns two Drawers for a grid of Panels: p without its
// legend, and p's legend alone at the top left of its own cell, so that
// one legend can serve a row of panels without covering data. It panics
// if p is nil.
func SplitLegend(p *plot.Plot) (axes, legend Drawer) {
	mustPlot("SplitLegend", p)
	return noLegend{p}, legendOnly{p}
}

func (n noLegend) Draw(c draw.Canvas) {
	saved := n.p.Legend
	n.p.Legend = plot.NewLegend()
	drawPlot(n.p, c)
	n.p.Legend = saved
}

func (l legendOnly) Draw(c draw.Canvas) {
	leg := l.p.Legend
	leg.Top, leg.Left = true, true
	leg.XOffs, leg.YOffs = 0, 0
	if l.p.Title.Text != "" {
		// Level with the data areas of titled neighbours.
		c.Max.Y -= l.p.Title.TextStyle.Rectangle(l.p.Title.Text).Size().Y + l.p.Title.Padding
	}
	leg.Draw(c)
}
