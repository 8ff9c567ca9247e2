package codedload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

func TestSweepWorkersIndependent(t *testing.T) {
	// Same seed, 1 and 8 workers: identical per-run results (every run
	// uses only the streams of its (point, run) pair).
	base := Config{Files: 30, Cache: 2, Strategy: Coded{}, KeepLoads: true}
	pts, err := SizePoints([]int{64, 144, 256}, base, TorusFamily, false, LogEll)
	require.NoError(t, err)
	rgg, err := SizePoints([]int{200, 300}, Config{Files: 30, Cache: 2, Strategy: TwoChoiceGlobal{}}, RGGFamily, true, nil)
	require.NoError(t, err)
	pts = append(pts, rgg...)
	// Every strategy and the Poissonized requests draw from the streams
	// of their (point, run) pair only.
	tor := &Torus{Side: 12}
	for _, c := range []Config{
		{Strategy: TwoChoice{Radius: 3}, Requests: Poissonized},
		{Strategy: TwoChoiceStretch{Alpha: 1}},
		{Strategy: Coded{Ell: 5, ChunkCap: 1}, Gamma: 1.2, Placement: Uniform},
	} {
		c.Topology, c.Files, c.Cache = tor, 30, 2
		pts = append(pts, Point{X: float64(len(pts)), Config: c})
	}
	var lines []string
	a, err := Sweep(pts, 5, 42, &SweepSettings{Workers: 1, Logf: func(f string, args ...any) { lines = append(lines, fmt.Sprintf(f, args...)) }})
	require.NoError(t, err)
	b, err := Sweep(pts, 5, 42, &SweepSettings{Workers: 8})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Len(t, lines, 10)
	assert.True(t, strings.HasSuffix(lines[9], "40/40 runs done"))
	c, err := Sweep(pts, 5, 43, nil)
	require.NoError(t, err)
	assert.NotEqual(t, a[0].MaxLoad, c[0].MaxLoad)
	// Summaries match their runs.
	for _, p := range a {
		var s float64
		for _, r := range p.Runs {
			s += r.Cost
		}
		assert.InDelta(t, s/5, p.Cost.Mean, 1e-12) // two summation orders of five values ≤ 10
		assert.LessOrEqual(t, p.Cost.Lo, p.Cost.Mean)
		assert.GreaterOrEqual(t, p.Cost.Hi, p.Cost.Mean)
	}
}

func TestSweepErrors(t *testing.T) {
	_, err := Sweep([]Point{{Config: Config{Topology: &Torus{Side: 4}, Files: 0, Cache: 1}}}, 2, 1, nil)
	assert.ErrorContains(t, err, "point 0: codedload: Config.Files = 0")
	_, err = Sweep(nil, 0, 1, nil)
	assert.ErrorContains(t, err, "runs = 0")
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	// Contract §3: a negative count is an error naming the field, never
	// replaced by the default.
	ok := Config{Topology: &Torus{Side: 4}, Files: 2, Cache: 1}
	_, err = Sweep([]Point{{Config: ok, Runs: -1}}, 2, 1, nil)
	assert.ErrorContains(t, err, "points[0].Runs = -1")
	_, err = Sweep([]Point{{Config: ok}}, 2, 1, &SweepSettings{Workers: -1})
	assert.ErrorContains(t, err, "SweepSettings.Workers = -1")
	// A total number of runs too large to hold is refused before any
	// allocation.
	_, err = Sweep([]Point{{Config: ok, Runs: 1 << 40}, {Config: ok, Runs: 1 << 40}}, 2, 1, nil)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = Sweep([]Point{{Config: ok, Runs: math.MaxInt}, {Config: ok}}, 2, 1, nil)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = CompareSizes([]int{16}, TorusFamily, []Variant{{Config: ok, MaxN: -1}}, func(int) int { return 1 }, 1, nil)
	assert.ErrorContains(t, err, "variants[0].MaxN = -1")
	bad := Point{Config: Config{Files: 3, Cache: 1}, Build: func(src rand.Source) (Topology, error) { return NewRegular(11, 3, src) }}
	_, err = Sweep([]Point{bad}, 1, 1, nil)
	assert.ErrorContains(t, err, "Degree·Order = 3·11")
}

func TestReferenceSweepsValid(t *testing.T) {
	// The §7.1 point lists must be valid configurations.
	all := [][]Point{serverSweep(NearestReplica{}), serverSweep(Coded{}), cacheSweep(Coded{}, 5), chunkSweep(), zipfSweep(Coded{}, 10), zipfSweep(NearestReplica{}, 1)}
	for _, pts := range all {
		for _, p := range pts {
			require.NoError(t, p.Config.Validate(), "%+v", p)
		}
	}
	assert.Len(t, serverSweep(Coded{}), 12)
	assert.Equal(t, 5041.0, serverSweep(Coded{})[11].X)
	assert.Equal(t, Coded{Ell: LogEll(5041), ChunkCap: 1}, serverSweep(Coded{})[11].Config.Strategy)
	assert.Len(t, tradeoffSweep(), 19)
	// The chunk sweep is small: run it, and every run must be outage-free
	// (uniform placement deals every (file, chunk) pair, spec §5).
	res, err := Sweep(chunkSweep(), 3, 1, nil)
	require.NoError(t, err)
	for _, p := range res {
		assert.Zero(t, p.Outage.Mean)
	}
}

