package consensus

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scaleWeights returns g with every weight multiplied by c.
func scaleWeights(g *wgraph.Graph, c float64) *wgraph.Graph {
	h := newBuilder(g.Order())
	for _, e := range g.Edges() {
		must(h.SetEdge(e.U, e.V, c*e.W))
	}
	return h.Build()
}

// TestFactsSection51 checks the facts of spec §5.1 on random weighted
// graphs and the families.
func TestFactsSection51(t *testing.T) {
	graphs := []*wgraph.Graph{mustGraph(gen.Path(5)), mustGraph(gen.Cycle(7)), mustGraph(gen.Star(6)), mustGraph(gen.Grid(3, 3))}
	for seed := range uint64(8) {
		graphs = append(graphs, randomGraph(10, 0.3, mc.Source(3, seed)))
	}
	for gi, g := range graphs {
		s := spectralOf(t, g)
		b := s.StabilityBound()
		gs, rs, _ := s.GammaH2(1)

		// Fact 2: the root lies in [1/λ_n, min{1/λ₂, 2/λ_n}) with g ≥ 0
		// left of it and g < 0 right of it.
		assert.GreaterOrEqual(t, gs, 1/s.LambdaMax(), "graph %d", gi)
		assert.Less(t, gs, min(1/s.Lambda2(), b)+1e-15, "graph %d", gi)
		assert.GreaterOrEqual(t, s.G(gs*(1-1e-9)), 0.0)
		assert.Less(t, s.G(gs*(1+1e-9)), 0.0)

		// Fact 2: strict convexity (second differences on a grid) and
		// blow-up at both ends; γ* is the grid minimum.
		const m = 200
		vals := make([]float64, m)
		for i := range m {
			vals[i], _ = s.Rho(Case2, b*float64(i+1)/(m+1), 1)
			assert.GreaterOrEqual(t, vals[i], rs*(1-1e-12))
		}
		for i := 1; i+1 < m; i++ {
			// The sampled function is smooth at scale b/m; rounding in
			// each value is ~1e-15 relative, far below the curvature.
			assert.Greater(t, vals[i-1]+vals[i+1]-2*vals[i], -1e-12*vals[i], "graph %d i %d", gi, i)
		}
		r0, _ := s.Rho(Case2, b*1e-6, 1)
		r1, _ := s.Rho(Case2, b*(1-1e-6), 1)
		assert.Greater(t, r0, 1e4*rs)
		assert.Greater(t, r1, 1e4*rs)

		// Fact 4: ρ₁ and ρ₂T strictly increasing in γ.
		p1, p2 := 0.0, 0.0
		for i := 1; i <= 50; i++ {
			gamma := b * float64(i) / 51
			v1, _ := s.Rho(Case1, gamma, 1)
			v2, _ := s.Rho(Case2T, gamma, 1)
			assert.Greater(t, v1, p1)
			assert.Greater(t, v2, p2)
			p1, p2 = v1, v2
		}

		// Fact 1: scaling invariance ρ(γ, cL) = ρ(cγ, L), also for ς.
		for _, c := range []float64{0.3, 2.5} {
			sc := spectralOf(t, scaleWeights(g, c))
			gamma := 0.4 * b / c
			for _, tc := range []Traffic{Case1, Case2} {
				a, err := sc.Rho(tc, gamma, 1)
				require.NoError(t, err)
				bb, err := s.Rho(tc, c*gamma, 1)
				require.NoError(t, err)
				assert.InEpsilon(t, bb, a, 1e-10) // eigensolver relative accuracy
			}
			assert.InDelta(t, s.Factor(c*gamma), sc.Factor(gamma), 1e-12)
			gsc, _, _ := sc.GammaH2(1)
			assert.InEpsilon(t, gs/c, gsc, 1e-10)
		}
	}

	// Fact 3: γ* = γ_conv for K_n (1/n, ρ₂ = n−1) and C4 (1/3); they
	// differ for a path.
	for n := 3; n <= 7; n++ {
		s := spectralOf(t, mustGraph(gen.Complete(n)))
		g, r, _ := s.GammaH2(1)
		gc, _ := s.GammaConv()
		assert.InDelta(t, 1/float64(n), g, 1e-12)
		assert.InDelta(t, 1/float64(n), gc, 1e-12)
		assert.InDelta(t, float64(n-1), r, 1e-9)
	}
	gp, _, _ := spectralOf(t, mustGraph(gen.Path(5))).GammaH2(1)
	assert.Greater(t, math.Abs(gp-0.5), 0.05)

	// Fact 5: adding a link can hurt. Path 1–2–3 vs triangle: at γ = 0.6
	// the triangle is worse, at γ = 0.1 better. Closing P4 into C4 raises
	// λ_n from 2 + √2 to 4, so at γ = 0.55 the link destabilises.
	path, tri := spectralOf(t, mustGraph(gen.Path(3))), spectralOf(t, mustGraph(gen.Complete(3)))
	pa, _ := path.Rho(Case2, 0.6, 1)
	ta, _ := tri.Rho(Case2, 0.6, 1)
	assert.Greater(t, ta, pa)
	pb, _ := path.Rho(Case2, 0.1, 1)
	tb, _ := tri.Rho(Case2, 0.1, 1)
	assert.Less(t, tb, pb)
	_, err := spectralOf(t, mustGraph(gen.Path(4))).Rho(Case2, 0.55, 1)
	assert.NoError(t, err)
	_, err = spectralOf(t, mustGraph(gen.Cycle(4))).Rho(Case2, 0.55, 1)
	assert.ErrorIs(t, err, ErrUnstable)

	// Continuous-time limit (spec §4.4 Case 2T): ρ₂T → σ² K_f/(2n) as γ → 0.
	s := spectralOf(t, mustGraph(gen.Grid(3, 4)))
	r, _ := s.Rho(Case2T, 1e-9, 1)
	assert.InEpsilon(t, s.Kirchhoff()/(2*12), r, 1e-8) // O(γ λ_n) = O(1e-8) bias
}

// TestGammaTradeoff checks Problem B's trade-off: the returned γ is the
// grid minimiser of ρ₂T(γ) + c/γ and moves to larger γ as c grows.
func TestGammaTradeoff(t *testing.T) {
	s := spectralOf(t, mustGraph(gen.Grid(3, 3)))
	prev := 0.0
	for _, c := range []float64{0.01, 0.1, 1, 10} {
		g, err := s.GammaTradeoff(c, 1)
		require.NoError(t, err)
		obj := func(x float64) float64 { r, _ := s.Rho(Case2T, x, 1); return r + c/x }
		best := obj(g)
		for i := 1; i < 400; i++ {
			x := s.StabilityBound() * float64(i) / 400
			assert.GreaterOrEqual(t, obj(x), best*(1-1e-12))
		}
		assert.Greater(t, g, prev)
		prev = g
	}
	_, err := s.GammaTradeoff(0, 1)
	assert.Error(t, err)
}
