package plots

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PointLabels writes a short label beside each of a set of points (a
// parameter value, say), placing every label where it overlaps no other
// label and no marker of the points it knows, if such a place exists
// among sixteen around its point: right or left, above or below,
// straight above or below, near the point and then farther out, in that
// order of preference. Add the points with Add,
// then the PointLabels to the plot once. After drawing, Boxes returns
// the boxes the labels took, for tests.
type PointLabels struct {
	pts    []labelPoint
	bars   [][3]float64 // x, lo, hi of error bars to keep clear of
	placed []vg.Rectangle
}

// AvoidBars makes the labels keep clear of the vertical error bars from
// lo[k] to hi[k] at xs[k] (NaN bounds: no bar). It panics if the slices
// differ in length.
func (l *PointLabels) AvoidBars(xs, lo, hi []float64) {
	if len(lo) != len(xs) || len(hi) != len(xs) {
		panic(fmt.Sprintf("plots: PointLabels.AvoidBars: lengths %d, %d, %d differ", len(xs), len(lo), len(hi)))
	}
	for k := range xs {
		if finite(xs[k]) && finite(lo[k]) && finite(hi[k]) {
			l.bars = append(l.bars, [3]float64{xs[k], lo[k], hi[k]})
		}
	}
}

type labelPoint struct {
	x, y   float64
	label  string
	series int
}

// Add adds the labels of series i (drawn in its colour) at the points
// (xs[k], ys[k]). It panics if the slices differ in length or a value
// is not finite.
func (l *PointLabels) Add(i int, xs, ys []float64, labels []string) {
	xy("PointLabels.Add", xs, ys)
	if len(labels) != len(xs) {
		panic(fmt.Sprintf("plots: PointLabels.Add: %d labels for %d points", len(labels), len(xs)))
	}
	for k := range xs {
		l.pts = append(l.pts, labelPoint{x: xs[k], y: ys[k], label: labels[k], series: i})
	}
}

// Boxes returns the boxes of the labels placed by the last drawing, in
// the order of Add.
func (l *PointLabels) Boxes() []vg.Rectangle { return l.placed }

// labelStyle is the text style of point labels in series i.
func labelStyle(i int) text.Style {
	return text.Style{Color: Color(i), Font: font.From(plot.DefaultFont, TickSize-1), Handler: houseText()}
}

// markerRadius is the half-size of the area kept free round each point.
const markerRadius = vg.Length(4)

// Plot implements plot.Plotter.
func (l *PointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var taken []vg.Rectangle
	for _, pt := range l.pts {
		x, y := trX(pt.x), trY(pt.y)
		taken = append(taken, vg.Rectangle{Min: vg.Point{X: x - markerRadius, Y: y - markerRadius}, Max: vg.Point{X: x + markerRadius, Y: y + markerRadius}})
	}
	for _, b := range l.bars {
		x := trX(b[0])
		taken = append(taken, vg.Rectangle{Min: vg.Point{X: x - 3, Y: trY(b[1])}, Max: vg.Point{X: x + 3, Y: trY(b[2])}})
	}
	l.placed = l.placed[:0]
	for _, pt := range l.pts {
		sty := labelStyle(pt.series)
		w, h := sty.Width(pt.label), sty.Height(pt.label)
		at := vg.Point{X: trX(pt.x), Y: trY(pt.y)}
		box := bestBox(at, w, h, c.Rectangle, taken)
		taken = append(taken, box)
		l.placed = append(l.placed, box)
		c.FillText(sty, box.Min, pt.label)
	}
}

// bestBox returns the first of the candidate boxes of a w×h label at
// point at that lies inside area and overlaps nothing taken, or else the
// one that overlaps least.
func bestBox(at vg.Point, w, h vg.Length, area vg.Rectangle, taken []vg.Rectangle) vg.Rectangle {
	var cands []vg.Point
	for _, g := range []vg.Length{markerRadius + 1, 3*markerRadius + 3} { // near, then farther out
		cands = append(cands,
			vg.Point{X: g, Y: g / 2}, vg.Point{X: g, Y: -h - g/2}, vg.Point{X: -w - g, Y: g / 2}, vg.Point{X: -w - g, Y: -h - g/2},
			vg.Point{X: -w / 2, Y: g}, vg.Point{X: -w / 2, Y: -h - g}, vg.Point{X: g, Y: -h / 2}, vg.Point{X: -w - g, Y: -h / 2})
	}
	var best vg.Rectangle
	bestCost := vg.Length(-1)
	for _, d := range cands {
		b := vg.Rectangle{Min: at.Add(d), Max: at.Add(d).Add(vg.Point{X: w, Y: h})}
		cost := outside(b, area) * 4
		for _, t := range taken {
			cost += overlap(b, t)
		}
		if cost == 0 {
			return b
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = b, cost
		}
	}
	return best
}

// overlap returns the area shared by a and b.
func overlap(a, b vg.Rectangle) vg.Length {
	w := min(a.Max.X, b.Max.X) - max(a.Min.X, b.Min.X)
	h := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// outside returns the area of a that lies outside area.
func outside(a, area vg.Rectangle) vg.Length {
	return (a.Max.X-a.Min.X)*(a.Max.Y-a.Min.Y) - overlap(a, area)
}

// Overlaps reports the first pair of boxes that overlap (by more than
// rounding), as indices, or −1, −1.
func Overlaps(boxes []vg.Rectangle) (int, int) {
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			if overlap(boxes[i], boxes[j]) > 1e-6 {
				return i, j
			}
		}
	}
	return -1, -1
}
