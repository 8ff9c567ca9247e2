package loadlab

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPrecisionMet: the half-width test of the stopping rule, by hand.
// An interval of half-width 0.1 around 10 meets ±1 % relative (0.1 ≤
// 0.01·10) and ±0.1 absolute, not ±0.5 % or ±0.05; either target
// suffices when both are set; the zero Precision never stops a run;
// an interval that is NaN (N < 2) or infinite meets nothing.
func TestPrecisionMet(t *testing.T) {
	e := Estimate{Mean: 10, Lo: 9.9, Hi: 10.1, N: 30}
	neg := Estimate{Mean: -10, Lo: -10.1, Hi: -9.9, N: 30}
	for _, c := range []struct {
		p    Precision
		e    Estimate
		want bool
	}{
		{Precision{Rel: 0.01}, e, true},
		{Precision{Rel: 0.01}, neg, true}, // relative to |mean|
		{Precision{Rel: 0.005}, e, false},
		{Precision{Abs: 0.1}, e, true},
		{Precision{Abs: 0.05}, e, false},
		{Precision{Rel: 0.005, Abs: 0.2}, e, true},
		{Precision{Rel: 0.02, Abs: 0.05}, e, true},
		{Precision{}, e, false},
		{Precision{Rel: 1}, Estimate{Mean: 1, Lo: math.NaN(), Hi: math.NaN(), N: 1}, false},
		{Precision{Abs: 1}, Estimate{Mean: 1, Lo: 1, Hi: 1, N: 1}, false},
		{Precision{Abs: 1}, Estimate{Mean: 0, Lo: math.Inf(-1), Hi: math.Inf(1), N: 5}, false},
		{Precision{Rel: 1}, Estimate{Mean: 0, Lo: 0, Hi: 0, N: 5}, true}, // a zero-width interval meets any target: the run rule (MinOffMode) refuses it
	} {
		assert.Equal(t, c.want, c.p.Met(c.e), "%+v on %+v", c.p, c.e)
	}
}

func TestPrecisionDefaults(t *testing.T) {
	require.NoError(t, Precision{}.Validate())
	assert.True(t, Precision{}.IsZero())
	assert.False(t, Precision{Abs: 1}.IsZero())
	assert.Equal(t, DefaultMaxRuns, Precision{Rel: 0.1}.Cap())
	assert.Equal(t, 11, Precision{Rel: 0.1, MaxRuns: 11}.Cap())
	require.NoError(t, Precision{Rel: 0.1, MaxRuns: MinOffMode + 1, Batch: 1}.Validate())
}
