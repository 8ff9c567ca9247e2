package competitive

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// metricKind names the random metrics of the tests.
type metricKind int

const (
	euclid    metricKind = iota // points in the plane, a(s) = distance to an origin point
	hops                        // shortest paths of a random connected graph, integer lengths, a ≡ c
	arbitrary                   // any valid costs: asymmetric, triangle inequality broken
	nKinds
)

// randomMetric draws a metric of the given kind on k servers at scale C.
func randomMetric(t testing.TB, rng *rand.Rand, kind metricKind, k int, C float64) *Metric {
	t.Helper()
	d := make([][]float64, k)
	for i := range d {
		d[i] = make([]float64, k)
	}
	init := make([]float64, k)
	switch kind {
	case euclid:
		x, y := make([]float64, k+1), make([]float64, k+1)
		for i := range x {
			x[i], y[i] = C*rng.Float64(), C*rng.Float64()
		}
		for i := range k {
			for j := range k {
				d[i][j] = math.Hypot(x[i]-x[j], y[i]-y[j])
			}
			init[i] = math.Hypot(x[i]-x[k], y[i]-y[k])
		}
	case hops:
		for i := range k {
			for j := range k {
				if i != j {
					d[i][j] = math.Inf(1)
				}
			}
		}
		link := func(i, j int) {
			w := float64(1 + rng.IntN(int(C)+1))
			d[i][j], d[j][i] = w, w
		}
		for i := 1; i < k; i++ {
			link(i, rng.IntN(i)) // a random tree keeps it connected
		}
		for range k {
			if i, j := rng.IntN(k), rng.IntN(k); i != j {
				link(i, j)
			}
		}
		for i := range init {
			init[i] = C
		}
		m, err := ShortestPathMetric(d, init)
		require.NoError(t, err)
		return m
	case arbitrary:
		for i := range k {
			for j := range k {
				if i != j {
					d[i][j] = float64(rng.IntN(2 * (int(C) + 1)))
				}
			}
			init[i] = float64(rng.IntN(int(C) + 1))
		}
	}
	m, err := NewMetric(d, init)
	require.NoError(t, err)
	return m
}

// general returns a copy of m that the functions treat as non-uniform,
// so that the O(k²) paths run on a uniform metric too.
func general(m *Metric) *Metric {
	return &Metric{k: m.k, d: m.d, dt: m.dt, init: m.init, c: m.c, initEqual: m.initEqual,
		diam: m.diam, minOff: m.minOff, initMin: m.initMin, initMax: m.initMax}
}

// metricBrute returns the least MetricCost over all k^T schedules.
func metricBrute(in *Instance, m *Metric) float64 {
	best := math.Inf(1)
	sched := make([]int, in.Slots())
	var rec func(t int)
	rec = func(t int) {
		if t == in.Slots() {
			best = math.Min(best, MetricCost(in, m, sched))
			return
		}
		for s := range in.Servers() {
			sched[t] = s
			rec(t + 1)
		}
	}
	rec(0)
	return best
}

// TestMetricOptimumBruteForce: the dynamic program of spec §14.2 against
// every schedule, on every kind of random metric (arbitrary costs
// included: the program needs no metric property), k ≤ 3, T ≤ 6.
// Tolerance: the brute force sums the same ≤ 13 terms in another order
// (relative rounding ≤ 13·2⁻⁵³ < 1e-12); integer kinds are exact.
func TestMetricOptimumBruteForce(t *testing.T) {
	rng := newRand(31)
	for i := range 600 {
		k, T := 1+rng.IntN(3), 1+rng.IntN(6)
		C := float64(1 + rng.IntN(6))
		m := randomMetric(t, rng, metricKind(i%int(nKinds)), k, C)
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(8)))
		want := metricBrute(in, m)
		for _, mm := range []*Metric{m, general(m)} {
			opt, sched, err := MetricOptimum(in, mm)
			require.NoError(t, err)
			assert.InDelta(t, want, opt, 1e-12*want, "instance %d", i)
			assert.InDelta(t, opt, MetricCost(in, mm, sched), 1e-12*want, "instance %d: schedule prices at OPT", i)
			c, err := MetricOptimumCost(in, mm)
			require.NoError(t, err)
			assert.Equal(t, opt, c)
		}
		static, s := StaticBestMetric(in, m)
		assert.LessOrEqual(t, want, static+1e-12*static)
		assert.Equal(t, static, MetricCost(in, m, constSched(T, s)))
	}
}

