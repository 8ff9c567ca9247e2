package codedload

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestSweepRunIsSweep recomputes every run of a sweep with SweepRun, one
// at a time in reverse order (as a shard of another process would), and
// checks that the runs and their summaries equal Sweep's exactly: a
// fixed topology, a per-run random one (Build) and a Runs override.
func TestSweepRunIsSweep(t *testing.T) {
	pts, err := SizePoints([]int{64, 144}, Config{Files: 30, Cache: 2, Strategy: Coded{}}, TorusFamily, false, LogEll)
	require.NoError(t, err)
	rgg, err := SizePoints([]int{150}, Config{Files: 30, Cache: 2, Strategy: TwoChoiceGlobal{}}, RGGFamily, true, nil)
	require.NoError(t, err)
	pts = append(pts, rgg...)
	pts[1].Runs = 2
	want, err := Sweep(pts, 3, 9, nil)
	require.NoError(t, err)
	counts, err := SweepCounts(pts, 3)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 2, 3}, counts)
	for i := len(pts) - 1; i >= 0; i-- {
		rs := make([]*Result, counts[i])
		for r := counts[i] - 1; r >= 0; r-- {
			rs[r], err = SweepRun(pts, 3, 9, i, r)
			require.NoError(t, err)
		}
		assert.Equal(t, want[i], SummarizePoint(pts[i].X, rs), "point %d", i)
	}
	for _, bad := range [][2]int{{-1, 0}, {3, 0}, {1, 2}, {0, -1}} {
		_, err := SweepRun(pts, 3, 9, bad[0], bad[1])
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "i, r = %v", bad)
	}
	_, err = SweepRun(pts, 0, 9, 0, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

// TestComparePointsIsCompareSizes rebuilds CompareSizes from its points,
// SweepRun and CompareCurves.
func TestComparePointsIsCompareSizes(t *testing.T) {
	vs := []Variant{
		{Name: "NR", Config: Config{Files: 20, Cache: 2}},
		{Name: "coded", Config: Config{Files: 20, Cache: 2, Strategy: Coded{}}, Ell: LogEll},
		{Name: "2C(a)", Config: Config{Files: 20, Cache: 2, Strategy: TwoChoice{}}, Radius: func(t Topology) int { return BallRadius(t, 25) }, MaxN: 100},
	}
	runs := func(n int) int { return 2 + n/200 }
	want, err := CompareSizes([]int{100, 300}, RegularFamily(4), vs, runs, 6, nil)
	require.NoError(t, err)
	pts, owner, err := ComparePoints([]int{100, 300}, RegularFamily(4), vs, runs, 6)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 0, 1, 1, 2}, owner)
	res := make([]PointResult, len(pts))
	for i, p := range pts {
		rs := make([]*Result, p.Runs)
		for r := range rs {
			rs[r], err = SweepRun(pts, 1, 6, i, r)
			require.NoError(t, err)
		}
		res[i] = SummarizePoint(p.X, rs)
	}
	assert.Equal(t, want, CompareCurves(vs, owner, res))
	assert.Panics(t, func() { CompareCurves(vs, owner[1:], res) })
}
