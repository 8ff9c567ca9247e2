package consensus

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// EstimateRho is the summary, in run order, of its runs, run i being
// SimulateRho on loadlab.Stream(Seed, i): bit for bit, which is what a
// sweep split across processes relies on.
func TestEstimateRhoIsSimulateRho(t *testing.T) {
	g, err := gen.Cycle(6)
	require.NoError(t, err)
	th := &Throttler{Graph: g, Gamma: 0.3}
	m := MonteCarlo{Runs: 5, Steps: 40, Burn: 10, Seed: 3}
	want, err := EstimateRho(th, Case1, 1, m)
	require.NoError(t, err)
	xs := make([]float64, m.Runs)
	for i := range xs {
		xs[i], err = SimulateRho(th, Case1, 1, m.Steps, m.Burn, loadlab.Stream(m.Seed, uint64(i)))
		require.NoError(t, err)
	}
	s := mc.Summarize(xs)
	require.Equal(t, math.Float64bits(want.Mean), math.Float64bits(s.Mean), "runs give %+v, EstimateRho %+v", s, want)
	require.Equal(t, math.Float64bits(want.StdErr), math.Float64bits(s.StdErr), "runs give %+v, EstimateRho %+v", s, want)
}

// TestMonteCarloCoversClosedForms simulates the whole throttler (demand
// model, measure, update) and checks that the Monte Carlo estimate of
// each H2 measure agrees with its closed form: |mean − ρ| ≤ 4 standard
// errors (a 4σ band: with the fixed seed the test is deterministic, and
// a correct implementation fails it with probability ~6e-5 per seed).
func TestMonteCarloCoversClosedForms(t *testing.T) {
	for _, c := range []struct {
		g     *wgraph.Graph
		gamma float64
	}{{mustGraph(gen.Path(3)), 0.5}, {randomGraph(6, 0.4, mc.Source(4, 0)), 0}} {
		s := spectralOf(t, c.g)
		gamma := c.gamma
		if gamma == 0 {
			gamma, _, _ = s.GammaH2(1)
		}
		net := &Throttler{Graph: c.g, Gamma: gamma}
		for _, tc := range []Traffic{Case1, Case2, Case2T} {
			want, err := s.Rho(tc, gamma, 1.3)
			require.NoError(t, err)
			est, err := EstimateRho(net, tc, 1.3, MonteCarlo{Runs: 40, Steps: 2000, Burn: 200, Seed: 11})
			require.NoError(t, err)
			assert.InDelta(t, want, est.Mean, 4*est.StdErr, "%v: %v ± %v", tc, est.Mean, est.StdErr)
			assert.Less(t, est.StdErr, 0.05*want) // the test has power
		}
	}
	// Determinism across worker counts.
	net := &Throttler{Graph: mustGraph(gen.Cycle(5)), Gamma: 0.3}
	a, _ := EstimateRho(net, Case2, 1, MonteCarlo{Runs: 6, Steps: 100, Seed: 3, Workers: 1})
	b, _ := EstimateRho(net, Case2, 1, MonteCarlo{Runs: 6, Steps: 100, Seed: 3, Workers: 4})
	assert.Equal(t, a, b)
}
