package plots

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
)

// TestAxesEndAtLabels: after drawing, every axis with a Ticker has a
// labelled tick at or beyond each end of its range, on linear and log
// scales (data 2.2–7.5 used to leave the lowest label at 3; data over
// 3–1.1·10¹⁰ left it at 10², the highest at 10¹⁰).
func TestAxesEndAtLabels(t *testing.T) {
	for _, c := range []struct {
		name   string
		opts   []Option
		xs, ys []float64
	}{
		{"linear", nil, []float64{100, 6400}, []float64{2.2, 7.5}},
		{"log", []Option{LogX(), LogY()}, []float64{4, 4096}, []float64{3, 1.145e10}},
		{"log, under a decade", []Option{LogY()}, []float64{0, 1}, []float64{1.02, 1.14}},
		{"negative", nil, []float64{-3.3, 0.1}, []float64{-0.07, -0.01}},
	} {
		p := New("t", "x", "y", c.opts...)
		AddLine(p, 0, "", c.xs, c.ys)
		require.NoError(t, Save(p, DefaultWidth, DefaultHeight, filepath.Join(t.TempDir(), "f.png")))
		for _, ax := range []*plot.Axis{&p.X, &p.Y} {
			lo, hi, ok := labelledEnds(ax.Tick.Marker.Ticks(ax.Min, ax.Max))
			require.True(t, ok, c.name)
			// 1e-9 of the span forgives a label that misses an end by rounding.
			eps := 1e-9 * (ax.Max - ax.Min)
			assert.LessOrEqual(t, lo, ax.Min+eps, "%s: lowest label above the axis start", c.name)
			assert.GreaterOrEqual(t, hi, ax.Max-eps, "%s: highest label below the axis end", c.name)
		}
	}
}

// TestAxisEndsNarrowSpan: ranges whose wider neighbours take a coarser
// step ([3, 4.5] is labelled every 0.2 up to 4.4, [3, 4.6] every 0.5).
func TestAxisEndsNarrowSpan(t *testing.T) {
	for _, r := range [][2]float64{{3, 4.5}, {1, 2.5}, {0, 150}, {-0.05, 1.05}} {
		a := plot.Axis{Min: r[0], Max: r[1], Scale: plot.LinearScale{}}
		a.Tick.Marker = Ticker{Kind: Linear}
		fitAxis(&a)
		lo, hi, _ := labelledEnds(a.Tick.Marker.Ticks(a.Min, a.Max))
		assert.Equal(t, a.Min, lo, "%v", r)
		assert.Equal(t, a.Max, hi, "%v", r)
	}
}

// TestPointLabelsApart: labels of points closer than a label's size are
// placed without overlapping each other (gonum's fixed offset put all
// of these on top of one another).
func TestPointLabelsApart(t *testing.T) {
	p := New("t", "x", "y")
	xs := []float64{1, 1.01, 1.02, 1.0, 2, 0, 3}
	ys := []float64{1, 1.01, 0.99, 1.02, 2, 0, 3}
	AddPoints(p, 0, "", xs, ys)
	var l PointLabels
	l.Add(0, xs, ys, []string{"r=1", "r=2", "r=4", "ℓ=1", "α=0", "a", "b"})
	l.AvoidBars(xs[:1], []float64{0.9}, []float64{1.1})
	p.Add(&l)
	require.NoError(t, Save(p, DefaultWidth, DefaultHeight, filepath.Join(t.TempDir(), "l.png")))
	require.Len(t, l.Boxes(), 7)
	i, j := Overlaps(l.Boxes())
	assert.Equal(t, [2]int{-1, -1}, [2]int{i, j}, "labels %d and %d overlap", i, j)
}

// TestLogUnderADecade: under a decade a log axis labels 1, 2 and 5 × 10ᵏ
// where they give two labels (every multiple, 300 400 … 900 1000, crowded
// a narrow panel), and every multiple only where they do not.
func TestLogUnderADecade(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (Ticker{Kind: Log}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	assert.Equal(t, []string{"500", "1000"}, labels(256, 1024))
	assert.Equal(t, []string{"3", "4", "5", "6", "7", "8", "9"}, labels(3, 9))
}
