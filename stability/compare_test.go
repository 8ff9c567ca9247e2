package stability

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
)

func hourGrid(hours float64, perHour int) []float64 {
	times := make([]float64, int(hours)*perHour+1)
	for k := range times {
		times[k] = float64(k) / float64(perHour)
	}
	return times
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
