// Package cdntest builds the sparse/dense network pairs that the tests of
// dual and stability compare (issue 13: every entry point gives the same
// result on sparse and dense C to rounding). It is imported by tests only.
package cdntest

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"gonum.org/v1/gonum/mat"
)

// Pair returns a synthetic CDN from anycast.GenerateCDN (n nodes, k
// proxies per region, drawn from PCG(seed, stream)) and the same network
// with C stored densely. It fails t on any error.
func Pair(t testing.TB, seed, stream uint64, n, k int) (sp, de *anycast.Network) {
	t.Helper()
	sp, err := anycast.GenerateCDN(rand.NewPCG(seed, stream), &anycast.CDNSettings{N: n, K: k})
	if err != nil {
		t.Fatalf("cdntest.Pair: %v", err)
	}
	de, err = anycast.NewNetwork(sp.A, mat.DenseCopyOf(sp.Sparse), sp.T)
	if err != nil {
		t.Fatalf("cdntest.Pair: %v", err)
	}
	return sp, de
}

// Sparse returns nw with C stored sparsely (its nonzero entries). It fails
// t on any error.
func Sparse(t testing.TB, nw *anycast.Network) *anycast.Network {
	t.Helper()
	sc, err := anycast.SparseOf(nw.C)
	if err != nil {
		t.Fatalf("cdntest.Sparse: %v", err)
	}
	sp, err := anycast.NewNetwork(nw.A, sc, nw.T)
	if err != nil {
		t.Fatalf("cdntest.Sparse: %v", err)
	}
	return sp
}