func constSched(T, s int) []int {
	sched := make([]int, T)
	for t := range sched {
		sched[t] = s
	}
	return sched
}

// TestMetricUniformIsUniform: on the uniform metric every metric
// function gives exactly the result of its uniform counterpart, both by
// the fast path and by the O(k²) general path (integer and real costs:
// the two compute the same floating-point operations, spec §14.2).
func TestMetricUniformIsUniform(t *testing.T) {
	rng := newRand(32)
	for i := range 2000 {
		k, T := 1+rng.IntN(5), 1+rng.IntN(40)
		C := []float64{0, 1, 2.5, 3, 8}[rng.IntN(5)]
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(12)))
		u, err := UniformMetric(k, C)
		require.NoError(t, err)
		_, ok := u.Uniform()
		require.True(t, ok)
		opt, sched := optimum(t, in)
		for _, m := range []*Metric{u, general(u)} {
			mopt, msched, err := MetricOptimum(in, m)
			require.NoError(t, err)
			require.Equal(t, opt, mopt, "instance %d", i)
			require.Equal(t, sched, msched, "instance %d", i)
			// Instance.Cost adds C·N(σ) to the hold sum, MetricCost adds
			// slot by slot: the same ≤ 80 terms in another order.
			require.InDelta(t, in.Cost(sched), MetricCost(in, m, sched), 1e-12*opt)
			for _, pair := range []struct {
				old Online
				new MetricOnline
			}{
				{&WFA{}, &MetricWFA{}},
				{NewDTrack(RoundRobin), NewMetricDTrack()},
				{&DTrack{Alpha: 0.5}, &MetricDTrack{Alpha: 0.5}},
				{&DTrack{Alpha: 2}, &MetricDTrack{Alpha: 2}},
				{&NeverMigrate{}, &MetricNeverMigrate{}},
			} {
				want, _ := run(t, pair.old, in)
				got, err := RunMetric(pair.new, in, m)
				require.NoError(t, err)
				require.Equal(t, want, got, "instance %d, %T", i, pair.new)
			}
		}
		s1, _ := StaticBest(in)
		s2, _ := StaticBestMetric(in, u)
		require.Equal(t, s1, s2)
	}
}

// metricOnline adapts a MetricOnline on a fixed metric to Online, so that
// the adaptive adversary Cruel (spec §6.1) can run against it.
type metricOnline struct {
	alg MetricOnline
	m   *Metric
}

func (a metricOnline) Reset(int, float64) error         { return a.alg.Reset(a.m) }
func (a metricOnline) Step(hold []float64) (int, error) { return a.alg.Step(hold) }

// wfaBound is the bound of spec §14.4.
func wfaBound(m *Metric, opt float64) float64 {
	k := float64(m.Servers())
	return (2*k-1)*opt + 2*(k-1)*(m.Diameter()-m.initMin)
}

// dtrackBound is the bound of spec §14.3 for MetricDTrack with α.
func dtrackBound(m *Metric, alpha, opt float64) float64 {
	k := float64(m.Servers())
	if k == 1 {
		return opt
	}
	delta := m.Diameter() / m.MinDistance()
	r := max(1+delta*(k-1+k/alpha), delta*((k-1)*alpha+k))
	return r*(opt+max(0, m.MinDistance()-m.initMin)) + max(0, m.initMax-m.Diameter())
}

