package stability

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestAttractorRunIsAttractors rebuilds Attractors from AttractorStart,
// AttractorRun (run in reverse start order, as other processes would)
// and GroupAttractors on random 8-node networks with several
// attractors, and compares the results exactly.
func TestAttractorRunIsAttractors(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 13))
	several := false
	for trial := range 3 {
		l := mustLaw(randomNet(rng, 8, 8, 0), 1)
		want, wantU, err := l.Attractors(12, 300, rand.NewPCG(uint64(trial), 2), nil)
		require.NoError(t, err)
		several = several || len(want) > 1
		starts := rand.New(rand.NewPCG(uint64(trial), 2))
		x0 := make([][]float64, 12)
		for k := range x0 {
			x0[k] = AttractorStart(starts, 8)
		}
		ends := make([][]float64, 12)
		for k := len(x0) - 1; k >= 0; k-- {
			ends[k], err = l.AttractorRun(x0[k], 300, nil)
			require.NoError(t, err)
		}
		got, gotU, err := l.GroupAttractors(ends)
		require.NoError(t, err)
		assert.Equal(t, wantU, gotU)
		assert.Equal(t, want, got, "trial %d", trial)
	}
	assert.True(t, several, "no trial had two attractors: the grouping order was not tested")
	l := mustLaw(seedNet(0.3), 1)
	_, err := l.AttractorRun([]float64{0.5}, 10, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = l.AttractorRun([]float64{0.5, 0.5}, 0, nil)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, _, err = l.GroupAttractors([][]float64{{0.5, 0.5}}) // not an end state
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

// TestTwoNodeMapCellIsTwoNodeMap computes every cell alone.
func TestTwoNodeMapCellIsTwoNodeMap(t *testing.T) {
	aa, ab := []float64{0.3, 1, 3}, []float64{0.5, 2}
	nw := seedNet(0.3)
	s := &MapSettings{Sensitivity: 2, Workers: 2}
	want, err := TwoNodeMap(nw, aa, ab, s)
	require.NoError(t, err)
	for k := len(want) - 1; k >= 0; k-- {
		got, err := TwoNodeMapCell(nw, aa, ab, s, k/len(ab), k%len(ab))
		require.NoError(t, err)
		assert.Equal(t, want[k], got, "cell %d", k)
	}
	_, err = TwoNodeMapCell(nw, aa, ab, nil, 3, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = TwoNodeMapCell(nw, aa, ab, &MapSettings{Horizon: -1}, 0, 0)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

// TestAttractorStartAt compares the jumped-ahead starts with sequential
// draws from the same PCG stream, for small and large k, and checks that
// the source is left unchanged.
func TestAttractorStartAt(t *testing.T) {
	for _, n := range []int{1, 3, 7} {
		src := rand.NewPCG(uint64(n), 99)
		seq := rand.New(rand.NewPCG(uint64(n), 99))
		for k := range 1500 {
			want := AttractorStart(seq, n)
			if k%37 != 0 && k > 20 {
				continue
			}
			got, err := AttractorStartAt(src, n, k)
			require.NoError(t, err)
			require.Equal(t, want, got, "n = %d, start %d", n, k)
		}
		// src was not advanced: start 0 again
		again, err := AttractorStartAt(src, n, 0)
		require.NoError(t, err)
		assert.Equal(t, AttractorStart(rand.New(rand.NewPCG(uint64(n), 99)), n), again)
	}
	// A jump of 2⁴⁰ draws equals two jumps of 2³⁹.
	src := rand.NewPCG(5, 6)
	half := pcgAdvance(src, 1<<39)
	assert.Equal(t, pcgAdvance(half, 1<<39).Uint64(), pcgAdvance(src, 1<<40).Uint64())
	for _, bad := range [][2]int{{-1, 0}, {2, -1}, {1 << 62, 1 << 3}} {
		_, err := AttractorStartAt(src, bad[0], bad[1])
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "n, k = %v", bad)
	}
	assert.Panics(t, func() { _, _ = AttractorStartAt(nil, 1, 1) })
}
