package plots

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"gonum.org/v1/plot/vg"
)

// A heat map whose values are all NaN or infinite draws as a blank map on
// [0, 1], and a single finite value v gets the range [v, v + 1] (guards:
// a panic inside gonum's colour map, SetMin(+Inf)).
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
