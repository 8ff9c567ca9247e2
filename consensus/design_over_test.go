package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
)

// overProblem is Problem A on 7 nodes: a ring plus random chords with
// random costs.
func overProblem(seed uint64) WeightProblem {
	rng := rand.New(rand.NewPCG(seed, 11))
	var links []Link
	for i := range 7 {
		links = append(links, Link{U: i, V: (i + 1) % 7, Cost: 0.5 + rng.Float64()})
	}
	for _, c := range [][2]int{{0, 3}, {1, 5}, {2, 6}, {0, 4}} {
		links = append(links, Link{U: c[0], V: c[1], Cost: 0.5 + rng.Float64()})
	}
	return WeightProblem{Nodes: 7, Links: links, Gamma: 0.15, Budget: 8}
}

// TestOverGradient: the gradient of spec deployed §4.4 against central
// differences with step h = 1e-5 (truncation O(h²) ≈ 1e-10 relative to
// the curvature, rounding ≈ u/h ≈ 1e-11 of F): 1e-6 relative to the
// largest component.
func TestOverGradient(t *testing.T) {
	p := overProblem(1)
	for _, mu := range []float64{-0.5, 0, 0.3} {
		e := newEvaluator(p)
		e.over = &overObjective{sigma: 1.2, mu: mu, c: make([]float64, p.Nodes)}
		rng := rand.New(rand.NewPCG(2, 2))
		w := make([]float64, len(p.Links))
		for i := range w {
			w[i] = 0.3 + 0.5*rng.Float64()
		}
		r := e.value(w)
		require.NotNil(t, r)
		grad := append([]float64(nil), r.grad...)
		var scale float64
		for _, g := range grad {
			scale = max(scale, math.Abs(g))
		}
		const h = 1e-5
		for i := range w {
			wp := append([]float64(nil), w...)
			wm := append([]float64(nil), w...)
			wp[i] += h
			wm[i] -= h
			fd := (e.value(wp).f - e.value(wm).f) / (2 * h)
			assert.InDelta(t, fd, grad[i], 1e-6*scale, "μ = %v link %d", mu, i)
		}
	}
}

// TestDesignOverWeights: the design is within the budget, its Value is
// the closed form of ExpectedOver on its graph (1e-9: two dense
// computations of the same nodal values), it is stationary to Tol, and
// its over-throttling is no larger than that of DesignWeights' H2
// optimum, its starting point: the non-monotone search accepts a value
// only below the largest of the last ten, all of which are at most the
// start's, so no iterate rises above it (1e-9 relative covers the two
// evaluations' rounding).
func TestDesignOverWeights(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		p := overProblem(seed)
		for _, excess := range []float64{-2, 0, 1.5} {
			d, err := DesignOverWeights(p, 1.2, excess, nil)
			require.NoError(t, err, "seed %d excess %v", seed, excess)
			require.Equal(t, loadlab.Success, d.Status)
			var cost float64
			for i, l := range p.Links {
				require.GreaterOrEqual(t, d.Weights[i], 0.0)
				cost += l.Cost * d.Weights[i]
			}
			assert.LessOrEqual(t, cost, p.Budget*(1+1e-12))
			got := overOn(t, d.Graph, p.Gamma, excess)
			assert.InDelta(t, got, d.Value, 1e-9*got, "seed %d excess %v", seed, excess)
			assert.True(t, math.IsNaN(d.Lower))
			h2, err := DesignWeights(p, nil)
			require.NoError(t, err)
			base := overOn(t, h2.Graph, p.Gamma, excess)
			assert.LessOrEqual(t, d.Value, base*(1+1e-9), "seed %d excess %v", seed, excess)
			t.Logf("seed %d excess %v: E O %.6g (H2 design %.6g), %d iterations", seed, excess, d.Value, base, d.Iterations)
		}
	}
}

func overOn(t *testing.T, g *wgraph.Graph, gamma, excess float64) float64 {
	o, err := ExpectedOver(&Throttler{Graph: g, Gamma: gamma}, Case2, 1.2, excess)
	require.NoError(t, err)
	return o.Total
}
