package ode

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/require"
)

// FuzzRK4 drives SolveRK4 on the logistic equation with an unclipped
// step h and step budget MaxSteps, so that the step count overflows
// (h = 1e-300) or exceeds any budget. The contract: a bad h or budget
// is ErrInvalid; otherwise the count is the documented one, the
// smallest m with span/m ≤ h (to a relative 1e-12) for each of the two
// half-unit output intervals, and ErrTooLarge exactly when the total
// exceeds the budget, before any step; an accepted run takes exactly
// that many steps, hits the output times and, for y0 in (0, K), has
// the accuracy of a fourth-order method. Runs of more than 4000 steps
// are skipped to keep the fuzzer fast.
func FuzzRK4(f *testing.F) {
	f.Add(0.1, 0, 0.3)
	f.Add(2e9, 0, 1.0)
	f.Add(1e-300, 0, 0.5)
	f.Add(1e-9, 1<<62, 0.5)
	f.Add(0.01, 99, 1.9)
	f.Add(-1.0, 5, 0.5)
	f.Add(math.NaN(), -3, 0.5)
	f.Fuzz(func(t *testing.T, h float64, maxSteps int, y0 float64) {
		s := &Settings{MaxSteps: maxSteps}
		times := []float64{0.5, 1}
		bad := !(h > 0) || math.IsInf(h, 1) || maxSteps < 0 || math.IsNaN(y0) || math.IsInf(y0, 0)
		// Steps per half-unit interval, as documented, in float64 (no
		// wrap: a count above 2⁵³ is far above any budget checked here).
		m := math.Max(1, math.Ceil(0.5/h*(1-1e-12)))
		budget := float64(maxSteps)
		if maxSteps == 0 {
			budget = DefaultMaxSteps
		}
		if !bad && 2*m <= budget && 2*m > 4000 {
			return // valid but slow
		}
		res, err := SolveRK4(logisticF, 0, []float64{y0}, times, h, s)
		if bad {
			require.ErrorIsf(t, err, loadlab.ErrInvalid, "h = %v, MaxSteps = %d, y0 = %v: %v, want ErrInvalid", h, maxSteps, y0, err)
			return
		}
		if 2*m > budget {
			require.Falsef(t, !errors.Is(err, loadlab.ErrTooLarge) || res != nil, "h = %v needs 2·%v steps > MaxSteps = %d: %v", h, m, maxSteps, err)
			return
		}
		require.Falsef(t, err != nil && !errors.Is(err, loadlab.ErrNotConverged), "h = %v, MaxSteps = %d, y0 = %v: %v", h, maxSteps, y0, err)
		if err != nil {
			return // a non-finite state (y0 far outside (0, K))
		}
		require.Falsef(t, res.Stats.Accepted != int(2*m) || res.T[0] != 0.5 || res.T[1] != 1, "h = %v: %d steps (want %v), T = %v", h, res.Stats.Accepted, 2*m, res.T)
		if !(y0 > 0 && y0 < logK) {
			return
		}
		// The global error of RK4 is C·h_eff⁴ with C fixed by the
		// derivatives of f on (0, K); C ≈ 0.011 is observed over y0 in
		// (0, 2) for h from 0.01 to 0.5, so 0.1 h_eff⁴ is ten times that,
		// plus 1e-13 for the rounding of ≤ 4000 steps.
		he := 0.5 / m
		for k, tk := range res.T {
			d := math.Abs(res.Y[k][0] - logisticExact(tk, y0))
			require.Falsef(t, d > 0.1*math.Pow(he, 4)+1e-13, "h = %v, y0 = %v: |y(%v) − exact| = %v", h, y0, tk, d)
		}
	})
}
