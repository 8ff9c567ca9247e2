package gen_test

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRandomConnected: both generators give connected graphs of the
// requested order and edge count, with weights in [wmin, wmax]; p = 0
// leaves the spanning tree alone.
func TestRandomConnected(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		for _, p := range []float64{0, 0.05, 0.5} {
			g, err := gen.RandomConnected(40, p, 0.5, 2, rand.NewPCG(seed, 1))
			require.NoError(t, err)
			checkRandomConnected(t, g, 40, 0.5, 2)
			if p == 0 {
				assert.Equal(t, 39, g.Size(), "p = 0: the tree's edges only")
			}
		}
		g, err := gen.RandomConnectedSparse(100, 4, 1, 1, rand.NewPCG(seed, 2))
		require.NoError(t, err)
		checkRandomConnected(t, g, 100, 1, 1)
		assert.Equal(t, 200, g.Size(), "mean degree 4 on 100 nodes")
	}
	for _, c := range []struct {
		n         int
		p, lo, hi float64
		sparse    bool
		deg       float64
	}{
		{0, 0.1, 1, 1, false, 0}, {5, 1.5, 1, 1, false, 0}, {5, 0.1, 2, 1, false, 0}, {5, 0.1, 0, 1, false, 0},
		{5, 0, 1, 1, true, 5}, {5, 0, 1, 1, true, -1},
	} {
		var err error
		if c.sparse {
			_, err = gen.RandomConnectedSparse(c.n, c.deg, c.lo, c.hi, rand.NewPCG(1, 1))
		} else {
			_, err = gen.RandomConnected(c.n, c.p, c.lo, c.hi, rand.NewPCG(1, 1))
		}
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "%+v", c)
	}
}

func checkRandomConnected(t *testing.T, g *wgraph.Graph, n int, lo, hi float64) {
	t.Helper()
	require.Equal(t, n, g.Order())
	require.True(t, wgraph.IsConnected(g), "not connected")
	for _, e := range g.Edges() {
		require.True(t, e.W >= lo && e.W <= hi, "weight %v outside [%v, %v]", e.W, lo, hi)
	}
}
