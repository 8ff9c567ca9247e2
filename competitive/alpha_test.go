package competitive

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBestAlpha: spec §15.2. U is the maximum of a decreasing and an
// increasing term that cross at α* = √(k/(k−1)), so U(α*) equals both
// terms, lies in [2k − 1, 2k − ½), is below U(1) = 2k, and no α on a
// fine grid does better. Tolerances: the closed forms are a few rounded
// operations (relative error below 1e-15), so 1e-12 relative.
func TestBestAlpha(t *testing.T) {
	for k := 2; k <= 64; k++ {
		a, b, err := BestAlpha(k)
		require.NoError(t, err)
		kf := float64(k)
		assert.InDelta(t, kf*(1+1/a), b, 1e-12*b, "k=%d full-phase term at α*", k)
		assert.InDelta(t, (kf-1)*a+kf, b, 1e-12*b, "k=%d partial-phase term at α*", k)
		u1, _ := DTrackBound(k, 1)
		assert.Equal(t, 2*kf, u1, "U(1) = 2k")
		assert.Less(t, b, 2*kf-0.5, "k=%d: U(α*) < 2k − ½", k)
		assert.GreaterOrEqual(t, b, 2*kf-1, "k=%d: U(α*) ≥ 2k − 1", k)
		for x := 0.05; x < 5; x += 0.005 {
			u, _ := DTrackBound(k, x)
			require.GreaterOrEqual(t, u, b*(1-1e-12), "k=%d α=%v", k, x)
		}
		// The adversary's limit is least at k/(k−1), where it is 2k − 1,
		// and L(1) = U(1) = 2k: DTrack-RR's ratio at α = 1 is exactly 2k.
		l, _ := DTrackCruelLimit(k, kf/(kf-1))
		assert.InDelta(t, 2*kf-1, l, 1e-12*l)
		l1, _ := DTrackCruelLimit(k, 1)
		assert.Equal(t, 2*kf, l1)
	}
	// k = 2: α* = √2, U = 2 + √2.
	a, b, _ := BestAlpha(2)
	assert.InDelta(t, math.Sqrt2, a, 1e-15)
	assert.InDelta(t, 2+math.Sqrt2, b, 1e-15)
}

// TestDTrackBoundOverAlpha checks U(α) (spec §15.1) on random instances
// of every family and on the adversary, at α* and at α values off the
// existing checks (which cover 0.5, 1, 2), and L(α) ≤ U(α). The relative
// slack 1e-12 covers rounding of sums of ≤ 40 terms (integer families
// are exact).
func TestDTrackBoundOverAlpha(t *testing.T) {
	rng := newRand(15)
	for i := range 3000 {
		k, T := 2+rng.IntN(4), 1+rng.IntN(40)
		C := []float64{1, 2, 3, 5, 8}[rng.IntN(5)]
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(12)))
		opt := OptimumCost(in)
		best, _, _ := BestAlpha(k)
		for _, a := range []float64{0.3, 0.7, best, 1.5, 3} {
			u, _ := DTrackBound(k, a)
			cost, err := RunCost(&DTrack{Alpha: a}, in)
			require.NoError(t, err)
			require.LessOrEqual(t, cost, u*opt*(1+1e-12), "instance %d k=%d α=%v", i, k, a)
		}
	}
	for k := 2; k <= 5; k++ {
		best, _, _ := BestAlpha(k)
		for _, a := range []float64{0.3, 0.7, best, 1.5, 3} {
			u, _ := DTrackBound(k, a)
			l, _ := DTrackCruelLimit(k, a)
			require.LessOrEqual(t, l, u)
			r, err := CruelRatio(&DTrack{Alpha: a}, k, 3000, 1, 1.0/16)
			require.NoError(t, err)
			require.LessOrEqual(t, r, u*(1+1e-12), "adversary k=%d α=%v", k, a)
		}
	}
}

// TestCruelLimit: spec §15.3. Against Cruel with ε = e·C, DTrack-RR
// stays m = ⌊α/e⌋ + 1 slots per server, paying C + (m−1)ε ≥ C(1 + α − e)
// per stay, while each server is charged mε ≤ (α + e)C per cycle of k
// stays; the static and the rotating schedules bound OPT, so the ratio is
// at least L_e(α) = (1 + α − e)/min((α + e)/k, 1/(k − 1)) up to the
// first setup and the last partial cycle: OPT's first setup C against its
// ≥ 100 cycles (the default horizon) of at least min(α, 1)·C each, and
// the last cycle, a relative 1/(100 min(α, 1)) + 1/100 (5 % at α = ¼).
// And it never exceeds U(α).
func TestCruelLimit(t *testing.T) {
	const e = 1.0 / 64
	for k := 2; k <= 5; k++ {
		for _, a := range []float64{0.25, 0.5, 1, 1.25, 1.5, 2, 3} {
			p := AlphaPoint{Servers: k, Alpha: a, Eps: e, Setup: 1}
			r, err := p.Adversary()
			require.NoError(t, err)
			kf := float64(k)
			le := (1 + a - e) / math.Min((a+e)/kf, 1/(kf-1))
			u, _ := DTrackBound(k, a)
			l, _ := DTrackCruelLimit(k, a)
			assert.GreaterOrEqual(t, r, le*(1-1/(100*math.Min(a, 1))-0.01), "k=%d α=%v", k, a)
			assert.LessOrEqual(t, r, u*(1+1e-12), "k=%d α=%v", k, a)
			// L_e → L as e → 0: here within (e/α)(2 + ...) relative.
			assert.InDelta(t, l, le, l*3*e/a, "k=%d α=%v", k, a)
		}
	}
}

