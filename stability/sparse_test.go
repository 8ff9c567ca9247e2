package stability

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// sparsePair returns a synthetic sparse CDN and the same network with C
// stored densely.
func sparsePair(t *testing.T, seed uint64, n, k int) (sp, de *anycast.Network) {
	t.Helper()
	sp, err := anycast.GenerateCDN(rand.NewPCG(seed, 1), &anycast.CDNSettings{N: n, K: k})
	require.NoError(t, err)
	de, err = anycast.NewNetwork(sp.A, mat.DenseCopyOf(sp.Sparse), sp.T)
	require.NoError(t, err)
	return sp, de
}

func TestSparseLawMatchesDense(t *testing.T) {
	// Both forms sum the same products C_ji A_j x_j in the same order (j
	// increasing; the dense form adds exact zeros), so Rate, Jacobian and
	// the slacks agree exactly; assert.Equal checks that.
	for _, n := range []int{2, 30, 200} {
		sp, de := sparsePair(t, uint64(n), n, min(n, 8))
		ls, err := NewLaw(sp, 1)
		require.NoError(t, err)
		ld, err := NewLaw(de, 1)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64()
		}
		assert.Equal(t, ld.Rate(nil, x), ls.Rate(nil, x))
		assert.True(t, mat.Equal(ld.Jacobian(nil, x), ls.Jacobian(nil, x)))
		ps, err := PolytopeSlack(sp)
		require.NoError(t, err)
		pd, err := PolytopeSlack(de)
		require.NoError(t, err)
		assert.Equal(t, pd, ps)
		x0 := make([]float64, n)
		for i := range x0 {
			x0[i] = 0.5
		}
		ts, err := ls.Integrate(x0, 100, nil)
		require.NoError(t, err)
		td, err := ld.Integrate(x0, 100, nil)
		require.NoError(t, err)
		assert.Equal(t, td.T, ts.T)
		assert.Equal(t, td.X[len(td.X)-1], ts.X[len(ts.X)-1])
		assert.Equal(t, td.Stats, ts.Stats)
	}
}

func TestSparseTwoNodeIdentical(t *testing.T) {
	// The spec §8 two-node example through the sparse path: the whole
	// trajectory is bit-identical to the dense one.
	sc, err := anycast.NewSparseC(2, []int{0, 0, 1, 1}, []int{0, 1, 0, 1}, []float64{0.1, 0.9, 0.5, 0.5})
	require.NoError(t, err)
	sp, err := anycast.NewNetwork([]float64{1, 1}, sc, []float64{0.7, 0.7})
	require.NoError(t, err)
	de, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, 0.5, 0.5}), []float64{0.7, 0.7})
	require.NoError(t, err)
	ls, err := NewLaw(sp, 1)
	require.NoError(t, err)
	ld, err := NewLaw(de, 1)
	require.NoError(t, err)
	ts, err := ls.Integrate([]float64{0.3, 0.8}, 200, nil)
	require.NoError(t, err)
	td, err := ld.Integrate([]float64{0.3, 0.8}, 200, nil)
	require.NoError(t, err)
	assert.Equal(t, td.X, ts.X)
	assert.Equal(t, td.S, ts.S)
	es, err := ls.Equilibria()
	require.NoError(t, err)
	ed, err := ld.Equilibria()
	require.NoError(t, err)
	assert.Equal(t, ed, es)
}
