package consensus

import (
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
)

// A nil Src in a noisy demand is a missing required field
// (docs/conventions.md §2): an error naming Type.Field (it once said
// only "demand Src"); without noise no source is needed.
func TestDemandNilSrc(t *testing.T) {
	r := make([]float64, 2)
	for name, d := range map[string]Demand{
		"StationaryDemand.Src": &StationaryDemand{Mean: []float64{1, 2}, Sigma: 1},
		"RandomWalkDemand.Src": &RandomWalkDemand{Start: []float64{1, 2}, Sigma: 1},
	} {
		err := d.Next(0, r)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, name)
		assert.ErrorContains(t, err, name)
	}
	assert.NoError(t, (&StationaryDemand{Mean: []float64{1, 2}}).Next(0, r))
	assert.NoError(t, (&RandomWalkDemand{Start: []float64{1, 2}}).Next(0, r))
	assert.Equal(t, []float64{1, 2}, r)
}
