package ode

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A step larger than the interval is clipped to the interval: one step of
// size 1 (guards: 0 steps returning y0).
func TestSolveRK4StepLongerThanInterval(t *testing.T) {
	res, err := SolveRK4(unitLogistic, 0, []float64{0.1}, []float64{1}, 2e9, nil)
	require.NoError(t, err)
	assert.Equal(t, 1, res.Stats.Accepted)
	want := oneRK4Step(func(y float64) float64 { return y * (1 - y) }, 0.1, 1)
	// Same formula, same operations up to association: a few ulps.
	assert.InDelta(t, want, res.Y[0][0], 1e-15)
	// One RK4 step of h = 1 has local error O(h⁵); here it is 3.7e-4
	// from the exact 0.23196932 (1/(1 + 9/e)), inside 1e-3, while the old
	// answer y0 = 0.1 was 0.13 off.
	assert.InDelta(t, 1/(1+9*math.Exp(-1)), res.Y[0][0], 1e-3)
	// Several output times, the last interval shorter than h.
	res, err = SolveRK4(unitLogistic, 0, []float64{0.1}, []float64{0.5, 0.75}, 0.5, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Stats.Accepted)
}

// Exactly at the step budget is fine (beyond it: validate_test.go).
func TestSolveRK4AtBudget(t *testing.T) {
	res, err := SolveRK4(unitLogistic, 0, []float64{0.1}, []float64{1}, 0.25, &Settings{MaxSteps: 4})
	require.NoError(t, err)
	assert.Equal(t, 4, res.Stats.Accepted)
	assert.Equal(t, loadlab.Success, res.Status)
}

// The stop-short errors are instances of the shared conditions, and the
// result's Status says which limit was hit.
func TestStopShortContract(t *testing.T) {
	osc := func(dy []float64, _ float64, y []float64) { dy[0], dy[1] = y[1], -y[0] }
	res, err := Solve(osc, 0, []float64{1, 0}, []float64{1, 1000}, &Settings{MaxSteps: 50})
	require.ErrorIs(t, err, ErrMaxSteps)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.NotErrorIs(t, err, ErrStepSize)
	assert.Equal(t, loadlab.IterationLimit, res.Status)
	assert.Len(t, res.T, 1) // y(1) was reached and is returned

	blow := func(dy []float64, _ float64, y []float64) { dy[0] = y[0] * y[0] }
	res, err = Solve(blow, 0, []float64{1}, []float64{0.5, 2}, nil)
	require.ErrorIs(t, err, ErrStepSize)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.ErrorIs(t, err, loadlab.ErrIllConditioned)
	assert.NotErrorIs(t, err, ErrMaxSteps)
	assert.Equal(t, loadlab.StepLimit, res.Status)
	require.Len(t, res.Y, 1)
	// y(0.5) = 1/(1 − 0.5) = 2, at tolerance 1e-8 per step: over the
	// few hundred steps to t = 0.5 the local errors, amplified at most
	// by y(0.5)²/y(0)² = 4, stay far below 1e-6.
	assert.InDelta(t, 2, res.Y[0][0], 1e-6)

	res, err = SolveRK4(blow, 0, []float64{1}, []float64{0.5, 2}, 0.01, nil)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.Failure, res.Status)
	assert.Len(t, res.T, 1)

	res, err = Solve(osc, 0, []float64{1, 0}, []float64{1}, nil)
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, res.Status)
}

// Settings: zero fields are the documented defaults (bad fields:
// validate_test.go).
func TestSettingsDefaults(t *testing.T) {
	def, err := Solve(unitLogistic, 0, []float64{0.1}, []float64{3}, nil)
	require.NoError(t, err)
	explicit, err := Solve(unitLogistic, 0, []float64{0.1}, []float64{3},
		&Settings{AbsTol: DefaultTol, RelTol: DefaultTol, MaxSteps: DefaultMaxSteps})
	require.NoError(t, err)
	assert.Equal(t, def.Y, explicit.Y)
	assert.Equal(t, def.Stats, explicit.Stats)
	zero, err := Solve(unitLogistic, 0, []float64{0.1}, []float64{3}, &Settings{})
	require.NoError(t, err)
	assert.Equal(t, def.Y, zero.Y)
}

