package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGreedyLinks checks Problem C: every ρ₂ from the rank-one updates
// equals a recomputation from scratch on the grown graph, and each
// choice is the best candidate by brute force (adding each remaining
// candidate to a copy and recomputing ρ₂ with Rho).
func TestGreedyLinks(t *testing.T) {
	for seed := range uint64(4) {
		rnd := rand.New(mc.Source(40, seed))
		n := 10
		g := mustGraph(gen.Path(n))
		var cands []wgraph.Edge
		for range 15 {
			u, v := rnd.IntN(n), rnd.IntN(n)
			if u == v {
				continue
			}
			cands = append(cands, wgraph.Edge{U: u, V: v, W: 0.2 + rnd.Float64()})
		}
		gamma := 0.3
		res, err := GreedyLinks(&Throttler{Graph: g, Gamma: gamma}, cands, 5)
		require.NoError(t, err)
		require.Len(t, res.Rho, len(res.Added)+1)
		// The best candidate is added even when it hurts, so with these
		// seeds all 5 rounds run: the checks below are not vacuous.
		require.Len(t, res.Added, 5)
		cur := g
		used := map[wgraph.Edge]bool{}
		for i, e := range res.Added {
			r0, err := Rho(&Throttler{Graph: cur, Gamma: gamma}, Case2, 1)
			require.NoError(t, err)
			// Rank-one updates over ≤ 5 rounds: relative 1e-10.
			assert.InEpsilon(t, r0, res.Rho[i], 1e-10)
			best := math.Inf(1)
			for _, c := range cands {
				if used[c] {
					continue
				}
				hb := cur.Builder()
				must(hb.SetEdge(c.U, c.V, cur.Weight(c.U, c.V)+c.W))
				if r, err := Rho(&Throttler{Graph: hb.Build(), Gamma: gamma}, Case2, 1); err == nil {
					best = min(best, r)
				}
			}
			used[e] = true
			cb := cur.Builder()
			must(cb.SetEdge(e.U, e.V, cur.Weight(e.U, e.V)+e.W))
			cur = cb.Build()
			r1, err := Rho(&Throttler{Graph: cur, Gamma: gamma}, Case2, 1)
			require.NoError(t, err)
			assert.InEpsilon(t, r1, res.Rho[i+1], 1e-10)
			assert.InEpsilon(t, best, r1, 1e-10)
		}
		final, err := Rho(&Throttler{Graph: res.Graph, Gamma: gamma}, Case2, 1)
		require.NoError(t, err)
		assert.InEpsilon(t, final, res.Rho[len(res.Rho)-1], 1e-10)
	}
}

// TestGreedySkipsUnstable checks that a candidate that would push γλ_n
// past 2 is never chosen, and that the link that hurts is still added
// (spec §5.1 fact 5: path 1–2–3 plus {1, 3} at γ = 0.6).
func TestGreedySkipsUnstable(t *testing.T) {
	res, err := GreedyLinks(&Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.6}, []wgraph.Edge{{U: 0, V: 2, W: 1}}, 1)
	require.NoError(t, err)
	assert.InDelta(t, 250.0/63, res.Rho[0], 1e-12) // spec §5.1
	assert.InDelta(t, 50.0/9, res.Rho[1], 1e-12)
	res, err = GreedyLinks(&Throttler{Graph: mustGraph(gen.Path(4)), Gamma: 0.55}, []wgraph.Edge{{U: 0, V: 3, W: 1}}, 1)
	require.NoError(t, err)
	assert.Empty(t, res.Added) // C4 at γ = 0.55 is unstable
	_, err = GreedyLinks(&Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.1}, []wgraph.Edge{{U: 0, V: 0, W: 1}}, 1)
	assert.Error(t, err)
	_, err = GreedyLinks(&Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.1}, []wgraph.Edge{{U: 0, V: 2, W: -1}}, 1)
	assert.Error(t, err)
	_, err = GreedyLinks(&Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.1}, nil, -1)
	assert.Error(t, err)
	_, err = GreedyLinks(&Throttler{Graph: mustGraph(gen.Complete(3)), Gamma: 0.7}, nil, 1)
	assert.ErrorIs(t, err, ErrUnstable)
}
