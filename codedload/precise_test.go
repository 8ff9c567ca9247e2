package codedload

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// pointsOf returns k copies of the point cfg: independent estimates of
// the same quantity, each on its own streams (point i, run r).
func pointsOf(cfg Config, k int) []Point {
	pts := make([]Point, k)
	for i := range pts {
		pts[i] = Point{X: float64(i), Config: cfg}
	}
	return pts
}

// TestSweepPrecisionCoverage: over 250 independent points (the streams
// of points 0..249, as 250 seeds) of nearest replica on the 4×4 torus
// with K = 20 and M = 1, every point meets ±4.57 % on MaxLoad and Cost,
// and the 95 % interval of Cost covers the exact cost of spec §6.3
// (Cost with Torus.Balls, exact for a vertex-transitive topology) at
// 95 % ± 3 binomial sd over 250 points (0.041). The target is set so that
// Cost, whose coefficient of variation 0.33 is the larger of the two
// (MaxLoad's is 0.30), needs about (1.96·0.33/0.0457)² ≈ 200 runs.
func TestSweepPrecisionCoverage(t *testing.T) {
	const points = 250
	tor := &Torus{Side: 4}
	cfg := Config{Topology: tor, Files: 20, Cache: 1}
	p, err := ZipfPMF(20, 0)
	require.NoError(t, err)
	want := must(Cost(p, 1, 1, tor.Balls()))
	prec := loadlab.Precision{Rel: 0.0457}
	res, err := Sweep(pointsOf(cfg, points), 10, 5, &SweepSettings{Precision: prec})
	require.NoError(t, err)
	hit, runs := 0, 0
	for i, r := range res {
		require.Equal(t, loadlab.Success, r.Status, "point %d", i)
		require.True(t, prec.Met(r.MaxLoad) && prec.Met(r.Cost), "point %d: %+v %+v", i, r.MaxLoad, r.Cost)
		require.Len(t, r.Runs, r.Cost.N)
		if r.Cost.Contains(want) {
			hit++
		}
		runs += len(r.Runs)
	}
	t.Logf("coverage %.3f, mean runs %.0f", float64(hit)/points, float64(runs)/points)
	assert.InDelta(t, 0.95, float64(hit)/points, 3*math.Sqrt(0.95*0.05/points), "coverage of the exact cost %v", want)
}

// TestSweepPrecisionDegeneratePilot: two choices (b) on the 16×16 torus
// (K = 20, M = 2) has maximum load 3 in about 93 % of runs, so about half
// of the 10-run pilots are all 3: a zero-width interval. None of those
// points may stop there: each runs on until 10 maximum loads differ from
// 3 (about 140 runs), and reports a non-zero half-width. (The naive rule,
// half-width ≤ target, would stop them at 10 runs on [3, 3].)
func TestSweepPrecisionDegeneratePilot(t *testing.T) {
	cfg := Config{Topology: &Torus{Side: 16}, Files: 20, Cache: 2, Strategy: TwoChoiceGlobal{}}
	pts := pointsOf(cfg, 12)
	pilot, err := Sweep(pts, 10, 3, nil)
	require.NoError(t, err)
	prec := loadlab.Precision{Rel: 0.05}
	res, err := Sweep(pts, 10, 3, &SweepSettings{Precision: prec})
	require.NoError(t, err)
	degenerate := 0
	for i, r := range res {
		if pilot[i].MaxLoad.HalfWidth() == 0 {
			degenerate++
		}
		off := 0
		for _, run := range r.Runs {
			if run.MaxLoad != 3 {
				off++
			}
		}
		assert.GreaterOrEqual(t, off, loadlab.MinOffMode, "point %d", i)
		assert.Greater(t, r.MaxLoad.HalfWidth(), 0.0, "point %d", i)
		assert.Greater(t, len(r.Runs), 10, "point %d", i)
		assert.True(t, prec.Met(r.MaxLoad) && prec.Met(r.Cost))
	}
	require.GreaterOrEqual(t, degenerate, 3, "the test needs pilots with zero variance (expected 0.93¹⁰·12 ≈ 6)")
}

