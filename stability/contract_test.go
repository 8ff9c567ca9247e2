package stability

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/ode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// Vertex (0, 1) of the two-node example at C_ba = 0.3 has eigenvalues
// (0.4, 0): the positive one proves instability (spec §5.4), so the class
// is Unstable, not NonHyperbolic, by Corner, Linearize and the sweep.
func TestPositiveEigenvalueDecides(t *testing.T) {
	l := mustLaw(seedNet(0.3), 1)
	c, err := l.Corner([]float64{0, 1})
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{0.4, 0}, c.NodeRates, 1e-15)
	assert.Equal(t, Unstable, c.Class)
	e, err := l.Linearize([]float64{0, 1})
	require.NoError(t, err)
	assert.Equal(t, Unstable, e.Class)
	// The same order of eigenvalues from both: sorted.
	assert.Equal(t, c.Eigenvalues, e.Eigenvalues)
	cs, err := l.ClassifyCorners()
	require.NoError(t, err)
	assert.Zero(t, cs.Count(NonHyperbolic))
	// A positive and a negative rate with a zero one is a saddle; no
	// positive rate and a zero one stays non-hyperbolic.
	assert.Equal(t, Saddle, classify(1, 1, 1))
	assert.Equal(t, NonHyperbolic, classify(1, 1, 0))
	assert.Equal(t, Unstable, classify(0, 1, 1))
	assert.Equal(t, Stable, classify(2, 0, 0))
}

// Requests too large for memory are errors, before allocating (they once
// crashed with an out-of-memory error).
func TestTooLarge(t *testing.T) {
	l := mustLaw(seedNet(0.3), 1)
	_, err := l.Integrate([]float64{0.5, 0.5}, 1e3, &Settings{Step: 1e-9})
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "Settings.Step = 1e-09")
	// Even with a budget large enough, the output is checked.
	_, err = l.Integrate([]float64{0.5, 0.5}, 1e3, &Settings{Step: 1e-9, MaxSteps: math.MaxInt})
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	// With output times only the steps are bounded, by MaxSteps.
	_, err = l.Integrate([]float64{0.5, 0.5}, 1e3, &Settings{Step: 1e-9, Times: []float64{1e3}})
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.ErrorContains(t, err, "h = 1e-09")
	for _, steps := range []int{1 << 40, math.MaxInt} {
		_, err = l.Iterate([]float64{0.5, 0.5}, 1e-3, steps)
		require.ErrorIs(t, err, loadlab.ErrTooLarge, "steps = %d", steps)
	}
	_, err = l.SearchCorners(1<<60, rand.NewPCG(1, 1))
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, _, err = l.Attractors(1<<40, 1, 1, nil)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = Diurnal(make([]float64, 1<<10), make([]float64, 1<<22), nil, rand.NewPCG(1, 1))
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
}

// Integration that stops short follows the contract: the partial
// trajectory, its Status and an error that is both ode.ErrMaxSteps and
// loadlab.ErrNotConverged.
func TestIntegrateStopShort(t *testing.T) {
	l := mustLaw(seedNet(0.3), 1)
	tr, err := l.Integrate([]float64{0.5, 0.5}, 100, &Settings{MaxSteps: 3, AbsTol: 1e-12, RelTol: 1e-12})
	require.ErrorIs(t, err, ode.ErrMaxSteps)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.NotNil(t, tr)
	assert.Equal(t, loadlab.IterationLimit, tr.Status)
	assert.Equal(t, 0.0, tr.T[0])
	tr, err = l.Integrate([]float64{0.5, 0.5}, 100, nil)
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, tr.Status)
	assert.Equal(t, 100.0, tr.T[tr.Len()-1])
}

// Zero settings are the ode defaults, bit for bit; bad fields are errors
// naming them.
func TestIntegrateSettings(t *testing.T) {
	l := mustLaw(seedNet(0.1), 3)
	def, err := l.Integrate([]float64{0.3, 0.6}, 5, nil)
	require.NoError(t, err)
	explicit, err := l.Integrate([]float64{0.3, 0.6}, 5, &Settings{AbsTol: ode.DefaultTol, RelTol: ode.DefaultTol, MaxSteps: ode.DefaultMaxSteps})
	require.NoError(t, err)
	assert.Equal(t, def.X, explicit.X)
	assert.Equal(t, def.T, explicit.T)
	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct {
		s   Settings
		msg string
	}{
		{Settings{AbsTol: inf}, "Settings.AbsTol = +Inf"},
		{Settings{RelTol: nan}, "Settings.RelTol = NaN"},
		{Settings{Step: inf}, "Settings.Step = +Inf"},
		{Settings{Step: nan}, "Settings.Step = NaN"},
		{Settings{MaxSteps: -5}, "Settings.MaxSteps = -5"},
		{Settings{Times: []float64{nan}}, "Settings.Times[0] = NaN"},
		{Settings{Times: []float64{-1}}, "Settings.Times[0] = -1"},
	} {
		require.ErrorIs(t, tc.s.Validate(), loadlab.ErrInvalid, tc.msg)
		_, err := l.Integrate([]float64{0.3, 0.6}, 5, &tc.s)
		assert.ErrorContains(t, err, tc.msg)
	}
}

