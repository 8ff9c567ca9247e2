package consensus

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestEstimateRhoPrecisionCoverage: over 200 seeds, EstimateRho to
// ±2.88 % (a 10-run pilot) of ρ₂ on the path of 3 nodes (γ = 0.5,
// σ = 1.3, 50 steps after 50 of burn-in, whose bias ς^{2·50} = 0.5¹⁰⁰ is
// nil) meets the half-width on every seed, and its intervals cover the
// closed form of spec §4.4 at 95 % ± 3 binomial sd over 200 (0.046). A
// run's mean has coefficient of variation 0.18, so the target needs about
// (1.96·0.18/0.0288)² ≈ 150 runs.
func TestEstimateRhoPrecisionCoverage(t *testing.T) {
	const seeds = 200
	g := mustGraph(gen.Path(3))
	th := &Throttler{Graph: g, Gamma: 0.5}
	want, err := spectralOf(t, g).Rho(Case2, 0.5, 1.3)
	require.NoError(t, err)
	prec := loadlab.Precision{Rel: 0.0288}
	hit, runs := 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		e, err := EstimateRho(th, Case2, 1.3, MonteCarlo{Runs: 10, Steps: 50, Burn: 50, Seed: seed, Precision: prec})
		require.NoError(t, err)
		require.True(t, prec.Met(e), "seed %d: %+v", seed, e)
		if e.Contains(want) {
			hit++
		}
		runs += e.N
	}
	t.Logf("coverage %.3f, mean runs %.0f", float64(hit)/seeds, float64(runs)/seeds)
	assert.InDelta(t, 0.95, float64(hit)/seeds, 3*math.Sqrt(0.95*0.05/seeds), "coverage of ρ₂ = %v", want)
}

// TestEstimateRhoPrecisionDeterministic: with a precision the estimate is
// the same with 1 and 2 workers and batches of 0, 1 and 6, and equal bit
// for bit to the fixed estimate with Runs = N; the cap returns the
// estimate over MaxRuns runs with ErrNotConverged.
func TestEstimateRhoPrecisionDeterministic(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Cycle(5)), Gamma: 0.3}
	var ref loadlab.Estimate
	for _, w := range []int{1, 2} {
		for _, b := range []int{0, 1, 6} {
			m := MonteCarlo{Runs: 4, Steps: 40, Burn: 20, Seed: 8, Workers: w, Precision: loadlab.Precision{Rel: 0.05, Batch: b}}
			e, err := EstimateRho(th, Case1, 1, m)
			require.NoError(t, err)
			if ref.N == 0 {
				ref = e
				continue
			}
			require.Equal(t, ref, e, "workers %d batch %d", w, b)
		}
	}
	require.Greater(t, ref.N, loadlab.MinOffMode)
	fixed, err := EstimateRho(th, Case1, 1, MonteCarlo{Runs: ref.N, Steps: 40, Burn: 20, Seed: 8})
	require.NoError(t, err)
	assert.Equal(t, fixed, ref)
	m := MonteCarlo{Runs: 4, Steps: 40, Burn: 20, Seed: 8, Precision: loadlab.Precision{Rel: 1e-4, MaxRuns: 25}}
	e, err := EstimateRho(th, Case1, 1, m)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.ErrorContains(t, err, "after Precision.MaxRuns = 25 runs")
	fixed, err = EstimateRho(th, Case1, 1, MonteCarlo{Runs: 25, Steps: 40, Burn: 20, Seed: 8})
	require.NoError(t, err)
	assert.Equal(t, fixed, e, "the partial estimate is that of the 25 runs")
}
