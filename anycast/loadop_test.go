package anycast

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadOpMatchesLoads(t *testing.T) {
	// B x equals Loads(x) to rounding on both forms (relClose: ≤ N terms
	// in another order), and bit for bit whatever the number of cores:
	// sizes around the split threshold and the dense kernel's row blocks,
	// products computed with GOMAXPROCS 1 and 2.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rng := rand.New(rand.NewPCG(5, 5))
	for _, n := range []int{1, 3, 9, 181, 190, 400} {
		sp, de := pair(t, rng, n, min(n, 7))
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.Float64()
		}
		for _, nw := range []*Network{sp, de} {
			op, err := nw.LoadOp()
			require.NoError(t, err)
			assert.Equal(t, n, op.N())
			runtime.GOMAXPROCS(1)
			one := op.Mul(nil, x)
			runtime.GOMAXPROCS(2)
			two := op.Mul(nil, x)
			assert.Equal(t, one, two, "n = %d, sparse %v: cores change the result", n, nw.Sparse != nil)
			runtime.GOMAXPROCS(3)
			assert.Equal(t, one, op.Mul(nil, x), "n = %d, sparse %v: 3 cores change the result", n, nw.Sparse != nil)
			relClose(t, nw.Loads(nil, x), one, "LoadOp.Mul")
		}
	}
	// A sparse product above the split threshold (5·10⁴ entries).
	cdn, err := GenerateCDN(rand.NewPCG(1, 1), &CDNSettings{N: 5000, K: 10})
	require.NoError(t, err)
	require.GreaterOrEqual(t, cdn.NNZ(), opParallelWork)
	op, err := cdn.LoadOp()
	require.NoError(t, err)
	x := make([]float64, cdn.N())
	for i := range x {
		x[i] = rng.Float64()
	}
	runtime.GOMAXPROCS(1)
	one := op.Mul(nil, x)
	runtime.GOMAXPROCS(2)
	assert.Equal(t, one, op.Mul(nil, x), "sparse: cores change the result")
	relClose(t, cdn.Loads(nil, x), one, "LoadOp.Mul")

	sp, _ := pair(t, rng, 4, 2)
	op, err = sp.LoadOp()
	require.NoError(t, err)
	assert.Panics(t, func() { op.Mul(nil, make([]float64, 3)) })
	assert.Panics(t, func() { op.Mul(make([]float64, 5), make([]float64, 4)) })
}

func TestMulRowsMatchesMul(t *testing.T) {
	// Any split of the rows into ranges reproduces Mul bit for bit, dense
	// (blocks of four rows and single rows through asm.Dot4) and sparse: ranges of every length from 1, at every offset.
	rng := rand.New(rand.NewPCG(7, 7))
	sp, de := pair(t, rng, 203, 5)
	x := make([]float64, 203)
	for i := range x {
		x[i] = rng.Float64()
	}
	for _, nw := range []*Network{sp, de} {
		op, err := nw.LoadOp()
		require.NoError(t, err)
		want := op.Mul(nil, x)
		for _, step := range []int{1, 2, 3, 5, 7, 8, 24, 64, 200} {
			for _, first := range []int{0, 1, 3, 6} {
				got := make([]float64, 203)
				for lo := 0; lo < 203; {
					hi := min(lo+step, 203)
					if lo == 0 && first > 0 {
						hi = first
					}
					op.MulRows(got[lo:hi], x, lo, hi)
					lo = hi
				}
				assert.Equal(t, want, got, "dense %v, ranges of %d after one of %d", nw.Sparse == nil, step, first)
			}
		}
		assert.Panics(t, func() { op.MulRows(make([]float64, 3), x, 0, 4) }, "short dst")
		assert.Panics(t, func() { op.MulRows(make([]float64, 8), x, 200, 208) }, "past N")
	}
}

func TestFormReusesStorage(t *testing.T) {
	// One LoadOp formed again and again from dense and sparse networks of
	// several sizes (around the eight-row blocks and the 64-row pieces of
	// the dense transpose) holds exactly B_ij = C_ji A_j each time, the
	// same bits as a fresh LoadOp, and keeps its storage when it is large
	// enough.
	rng := rand.New(rand.NewPCG(8, 8))
	var op LoadOp
	for _, n := range []int{400, 1, 3, 9, 65, 130, 181} {
		sp, de := pair(t, rng, n, min(n, 7))
		for _, nw := range []*Network{de, sp} {
			before := cap(op.val)
			var first *float64
			if before > 0 {
				first = &op.val[:1][0]
			}
			require.NoError(t, op.Form(nw))
			fresh, err := nw.LoadOp()
			require.NoError(t, err)
			require.Equal(t, fresh.val, op.val, "n = %d, sparse %v", n, nw.Sparse != nil)
			assert.Equal(t, fresh.ptr, op.ptr)
			assert.Equal(t, len(fresh.idx), len(op.idx))
			if len(fresh.idx) > 0 {
				assert.Equal(t, fresh.idx, op.idx)
			}
			if nw.Sparse == nil {
				for i := range n {
					for j := range n {
						require.Equal(t, nw.C.At(j, i)*nw.A[j], op.val[i*n+j], "n = %d: B[%d][%d]", n, i, j)
					}
				}
			}
			if before >= len(op.val) {
				assert.Same(t, first, &op.val[:1][0], "n = %d: storage not reused", n)
			}
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.Float64()
			}
			assert.Equal(t, fresh.Mul(nil, x), op.Mul(nil, x))
		}
	}
}
