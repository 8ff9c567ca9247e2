package stability

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

func hourGrid(hours float64, perHour int) []float64 {
	times := make([]float64, int(hours)*perHour+1)
	for k := range times {
		times[k] = float64(k) / float64(perHour)
	}
	return times
}

func TestDiurnal(t *testing.T) {
	times := hourGrid(24, 12)
	base := []float64{1, 2}
	// Without noise the trace is the closed-form cycle.
	a, err := Diurnal(base, times, &DiurnalSettings{Amplitude: 0.5, Phase: []float64{0, 3}, NoNoise: true}, rand.NewPCG(1, 1))
	require.NoError(t, err)
	for k, tk := range times {
		assert.InDelta(t, 1+0.5*math.Sin(2*math.Pi*(tk-10)/24), a[k][0], 1e-15)
		assert.InDelta(t, 2*(1+0.5*math.Sin(2*math.Pi*(tk-13)/24)), a[k][1], 1e-15)
	}
	// With noise and no cycle the log-demand is the AR(1) noise: mean 0
	// and standard deviation σ. Over 20000 samples with ρ = 0.5 the
	// effective sample size is n(1−ρ)/(1+ρ) ≈ 6700, so the standard
	// error of the mean is σ/√6700 ≈ 0.012σ; we allow z = 4 of it. The
	// sample std has relative standard error ≈ 1/√(2·6700) ≈ 0.9%; 5%
	// is above 5 of them.
	const sigma, rho = 0.1, 0.5
	long := hourGrid(20000, 1)[:20000]
	a, err = Diurnal([]float64{1}, long, &DiurnalSettings{Noise: sigma, Memory: rho, NoCycle: true}, rand.NewPCG(2, 2))
	require.NoError(t, err)
	logs := make([]float64, len(a))
	for k := range a {
		logs[k] = math.Log(a[k][0])
	}
	se := sigma / math.Sqrt(float64(len(logs))*(1-rho)/(1+rho))
	assert.InDelta(t, 0, stat.Mean(logs, nil), 4*se)
	assert.InDelta(t, sigma, stat.StdDev(logs, nil), 0.05*sigma)
	// Deterministic for a given source.
	b, err := Diurnal([]float64{1}, long[:10], &DiurnalSettings{Noise: sigma, Memory: rho, NoCycle: true}, rand.NewPCG(2, 2))
	require.NoError(t, err)
	assert.Equal(t, a[:10], b)

	for _, tc := range []struct {
		s   *DiurnalSettings
		msg string
	}{
		{&DiurnalSettings{Amplitude: 1.5}, "Amplitude = 1.5"},
		{&DiurnalSettings{Noise: -1}, "Noise = -1"},
		{&DiurnalSettings{Memory: 1}, "Memory = 1"},
		{&DiurnalSettings{Phase: []float64{1}}, "len(DiurnalSettings.Phase) = 1"},
	} {
		_, err := Diurnal(base, times, tc.s, rand.NewPCG(1, 1))
		assert.ErrorContains(t, err, tc.msg)
	}
	_, err = Diurnal([]float64{-1}, times, nil, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "base[0] = -1")
	_, err = Diurnal(base, []float64{math.NaN()}, nil, rand.NewPCG(1, 1))
	assert.ErrorContains(t, err, "times[0] = NaN")
}

// constantDemand repeats a over the grid.
func constantDemand(a []float64, times []float64) [][]float64 {
	out := make([][]float64, len(times))
	for k := range out {
		out[k] = append([]float64(nil), a...)
	}
	return out
}

// On the paper's two-node example with constant demand, the greedy law
// sits in the uncontrollable overload 0.2 at node b all day (spec §2),
// while the optimal algorithm avoids it.
func TestCompareSeedExample(t *testing.T) {
	nw := seedNet(0.3)
	times := hourGrid(24, 4)
	cmp, err := Compare(nw, times, constantDemand(nw.A, times), nil)
	require.NoError(t, err)
	day := 24.25 // 97 periods of 15 min
	// The greedy starts in its steady state (1, 0) up to the guard 1e-3:
	// S_b = 0.9·0.999 + 0.7·0.001 ⇒ overload 0.2 − 2e-4 at worst.
	assert.InDelta(t, 0.2*day, cmp.Greedy.ExcessTotal, 1e-3*day)
	assert.InDelta(t, day, cmp.Greedy.UncontrolledHours, 1e-9)
	assert.InDelta(t, day, cmp.Greedy.OverloadHours, 1e-9)
	// The optimum overloads only by μ/Penalty; with Penalty = 1000 and
	// μ ≤ W·max A = 1 that is ≤ 1e-3 per node.
	assert.Less(t, cmp.Optimal.ExcessTotal, 2e-3*day)
	assert.Zero(t, cmp.Optimal.UncontrolledHours)
	assert.Less(t, cmp.Optimal.CostTotal, cmp.Greedy.CostTotal)
	assert.InDelta(t, 2*day, cmp.DemandTotal, 1e-9)
}

