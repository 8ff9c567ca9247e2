package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// uniformTrace returns steps rows of n demands uniform in [0, 2mean)
// from seed: non-negative, with r_total on both sides of a limit total
// near n·mean from cycle to cycle.
func uniformTrace(n, steps int, mean float64, seed uint64) TraceDemand {
	rng := rand.New(rand.NewPCG(seed, 7))
	tr := make(TraceDemand, steps)
	for k := range tr {
		tr[k] = make([]float64, n)
		for i := range tr[k] {
			tr[k][i] = 2 * mean * rng.Float64()
		}
	}
	return tr
}

// eps is the unit roundoff u = 2⁻⁵³.
const eps = 0x1p-53

// TestCentralIdeal: with d = 0 the proportional rule (and the max–min
// fair rule, which also leaves every server on one side of its demand)
// attains the ideal a_total = a_ideal every cycle (spec deployed §3.2),
// so the over-throttling is zero, while a delay makes it positive.
func TestCentralIdeal(t *testing.T) {
	const n, steps = 40, 300
	d := uniformTrace(n, steps, 1, 1)
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = 1 // l_total = n, r_total ≈ n ± 3.7: both regimes occur
	}
	for _, rule := range []Rule{Proportional, MaxMinFair} {
		tr, err := SimulateCentral(&Central{Rule: rule}, d, x0, steps, nil)
		require.NoError(t, err)
		var above, below int
		for k := range steps {
			// Each limit carries a few roundings relative to
			// max{r_total, l_total} (the share r_i/m, its product with
			// l_total/Σr/m, the residual of conserve) and each of the
			// three sums n − 1 more: 4n u (r_total + l_total) bounds the
			// gap with room.
			tol := 4 * n * eps * (tr.RTotal[k] + tr.LTotal[k])
			require.InDelta(t, tr.Ideal[k], tr.ATotal[k], tol, "%v: cycle %d", rule, k)
			require.LessOrEqual(t, tr.Over[k], tol, "%v: cycle %d", rule, k)
			if tr.RTotal[k] > tr.LTotal[k] {
				above++
			} else {
				below++
			}
		}
		require.Positive(t, above, "the trace should exceed the limit on some cycles")
		require.Positive(t, below, "the trace should stay below the limit on some cycles")
	}
	// A delay breaks it: with i.i.d. demand the limits from r(k − 1)
	// miss r(k) and the over-throttling averages well above rounding.
	tr, err := SimulateCentral(&Central{Delay: 1}, d, x0, steps, nil)
	require.NoError(t, err)
	var o float64
	for _, v := range tr.Over {
		o += v
	}
	require.Greater(t, o/steps, 0.5, "delayed CST over-throttling")
}

// TestCentralConservation: every rule keeps Σ x = l_total to the
// rounding of the recorded plain sum, at every delay (spec deployed
// §3.2).
func TestCentralConservation(t *testing.T) {
	const n, steps = 30, 100
	d := uniformTrace(n, steps, 5, 2)
	d[3][4] = -2 // a negative demand reads as none
	d[7] = make([]float64, n)
	x0 := make([]float64, n)
	x0[0] = 100 // l_total = 100 < E r_total = 150
	for _, c := range []Central{{}, {Rule: Equal}, {Rule: MaxMinFair, Delay: 2}, {Rule: ProportionalFloor, Floor: 0.3, Delay: 1}} {
		tr, err := SimulateCentral(&c, d, x0, steps, &Settings{States: true})
		require.NoError(t, err)
		for k := range steps {
			var abs float64
			for _, xi := range tr.X[k] {
				abs += math.Abs(xi)
				require.GreaterOrEqual(t, xi, 0.0, "%v: cycle %d", c, k)
			}
			// The plain sum of n terms errs by ≤ (n − 1) u Σ|x_i|; the
			// residual put back by conserve by a few u l_total more.
			require.InDelta(t, 100, tr.LTotal[k], float64(n+3)*eps*(abs+100), "%v: cycle %d", c, k)
		}
	}
}