// TestMetricBounds checks the bounds of spec §14.3 and §14.4 on random
// instances of every kind of metric and on the adaptive adversary's
// instances built against each algorithm, and OPT ≤ every schedule.
// Relative slack 1e-9: sums of ≤ 10⁴ terms of magnitude ≤ 10³.
func TestMetricBounds(t *testing.T) {
	rng := newRand(33)
	worst := map[string]float64{}
	check := func(name string, in *Instance, m *Metric, sched []int, bound func(opt float64) float64) {
		opt, err := MetricOptimumCost(in, m)
		require.NoError(t, err)
		cost := MetricCost(in, m, sched)
		require.LessOrEqual(t, opt, cost*(1+1e-9), name)
		b := bound(opt)
		require.LessOrEqual(t, cost, b*(1+1e-9)+1e-9, "%s: cost %v, OPT %v, bound %v", name, cost, opt, b)
		worst[name] = max(worst[name], cost/b)
	}
	for i := range 3000 {
		k, T := 2+rng.IntN(4), 1+rng.IntN(40)
		C := float64(1 + rng.IntN(8))
		m := randomMetric(t, rng, metricKind(i%2), k, C) // metrics: WFA needs one
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(12)))
		sched, err := RunMetric(&MetricWFA{}, in, m)
		require.NoError(t, err)
		check("WFA", in, m, sched, func(opt float64) float64 { return wfaBound(m, opt) })
		for _, alpha := range []float64{0.5, 1, 2} {
			sched, err := RunMetric(&MetricDTrack{Alpha: alpha}, in, m)
			require.NoError(t, err)
			check(fmt.Sprintf("DTrack α=%v", alpha), in, m, sched, func(opt float64) float64 { return dtrackBound(m, alpha, opt) })
		}
	}
	for k := 2; k <= 5; k++ {
		for kind := range metricKind(2) {
			m := randomMetric(t, rng, kind, k, 4)
			for _, eps := range []float64{m.MinDistance() / 16, 0.5, m.MinDistance()} {
				T := 200 * k
				in, sched, err := Cruel(metricOnline{&MetricWFA{}, m}, k, T, 1, eps)
				require.NoError(t, err)
				check("WFA", in, m, sched, func(opt float64) float64 { return wfaBound(m, opt) })
				for _, alpha := range []float64{0.5, 1, 2} {
					in, sched, err := Cruel(metricOnline{&MetricDTrack{Alpha: alpha}, m}, k, T, 1, eps)
					require.NoError(t, err)
					check(fmt.Sprintf("DTrack α=%v", alpha), in, m, sched, func(opt float64) float64 { return dtrackBound(m, alpha, opt) })
				}
			}
		}
	}
	for name, w := range worst {
		t.Logf("%s: max cost/bound %.4f", name, w)
	}
	// Deterministic inputs: the measured maxima (WFA 0.996, DTrack 0.75
	// to 0.86), not statistical thresholds. WFA's bound is nearly
	// attained, so a constant factor of 0.95 taken off it would fail.
	assert.Greater(t, worst["WFA"], 0.95)
	assert.Greater(t, worst["DTrack α=1"], 0.8)
}

// TestMetricWFAUniformTight: on the uniform metric the adversary drives
// MetricWFA to the ratio 2k − 1 of spec §6.2 (within 5 % at T = 4000k,
// eps = C/16), so the general bound is not loose there.
func TestMetricWFAUniformTight(t *testing.T) {
	for k := 2; k <= 4; k++ {
		u, err := UniformMetric(k, 1)
		require.NoError(t, err)
		in, sched, err := Cruel(metricOnline{&MetricWFA{}, general(u)}, k, 4000*k, 1, 1.0/16)
		require.NoError(t, err)
		opt, err := MetricOptimumCost(in, u)
		require.NoError(t, err)
		assert.Greater(t, MetricCost(in, u, sched)/opt, 0.95*float64(2*k-1), "k = %d", k)
	}
}