// TestSweepPrecisionDeterministic: the same seed gives identical results
// with 1 and 2 workers and with batches of 0 (the machine's), 1 and 5;
// a point that stopped after N runs is the fixed sweep's point with N
// runs; Logf reports the rounds.
func TestSweepPrecisionDeterministic(t *testing.T) {
	tor := &Torus{Side: 6}
	pts := []Point{
		{X: 1, Config: Config{Topology: tor, Files: 20, Cache: 2}},
		{X: 2, Config: Config{Topology: tor, Files: 20, Cache: 2, Strategy: Coded{Ell: 3}}, Runs: 4},
		{X: 3, Config: Config{Topology: tor, Files: 5, Cache: 2, Strategy: TwoChoice{Radius: 2}}},
	}
	var ref []PointResult
	for _, w := range []int{1, 2} {
		for _, b := range []int{0, 1, 5} {
			lines := 0
			set := &SweepSettings{Workers: w, Precision: loadlab.Precision{Rel: 0.05, Batch: b}, Logf: func(string, ...any) { lines++ }}
			res, err := Sweep(pts, 12, 9, set)
			require.NoError(t, err)
			assert.Positive(t, lines)
			if ref == nil {
				ref = res
				continue
			}
			require.Equal(t, ref, res, "workers %d, batch %d", w, b)
		}
	}
	fixed := make([]Point, len(pts))
	for i, r := range ref {
		fixed[i] = pts[i]
		fixed[i].Runs = len(r.Runs)
	}
	want, err := Sweep(fixed, 1, 9, nil)
	require.NoError(t, err)
	assert.Equal(t, want, ref)
}

// TestSweepPrecisionCap: a target beyond the cap returns every point with
// Status IterationLimit, exactly MaxRuns runs, and an error wrapping
// loadlab.ErrNotConverged that names the point; CompareSizes passes the
// partial curves on with the error.
func TestSweepPrecisionCap(t *testing.T) {
	cfg := Config{Topology: &Torus{Side: 4}, Files: 20, Cache: 1}
	prec := loadlab.Precision{Rel: 1e-4, MaxRuns: 30}
	res, err := Sweep(pointsOf(cfg, 2), 10, 1, &SweepSettings{Precision: prec})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.ErrorContains(t, err, "2 of 2 points short of Precision")
	assert.ErrorContains(t, err, "point 0 (x = 0): max load ±")
	require.Len(t, res, 2)
	for _, r := range res {
		assert.Equal(t, loadlab.IterationLimit, r.Status)
		assert.Len(t, r.Runs, 30)
		assert.Equal(t, 30, r.MaxLoad.N)
	}
	variants := []Variant{{Name: "nr", Config: Config{Files: 20, Cache: 1}}}
	curves, err := CompareSizes([]int{16, 36}, TorusFamily, variants, func(int) int { return 10 }, 1, &SweepSettings{Precision: prec})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.Len(t, curves, 1)
	require.Len(t, curves[0].Points, 2)
	assert.Len(t, curves[0].Points[1].Runs, 30)
}

// TestCompareSizesPrecision: every (variant, size) point of a comparison
// meets the target on MaxLoad and Cost, with runs(n) as its pilot.
func TestCompareSizesPrecision(t *testing.T) {
	variants := []Variant{
		{Name: "nearest replica", Config: Config{Files: 20, Cache: 2}},
		{Name: "coded", Config: Config{Files: 20, Cache: 2, Strategy: Coded{}}, Ell: LogEll},
	}
	prec := loadlab.Precision{Rel: 0.04}
	curves, err := CompareSizes([]int{36, 100}, TorusFamily, variants, func(n int) int { return n / 4 }, 2, &SweepSettings{Precision: prec})
	require.NoError(t, err)
	for _, c := range curves {
		for _, p := range c.Points {
			assert.True(t, prec.Met(p.MaxLoad) && prec.Met(p.Cost), "%s n=%g", c.Name, p.X)
			assert.GreaterOrEqual(t, len(p.Runs), int(p.X)/4, "the pilot is runs(n)")
			assert.Equal(t, loadlab.Success, p.Status)
		}
	}
}
