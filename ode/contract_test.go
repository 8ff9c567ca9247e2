package ode

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unitLogistic is y' = y(1 − y), y(t) = 1/(1 + (1/y0 − 1)e^{−t}).
func unitLogistic(dy []float64, _ float64, y []float64) { dy[0] = y[0] * (1 - y[0]) }

// oneRK4Step is the classical RK4 formula written out for a scalar
// autonomous f, the brute-force reference for a single step.
func oneRK4Step(f func(float64) float64, y, h float64) float64 {
	k1 := f(y)
	k2 := f(y + h/2*k1)
	k3 := f(y + h/2*k2)
	k4 := f(y + h*k3)
	return y + h/6*(k1+2*k2+2*k3+k4)
}

// A step larger than the interval is clipped to the interval: one step of
// size 1 (it once took 0 steps and returned y0).
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

// A step so small that the count overflows, or exceeds the step budget,
// is refused before any work, naming h.
func TestSolveRK4TooManySteps(t *testing.T) {
	for _, tc := range []struct {
		h float64
		s *Settings
	}{
		{1e-300, nil},                      // 1e300 steps: overflows an int
		{1e-9, nil},                        // 1e9 steps > DefaultMaxSteps
		{1e-3, &Settings{MaxSteps: 999}},   // 1000 steps > 999
		{math.SmallestNonzeroFloat64, nil}, // span/h = +Inf
		{0.25, &Settings{MaxSteps: 3}},     // 4 steps > 3
		{1e-200, &Settings{MaxSteps: math.MaxInt}},
	} {
		res, err := SolveRK4(unitLogistic, 0, []float64{0.1}, []float64{1}, tc.h, tc.s)
		require.ErrorIs(t, err, loadlab.ErrTooLarge, "h = %v", tc.h)
		assert.ErrorContains(t, err, "h = ")
		assert.Nil(t, res)
	}
	// Exactly at the budget is fine.
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
	// y(0.5) = 1/(1 − 0.5) = 2, at tolerance 1e-8 on a growing solution.
	assert.InDelta(t, 2, res.Y[0][0], 1e-6)

	res, err = SolveRK4(blow, 0, []float64{1}, []float64{0.5, 2}, 0.01, nil)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.Failure, res.Status)
	assert.Len(t, res.T, 1)

	res, err = Solve(osc, 0, []float64{1, 0}, []float64{1}, nil)
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, res.Status)
}

// Settings: zero fields are the documented defaults; negative, NaN and
// infinite fields are errors naming the field.
func TestSettingsContract(t *testing.T) {
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

	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct {
		s    Settings
		name string
	}{
		{Settings{AbsTol: -1}, "Settings.AbsTol = -1"},
		{Settings{AbsTol: inf}, "Settings.AbsTol = +Inf"},
		{Settings{RelTol: nan}, "Settings.RelTol = NaN"},
		{Settings{RelTol: inf}, "Settings.RelTol = +Inf"},
		{Settings{InitialStep: nan}, "Settings.InitialStep = NaN"},
		{Settings{InitialStep: -1e-3}, "Settings.InitialStep = -0.001"},
		{Settings{MaxStep: inf}, "Settings.MaxStep = +Inf"},
		{Settings{MaxStep: -inf}, "Settings.MaxStep = -Inf"},
		{Settings{MaxSteps: -1}, "Settings.MaxSteps = -1"},
	} {
		require.ErrorIs(t, tc.s.Validate(), loadlab.ErrInvalid, tc.name)
		assert.ErrorContains(t, tc.s.Validate(), tc.name)
		_, err := NewDormandPrince(unitLogistic, 0, []float64{0.1}, &tc.s)
		assert.ErrorContains(t, err, tc.name)
		_, err = SolveRK4(unitLogistic, 0, []float64{0.1}, []float64{1}, 0.1, &tc.s)
		assert.ErrorContains(t, err, tc.name)
	}
	var nilSettings *Settings
	assert.NoError(t, nilSettings.Validate())
}

// An initial step longer than the interval is clipped to it.
func TestInitialStepClipped(t *testing.T) {
	res, err := Solve(unitLogistic, 0, []float64{0.1}, []float64{1}, &Settings{InitialStep: 1e300})
	require.NoError(t, err)
	// Tolerance 1e-8 per step over a handful of steps.
	assert.InDelta(t, 1/(1+9*math.Exp(-1)), res.Y[0][0], 1e-7)
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
	for _, t1 := range []float64{0, math.NaN(), math.Inf(-1)} {
		_, err = SolveSteps(unitLogistic, 0, []float64{0.1}, t1, nil)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "t1 = %v", t1)
	}
}

// Bad input to the steppers is an ErrInvalid error naming it.
func TestStepperInputs(t *testing.T) {
	d, err := NewDormandPrince(unitLogistic, 0, []float64{0.1}, nil)
	require.NoError(t, err)
	assert.ErrorContains(t, d.Step(math.NaN()), "tEnd = NaN")
	assert.ErrorIs(t, d.Reset(math.NaN(), []float64{1}), loadlab.ErrInvalid)
	assert.ErrorContains(t, d.Reset(0, []float64{math.Inf(1)}), "y0[0] = +Inf")
	r, err := NewRK4(unitLogistic, 0, []float64{0.1})
	require.NoError(t, err)
	require.ErrorIs(t, r.Step(math.NaN()), loadlab.ErrInvalid)
	assert.Equal(t, 0.1, r.State()[0]) // no step taken
	_, err = Solve(unitLogistic, 0, []float64{0.1}, []float64{math.NaN()}, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = Solve(unitLogistic, 0, []float64{0.1}, []float64{1, 1}, nil)
	assert.ErrorContains(t, err, "times[1] = 1")
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

// The named errors are distinct values.
func TestNamedErrorsDistinct(t *testing.T) {
	assert.False(t, errors.Is(ErrMaxSteps, ErrStepSize))
	assert.False(t, errors.Is(ErrStepSize, ErrMaxSteps))
	assert.NotErrorIs(t, ErrMaxSteps, loadlab.ErrIllConditioned)
}

// The workspace of a solver is 15 vectors of len(y0): a y0 whose copies
// exceed the memory budget is ErrTooLarge before anything is allocated.
// Before the fix NewDormandPrince asked for 15·len(y0) floats and the
// process died of an out-of-memory error. The slice below is never
// written, so it costs address space, not memory.
func TestWorkspaceTooLarge(t *testing.T) {
	y0 := make([]float64, (16<<30)/(8*workCopies)+1)
	_, err := NewDormandPrince(unitLogistic, 0, y0, nil)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.Contains(t, err.Error(), "len(y0)")
	_, err = NewRK4(unitLogistic, 0, y0)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
}

// RK4.Step never yields a non-finite time or state silently: a step
// whose end overflows is refused, and a state that overflows is an error
// naming the component. Before the fix both returned nil with t = +Inf
// and y = −Inf.
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

// A tiny but valid interval integrates in one step: a few ulps of t0,
// forwards or backwards, at t0 = 0 a subnormal span, and a remainder of
// 1e-9 at t = 1e6 (below 16 ε |t|) left after a first step. Each once
// returned ErrStepSize without a step.
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
