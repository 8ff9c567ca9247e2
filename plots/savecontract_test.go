package plots

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"gonum.org/v1/plot/vg"
)

// Save validates the canvas and returns drawing failures as errors: a
// zero or negative size once panicked inside gonum ("w and h must both
// be > 0"), a 10 km canvas with "makeslice: len out of range", and a
// negative value on a log axis with gonum's log-scale panic. NewPanels
// refuses 2²⁰×2²⁰ panels (it exhausted memory) and Save a nil Drawer,
// both documented panics.
func TestSaveContract(t *testing.T) {
	dir := t.TempDir()
	p := New("t", "x", "y")
	AddCurve(p, 0, "a", []float64{0, 1}, []float64{0, 1})
	for _, wh := range [][2]vg.Length{{0, 10}, {10, -1}} {
		assert.ErrorIs(t, Save(p, wh[0], wh[1], filepath.Join(dir, "a.png")), loadlab.ErrInvalid, "%v", wh)
	}
	assert.ErrorIs(t, Save(p, 1e6*vg.Centimeter, 1e6*vg.Centimeter, filepath.Join(dir, "b.png")), loadlab.ErrTooLarge)
	lp := New("t", "x", "y", LogY())
	AddCurve(lp, 0, "a", []float64{0, 1, 2}, []float64{1, -1, 3})
	err := Save(lp, 10*vg.Centimeter, 8*vg.Centimeter, filepath.Join(dir, "c.png"))
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "drawing failed")
	assert.NoError(t, Save(p, 10*vg.Centimeter, 8*vg.Centimeter, filepath.Join(dir, "d.png")))
	assert.PanicsWithValue(t, "plots: Save: nil Drawer d", func() { _ = Save(nil, 10, 10, filepath.Join(dir, "e.png")) })
	assert.Panics(t, func() { NewPanels(1<<20, 1<<20) })
	assert.NotPanics(t, func() { NewPanels(2, 3) })
}

// A heat map whose values are all NaN or infinite once panicked inside
// gonum's colour map (SetMin(+Inf)); it now draws as a blank map on [0, 1],
// and a single finite value v gets the range [v, v + 1].
func TestHeatMapWithoutFiniteValues(t *testing.T) {
	nan := math.NaN()
	for _, vals := range [][][]float64{{{nan, nan}, {nan, math.Inf(1)}}, {{2, nan}, {nan, 2}}} {
		p := New("t", "x", "y")
		cm := AddHeatMap(p, Grid{Xs: []float64{0, 1}, Ys: []float64{0, 1}, Values: vals}, nil)
		assert.Less(t, cm.Min(), cm.Max())
		assert.False(t, math.IsInf(cm.Min(), 0) || math.IsInf(cm.Max(), 0))
		assert.NoError(t, Save(p, 10*vg.Centimeter, 8*vg.Centimeter, filepath.Join(t.TempDir(), "h.png")))
	}
}