// TestCentralRules checks each rule's defining property on one demand
// (spec deployed §3.1), and the delay: the limits in force at cycle k
// are x0 before d and Limits(r(k − d)) after, bit for bit.
func TestCentralRules(t *testing.T) {
	r := []float64{4, 0, 1, -3, 10, 2}
	const lt = 9.0
	tol := 16 * eps * lt
	x, err := (&Central{Rule: Equal}).Limits(nil, r, lt)
	require.NoError(t, err)
	for _, xi := range x {
		require.InDelta(t, lt/6, xi, tol)
	}
	x, err = (&Central{}).Limits(nil, r, lt)
	require.NoError(t, err)
	for i, ri := range r {
		require.InDelta(t, lt*max(ri, 0)/17, x[i], tol, "proportional %d", i)
	}
	x, err = (&Central{Rule: ProportionalFloor, Floor: 0.5}).Limits(nil, r, lt)
	require.NoError(t, err)
	for i, ri := range r {
		require.InDelta(t, 0.5*lt/6+0.5*lt*max(ri, 0)/17, x[i], tol, "floor %d", i)
	}
	// Max–min fair with Σr⁺ = 17 > 9: the demands 0, 0, 1, 2 served,
	// the two others at the level t with 3 + 2t = 9.
	x, err = (&Central{Rule: MaxMinFair}).Limits(nil, r, lt)
	require.NoError(t, err)
	want := []float64{3, 0, 1, 0, 3, 2}
	for i := range want {
		require.InDelta(t, want[i], x[i], tol, "max-min %d", i)
	}
	// With spare limit 30 − 17: every server gets r⁺ + 13/6.
	x, err = (&Central{Rule: MaxMinFair}).Limits(nil, r, 30)
	require.NoError(t, err)
	for i, ri := range r {
		require.InDelta(t, max(ri, 0)+13.0/6, x[i], 64*eps, "max-min spare %d", i)
	}

	const n, steps, delay = 8, 20, 3
	d := uniformTrace(n, steps, 2, 3)
	x0 := []float64{1, 2, 3, 4, 0, 0, 1, 1}
	c := &Central{Rule: MaxMinFair, Delay: delay}
	tr, err := SimulateCentral(c, d, x0, steps, &Settings{States: true})
	require.NoError(t, err)
	for k := range steps {
		want := x0
		if k >= delay {
			want, err = c.Limits(nil, d[k-delay], 12)
			require.NoError(t, err)
		}
		require.Equal(t, want, tr.X[k], "cycle %d", k)
		require.Equal(t, d[k], tr.R[k], "cycle %d", k)
	}
	last, err := c.Limits(nil, d[steps-1], 12)
	require.NoError(t, err)
	require.Equal(t, last, tr.Final)
}

// TestCentralSeed: the same seed gives the same trajectory bit for bit,
// whatever Settings.Workers; another seed another one.
func TestCentralSeed(t *testing.T) {
	const n, steps = 50, 200
	mean := make([]float64, n)
	x0 := make([]float64, n)
	for i := range mean {
		mean[i] = 10 + float64(i%5)
		x0[i] = 11
	}
	run := func(seed uint64, workers int) *Trajectory {
		d := &StationaryDemand{Mean: mean, Sigma: 2, Src: rand.NewPCG(seed, 1)}
		tr, err := SimulateCentral(&Central{Rule: ProportionalFloor, Floor: 0.2, Delay: 2}, d, x0, steps, &Settings{Workers: workers})
		require.NoError(t, err)
		return tr
	}
	a, b, c := run(5, 1), run(5, 2), run(6, 1)
	require.Equal(t, a, b)
	require.NotEqual(t, a.Over, c.Over)
}

// TestCentralDemandError: a failure at cycle k returns the trajectory
// of the cycles before it with the error.
func TestCentralDemandError(t *testing.T) {
	d := TraceDemand{{1, 2}, {3, math.NaN()}}
	tr, err := SimulateCentral(&Central{}, d, []float64{1, 1}, 3, nil)
	require.ErrorContains(t, err, "step 1: consensus: demand r[1] = NaN")
	require.Equal(t, 1, tr.Steps)
	require.Len(t, tr.Over, 1)
}
