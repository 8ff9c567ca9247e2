package competitive

import (
	"testing"

	"github.com/loadlab/loadlab"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCTrackTraces is spec §9.7 (α = 1).
func TestCTrackTraces(t *testing.T) {
	cases := []struct {
		fixture string
		cyclic  bool
		sched   []int
		cost    float64
	}{
		{"H", false, []int{0, 1, 1, 2, 1}, 10},
		{"H", true, []int{0, 1, 1, 2, 0}, 13},
		{"A", false, []int{0, 0, 1, 1, 1}, 6},
		{"C", false, []int{0, 0, 1, 1, 0, 0}, 14},
		{"D", false, []int{1, 1, 1, 1, 0, 0}, 14},
	}
	for _, c := range cases {
		alg := NewCTrack()
		alg.Cyclic = c.cyclic
		sched, cost := run(t, alg, fixtureByName(t, c.fixture))
		assert.Equal(t, c.sched, sched, c.fixture)
		assert.Equal(t, c.cost, cost, c.fixture)
	}
}

func TestCTrackErrors(t *testing.T) {
	assert.Error(t, (&CTrack{Alpha: -1}).Reset(2, 1))
	assert.Error(t, NewCTrack().Reset(0, 1))
	c := NewCTrack()
	require.NoError(t, c.Reset(2, 1))
	_, err := c.Step([]float64{1, 2, 3})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}
