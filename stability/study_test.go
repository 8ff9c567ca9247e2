package stability_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/stability"
)

// The point's network: every C_jj equals SelfCorr, rows stay stochastic
// (NewNetwork checks them) and utilisations lie in [u/2, 3u/2].
func TestStudyNetwork(t *testing.T) {
	p := stability.StudyPoint{N: 300, Load: 1.2, SelfCorr: 0.7}
	nw, err := p.Network(loadlab.Stream(1, 0, 0))
	require.NoError(t, err)
	maxS := nw.MaxLoads()
	for i := 0; i < nw.N(); i++ {
		_, vals := nw.Row(i)
		if len(vals) > 1 {
			assert.InDelta(t, 0.7, nw.At(i, i), 1e-15, "C[%d][%d]", i, i)
		}
		u := maxS[i] / nw.T[i]
		// T = (CᵀA)/ρ and back: two roundings.
		assert.True(t, u >= 0.6*(1-1e-15) && u <= 1.8*(1+1e-15), "utilisation %v at node %d", u, i)
	}
}

// The optimum is certified to 1e-6 relative and the greedy end state is
// a feasible point of P1, so the greedy cost is never below the optimal
// one by more than the certificate; at a low load nothing is overloaded.
func TestStudyRunProperties(t *testing.T) {
	for k, p := range []stability.StudyPoint{
		{N: 60, Load: 0.3}, {N: 60, Load: 1}, {N: 60, Load: 2, SelfCorr: 0.2}, {N: 60, Load: 2, SelfCorr: 0.9},
	} {
		for r := 0; r < 3; r++ {
			g, err := p.Run(loadlab.Stream(7, uint64(k), uint64(r)))
			require.NoError(t, err)
			assert.GreaterOrEqual(t, g.GreedyCost, g.OptimalCost*(1-1e-6)-1e-12, "point %d run %d", k, r)
			assert.GreaterOrEqual(t, g.GreedySecond, 0.0)
			assert.LessOrEqual(t, g.GreedySecond, g.Demand*(1+1e-12))
			if p.Load == 0.3 {
				// Utilisation ≤ 0.45 at x = 1: no proxy can be overloaded.
				assert.Zero(t, g.GreedyExcess)
				assert.Zero(t, g.Uncontrollable)
			}
		}
	}
}

// Study is the same whatever the number of goroutines, and its
// summaries hold the per-instance means with their intervals.
func TestStudyDeterministic(t *testing.T) {
	points := []stability.StudyPoint{{N: 40, Load: 1.5}, {N: 40, Load: 1.5, SelfCorr: 0.8}}
	a, err := stability.Study(points, 6, 3)
	require.NoError(t, err)
	old := runtime.GOMAXPROCS(1)
	b, err := stability.Study(points, 6, 3)
	runtime.GOMAXPROCS(old)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	for _, s := range a {
		assert.Equal(t, 6, s.Runs)
		assert.True(t, s.CostRatio.Lo <= s.CostRatio.Mean && s.CostRatio.Mean <= s.CostRatio.Hi)
		assert.True(t, s.Uncontrollable.Lo <= s.Uncontrollable.Mean && s.Uncontrollable.Mean <= s.Uncontrollable.Hi)
		assert.False(t, math.IsNaN(s.GreedyExcess.Lo))
	}
	// The per-point summary is SummarizeGaps of the runs on their streams.
	var gaps []*stability.Gap
	for r := 0; r < 6; r++ {
		g, err := points[1].Run(loadlab.Stream(3, 1, uint64(r)))
		require.NoError(t, err)
		gaps = append(gaps, g)
	}
	assert.Equal(t, a[1], stability.SummarizeGaps(points[1], gaps))
}
