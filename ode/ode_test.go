package ode

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// linear is y' = M y with a non-normal, non-symmetric M whose eigenvalues
// are −0.5 ± 2i and −1, so the solution rotates and decays; the exact
// solution is expm(M t) y0, computed with gonum's mat.Exp (Padé with
// scaling and squaring, accurate to ~1e-15 relative for this small norm).
var linM = mat.NewDense(3, 3, []float64{
	-0.5, 2, 0.3,
	-2, -0.5, 0,
	0.1, 0, -1,
})

func linearF(dy []float64, _ float64, y []float64) {
	for i := 0; i < 3; i++ {
		dy[i] = 0
		for j := 0; j < 3; j++ {
			dy[i] += linM.At(i, j) * y[j]
		}
	}
}

func linearExact(t float64, y0 []float64) []float64 {
	var m, e mat.Dense
	m.Scale(t, linM)
	e.Exp(&m)
	var v mat.VecDense
	v.MulVec(&e, mat.NewVecDense(3, y0))
	return []float64{v.AtVec(0), v.AtVec(1), v.AtVec(2)}
}

// logistic is y' = r y (1 − y/K) with exact solution
// y(t) = K / (1 + (K/y0 − 1) e^{−rt}).
const logR, logK = 1.5, 2.0

func logisticF(dy []float64, _ float64, y []float64) { dy[0] = logR * y[0] * (1 - y[0]/logK) }

func logisticExact(t, y0 float64) float64 {
	return logK / (1 + (logK/y0-1)*math.Exp(-logR*t))
}