// TestShortestPathMetric: hop counts of a path of 4 servers are |i − j|;
// a missing link makes the network disconnected; WFA refuses an
// asymmetric network and a broken triangle with ErrNotMetric.
func TestShortestPathMetric(t *testing.T) {
	inf := math.Inf(1)
	path := [][]float64{{0, 1, inf, inf}, {1, 0, 1, inf}, {inf, 1, 0, 1}, {inf, inf, 1, 0}}
	m, err := ShortestPathMetric(path, nil)
	require.NoError(t, err)
	for i := range 4 {
		for j := range 4 {
			assert.Equal(t, math.Abs(float64(i-j)), m.Dist(i, j))
		}
	}
	require.NoError(t, m.Violation())
	assert.Equal(t, 3.0, m.Diameter())
	assert.Equal(t, 1.0, m.MinDistance())

	path[2][3], path[3][2] = inf, inf
	_, err = ShortestPathMetric(path, nil)
	assert.ErrorIs(t, err, loadlab.ErrDisconnected)

	bad, err := NewMetric([][]float64{{0, 1, 5}, {1, 0, 1}, {5, 1, 0}}, nil)
	require.NoError(t, err)
	err = (&MetricWFA{}).Reset(bad)
	assert.ErrorIs(t, err, ErrNotMetric)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "triangle inequality fails: d(0, 2) = 5")
	asym, err := NewMetric([][]float64{{0, 1}, {2, 0}}, nil)
	require.NoError(t, err)
	assert.ErrorContains(t, (&MetricWFA{}).Reset(asym), "asymmetric migration costs: d(0, 1) = 1 ≠ d(1, 0) = 2")
	far, err := NewMetric([][]float64{{0, 1}, {1, 0}}, []float64{0, 3})
	require.NoError(t, err)
	assert.True(t, errors.Is((&MetricWFA{}).Reset(far), ErrNotMetric))
	// DTrack, never-migrate and the optimum take any valid costs.
	in, err := NewInstance([][]float64{{0, 9, 9}, {9, 9, 0}}, 1)
	require.NoError(t, err)
	for _, alg := range []MetricOnline{NewMetricDTrack(), &MetricNeverMigrate{}} {
		_, err := RunMetric(alg, in, bad)
		assert.NoError(t, err)
	}
	opt, sched, err := MetricOptimum(in, bad)
	require.NoError(t, err)
	// σ = (0, 2) pays d(0, 2) = 5 directly: the short way through
	// server 1 would hold it for a slot at cost 9 (hand computation).
	assert.Equal(t, 5.0, opt)
	assert.Equal(t, []int{0, 2}, sched)
	assert.Equal(t, opt, MetricCost(in, bad, sched))
}

// TestMetricDTrackCap: after a move the deficits are capped at the new
// server's thresholds (spec §14.3). Servers 0, 1, 2 with d(0, 1) =
// d(0, 2) = 10 and d(1, 2) = 1: slot 2 moves 0 → 1 (admissible: h(1) −
// min h = 5 ≤ d(0, 1)), where the uncapped deficit of server 2 would
// start at 5 > d(1, 2); then in slot 3, with server 1 the cheapest, it
// would fire and, no server being admissible, move to server 2 for no
// gain. Capped, the session stays on server 1 (hand computation).
func TestMetricDTrackCap(t *testing.T) {
	m, err := NewMetric([][]float64{{0, 10, 10}, {10, 0, 1}, {10, 1, 0}}, nil)
	require.NoError(t, err)
	in, err := NewInstance([][]float64{{0, 5, 5}, {20, 5, 0}, {11, 0, 2}}, 0)
	require.NoError(t, err)
	sched, err := RunMetric(NewMetricDTrack(), in, m)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 1}, sched)
}
