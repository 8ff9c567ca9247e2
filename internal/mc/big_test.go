package mc

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// Values near 1e300 have a finite mean and spread, but their squares
// overflow: gonum's variance (Σd² − (Σd)²/n)/(n − 1) is then +Inf − +Inf
// = NaN whenever the rounding residue Σd is above 1e154, and the
// interval with it. Scaled by max|x| the summary is that of
// {1, 3.3, 2.1, 0.77}·1e300.
func TestSummarizeHugeSpread(t *testing.T) {
	xs := []float64{1, 3.3, 2.1, 0.77}
	want := Summarize(xs)
	for i := range xs {
		xs[i] *= 1e300
	}
	s := Summarize(xs)
	// Relative 1e-14: a few roundings in the scaled mean and deviation
	// and in the scaling by 1e300 (not a power of two).
	require.InEpsilon(t, 1e300*want.Mean, s.Mean, 1e-14, "mean")
	require.InEpsilon(t, 1e300*want.Std, s.Std, 1e-14, "std")
	require.Truef(t, s.Lo < s.Mean && s.Mean < s.Hi && !math.IsInf(s.Hi, 0), "interval [%v, %v]", s.Lo, s.Hi)
}
