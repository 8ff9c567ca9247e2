package mobility

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestCompareWithPrecisionCoverage: 200 comparisons to ±1.22 % (seeds
// 1..200) of DTrack-RR on a small mesh (3×3 routers, 60 slots) all meet
// the target on every watched mean, and their 95 % intervals of OPT's
// cost and of DTrack-RR's ratio cover the true means at 95 % ± 3 binomial
// sd over 200 (0.046). The true means come from 40 000 runs of seed 0:
// their standard errors are below 1/14 of the intervals' half-widths,
// which moves the coverage by well under 1 %. The target makes OPT's cost
// (coefficient of variation 0.088, the largest) need about
// (1.96·0.088/0.0122)² ≈ 200 runs.
func TestCompareWithPrecisionCoverage(t *testing.T) {
	const seeds = 200
	sc, cs := Mesh{Grid: 3, Slots: 60}, Baselines()[:1]
	truth, err := Compare(sc, cs, 40000, 0, 0)
	require.NoError(t, err)
	set := &CompareSettings{Precision: loadlab.Precision{Rel: 0.0122}}
	hitCost, hitRatio, runs := 0, 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		res, err := CompareWith(sc, cs, 10, seed, 0, set)
		require.NoError(t, err)
		for _, r := range res {
			require.True(t, set.Precision.Met(r.Cost), "seed %d: %s cost %+v", seed, r.Name, r.Cost)
		}
		require.True(t, set.Precision.Met(res[1].Ratio), "seed %d: ratio %+v", seed, res[1].Ratio)
		if res[0].Cost.Contains(truth[0].Cost.Mean) {
			hitCost++
		}
		if res[1].Ratio.Contains(truth[1].Ratio.Mean) {
			hitRatio++
		}
		runs += res[0].Cost.N
	}
	t.Logf("coverage: OPT cost %.3f, ratio %.3f; mean runs %.0f", float64(hitCost)/seeds, float64(hitRatio)/seeds, float64(runs)/seeds)
	tol := 3 * math.Sqrt(0.95*0.05/seeds)
	assert.InDelta(t, 0.95, float64(hitCost)/seeds, tol, "OPT cost")
	assert.InDelta(t, 0.95, float64(hitRatio)/seeds, tol, "DTrack-RR ratio")
}

// TestCompareWithDeterministic: the same seed gives identical results
// with 1 and 2 workers and batches of 0, 1 and 7, equal to Compare's
// with the runs used; zero settings are Compare.
func TestCompareWithDeterministic(t *testing.T) {
	sc, cs := Mesh{Grid: 3, Slots: 80}, append(Baselines()[:2], TargetAware(5, 0))
	var ref []Result
	for _, w := range []int{1, 2} {
		for _, b := range []int{0, 1, 7} {
			res, err := CompareWith(sc, cs, 5, 3, 2, &CompareSettings{Workers: w, Precision: loadlab.Precision{Rel: 0.03, Batch: b}})
			require.NoError(t, err)
			if ref == nil {
				ref = res
				continue
			}
			require.Equal(t, ref, res, "workers %d batch %d", w, b)
		}
	}
	n := ref[0].Cost.N
	assert.Greater(t, n, loadlab.MinOffMode)
	want, err := Compare(sc, cs, n, 3, 2)
	require.NoError(t, err)
	assert.Equal(t, want, ref)
	fixed, err := CompareWith(sc, cs, 7, 3, 2, &CompareSettings{Workers: 1})
	require.NoError(t, err)
	want, err = Compare(sc, cs, 7, 3, 2)
	require.NoError(t, err)
	assert.Equal(t, want, fixed)
}

// TestCompareWithCap: a target beyond the cap returns the results over
// MaxRuns runs with an error wrapping loadlab.ErrNotConverged. On one
// router every algorithm is optimal, so its ratio is 1 in every run: a
// constant never meets a precision (no run off the mode) and the
// comparison ends at the cap, its ratio interval [1, 1].
func TestCompareWithCap(t *testing.T) {
	set := &CompareSettings{Precision: loadlab.Precision{Rel: 1e-5, MaxRuns: 20}}
	res, err := CompareWith(Mesh{Grid: 2, Slots: 30}, Baselines()[:1], 10, 1, 0, set)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.ErrorContains(t, err, "CompareWith: short of Precision (Rel = 1e-05, Abs = 0) after Precision.MaxRuns = 20 runs (first short: ")
	require.Len(t, res, 2)
	assert.Equal(t, 20, res[1].Ratio.N)
	set.Precision = loadlab.Precision{Rel: 0.5, MaxRuns: 40}
	res, err = CompareWith(Mesh{Grid: 1, Slots: 30}, Baselines()[:1], 10, 1, 0, set)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.ErrorContains(t, err, "first short: ratio of DTrack-RR, 1 ± 0")
	assert.Equal(t, 40, res[1].Ratio.N)
	assert.Equal(t, loadlab.Estimate{Mean: 1, Lo: 1, Hi: 1, StdErr: 0, N: 40}, res[1].Ratio)
}
