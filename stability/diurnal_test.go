package stability

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat"
)

func TestDiurnal(t *testing.T) {
	times := hourGrid(24, 12)
	base := []float64{1, 2}
	// Without noise the trace is the closed-form cycle: the same formula,
	// with (t − 10) − φ rounded apart from t − 13, so a few ulps of
	// values ≤ 3 (1e-15).
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

// Diurnal: an overflowing noise is an error for a node with demand and
// exactly 0 for a node with base 0 (guards: neither gives +Inf or NaN).
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
