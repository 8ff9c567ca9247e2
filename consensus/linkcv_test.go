package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/kpm"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The certificate's control variate against dense matrices on a
// 300-node random 6-regular graph: ‖p(L)b_e‖ of every candidate within
// two hops from the local moments, and p(L)G of a Gaussian block, equal
// the dense p(L) = Σ_k c_k T_k(S) (to 1e-12 relative: a few products of
// matrices of norm ≤ 1 on the spectrum).
func TestLinkCVDense(t *testing.T) {
	g := graphtest.Must(gen.RandomRegular(300, 6, rand.NewPCG(3, 1)))
	cands := graphtest.Must(Candidates(g, 2))
	cv, err := newLinkCV(g, cands)
	require.NoError(t, err)
	require.NotNil(t, cv)
	require.Equal(t, 3, cv.pl.h)
	n := g.Order()
	pm := densePoly(t, g, cv.pl.basis, cv.pl.inv)
	for i, c := range cands {
		b := mat.NewVecDense(n, nil)
		b.SetVec(c.U, 1)
		b.SetVec(c.V, -1)
		var x mat.VecDense
		x.MulVec(pm, b)
		assert.InDelta(t, mat.Norm(&x, 2), cv.pnorm[i], 1e-12*mat.Norm(&x, 2), "candidate %d", i)
	}
	cols := 5
	rng := rand.New(rand.NewPCG(4, 1))
	gd := make([]float64, n*cols)
	for i := range gd {
		gd[i] = rng.NormFloat64()
	}
	var want mat.Dense
	want.Mul(pm, mat.NewDense(n, cols, gd))
	got := cv.apply(g, gd, cols)
	for i := range n {
		for j := range cols {
			assert.InDelta(t, want.At(i, j), got[i*cols+j], 1e-12*(1+mat.Norm(&want, 1)))
		}
	}
}

// densePoly returns Σ_k c_k T_k(S) of g's Laplacian in the basis b.
func densePoly(t *testing.T, g *wgraph.Graph, b kpm.Basis, c []float64) *mat.Dense {
	t.Helper()
	l, err := g.Laplacian()
	require.NoError(t, err)
	n := g.Order()
	s := mat.NewDense(n, n, nil)
	s.Scale(b.C1, l)
	for i := range n {
		s.Set(i, i, s.At(i, i)+b.C0)
	}
	t0 := mat.NewDense(n, n, nil)
	for i := range n {
		t0.Set(i, i, 1)
	}
	t1 := mat.DenseCopyOf(s)
	out := mat.NewDense(n, n, nil)
	out.Scale(c[0], t0)
	for k := 1; k < len(c); k++ {
		var term mat.Dense
		term.Scale(c[k], t1)
		out.Add(out, &term)
		var next mat.Dense
		next.Mul(s, t1)
		next.Scale(2, &next)
		next.Sub(&next, t0)
		t0, t1 = t1, &next
	}
	return out
}

// With the control variate, the sketched certificate of AddLinks on a
// 400-node random 6-regular graph (candidates within two hops, 3 links,
// 32 certificate rows) stays below the exact relaxation bounds at every
// one of 12 seeds (each holds with probability ≥ 1 − Miss = 0.95 by the
// union bound, far more in fact), and its gap is smaller than without
// the control variate at the same seeds (the sketch bounds only the part
// of ‖L†b_e‖ the polynomial misses).
func TestAddLinksControlVariate(t *testing.T) {
	g := graphtest.Must(gen.RandomRegular(400, 6, rand.NewPCG(5, 1)))
	cands := graphtest.Must(Candidates(g, 2))
	set := &LinkSettings{Method: LinkSketch, CertSketch: 32}
	var with, without float64
	for seed := range uint64(12) {
		res, err := AddLinks(g, cands, 3, set, rand.NewPCG(seed, 2))
		require.NoError(t, err)
		require.Equal(t, 3, res.CertDepth)
		chosen := map[[2]int]bool{}
		for _, s := range res.Steps {
			chosen[[2]int{s.Link.U, s.Link.V}] = true
		}
		lb := exactLower(t, g, res.Graph, cands, chosen, 3, 1)
		assert.LessOrEqual(t, res.Lower, lb*(1+1e-9), "seed %d", seed)
		with += res.Gap
		linkCVOff = true
		plain, err := AddLinks(g, cands, 3, set, rand.NewPCG(seed, 2))
		linkCVOff = false
		require.NoError(t, err)
		require.Zero(t, plain.CertDepth)
		without += plain.Gap
	}
	t.Logf("mean gap with the control variate %.4g, without %.4g", with/12, without/12)
	assert.Less(t, with, without)
}