func maxErr(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// fixedDP runs DormandPrince with a fixed step h = span/m by making the
// tolerances so loose that no step is rejected and capping the step at h.
func fixedDP(f Func, y0 []float64, span float64, m int) *DormandPrince {
	h := span / float64(m)
	d, err := NewDormandPrince(f, 0, y0, &Settings{AbsTol: 1e6, RelTol: 1e6, InitialStep: h, MaxStep: h})
	if err != nil {
		panic(err)
	}
	for d.Time() < span {
		if err := d.Step(span); err != nil {
			panic(err)
		}
	}
	return d
}

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

// observedOrder returns log2(err(h)/err(h/2)).
func observedOrder(e1, e2 float64) float64 { return math.Log2(e1 / e2) }

func TestDormandPrinceOrderLinear(t *testing.T) {
	y0 := []float64{1, 0.5, -0.25}
	want := linearExact(2, y0)
	var errs []float64
	for _, m := range []int{20, 40, 80} {
		d := fixedDP(linearF, y0, 2, m)
		assert.Equal(t, m, d.Stats().Accepted)
		errs = append(errs, maxErr(d.State(), want))
	}
	// Fifth-order method: halving h divides the global error by ≈ 2⁵.
	// The window [4.6, 5.6] allows the pre-asymptotic drift at these
	// step sizes (h = 0.1 … 0.025, |λ|h ≤ 0.2) while excluding order 4.
	for k := 0; k+1 < len(errs); k++ {
		p := observedOrder(errs[k], errs[k+1])
		assert.True(t, p > 4.6 && p < 5.6, "order %v (errors %v)", p, errs)
	}
}

func TestDormandPrinceDenseOrder(t *testing.T) {
	// Interpolate at the midpoint of the last step; with the continuous
	// extension of order 4 the local interpolation error is O(h⁵), so
	// halving h divides the error at the midpoint by ≈ 2⁴ or more.
	y0 := []float64{1, 0.5, -0.25}
	var errs []float64
	for _, m := range []int{10, 20, 40} {
		d := fixedDP(linearF, y0, 2, m)
		tm := (d.PrevTime() + d.Time()) / 2
		errs = append(errs, maxErr(d.Interpolate(nil, tm), linearExact(tm, y0)))
		// The interpolant is exact at both ends of the step.
		assert.InDelta(t, 0, maxErr(d.Interpolate(nil, d.Time()), d.State()), 1e-15)
	}
	for k := 0; k+1 < len(errs); k++ {
		p := observedOrder(errs[k], errs[k+1])
		assert.True(t, p > 3.7, "dense output order %v (errors %v)", p, errs)
	}
}

func TestRK4OrderLogistic(t *testing.T) {
	y0 := []float64{0.1}
	want := logisticExact(4, 0.1)
	var errs []float64
	for _, h := range []float64{0.2, 0.1, 0.05} {
		res, err := SolveRK4(logisticF, 0, y0, []float64{4}, h, nil)
		require.NoError(t, err)
		assert.Equal(t, int(math.Round(4/h)), res.Stats.Accepted)
		errs = append(errs, math.Abs(res.Y[0][0]-want))
	}
	// Classical RK4: ratio ≈ 2⁴; the window [3.6, 4.4] excludes orders 3
	// and 5 with margin for pre-asymptotic terms at rh ≤ 0.3.
	for k := 0; k+1 < len(errs); k++ {
		p := observedOrder(errs[k], errs[k+1])
		assert.True(t, p > 3.6 && p < 4.4, "order %v (errors %v)", p, errs)
	}
}

func TestRK4OrderLinear(t *testing.T) {
	y0 := []float64{1, 0.5, -0.25}
	want := linearExact(2, y0)
	var errs []float64
	for _, h := range []float64{0.1, 0.05, 0.025} {
		res, err := SolveRK4(linearF, 0, y0, []float64{2}, h, nil)
		require.NoError(t, err)
		errs = append(errs, maxErr(res.Y[0], want))
	}
	for k := 0; k+1 < len(errs); k++ {
		p := observedOrder(errs[k], errs[k+1])
		assert.True(t, p > 3.6 && p < 4.4, "order %v (errors %v)", p, errs)
	}
}

func TestDormandPrinceOrderLogistic(t *testing.T) {
	var errs []float64
	// Horizon t = 2 (y from 0.1 to ≈ 0.9): over longer horizons the
	// approach to the stable equilibrium y = K damps the leading error
	// term and the observed ratio overshoots 2⁵ at these step sizes.
	for _, m := range []int{10, 20, 40} {
		d := fixedDP(logisticF, []float64{0.1}, 2, m)
		errs = append(errs, math.Abs(d.State()[0]-logisticExact(2, 0.1)))
	}
	for k := 0; k+1 < len(errs); k++ {
		p := observedOrder(errs[k], errs[k+1])
		assert.True(t, p > 4.6 && p < 5.6, "order %v (errors %v)", p, errs)
	}
}

func TestSolveToleranceProportionality(t *testing.T) {
	// Adaptive mode on the logistic equation sampled at many times: the
	// global error must fall with the tolerance and stay within a modest
	// multiple of the per-step error scale AbsTol + RelTol·max|y| ≤ 3·tol
	// (y ≤ K = 2); 10× covers the accumulation of local errors over the
	// growth phase.
	times := make([]float64, 41)
	for k := range times {
		times[k] = 0.25 * float64(k)
	}
	prev := math.Inf(1)
	for _, tol := range []float64{1e-4, 1e-6, 1e-8, 1e-10} {
		res, err := Solve(logisticF, 0, []float64{0.1}, times, &Settings{AbsTol: tol, RelTol: tol})
		require.NoError(t, err)
		require.Len(t, res.Y, len(times))
		var e float64
		for k, tk := range res.T {
			assert.Equal(t, times[k], tk)
			e = math.Max(e, math.Abs(res.Y[k][0]-logisticExact(tk, 0.1)))
		}
		assert.Less(t, e, 10*3*tol, "tol %g", tol)
		assert.Less(t, e, prev)
		prev = e
	}
}

func TestSolveLinearAdaptive(t *testing.T) {
	y0 := []float64{1, 0.5, -0.25}
	times := []float64{0, 0.3, 1, 2.5, 7}
	res, err := Solve(linearF, 0, y0, times, &Settings{AbsTol: 1e-10, RelTol: 1e-10})
	require.NoError(t, err)
	for k, tk := range times {
		// 1e-9: ten times the tolerance, see TestSolveToleranceProportionality.
		assert.Less(t, maxErr(res.Y[k], linearExact(tk, y0)), 1e-9, "t = %v", tk)
	}
	assert.Equal(t, res.Stats.Evaluations, 6*(res.Stats.Accepted+res.Stats.Rejected)+2)
}

func TestBackwards(t *testing.T) {
	// y' = −y from t = 1 back to t = 0: y(0) = y(1)·e.
	f := func(dy []float64, _ float64, y []float64) { dy[0] = -y[0] }
	res, err := Solve(f, 1, []float64{1}, []float64{0.5, 0}, &Settings{AbsTol: 1e-12, RelTol: 1e-12})
	require.NoError(t, err)
	// 1e-10: 100× the tolerance over a growing (backwards) solution.
	assert.InDelta(t, math.E, res.Y[1][0], 1e-10)
	assert.InDelta(t, math.Sqrt(math.E), res.Y[0][0], 1e-10)
	res, err = SolveRK4(f, 1, []float64{1}, []float64{0}, 0.01, nil)
	require.NoError(t, err)
	// RK4 global error ≈ C h⁴ with C ≈ e/120 here: ~2e-10 at h = 0.01.
	assert.InDelta(t, math.E, res.Y[0][0], 1e-9)
}

func TestFailures(t *testing.T) {
	// y' = y² from y(0) = 1 blows up at t = 1; asking for t = 2 must fail
	// with a step-size error rather than return garbage.
	// The error says which limit was hit and the time reached, which is
	// at the blow-up t = 1 of y = 1/(1 − t).
	blow := func(dy []float64, _ float64, y []float64) { dy[0] = y[0] * y[0] }
	_, err := Solve(blow, 0, []float64{1}, []float64{2}, &Settings{AbsTol: 1e-8, RelTol: 1e-8})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrStepSize) || errors.Is(err, ErrMaxSteps), "%v", err)
	d, err := NewDormandPrince(blow, 0, []float64{1}, &Settings{AbsTol: 1e-8, RelTol: 1e-8})
	require.NoError(t, err)
	for err == nil {
		err = d.Step(2)
	}
	// Relative error control lets the last steps graze t = 1 (y ~ 1e9
	// there), so only the neighbourhood is checked.
	assert.InDelta(t, 1, d.Time(), 1e-3, "stopped at t = %v, not at the blow-up", d.Time())
	assert.ErrorContains(t, err, fmt.Sprintf("at t = %v", d.Time()))
	assert.ErrorContains(t, err, "step size underflow")
	d, err = NewDormandPrince(blow, 0, []float64{1}, &Settings{AbsTol: 1e-8, RelTol: 1e-8, MaxSteps: 20})
	require.NoError(t, err)
	for err == nil {
		err = d.Step(2)
	}
	require.ErrorIs(t, err, ErrMaxSteps)
	assert.ErrorContains(t, err, fmt.Sprintf("MaxSteps = 20 steps reached at t = %v before 2", d.Time()))

	// A small step budget on a long oscillation.
	osc := func(dy []float64, _ float64, y []float64) { dy[0], dy[1] = y[1], -y[0] }
	res, err := Solve(osc, 0, []float64{1, 0}, []float64{1, 1000}, &Settings{AbsTol: 1e-10, RelTol: 1e-10, MaxSteps: 50})
	require.ErrorIs(t, err, ErrMaxSteps)
	// The part reached is returned: y(1) = (cos 1, −sin 1).
	require.Len(t, res.Y, 1)
	assert.InDelta(t, math.Cos(1), res.Y[0][0], 1e-9)

	// A right-hand side that returns NaN past t = 0.5.
	nan := func(dy []float64, t float64, y []float64) {
		dy[0] = 1
		if t > 0.5 {
			dy[0] = math.NaN()
		}
	}
	_, err = Solve(nan, 0, []float64{0}, []float64{1}, nil)
	require.ErrorIs(t, err, ErrStepSize)
	// The step shrinks onto t = 0.5 from below, and the message says why.
	assert.ErrorContains(t, err, "at t = 0.49999")
	assert.ErrorContains(t, err, "f is not finite")
	_, err = SolveRK4(nan, 0, []float64{0}, []float64{1}, 0.1, nil)
	assert.ErrorContains(t, err, "not finite")
}

