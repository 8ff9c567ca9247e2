package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPerServerSpec checks the examples of spec §9, and requests whose
// total overflows float64.
func TestPerServerSpec(t *testing.T) {
	for _, c := range []struct {
		r     []float64
		limit float64
		alg1  []float64
		alg2  []float64
		level float64
		tol   float64 // 0: 1e-14, a few roundings of values ≤ 40; 0x1p-1074: exact
	}{
		{[]float64{1, 2, 3, 6}, 8, []float64{2.0 / 3, 4.0 / 3, 2, 4}, []float64{1, 2, 2.5, 2.5}, 2.5, 0},
		{[]float64{6, 1, 3, 2}, 8, []float64{4, 2.0 / 3, 2, 4.0 / 3}, []float64{2.5, 1, 2.5, 2}, 2.5, 0}, // input order kept
		{[]float64{10, 20, 30, 40}, 50, []float64{5, 10, 15, 20}, []float64{10, 40.0 / 3, 40.0 / 3, 40.0 / 3}, 40.0 / 3, 0},
		{[]float64{1, 2, 3}, 10, []float64{1, 2, 3}, []float64{1, 2, 3}, math.Inf(1), 0},
		// R = 2e308 overflows: shares relative to the largest request
		// keep the exact answer (guards: [0 0]).
		{[]float64{1e308, 1e308}, 1, []float64{0.5, 0.5}, []float64{0.5, 0.5}, 0.5, 0x1p-1074},
		// One rounding of r/m · x m/R near 1e308 (an ulp is 2e292).
		{[]float64{1e308, 1e308, 0}, 1.5e308, []float64{0.75e308, 0.75e308, 0}, []float64{0.75e308, 0.75e308, 0}, 0.75e308, 1e293},
		{[]float64{0, 0}, 1, []float64{0, 0}, []float64{0, 0}, math.Inf(1), 0x1p-1074}, // nothing to throttle
	} {
		tol := c.tol
		if tol == 0 {
			tol = 1e-14
		}
		a1, err := UniformRatio(nil, c.r, c.limit)
		require.NoError(t, err)
		assert.InDeltaSlice(t, c.alg1, a1, tol, "%v", c.r)
		a2, level, err := WaterFill(nil, c.r, c.limit)
		require.NoError(t, err)
		assert.InDeltaSlice(t, c.alg2, a2, tol, "%v", c.r)
		if math.IsInf(c.level, 1) {
			assert.True(t, math.IsInf(level, 1))
		} else {
			assert.InDelta(t, c.level, level, tol, "%v", c.r)
		}
	}
}

// TestPerServerProperties checks on random inputs: both algorithms
// allocate min{limit, Σr} in total and never more than asked;
// Algorithm 1 keeps a common ratio; Algorithm 2 is max–min fair (every
// throttled client sits at the level, which is ≥ every served client's
// request) and matches a brute-force bisection of Σ min{r, t} = limit.
func TestPerServerProperties(t *testing.T) {
	rnd := rand.New(mc.Source(9))
	for trial := range 500 {
		c := 1 + rnd.IntN(30)
		r := make([]float64, c)
		var total float64
		for j := range r {
			r[j] = math.Floor(100 * rnd.ExpFloat64())
			if trial%7 == 0 {
				r[j] = 5 // ties
			}
			total += r[j]
		}
		limit := total * 1.2 * rnd.Float64()
		want := min(limit, total)
		tolSum := 1e-12 * max(1, total) // rounding in sums of ≤ 30 terms
		a1, err := UniformRatio(nil, r, limit)
		require.NoError(t, err)
		a2, level, err := WaterFill(make([]float64, c), r, limit)
		require.NoError(t, err)
		var s1, s2 float64
		for j := range r {
			s1 += a1[j]
			s2 += a2[j]
			assert.LessOrEqual(t, a1[j], r[j]+1e-12*r[j])
			assert.LessOrEqual(t, a2[j], r[j])
			assert.GreaterOrEqual(t, a2[j], 0.0)
			if r[j] > 0 && total > limit {
				assert.InDelta(t, limit/total, a1[j]/r[j], 1e-12)
			}
		}
		assert.InDelta(t, want, s1, tolSum)
		assert.InDelta(t, want, s2, tolSum)
		if total <= limit {
			assert.Equal(t, r, a2)
			continue
		}
		// Max–min fairness: a client not served in full gets the level,
		// and no served client's request exceeds it.
		for j := range r {
			if a2[j] < r[j] {
				assert.InDelta(t, level, a2[j], 1e-12*max(1, level))
			} else {
				assert.LessOrEqual(t, r[j], level*(1+1e-12))
			}
		}
		// Brute force: bisection of Σ min{r_j, t} = limit.
		lo, hi := 0.0, total
		for range 200 {
			mid := (lo + hi) / 2
			var s float64
			for _, x := range r {
				s += min(x, mid)
			}
			if s < limit {
				lo = mid
			} else {
				hi = mid
			}
		}
		assert.InDelta(t, lo, level, 1e-9*max(1, level))
	}
}

// TestPerServerErrors checks input validation.
func TestPerServerErrors(t *testing.T) {
	for _, c := range []struct {
		r     []float64
		limit float64
	}{
		{[]float64{1, -1}, 1}, {[]float64{math.NaN()}, 1}, {[]float64{math.Inf(1)}, 1},
		{[]float64{1}, -1}, {[]float64{1}, math.NaN()}, {[]float64{1}, math.Inf(1)},
	} {
		_, err := UniformRatio(nil, c.r, c.limit)
		assert.Error(t, err)
		_, _, err = WaterFill(nil, c.r, c.limit)
		assert.Error(t, err)
	}
	a, l, err := WaterFill(nil, nil, 3)
	require.NoError(t, err)
	assert.Empty(t, a)
	assert.True(t, math.IsInf(l, 1))
	assert.Panics(t, func() { _, _ = UniformRatio(make([]float64, 1), []float64{1, 2}, 1) })
}

// FuzzWaterFill checks the invariants of both algorithms on arbitrary
// input: an error, or allocations that sum to min{limit, Σr}.
func FuzzWaterFill(f *testing.F) {
	f.Add(1.0, 2.0, 3.0, 6.0, 8.0)
	f.Add(10.0, 20.0, 30.0, 40.0, 50.0)
	f.Add(-1.0, 0.0, math.NaN(), 1.0, 1.0)
	f.Fuzz(func(t *testing.T, a, b, c, d, limit float64) {
		r := []float64{a, b, c, d}
		x, level, err := WaterFill(nil, r, limit)
		y, err1 := UniformRatio(nil, r, limit)
		require.Equal(t, err == nil, err1 == nil, "algorithms disagree on validity: %v, %v", err, err1)
		if err != nil {
			return
		}
		total := a + b + c + d
		if math.IsInf(total, 0) {
			return
		}
		var sx, sy float64
		for j := range r {
			require.False(t, x[j] > r[j] || x[j] < 0 || y[j] < 0, "allocation out of range: r %v x %v y %v", r, x, y)
			require.False(t, x[j] < r[j] && math.Abs(x[j]-level) > 1e-9*level, "throttled client %d at %v, level %v", j, x[j], level)
			sx += x[j]
			sy += y[j]
		}
		want := min(limit, total)
		require.False(t, math.Abs(sx-want) > 1e-9*max(1, total) || math.Abs(sy-want) > 1e-9*max(1, total), "sums %v, %v, want %v", sx, sy, want)
	})
}
