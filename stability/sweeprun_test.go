package stability

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestAttractorRunIsAttractors rebuilds Attractors from AttractorStart,
// AttractorRun (run in reverse start order, as other processes would)
// and GroupAttractors on random 8-node networks with several
// attractors, and compares the results exactly.
func TestAttractorRunIsAttractors(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	several := false
	for trial := range 3 {
		l := mustLaw(randomNet(rng, 8, 8, 0), 1)
		want, wantU, err := l.Attractors(12, 300, rand.NewPCG(uint64(trial), 2), nil)
		require.NoError(t, err)
		several = several || len(want) > 1
		starts := rand.New(rand.NewPCG(uint64(trial), 2))
		x0 := make([][]float64, 12)
		for k := range x0 {
			x0[k] = AttractorStart(starts, 8)
		}
		ends := make([][]float64, 12)
		for k := len(x0) - 1; k >= 0; k-- {
			ends[k], err = l.AttractorRun(x0[k], 300, nil)
			require.NoError(t, err)
		}
		got, gotU, err := l.GroupAttractors(ends)
		require.NoError(t, err)
		assert.Equal(t, wantU, gotU)
		assert.Equal(t, want, got, "trial %d", trial)
	}
	assert.True(t, several, "no trial had two attractors: the grouping order was not tested")
	l := mustLaw(seedNet(0.3), 1)
	_, err := l.AttractorRun([]float64{0.5}, 10, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = l.AttractorRun([]float64{0.5, 0.5}, 0, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, _, err = l.GroupAttractors([][]float64{{0.5, 0.5}}) // not an end state
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

// TestTwoNodeMapCellIsTwoNodeMap computes every cell alone.
func TestTwoNodeMapCellIsTwoNodeMap(t *testing.T) {
	aa, ab := []float64{0.3, 1, 3}, []float64{0.5, 2}
	nw := seedNet(0.3)
	s := &MapSettings{Sensitivity: 2, Workers: 2}
	want, err := TwoNodeMap(nw, aa, ab, s)
	require.NoError(t, err)
	for k := len(want) - 1; k >= 0; k-- {
		got, err := TwoNodeMapCell(nw, aa, ab, s, k/len(ab), k%len(ab))
		require.NoError(t, err)
		assert.Equal(t, want[k], got, "cell %d", k)
	}
	_, err = TwoNodeMapCell(nw, aa, ab, nil, 3, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = TwoNodeMapCell(nw, aa, ab, &MapSettings{Horizon: -1}, 0, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}