// The logit state: IntegrateLogit from logit(x0) is Integrate from x0, Z
// is the logit of X where X resolves it, and a start closer to the face
// than float64 resolves in x integrates from its exact logit.
func TestLogits(t *testing.T) {
	l := mustLaw(seedNet(0.3), 2)
	x0 := []float64{0.3, 0.6}
	set := &Settings{Logits: true}
	a, err := l.Integrate(x0, 40, set)
	require.NoError(t, err)
	b, err := l.IntegrateLogit([]float64{logit(0.3), logit(0.6)}, 40, set)
	require.NoError(t, err)
	assert.Equal(t, a.X, b.X)
	assert.Equal(t, a.Z, b.Z)
	for k := range a.T {
		for i, x := range a.X[k] {
			if x > 1e-3 && x < 1-1e-3 {
				// logit has condition number 1/(1 − x) ≤ 1e3 there:
				// 1e3 ulps of relative error at most.
				assert.InDelta(t, logit(x), a.Z[k][i], 1e-12*math.Max(1, math.Abs(a.Z[k][i])))
			}
		}
	}
	// At the end x_a → 1 and x_b → 0 linearly in the logit: Z resolves
	// what X cannot.
	z := a.Z[a.Len()-1]
	assert.Greater(t, z[0], 37.0)
	assert.Equal(t, 1.0, a.Final()[0])
	// Faces are frozen: −Inf and +Inf stay.
	c, err := l.IntegrateLogit([]float64{math.Inf(-1), math.Inf(1)}, 5, set)
	require.NoError(t, err)
	assert.Equal(t, []float64{math.Inf(-1), math.Inf(1)}, c.Z[c.Len()-1])
	assert.Equal(t, []float64{0, 1}, c.Final())
	// Without Logits no Z is recorded.
	d, err := l.Integrate(x0, 1, nil)
	require.NoError(t, err)
	assert.Nil(t, d.Z)
	// Direct mode reports the logit of its clamped state.
	e, err := l.IntegrateLogit([]float64{0, 0}, 1, &Settings{Direct: true, Logits: true})
	require.NoError(t, err)
	assert.Equal(t, 0.0, e.Z[0][0])
	_, err = l.IntegrateLogit([]float64{math.NaN(), 0}, 1, nil)
	assert.ErrorContains(t, err, "z0[0] = NaN")
	_, err = l.IntegrateLogit([]float64{0}, 1, nil)
	assert.ErrorContains(t, err, "len(z0) = 1")
}

// Functions that take a network validate it on every call, so a network
// changed after validation is caught.
func TestRevalidateNetwork(t *testing.T) {
	nw := seedNet(0.3)
	nw.C.Set(0, 0, math.NaN())
	_, err := PolytopeSlack(nw)
	assert.ErrorContains(t, err, "C[0][0] = NaN")
	_, err = InPolytope(nw)
	assert.Error(t, err)
	_, err = ExtendedSlack(nw)
	assert.Error(t, err)
	_, err = InExtended(nw)
	assert.Error(t, err)
	_, err = Uncontrollable(nw, []float64{0.5, 0.5}, 0)
	assert.Error(t, err)
	_, _, err = TwoNodeInterior(nw)
	assert.ErrorContains(t, err, "C[0][0] = NaN")
	_, err = Favorable(nw)
	assert.Error(t, err)
	_, err = Compare(nw, []float64{0, 1}, [][]float64{{1, 1}, {1, 1}}, nil)
	assert.Error(t, err)
	nw = seedNet(0.3)
	nw.A[1] = -1
	_, err = InPolytope(nw)
	assert.ErrorContains(t, err, "A[1] = -1")
	l := &Law{Net: nw, Sensitivity: 1}
	_, err = l.Integrate([]float64{0.5, 0.5}, 1, nil)
	assert.ErrorContains(t, err, "A[1] = -1")
	// Nil networks are programmer errors: panics naming the argument.
	assert.PanicsWithValue(t, "stability: PolytopeSlack: nw is nil", func() { _, _ = PolytopeSlack(nil) })
	assert.PanicsWithValue(t, "stability: Compare: nw is nil", func() { _, _ = Compare(nil, nil, nil, nil) })
	// A Law without a network is a bad field: an error naming it (it
	// was a panic; docs/conventions.md §2).
	_, err = (&Law{Sensitivity: 1}).Integrate(nil, 1, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "Law.Net is nil")
}

