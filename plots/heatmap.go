package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// Grid is a regular grid of values for a heat map: Values[row][col] is
// the value at (Xs[col], Ys[row]). It implements plotter.GridXYZ.
type Grid struct {
	Xs, Ys []float64
	Values [][]float64
}

// Dims implements plotter.GridXYZ.
func (g Grid) Dims() (c, r int) { return len(g.Xs), len(g.Ys) }

// Z implements plotter.GridXYZ. It panics if c or r is out of range.
func (g Grid) Z(c, r int) float64 { return g.Values[r][c] }

// X implements plotter.GridXYZ. It panics if c is out of range.
func (g Grid) X(c int) float64 { return g.Xs[c] }

// Y implements plotter.GridXYZ. It panics if r is out of range.
func (g Grid) Y(r int) float64 { return g.Ys[r] }

// Range returns the smallest and largest finite values.
func (g Grid) Range() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range g.Values {
		for _, v := range row {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	return lo, hi
}

// AddHeatMap adds g as a heat map coloured by cm and returns the colour
// map used. A nil cm means Moreland's smooth blue–red map (perceptually
// uniform) over the range of g's finite values ([0, 1] when it has none, so
// that an all-NaN grid draws as a blank map instead of failing inside
// gonum; a grid with a single finite value v uses [v, v + 1]). It panics if
// p is nil or g is ragged.
func AddHeatMap(p *plot.Plot, g Grid, cm palette.ColorMap) palette.ColorMap {
	mustPlot("AddHeatMap", p)
	if len(g.Values) != len(g.Ys) {
		panic(fmt.Sprintf("plots: heat map has %d rows for %d y values", len(g.Values), len(g.Ys)))
	}
	for r, row := range g.Values {
		if len(row) != len(g.Xs) {
			panic(fmt.Sprintf("plots: heat map row %d has %d values for %d columns", r, len(row), len(g.Xs)))
		}
	}
	if cm == nil {
		m := moreland.SmoothBlueRed()
		lo, hi := g.Range()
		if math.IsInf(lo, 1) { // no finite value
			lo, hi = 0, 1
		}
		if !(hi > lo) {
			hi = lo + 1
		}
		m.SetMin(lo)
		m.SetMax(hi)
		cm = m
	}
	h := plotter.NewHeatMap(g, cm.Palette(128))
	h.Min, h.Max = cm.Min(), cm.Max()
	p.Add(h)
	return cm
}

// ColorBar returns a narrow plot showing the colour map cm with the
// label (say the unit), to place beside a heat map in Panels. It panics
// if cm is nil.
func ColorBar(cm palette.ColorMap, label string) *plot.Plot {
	if cm == nil {
		panic("plots: ColorBar: cm is nil")
	}
	// A blank title keeps the bar level with titled neighbours.
	p := New(" ", "", label)
	p.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	p.HideX()
	return p
}
