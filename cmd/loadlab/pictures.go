package main

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/plots"
)

// series is one named set of points of a picture.
type series struct {
	name   string
	xs, ys []float64
	line   bool // joined by a line instead of marked
}

// pointsPicture returns the draw function of a picture of series on
// linear axes, the legend at the top on the right (right) or on the
// left. An x axis of at most 20 whole numbers (steps, ranks) is labelled
// at each of them.
func pointsPicture(title, xlabel, ylabel string, right bool, ss ...series) func() (plots.Drawer, vg.Length, vg.Length, error) {
	return func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New(title, xlabel, ylabel, plots.LegendAt(true, !right))
		if ticks := wholeTicks(ss); ticks != nil {
			p.X.Tick.Marker = plot.ConstantTicks(ticks)
		}
		for i, s := range ss {
			if s.line {
				plots.AddLine(p, i, s.name, s.xs, s.ys)
			} else {
				plots.AddPoints(p, i, s.name, s.xs, s.ys)
			}
		}
		return p, 0, 0, nil
	}
}

// wholeTicks returns a tick at every whole number of the series' x
// range when every x is whole and the range spans at most 20, else nil.
func wholeTicks(ss []series) []plot.Tick {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, x := range s.xs {
			if x != math.Trunc(x) {
				return nil
			}
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if !(hi-lo <= 20) {
		return nil
	}
	var ts []plot.Tick
	for x := lo; x <= hi; x++ {
		ts = append(ts, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'f', -1, 64)})
	}
	return ts
}

// barsPicture returns the draw function of a bar chart of one value per
// named category.
func barsPicture(title, ylabel string, names []string, values []float64) func() (plots.Drawer, vg.Length, vg.Length, error) {
	return func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New(title, "", ylabel)
		plots.AddBars(p, 0, 1, ylabel, values)
		plots.NominalX(p, names...)
		return p, 0, 0, nil
	}
}

// ranks returns 1, 2, …, n as floats.
func ranks(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	return xs
}