func TestPureRelativeTolerance(t *testing.T) {
	// AbsTol = 1e-300: essentially pure relative control. A component
	// that stays exactly 0 has error scale 1e-300 and error estimate 0;
	// it must not stall the integration (guards: a stall reported as a
	// non-finite f).
	f := func(dy []float64, _ float64, y []float64) { dy[0], dy[1] = 0, -y[1] }
	res, err := Solve(f, 0, []float64{0, 1}, []float64{1}, &Settings{AbsTol: 1e-300, RelTol: 1e-10})
	require.NoError(t, err)
	assert.Equal(t, 0.0, res.Y[0][0])
	// 1e-9 relative: ten times the tolerance, see
	// TestSolveToleranceProportionality.
	assert.InEpsilon(t, math.Exp(-1), res.Y[0][1], 1e-9)
}

func TestStepDoesNotAllocate(t *testing.T) {
	d, err := NewDormandPrince(linearF, 0, []float64{1, 0, 0}, &Settings{AbsTol: 1e-9, RelTol: 1e-9})
	require.NoError(t, err)
	dst := make([]float64, 3)
	allocs := testing.AllocsPerRun(100, func() {
		if err := d.Step(1e9); err != nil {
			panic(err)
		}
		d.Interpolate(dst, d.Time())
	})
	assert.Zero(t, allocs)
}

