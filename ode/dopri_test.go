package ode

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An initial step longer than the interval is clipped to it.
func TestInitialStepClipped(t *testing.T) {
	res, err := Solve(unitLogistic, 0, []float64{0.1}, []float64{1}, &Settings{InitialStep: 1e300})
	require.NoError(t, err)
	// Tolerance 1e-8 per step over a handful of steps: 1e-7 bounds their
	// sum.
	assert.InDelta(t, 1/(1+9*math.Exp(-1)), res.Y[0][0], 1e-7)
}

// The named errors are distinct values.
func TestNamedErrorsDistinct(t *testing.T) {
	assert.False(t, errors.Is(ErrMaxSteps, ErrStepSize))
	assert.False(t, errors.Is(ErrStepSize, ErrMaxSteps))
	assert.NotErrorIs(t, ErrMaxSteps, loadlab.ErrIllConditioned)
}

// A tiny but valid interval integrates in one step: a few ulps of t0,
// forwards or backwards, at t0 = 0 a subnormal span, and a remainder of
// 1e-9 at t = 1e6 (below 16 ε |t|) left after a first step (guards:
// ErrStepSize without a step).
func TestTinyInterval(t *testing.T) {
	y0 := 0.1
	for _, tc := range []struct{ t0, t1 float64 }{
		{1, math.Nextafter(1, 2)},
		{1, 1 + 5*0x1p-52},
		{1, math.Nextafter(1, 0)},
		{1e6, math.Nextafter(1e6, 2e6)},
		{0, 1e-320},
		{-3, -3 - 2*0x1p-51},
	} {
		res, err := Solve(unitLogistic, tc.t0, []float64{y0}, []float64{tc.t1}, nil)
		require.NoError(t, err, "[%v, %v]", tc.t0, tc.t1)
		assert.Equal(t, loadlab.Success, res.Status)
		assert.Equal(t, 1, res.Stats.Accepted, "[%v, %v]", tc.t0, tc.t1)
		assert.Equal(t, []float64{tc.t1}, res.T)
		// y(t0 + h) = y0 + h y0(1 − y0) + O(h²); h ≤ 1e-15 here, so
		// the O(h²) term is below 1e-30 and the step is exact to the
		// rounding of the final addition: one ulp of y0 (1.4e-17).
		h := tc.t1 - tc.t0
		assert.InDelta(t, y0+h*y0*(1-y0), res.Y[0][0], 0x1p-56, "[%v, %v]", tc.t0, tc.t1)
	}
	t0, t1 := 1e6, 1e6+1e-3+1e-9
	res, err := SolveSteps(unitLogistic, t0, []float64{y0}, t1, &Settings{InitialStep: 1e-3})
	require.NoError(t, err)
	assert.Equal(t, t1, res.T[len(res.T)-1])
	// y(t1) from the closed form; the local error per step is below the
	// 1e-8 tolerance and the steps are short, so 1e-10 is generous.
	want := 1 / (1 + (1/y0-1)*math.Exp(-(t1-t0)))
	assert.InDelta(t, want, res.Y[len(res.Y)-1][0], 1e-10)
	// A step that must stop short of tEnd still underflows: f with a
	// singularity just past t0 needs ever smaller steps.
	sing := func(dy []float64, t float64, y []float64) { dy[0] = 1 / (1 + 1e-12 - t) }
	_, err = Solve(sing, 0, []float64{0}, []float64{2}, nil)
	assert.ErrorIs(t, err, ErrStepSize)
}