// With enough dual steps per period the optimal policy's cost equals the
// reference optimum of dual.Primal in every period; with the default 20
// warm-started steps it stays close, and below the greedy cost overall.
func TestCompareOptimalTracksPrimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	n := 6
	nw := randomNet(rng, n, 1, 0.3)
	base := make([]float64, n)
	for i := range base {
		base[i] = nw.T[i] * (0.6 + 0.6*rng.Float64())
	}
	times := hourGrid(24, 2)
	dem, err := Diurnal(base, times, nil, rand.NewPCG(5, 5))
	require.NoError(t, err)
	exact, err := Compare(nw, times, dem, &CompareSettings{DualSteps: 2000})
	require.NoError(t, err)
	def, err := Compare(nw, times, dem, nil)
	require.NoError(t, err)
	for k := range times {
		pnw, err := anycast.NewNetwork(dem[k], nw.C, nw.T)
		require.NoError(t, err)
		p, err := dual.Quadratic(pnw, 1, 1000)
		require.NoError(t, err)
		ref, err := dual.Primal(p, nil)
		require.NoError(t, err)
		require.True(t, ref.Status.Converged(), "period %d: reference not certified", k)
		// 2000 warm-started dual steps: the dual iterates converge
		// linearly (the quadratic costs make D strongly concave), so
		// the primal x*(μ) is at the optimum to ~1e-9 relative; 1e-6
		// leaves margin for the primal reference's own tolerance. At
		// low demand P* = 0 (x = 1, no overload): there the absolute
		// 1e-10 bounds the rounding of costs of size O(ΣA).
		tol := 1e-6*ref.Value + 1e-10
		assert.InDelta(t, ref.Value, exact.Optimal.Cost[4*k], tol, "period %d", k)
		// Every policy's cost is ≥ P*: a feasible point's value.
		assert.GreaterOrEqual(t, def.Optimal.Cost[4*k], ref.Value-tol)
		assert.GreaterOrEqual(t, def.Greedy.Cost[4*k], ref.Value-tol)
	}
	// Default: within 1% of the exact optimum over the day.
	assert.InEpsilon(t, exact.Optimal.CostTotal, def.Optimal.CostTotal, 1e-2)
	assert.LessOrEqual(t, def.Optimal.CostTotal, def.Greedy.CostTotal)
	// Both policies are sampled at the same times, Sub = 4 per period.
	assert.Len(t, def.Greedy.T, 4*len(times))
	assert.True(t, floats.Equal(def.Greedy.T, def.Optimal.T))
}

func TestCompareBadInput(t *testing.T) {
	nw := seedNet(0.3)
	times := hourGrid(2, 1)
	dem := constantDemand(nw.A, times)
	for _, tc := range []struct {
		s   *CompareSettings
		msg string
	}{
		{&CompareSettings{Guard: 0.7}, "Guard = 0.7"},
		{&CompareSettings{Sub: -1}, "Sub = -1"},
		{&CompareSettings{DualSteps: -2}, "DualSteps = -2"},
		{&CompareSettings{DualStep: math.NaN()}, "DualStep = NaN"},
		{&CompareSettings{Threshold: -1}, "Threshold = -1"},
		{&CompareSettings{Sensitivity: -1}, "Sensitivity = -1"},
		{&CompareSettings{W: -1}, "W = -1"},
		{&CompareSettings{Penalty: math.Inf(1)}, "Penalty = +Inf"},
	} {
		_, err := Compare(nw, times, dem, tc.s)
		assert.ErrorContains(t, err, tc.msg)
	}
	_, err := Compare(nw, times[:1], dem[:1], nil)
	assert.ErrorContains(t, err, "want equal counts ≥ 2")
	_, err = Compare(nw, []float64{0, 0, 1}, dem, nil)
	assert.ErrorContains(t, err, "strictly increasing")
	bad := constantDemand([]float64{1, math.NaN()}, times)
	_, err = Compare(nw, times, bad, nil)
	assert.ErrorContains(t, err, "A[1] = NaN")
}