func TestCompareSizes(t *testing.T) {
	vs := []Variant{
		{Name: "NR", Config: Config{Files: 20, Cache: 2}},
		{Name: "coded", Config: Config{Files: 20, Cache: 2, Strategy: Coded{}}, Ell: LogEll},
		{Name: "2C(a)", Config: Config{Files: 20, Cache: 2, Strategy: TwoChoice{}}, Radius: func(t Topology) int { return BallRadius(t, 25) }, MaxN: 256},
	}
	runs := func(n int) int { return 3 + n/256 }
	a, err := CompareSizes([]int{64, 256, 1024}, HypercubeFamily, vs, runs, 5, &SweepSettings{Workers: 1})
	require.NoError(t, err)
	b, err := CompareSizes([]int{64, 256, 1024}, HypercubeFamily, vs, runs, 5, &SweepSettings{Workers: 8})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	// A random family (one graph per size from the seed) with two choices
	// (b), whose far distances use per-run bidirectional searches.
	gvs := append(vs[:2:2], Variant{Name: "2C(b)", Config: Config{Files: 20, Cache: 2, Strategy: TwoChoiceGlobal{}}})
	ga, err := CompareSizes([]int{100, 300}, RegularFamily(4), gvs, runs, 6, &SweepSettings{Workers: 1})
	require.NoError(t, err)
	gb, err := CompareSizes([]int{100, 300}, RegularFamily(4), gvs, runs, 6, &SweepSettings{Workers: 8})
	require.NoError(t, err)
	assert.Equal(t, ga, gb)
	require.Len(t, a[2].Points, 2)
	assert.Len(t, a[0].Points[2].Runs, 7)
	assert.Equal(t, LogEll(1024), a[1].Points[2].Runs[0].Ell)
	_, err = CompareSizes([]int{64}, HypercubeFamily, vs, func(int) int { return 0 }, 5, nil)
	assert.ErrorContains(t, err, "runs(64) = 0")
	_, err = CompareSizes([]int{50}, TorusFamily, vs, runs, 5, nil)
	assert.ErrorContains(t, err, "size 50: codedload: torus Order = 50")
	// |B_2| = 1 + 8 + 28 = 37 ≥ 25 > |B_1| = 9 on the 8-cube.
	assert.Equal(t, 2, BallRadius(&Hypercube{Dim: 8}, 25))
	assert.Equal(t, 16, BallRadius(&Torus{Side: 100}, 545))   // |B_16| = 545 (§6.3)
	assert.Equal(t, 8, BallRadius(&Hypercube{Dim: 8}, 10000)) // the whole cube
}

// TestSweepRunIsPointRun checks the per-run rule Sweep documents: its
// run r of point i is points[i].Run(seed, i, r), which for a point with
// Build is Run on the topology built from loadlab.Stream(seed, i, r, 0)
// with the stream loadlab.Stream(seed, i, r, 1). Equal results: the same
// operations on the same streams.
func TestSweepRunIsPointRun(t *testing.T) {
	pts, err := SizePoints([]int{64}, Config{Files: 30, Cache: 2, Strategy: Coded{}}, TorusFamily, false, LogEll)
	require.NoError(t, err)
	rgg, err := SizePoints([]int{150}, Config{Files: 30, Cache: 2, Strategy: TwoChoiceGlobal{}}, RGGFamily, true, nil)
	require.NoError(t, err)
	pts = append(pts, rgg...)
	pts[1].Runs = 2
	res, err := Sweep(pts, 3, 9, nil)
	require.NoError(t, err)
	for i := len(pts) - 1; i >= 0; i-- { // in reverse, as another process might
		for r := len(res[i].Runs) - 1; r >= 0; r-- {
			got, err := pts[i].Run(9, uint64(i), uint64(r))
			require.NoError(t, err)
			assert.Equal(t, res[i].Runs[r], got, "point %d run %d", i, r)
		}
	}
	assert.Len(t, res[1].Runs, 2)
	top, err := RGGFamily(150, loadlab.Stream(9, 1, 0, 0))
	require.NoError(t, err)
	cfg := pts[1].Config
	cfg.Topology = top
	want, err := Run(cfg, loadlab.Stream(9, 1, 0, 1))
	require.NoError(t, err)
	assert.Equal(t, want, res[1].Runs[0])
}

// TestVariantAt: At applies Ell to a Coded and Radius to a TwoChoice
// (also behind a pointer), leaves every other strategy alone, and always
// sets the topology.
func TestVariantAt(t *testing.T) {
	tor := &Torus{Side: 8}
	ell := func(n int) int { return n / 16 }
	rad := func(t Topology) int { return BallRadius(t, 25) } // |B_3| = 25 on a large torus (2d²+2d+1)
	cases := []struct {
		s, want Strategy
	}{
		{Coded{ChunkCap: 2}, Coded{Ell: 4, ChunkCap: 2}},
		{&Coded{ChunkCap: 2}, Coded{Ell: 4, ChunkCap: 2}},
		{TwoChoice{}, TwoChoice{Radius: 3}},
		{&TwoChoice{}, TwoChoice{Radius: 3}},
		{NearestReplica{}, NearestReplica{}},
		{TwoChoiceStretch{Alpha: 1}, TwoChoiceStretch{Alpha: 1}},
		{nil, nil},
	}
	for _, c := range cases {
		va := Variant{Config: Config{Files: 9, Strategy: c.s}, Ell: ell, Radius: rad}
		got := va.At(64, tor)
		assert.Equal(t, c.want, got.Strategy, "%T", c.s)
		assert.Same(t, tor, got.Topology.(*Torus))
		assert.Equal(t, 9, got.Files)
	}
	plain := Variant{Config: Config{Strategy: Coded{Ell: 7}}}
	assert.Equal(t, Coded{Ell: 7}, plain.At(64, tor).Strategy, "no Ell: the configured value stays")
}