// SolveSteps records every accepted step: the same states as stepping by
// hand, from t0 to t1.
func TestSolveSteps(t *testing.T) {
	res, err := SolveSteps(unitLogistic, 0, []float64{0.1}, 5, nil)
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, res.Status)
	d, err := NewDormandPrince(unitLogistic, 0, []float64{0.1}, nil)
	require.NoError(t, err)
	want := [][]float64{{0.1}}
	times := []float64{0}
	for d.Time() < 5 {
		require.NoError(t, d.Step(5))
		want = append(want, append([]float64(nil), d.State()...))
		times = append(times, d.Time())
	}
	assert.Equal(t, times, res.T)
	assert.Equal(t, want, res.Y)
	assert.Equal(t, res.Stats.Accepted+1, len(res.T))
	// Backwards too.
	res, err = SolveSteps(unitLogistic, 5, []float64{0.9}, 0, nil)
	require.NoError(t, err)
	assert.Equal(t, 0.0, res.T[len(res.T)-1])
}

// FuzzSettings drives Solve with arbitrary settings and start values on
// the logistic equation y' = 1.5 y (1 − y/2), whose exact solution is
// known, and checks the contract and the accuracy.
func FuzzSettings(f *testing.F) {
	f.Add(1e-6, 1e-6, 0.0, 0.0, 0, 1.0)
	f.Add(-1.0, 0.0, 0.1, 1.0, 10, math.NaN())
	f.Add(0.0, 0.0, 1e300, 1e-300, 5, 0.5)
	f.Add(1e-12, 1e-3, 0.0, 0.01, 3, 1.9)
	f.Fuzz(func(t *testing.T, abs, rel, h0, hmax float64, maxSteps int, y0 float64) {
		s := &Settings{AbsTol: abs, RelTol: rel, InitialStep: h0, MaxStep: hmax, MaxSteps: maxSteps % 2000}
		if s.MaxSteps == 0 && hmax > 0 && hmax < 1e-3 {
			s.MaxSteps = 1000 // keep each input fast: the default budget with tiny steps is 10⁶ steps
		}
		res, err := Solve(logisticF, 0, []float64{y0}, []float64{0.5, 1}, s)
		if vErr := s.Validate(); vErr != nil {
			// Invalid settings: the same error, naming a field.
			require.ErrorIs(t, err, loadlab.ErrInvalid)
			assert.ErrorContains(t, err, "Settings.")
			return
		}
		if math.IsNaN(y0) || math.IsInf(y0, 0) {
			require.ErrorIs(t, err, loadlab.ErrInvalid)
			return
		}
		budget := s.MaxSteps
		if budget == 0 {
			budget = DefaultMaxSteps
		}
		require.NotNil(t, res)
		assert.LessOrEqual(t, res.Stats.Accepted+res.Stats.Rejected, budget)
		if err != nil {
			// Stopped short: a named condition, a matching Status and a
			// prefix of the output times.
			require.ErrorIs(t, err, loadlab.ErrNotConverged)
			assert.Contains(t, []loadlab.Status{loadlab.IterationLimit, loadlab.StepLimit}, res.Status)
			assert.Less(t, len(res.T), 2)
			return
		}
		assert.Equal(t, loadlab.Success, res.Status)
		require.Equal(t, []float64{0.5, 1}, res.T)
		set, _ := s.withDefaults()
		tol := math.Max(set.AbsTol, set.RelTol)
		if !(y0 > 0 && y0 < logK) || tol > 1e-4 {
			return
		}
		// In (0, K) the flow contracts towards K (∂f/∂y ≤ r), so the
		// global error over t ≤ 1 is at most e^{r}·Σ local errors; with
		// a scaled local error ≤ tol·(1 + |y|) ≤ 3·tol per step and the
		// error estimate's own slack, 1e3·tol + 1e-12 is a safe bound
		// (observed errors are below 10·tol).
		for k, tk := range res.T {
			assert.InDelta(t, logisticExact(tk, y0), res.Y[k][0], 1e3*tol+1e-12, "t = %v, %+v, y0 = %v", tk, s, y0)
		}
	})
}

// RK4.Step never yields a non-finite time or state silently: a step
// whose end overflows is refused, and a state that overflows is an error
// naming the component (guards: a nil error with t = +Inf or y = −Inf).
func TestRK4StepNonFinite(t *testing.T) {
	r, err := NewRK4(unitLogistic, 1e308, []float64{0.5})
	require.NoError(t, err)
	err = r.Step(1e308)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.Equal(t, 1e308, r.Time(), "refused without stepping")

	// y' = y² from y = 1e200 overflows in one step of 1.
	sq := func(dy []float64, _ float64, y []float64) { dy[0] = y[0] * y[0] }
	r, err = NewRK4(sq, 0, []float64{1e200})
	require.NoError(t, err)
	err = r.Step(1)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Contains(t, err.Error(), "y[0]")
	res, err := SolveRK4(sq, 0, []float64{1e200}, []float64{1}, 0.5, nil)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.Failure, res.Status)
}
