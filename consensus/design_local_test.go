package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The local path on random 6-regular graphs of 600 nodes against the
// dense path's optimum (certified to 1e-7): its certificate never
// exceeds the optimum (it is a lower bound for any polynomial, whatever
// the iterates), the certificate is within 1 % of the design's exact value
// (measured 0.6–0.8 % at H = 3, 0.2–0.3 % at H = 4, spec §13.12) and the certified gap, with
// the value's interval, meets the default Tol of 1 %. (The interval's
// coverage is estimate.Kirchhoff's, tested there.)
func TestDesignLocalMatchesDense(t *testing.T) {
	for seed := range uint64(2) {
		g, err := gen.RandomRegular(600, 6, mc.Source(seed, 31))
		require.NoError(t, err)
		p := traceProblem(g)
		ref, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7}, nil)
		require.NoError(t, err)
		require.True(t, ref.Exact)
		fstar := ref.Value.Mean
		d, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Local: true}, mc.Source(seed, 32))
		require.NoError(t, err)
		require.True(t, d.Local)
		fw := exactTrace(t, p, d.Weights)
		t.Logf("seed %d: f* %.8g (lower %.8g), local design %.8g in [%.8g, %.8g], lower %.8g, gap %.3g %%, H %d, iterations %d, solves %d",
			seed, fstar, ref.Lower, fw, d.Value.Lo, d.Value.Hi, d.Lower, 100*d.Gap/d.Value.Hi, d.Depth, d.Iterations, d.Solves)
		assert.LessOrEqual(t, d.Lower, fstar*(1+1e-9), "the certificate exceeds the optimum")
		assert.GreaterOrEqual(t, fw, fstar*(1-1e-9))
		assert.LessOrEqual(t, fw-d.Lower, 0.01*fw, "the certificate with the exact value: within 1 %")
		assert.LessOrEqual(t, d.Gap, 0.01*d.Value.Hi)
		assert.Contains(t, []int{3, 4}, d.Depth)
	}
}

// The polynomial certificate is a lower bound on the optimum for any
// problem and any polynomial degree, however poor the polynomials'
// fit: on small random graphs (Erdős–Rényi, far from expanders) with
// random costs and box bounds, at depths 1–5, it never exceeds the
// dense path's optimum.
func TestPolyBoundBelowOptimum(t *testing.T) {
	for seed := range uint64(6) {
		g := randomGraph(40, 0.15, mc.Source(seed, 41))
		p := traceProblem(g)
		rng := rand.New(mc.Source(seed, 42))
		m := len(p.Links)
		for i := range p.Links {
			p.Links[i].Cost = 0.5 + rng.Float64()
		}
		if seed%2 == 1 {
			p.Lo, p.Hi = make([]float64, m), make([]float64, m)
			for i := range m {
				p.Lo[i], p.Hi[i] = 0.1*rng.Float64(), 0.5+2*rng.Float64()
			}
		}
		ref, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7}, nil)
		require.NoError(t, err)
		w, err := p.start(nil)
		require.NoError(t, err)
		for h := 1; h <= 5; h++ {
			pl, err := newLocalPlan(p.graph(w), h)
			require.NoError(t, err)
			mom, err := p.linkMoments(p.graph(w), pl)
			require.NoError(t, err)
			lb := p.polyBound(mom, w)
			assert.LessOrEqual(t, lb, ref.Value.Mean*(1+1e-9), "seed %d h %d", seed, h)
			assert.Greater(t, lb, 0.0)
		}
	}
}

// The local path with costs and box bounds on a 400-node random
// 6-regular graph (costs in [0.5, 1.5), bounds [0.2, 3]): the weights
// stay in their boxes and the budget, the certificate stays below the
// dense optimum, and the certified gap meets Tol = 2 %.
func TestDesignLocalBoxes(t *testing.T) {
	g, err := gen.RandomRegular(400, 6, mc.Source(7, 31))
	require.NoError(t, err)
	p := traceProblem(g)
	rng := rand.New(mc.Source(7, 32))
	m := len(p.Links)
	p.Lo, p.Hi = make([]float64, m), make([]float64, m)
	p.Budget = 0
	for i := range p.Links {
		p.Links[i].Cost = 0.5 + rng.Float64()
		p.Lo[i], p.Hi[i] = 0.2, 3
		p.Budget += p.Links[i].Cost
	}
	ref, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Tol: 1e-7}, nil)
	require.NoError(t, err)
	d, err := DesignWeightsAtScale(p, &ScaleDesignSettings{Local: true, Tol: 0.02}, mc.Source(7, 33))
	fw := exactTrace(t, p, d.Weights)
	t.Logf("f* %.8g, local design %.8g, lower %.8g, gap %.3g %%, iterations %d", ref.Value.Mean, fw, d.Lower, 100*d.Gap/d.Value.Hi, d.Iterations)
	require.NoError(t, err)
	var cost float64
	for i, w := range d.Weights {
		require.GreaterOrEqual(t, w, p.Lo[i]-1e-12)
		require.LessOrEqual(t, w, p.Hi[i]+1e-12)
		cost += w * p.Links[i].Cost
	}
	assert.LessOrEqual(t, cost, p.Budget*(1+1e-9))
	assert.LessOrEqual(t, d.Lower, ref.Value.Mean*(1+1e-9))
}