// Uncontrollable validates its state and tolerance (a NaN tol once
// returned an empty list).
func TestUncontrollableInputs(t *testing.T) {
	nw := seedNet(0.3)
	for _, tol := range []float64{math.NaN(), -1e-6, math.Inf(1)} {
		_, err := Uncontrollable(nw, []float64{1, 0}, tol)
		require.ErrorIs(t, err, loadlab.ErrInvalid, "tol = %v", tol)
		assert.ErrorContains(t, err, "tol = ")
	}
	_, err := Uncontrollable(nw, []float64{math.NaN(), 0}, 0)
	assert.ErrorContains(t, err, "x[0] = NaN")
	_, err = Uncontrollable(nw, []float64{1}, 0)
	assert.ErrorContains(t, err, "len(x) = 1")
	bad, err := Uncontrollable(nw, []float64{1, 0}, 1e-6)
	require.NoError(t, err)
	assert.Equal(t, []int{1}, bad)
	bad, err = Uncontrollable(nw, []float64{0, 0}, 0)
	require.NoError(t, err)
	assert.Empty(t, bad)
}

// Diurnal: an overflowing noise is an error for a node with demand and
// exactly 0 for a node with base 0 (both once gave +Inf or NaN); a NaN
// phase is an error naming it.
func TestDiurnalOverflow(t *testing.T) {
	set := &DiurnalSettings{Amplitude: 0.5, Noise: 890.75, Memory: 0.9}
	a, err := Diurnal([]float64{0}, []float64{-60}, set, rand.NewPCG(1, 1))
	require.NoError(t, err)
	assert.Equal(t, [][]float64{{0}}, a)
	// The same source with base 1: the draw that overflows is reached.
	var overflow error
	for seed := uint64(1); seed < 20 && overflow == nil; seed++ {
		a, err := Diurnal([]float64{1}, []float64{-60}, set, rand.NewPCG(seed, 1))
		if err != nil {
			overflow = err
			continue
		}
		// e^n with |n| small enough to be finite: a finite demand ≥ 0.
		assert.False(t, math.IsInf(a[0][0], 0) || math.IsNaN(a[0][0]), "seed %d: %v", seed, a[0][0])
	}
	require.ErrorIs(t, overflow, loadlab.ErrInvalid)
	assert.ErrorContains(t, overflow, "overflows")
	_, err = Diurnal([]float64{1, 1}, []float64{0}, &DiurnalSettings{Phase: []float64{0, math.NaN()}}, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "DiurnalSettings.Phase[1] = NaN")
	_, err = Diurnal([]float64{1}, []float64{0}, &DiurnalSettings{Phase: []float64{math.Inf(1)}}, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "DiurnalSettings.Phase[0] = +Inf")
}

// Zero Diurnal fields are the documented defaults; NoCycle and NoNoise
// switch the parts off.
func TestDiurnalDefaults(t *testing.T) {
	times := []float64{0, 6, 12, 18}
	def, err := Diurnal([]float64{1, 2}, times, nil, rand.NewPCG(3, 3))
	require.NoError(t, err)
	zero, err := Diurnal([]float64{1, 2}, times, &DiurnalSettings{}, rand.NewPCG(3, 3))
	require.NoError(t, err)
	explicit, err := Diurnal([]float64{1, 2}, times, &DiurnalSettings{Amplitude: 0.6, Noise: 0.05, Memory: 0.95}, rand.NewPCG(3, 3))
	require.NoError(t, err)
	assert.Equal(t, def, zero)
	assert.Equal(t, def, explicit)
	flat, err := Diurnal([]float64{2}, times, &DiurnalSettings{NoCycle: true, NoNoise: true}, rand.NewPCG(3, 3))
	require.NoError(t, err)
	assert.Equal(t, [][]float64{{2}, {2}, {2}, {2}}, flat)
}