// FuzzDiurnal checks Diurnal against its definition: with the two normal
// draws of the source reproduced, A[k] = base·(1 + a sin(2π(t_k − 10 −
// φ)/24))·e^{n_k}, n_0 = σξ_0, n_1 = ρn_0 + √(1−ρ²)σξ_1; an overflow of
// that product is an error (never +Inf or NaN, also where e^n alone
// overflows against a zero or tiny cycle), base 0 gives 0, doubling
// the base doubles the demand exactly, and bad input is an error naming
// the field.
func FuzzDiurnal(f *testing.F) {
	f.Add(1.0, 0.5, 0.05, 0.9, 3.0, 0.0, uint8(0))
	f.Add(-1.0, 2.0, -0.1, 1.0, math.Inf(1), 0.0, uint8(0))
	f.Add(0.0, 0.5, 890.75, 0.9, -60.0, 0.0, uint8(0))
	f.Add(1.0, 0.5, 890.75, 0.9, -60.0, 0.0, uint8(0))
	f.Add(1e300, 1.0, 1.0, 0.5, 16.0, math.NaN(), uint8(3))
	f.Fuzz(func(t *testing.T, base, amp, noise, mem, tk, phase float64, flags uint8) {
		s := &DiurnalSettings{Amplitude: amp, Noise: noise, Memory: mem, Phase: []float64{phase},
			NoCycle: flags&1 != 0, NoNoise: flags&2 != 0}
		times := []float64{0, tk}
		a, err := Diurnal([]float64{base}, times, s, rand.NewPCG(1, 1))
		switch {
		case s.Validate() != nil:
			require.ErrorIs(t, err, loadlab.ErrInvalid)
			assert.ErrorContains(t, err, "DiurnalSettings.")
			return
		case !(base >= 0) || math.IsInf(base, 1):
			assert.ErrorContains(t, err, "base[0] = ")
			return
		case math.IsNaN(tk) || math.IsInf(tk, 0):
			assert.ErrorContains(t, err, "times[1] = ")
			return
		}
		set := s.withDefaults()
		rng := rand.New(rand.NewPCG(1, 1))
		n0 := set.Noise * rng.NormFloat64()
		n1 := set.Memory*n0 + math.Sqrt(1-set.Memory*set.Memory)*set.Noise*rng.NormFloat64()
		want := make([]float64, 2)
		overflow := false
		for k, n := range []float64{n0, n1} {
			m := base * (1 + set.Amplitude*math.Sin(2*math.Pi*(times[k]-10-phase)/24))
			switch e := math.Exp(n); {
			case m == 0:
				want[k] = 0
			case math.IsInf(e, 1):
				want[k] = math.Exp(math.Log(m) + n) // the product m·e^n, without overflow of e^n
			default:
				want[k] = m * e
			}
			overflow = overflow || math.IsInf(want[k], 1)
		}
		if overflow {
			require.ErrorIs(t, err, loadlab.ErrInvalid)
			assert.ErrorContains(t, err, "overflows")
			return
		}
		require.NoError(t, err)
		require.Len(t, a, 2)
		for k := range a {
			require.Len(t, a[k], 1)
			v := a[k][0]
			require.False(t, math.IsNaN(v) || math.IsInf(v, 0), "A[%d] = %v", k, v)
			require.GreaterOrEqual(t, v, 0.0)
			// Same operations in the same order: equal up to the
			// rounding of a different association, ≤ 1e-12 relative.
			assert.InDelta(t, want[k], v, 1e-12*want[k], "k = %d, %+v, base %v", k, set, base)
		}
		if base == 0 {
			assert.Equal(t, [][]float64{{0}, {0}}, a)
		}
		// Doubling the base doubles every demand exactly (a power of 2),
		// where e^n itself is finite.
		finite := !math.IsInf(math.Exp(n0), 1) && !math.IsInf(math.Exp(n1), 1)
		if b2, err := Diurnal([]float64{2 * base}, times, s, rand.NewPCG(1, 1)); err == nil && finite {
			assert.Equal(t, [][]float64{{2 * a[0][0]}, {2 * a[1][0]}}, b2)
		}
	})
}

// A user-supplied cost family replaces the default one.
func TestCompareProblemHook(t *testing.T) {
	nw := seedNet(0.3)
	times := hourGrid(2, 2)
	calls := 0
	cmp, err := Compare(nw, times, constantDemand(nw.A, times), &CompareSettings{
		Problem: func(nw *anycast.Network) (*dual.Problem, error) {
			calls++
			return dual.Quadratic(nw, 1, 10)
		},
	})
	require.NoError(t, err)
	assert.Equal(t, len(times)+1, calls) // one per period plus the warm start
	// A softer overload price lets the optimum overload more than the
	// default Penalty = 1000 does, but still far less than the greedy.
	def, err := Compare(nw, times, constantDemand(nw.A, times), nil)
	require.NoError(t, err)
	assert.Greater(t, cmp.Optimal.ExcessTotal, def.Optimal.ExcessTotal)
	assert.Less(t, cmp.Optimal.ExcessTotal, cmp.Greedy.ExcessTotal)
}