// TestAlphaStudy: the study is the merge of its runs on their streams
// (AlphaPoint.Run on loadlab.Stream(seed, i, r)), whatever GOMAXPROCS.
func TestAlphaStudy(t *testing.T) {
	pts := []AlphaPoint{
		{Servers: 2, Alpha: 0.5, Slots: 50},
		{Servers: 3, Policy: Backward, Beta: 0.5, Workload: Uniform, Slots: 40},
		{Servers: 3, Policy: Backward, Beta: math.Inf(-1), Slots: 30},
		{Servers: 4, Policy: Forward, Slots: 30, Spread: 0.2, Persist: 5},
	}
	got, err := AlphaStudy(pts, 20, 7)
	require.NoError(t, err)
	prev := runtime.GOMAXPROCS(1)
	one, err := AlphaStudy(pts, 20, 7)
	runtime.GOMAXPROCS(prev)
	require.NoError(t, err)
	assert.Equal(t, got, one, "same bits on one core")
	for i, p := range pts {
		runs := make([]AlphaRun, 20)
		for r := range runs {
			runs[r], err = p.Run(loadlab.Stream(7, uint64(i), uint64(r)))
			require.NoError(t, err)
			assert.GreaterOrEqual(t, runs[r].DTrack, 1.0)
			assert.GreaterOrEqual(t, runs[r].NeverMigrate, 1.0)
		}
		adv, err := p.Adversary()
		require.NoError(t, err)
		assert.Equal(t, SummarizeAlpha(p, adv, runs), got[i], "point %d", i)
	}
	assert.True(t, got[0].Bounded)
	assert.True(t, got[2].Bounded, "DTrack-B with β = −∞ is DTrack-RR")
	assert.False(t, got[1].Bounded)
	assert.False(t, got[3].Bounded)
	// DTrack-B with β = −∞ makes DTrack-RR's moves.
	rr, err := AlphaStudy([]AlphaPoint{{Servers: 3, Slots: 30}}, 20, 7)
	require.NoError(t, err)
	b, err := AlphaStudy([]AlphaPoint{{Servers: 3, Policy: Backward, Beta: math.Inf(-1), Slots: 30}}, 20, 7)
	require.NoError(t, err)
	assert.Equal(t, rr[0].Random, b[0].Random)
	assert.Equal(t, rr[0].Adversary, b[0].Adversary)
}

// TestAlphaStudyCoverage: the 95 % interval of the mean random ratio
// covers the mean of 20,000 runs in about 95 % of 300 studies of 12 runs.
// With 300 studies the coverage's standard error is 1.3 %, so [0.89,
// 0.99] is about 4.5 standard errors either side; the reference mean's
// own error (≈ SE/40 of a study's) is negligible.
func TestAlphaStudyCoverage(t *testing.T) {
	p := AlphaPoint{Servers: 2, Slots: 30, AdversarySlots: 10}
	ref, err := AlphaStudy([]AlphaPoint{p}, 20000, 99)
	require.NoError(t, err)
	mean := ref[0].Random.Mean
	hit := 0
	const studies = 300
	for s := range studies {
		out, err := AlphaStudy([]AlphaPoint{p}, 12, uint64(1000+s))
		require.NoError(t, err)
		if out[0].Random.Lo <= mean && mean <= out[0].Random.Hi {
			hit++
		}
	}
	cov := float64(hit) / studies
	assert.True(t, cov >= 0.89 && cov <= 0.99, "coverage %v", cov)
}

// TestAlphaPointDefaults: zero fields take the documented defaults.
func TestAlphaPointDefaults(t *testing.T) {
	q, err := AlphaPoint{Servers: 3}.defaults()
	require.NoError(t, err)
	assert.Equal(t, AlphaPoint{Servers: 3, Alpha: 1, Setup: 10, Slots: 200, Spread: 1, Persist: 20, Eps: 1.0 / 16, AdversarySlots: 100*3*17 + 1}, q)
	in, err := AlphaPoint{Servers: 3, Slots: 5, Workload: Sticky}.Instance(newRand(3))
	require.NoError(t, err)
	for s := range in.Slots() {
		assert.Equal(t, 0.0, in.Hold(s, argmin(in.Row(s))), "a free server in every slot")
		assert.Less(t, maxOf(in.Row(s)), 10.0)
	}
	assert.Equal(t, "sticky", Sticky.String())
	assert.Equal(t, "uniform", Uniform.String())
	assert.Equal(t, "Workload(5)", Workload(5).String())
	assert.Equal(t, fmt.Sprint(Uniform), "uniform")
}
