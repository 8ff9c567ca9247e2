package dual

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

func TestSolveSparseMatchesDense(t *testing.T) {
	// The dual step's products C μ and Cᵀ(A∘x) sum the same terms in the
	// same order for sparse C and for the compressed rows of the dense
	// copy, so the runs agree step for step.
	for _, n := range []int{3, 60, 200} {
		sp, err := anycast.GenerateCDN(rand.NewPCG(uint64(n), 7), &anycast.CDNSettings{N: n, K: min(n, 6)})
		require.NoError(t, err)
		de, err := anycast.NewNetwork(sp.A, mat.DenseCopyOf(sp.Sparse), sp.T)
		require.NoError(t, err)
		ps, err := Quadratic(sp, 1, 4)
		require.NoError(t, err)
		pd, err := Quadratic(de, 1, 4)
		require.NoError(t, err)
		rs, err := Solve(ps, nil)
		require.NoError(t, err)
		rd, err := Solve(pd, nil)
		require.NoError(t, err)
		assert.Equal(t, rd.Iter, rs.Iter)
		// 1e-12 relative: allows the SmoothBound product order to differ
		assert.InDelta(t, rd.Best, rs.Best, 1e-12*(1+rd.Best))
		assert.InDelta(t, rd.Upper, rs.Upper, 1e-12*(1+rd.Upper))
		for i := range rd.X {
			assert.InDelta(t, rd.X[i], rs.X[i], 1e-10)
		}
		// Primal runs on a dense copy of sparse C: same optimum.
		qs, err := Primal(ps, nil)
		require.NoError(t, err)
		qd, err := Primal(pd, nil)
		require.NoError(t, err)
		assert.Equal(t, qd.X, qs.X)
	}
}
