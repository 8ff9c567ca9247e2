package kpm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The moments of a link's start vector b = e_u − e_v (and of a node's,
// and of a three-node vector) equal bᵀT_k(S)b from dense products, on a
// weighted random graph and a torus, at depths 1–4: exact up to rounding,
// 1e-12 relative to the scale ‖b‖² (T_k(S) has norm ≤ 1 on the spectrum).
func TestMomentsDense(t *testing.T) {
	graphs := map[string]*wgraph.Graph{"weighted": graphtest.SparseWeighted(t, 60, 0.1, 3, 7), "torus": graphtest.Must(gen.Torus(7, 6))}
	for name, g := range graphs {
		n := g.Order()
		lm := graphtest.Must(lapmat.New(g))
		inv := make([]int32, n)
		for i, j := range lm.Perm {
			inv[j] = int32(i)
		}
		a, b := 0.2, 2.1*maxDeg(g)
		basis := NewBasis(a, b)
		tk := denseT(g, basis, 8)
		s := NewScratch()
		rng := rand.New(rand.NewPCG(1, 2))
		for range 12 {
			x := make([]float64, n)
			nodes, vals := []int32{}, []float64{}
			for range 1 + rng.IntN(3) {
				u := rng.IntN(n)
				if x[u] != 0 {
					continue
				}
				x[u] = rng.NormFloat64()
				nodes, vals = append(nodes, inv[u]), append(vals, x[u])
			}
			xv := mat.NewVecDense(n, x)
			for h := 1; h <= 4; h++ {
				mu := make([]float64, 2*h+1)
				s.Moments(lm, lm.Degrees(), basis, nodes, vals, h, mu)
				for k, m := range mu {
					want := mat.Inner(xv, tk[k], xv)
					assert.InDelta(t, want, m, 1e-12*mat.Dot(xv, xv), "%s h=%d k=%d", name, h, k)
				}
			}
		}
	}
}

// denseT returns T_0(S), …, T_k(S) of g's Laplacian.
func denseT(g *wgraph.Graph, b Basis, k int) []*mat.Dense {
	l := graphtest.Must(g.Laplacian())
	n := g.Order()
	sm := mat.NewDense(n, n, nil)
	sm.Scale(b.C1, l)
	for i := range n {
		sm.Set(i, i, sm.At(i, i)+b.C0)
	}
	id := mat.NewDense(n, n, nil)
	for i := range n {
		id.Set(i, i, 1)
	}
	out := []*mat.Dense{id, sm}
	for len(out) <= k {
		var next mat.Dense
		next.Mul(sm, out[len(out)-1])
		next.Scale(2, &next)
		next.Sub(&next, out[len(out)-2])
		out = append(out, &next)
	}
	return out
}

func maxDeg(g *wgraph.Graph) float64 {
	var m float64
	for u := range g.Order() {
		m = math.Max(m, g.WeightedDegree(u))
	}
	return m
}

// T matches cos(k·acos s) on [−1, 1] and the recurrence outside; Interp
// reproduces a polynomial of degree ≤ k exactly (to rounding, 1e-13) and
// interpolates f at the Chebyshev points.
func TestTAndInterp(t *testing.T) {
	for _, s := range []float64{-1, -0.3, 0.7, 1} {
		for k, v := range T(6, s) {
			assert.InDelta(t, math.Cos(float64(k)*math.Acos(s)), v, 1e-14)
		}
	}
	assert.Equal(t, []float64{1, 2, 7, 26}, T(3, 2.0))
	a, b := 1.0, 5.0
	basis := NewBasis(a, b)
	cube := func(x float64) float64 { return x*x*x - 2*x + 1 }
	c := Interp(cube, a, b, 4)
	for _, x := range []float64{1, 2.2, 3.9, 5} {
		var p float64
		for j, tj := range T(4, basis.C1*x+basis.C0) {
			p += c[j] * tj
		}
		assert.InDelta(t, cube(x), p, 1e-12*math.Abs(cube(x))+1e-13)
	}
}

// Depth: on a random 6-regular graph the ball volumes 6, 42, 222, 1122
// give Σ_{r<H} vol = 6, 48, 270, 1392, 7014 edge visits for H = 1…5, so a
// budget of 5000 gives H = 4 and one of 1000 gives H = 3; a budget below
// the first step still gives 1. On a cycle vol(ball(r)) = 2(2r + 1), so
// Σ_{r<H} = 2H², and 100 gives H = 7.
func TestDepth(t *testing.T) {
	g := graphtest.Must(gen.RandomRegular(20000, 6, rand.NewPCG(3, 4)))
	assert.Equal(t, 4, Depth(g, 5000, 12))
	assert.Equal(t, 3, Depth(g, 1000, 12))
	assert.Equal(t, 1, Depth(g, 1, 12))
	assert.Equal(t, 7, Depth(graphtest.Must(gen.Cycle(1000)), 100, 12))
}

// LowRitz bounds λ₂ from above (a Ritz value of L on 1⊥) and after 30
// steps is within 5 % of it on a random 6-regular graph (λ₂ ≈ 6 − 2√5
// with a gap to λ₃ of order 1/n^(2/3)).
func TestLowRitz(t *testing.T) {
	g := graphtest.Must(gen.RandomRegular(400, 6, rand.NewPCG(5, 6)))
	l := graphtest.Must(g.Laplacian())
	var eig mat.EigenSym
	require.True(t, eig.Factorize(l, false))
	l2 := eig.Values(nil)[1]
	r := LowRitz(g.Order(), func(dst, src []float64) error { g.LaplacianMulVec(dst, src); return nil }, 30, 1)
	assert.GreaterOrEqual(t, r, l2*(1-1e-12))
	assert.Less(t, r, 1.05*l2)
}