// TwoNodeInterior: a singular C, or one singular to rounding, is
// ill-conditioned rather than a huge number.
func TestTwoNodeInteriorSingular(t *testing.T) {
	tt := []float64{0.7, 0.7}
	_, _, err := TwoNodeInterior(twoNode(mat.NewDense(2, 2, []float64{0.3, 0.7, 0.3, 0.7}), tt))
	require.ErrorIs(t, err, loadlab.ErrIllConditioned)
	// det = 0.3·0.7 − 0.7·0.3 may round to ±1e-17 for perturbed rows.
	_, _, err = TwoNodeInterior(twoNode(mat.NewDense(2, 2, []float64{0.1 + 0.2, 0.7, 0.3, 0.7}), tt))
	require.ErrorIs(t, err, loadlab.ErrIllConditioned)
	ya, yb, err := TwoNodeInterior(twoNode(favC, tt))
	require.NoError(t, err)
	// Cᵀ y = T by construction.
	assert.InDelta(t, 0.7, favC.At(0, 0)*ya+favC.At(1, 0)*yb, 1e-15)
	assert.InDelta(t, 0.7, favC.At(0, 1)*ya+favC.At(1, 1)*yb, 1e-15)
}

// Every settings type of the package rejects negative, NaN and infinite
// fields by name.
func TestSettingsFields(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, tc := range []struct {
		err error
		msg string
	}{
		{(&CompareSettings{Threshold: inf}).Validate(), "CompareSettings.Threshold = +Inf"},
		{(&CompareSettings{DualStep: inf}).Validate(), "CompareSettings.DualStep = +Inf"},
		{(&CompareSettings{Sensitivity: nan}).Validate(), "CompareSettings.Sensitivity = NaN"},
		{(&CompareSettings{Guard: nan}).Validate(), "CompareSettings.Guard = NaN"},
		{(&CompareSettings{W: -inf}).Validate(), "CompareSettings.W = -Inf"},
		{(&MapSettings{Workers: -1}).Validate(), "MapSettings.Workers = -1"},
		{(&MapSettings{Sensitivity: inf}).Validate(), "MapSettings.Sensitivity = +Inf"},
		{(&MapSettings{Start: [2]float64{nan, 0}}).Validate(), "MapSettings.Start[0] = NaN"},
		{(&DiurnalSettings{Noise: inf}).Validate(), "DiurnalSettings.Noise = +Inf"},
		{(&DiurnalSettings{Memory: nan}).Validate(), "DiurnalSettings.Memory = NaN"},
		{(&DiurnalSettings{Amplitude: -0.1}).Validate(), "DiurnalSettings.Amplitude = -0.1"},
	} {
		require.ErrorIs(t, tc.err, loadlab.ErrInvalid, tc.msg)
		assert.ErrorContains(t, tc.err, tc.msg)
	}
	var c *CompareSettings
	var m *MapSettings
	var d *DiurnalSettings
	var s *Settings
	assert.NoError(t, c.Validate())
	assert.NoError(t, m.Validate())
	assert.NoError(t, d.Validate())
	assert.NoError(t, s.Validate())
	nw := seedNet(0.3)
	times := []float64{0, 1}
	_, err := Compare(nw, times, [][]float64{{1, 1}, {1, 1}}, &CompareSettings{Threshold: inf})
	assert.ErrorContains(t, err, "Threshold = +Inf")
	_, err = Compare(nw, []float64{nan, 1}, [][]float64{{1, 1}, {1, 1}}, nil)
	assert.ErrorContains(t, err, "times[0] = NaN")
	_, err = Compare(nw, times, [][]float64{{1, 1}, {1, 1}}, &CompareSettings{Sub: math.MaxInt})
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = TwoNodeMap(nw, []float64{1}, []float64{1}, &MapSettings{Workers: -1})
	assert.ErrorContains(t, err, "Workers = -1")
}

// The remaining float inputs of the package are checked too.
func TestOtherInputs(t *testing.T) {
	l := mustLaw(seedNet(0.3), 1)
	_, err := l.EulerStep(nil, []float64{math.NaN(), 0.5}, 0.1)
	assert.ErrorContains(t, err, "x[0] = NaN")
	_, err = l.EulerStep(nil, []float64{1.5, 0.5}, 0.1)
	assert.ErrorContains(t, err, "x[0] = 1.5")
	// t1 is checked even when there is nothing to integrate.
	_, _, err = l.Attractors(0, math.NaN(), 1, nil)
	assert.ErrorContains(t, err, "t1 = NaN")
	// A cost hook that returns no problem and no error is reported.
	nw := seedNet(0.3)
	_, err = Compare(nw, []float64{0, 1}, [][]float64{{1, 1}, {1, 1}}, &CompareSettings{
		Problem: func(*anycast.Network) (*dual.Problem, error) { return nil, nil },
	})
	assert.ErrorContains(t, err, "CompareSettings.Problem returned a nil problem")
}
