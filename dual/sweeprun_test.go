package dual

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestSweepRunIsSweep computes every run of a Sweep alone, in reverse
// order (as other processes would), and checks that SweepSummary of
// them equals Sweep exactly, with and without the default losses.
func TestSweepRunIsSweep(t *testing.T) {
	p, err := Quadratic(item13(), 1, 4)
	require.NoError(t, err)
	fc := FastControl{Gamma: 10}
	s := &Settings{Step: 0.05, MaxIter: 400}
	windows := []float64{0.1, 10}
	for _, losses := range [][]float64{{0, 0.2}, nil} {
		want, err := Sweep(p, fc, windows, losses, s, 3, 7)
		require.NoError(t, err)
		pstar, err := SweepOptimum(p, fc, windows, losses, s, 3)
		require.NoError(t, err)
		samples := make([]SweepSample, len(want)*3)
		for idx := len(samples) - 1; idx >= 0; idx-- {
			samples[idx], err = SweepRun(p, fc, windows, losses, s, pstar, 3, 7, idx/3, idx%3)
			require.NoError(t, err)
		}
		assert.Equal(t, want, SweepSummary(fc, windows, losses, 3, samples))
	}
	_, err = SweepRun(p, fc, windows, nil, s, 0, 3, 7, 2, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = SweepRun(p, fc, windows, nil, s, 0, 3, 7, 0, 3)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = SweepOptimum(p, fc, nil, nil, s, 3)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.Panics(t, func() { SweepSummary(fc, windows, nil, 3, make([]SweepSample, 5)) })
}
