package anycast

import (
	"math/rand/v2"
	"runtime"
	"sync"
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

func TestClaimChunksCoversOnce(t *testing.T) {
	// Every index of [0, n) is handed to fn exactly once, in pieces that
	// start at multiples of the grain (so the dense kernel groups rows as
	// the serial product), for any number of goroutines; a panic in fn
	// reaches the caller.
	for _, w := range []int{1, 2, 3, 8} {
		for _, n := range []int{1, 7, 8, 63, 64, 65, 1000, 1003} {
			var mu sync.Mutex
			seen := make([]int, n)
			claimChunks(n, w, denseGrain, func(lo, hi int) {
				assert.Zero(t, lo%denseGrain, "piece starts at %d", lo)
				mu.Lock()
				defer mu.Unlock()
				for i := lo; i < hi; i++ {
					seen[i]++
				}
			})
			for i, c := range seen {
				if c != 1 {
					t.Fatalf("w = %d, n = %d: index %d covered %d times", w, n, i, c)
				}
			}
		}
		assert.PanicsWithValue(t, "boom", func() {
			claimChunks(1000, w, denseGrain, func(lo, _ int) {
				if lo == 5*denseGrain {
					panic("boom")
				}
			})
		}, "w = %d", w)
	}
}