// Reset restarts at a new point: integrating y' = −y to t = 1, resetting
// to y = 2 and continuing to t = 2 gives 2e^{−1}.
func TestReset(t *testing.T) {
	f := func(dy []float64, _ float64, y []float64) { dy[0] = -y[0] }
	d, err := NewDormandPrince(f, 0, []float64{1}, &Settings{AbsTol: 1e-12, RelTol: 1e-12})
	require.NoError(t, err)
	for d.Time() < 1 {
		require.NoError(t, d.Step(1))
	}
	assert.InDelta(t, math.Exp(-1), d.State()[0], 1e-11)
	require.NoError(t, d.Reset(1, []float64{2}))
	assert.Equal(t, []float64{2}, d.Interpolate(nil, 1))
	for d.Time() < 2 {
		require.NoError(t, d.Step(2))
	}
	// Tolerance 1e-12 per step over ~20 steps.
	assert.InDelta(t, 2*math.Exp(-1), d.State()[0], 1e-10)
	assert.Panics(t, func() { d.Reset(0, []float64{1, 2}) })
}

func TestSolveStepsFuncMatchesSolveSteps(t *testing.T) {
	// The callback sees exactly the samples SolveSteps stores, in order,
	// with the same statistics; an error from emit stops the run with
	// Status Failure after the samples so far.
	f := func(dy []float64, _ float64, y []float64) { dy[0], dy[1] = y[1], -y[0] }
	ref, err := SolveSteps(f, 0, []float64{1, 0}, 10, nil)
	require.NoError(t, err)
	var ts []float64
	var ys [][]float64
	res, err := SolveStepsFunc(f, 0, []float64{1, 0}, 10, nil, func(t float64, y []float64) error {
		ts = append(ts, t)
		ys = append(ys, append([]float64(nil), y...))
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, ref.T, ts)
	assert.Equal(t, ref.Y, ys)
	assert.Equal(t, ref.Stats, res.Stats)
	assert.Equal(t, loadlab.Success, res.Status)
	assert.Nil(t, res.T)
	stop := errors.New("enough")
	calls := 0
	res, err = SolveStepsFunc(f, 0, []float64{1, 0}, 10, nil, func(float64, []float64) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, loadlab.Failure, res.Status)
	assert.Equal(t, 2, res.Stats.Accepted, "stopped at the third sample")
	assert.Panics(t, func() { _, _ = SolveStepsFunc(f, 0, []float64{1, 0}, 10, nil, nil) })
}
