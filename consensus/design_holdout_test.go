package consensus

import (
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// TestDesignAtScaleHeldOut checks the held-out guard of the sketched
// weight designs (spec §13.12, "Held-out sketch") against the exact
// (dense) objective on two kinds of graph:
//
//   - Random 6-regular graphs of 300 nodes, where the optimum is within
//     0.03 % of uniform weights and a 64-column sketch's gradient noise
//     (≈ √(2/64) ≈ 18 % per link) is all a fitted design follows:
//     without the guard the design ended 2.5–2.9 % above uniform on
//     every seed (measured). With it the design may not be worse than
//     its (uniform) start by more than 10⁻⁴ relative: the guard returns
//     an iterate only if it scored below the start on an independent
//     sketch, and the worse iterates it could mistake differ from the
//     start by a few 10⁻⁵ (measured excess ≤ 0 on 12 seeds).
//   - Erdős–Rényi graphs of 200 nodes with mean degree 8, where the
//     design pays: the sketched design must keep at least 93 % of the
//     exact design's improvement over uniform (measured 95–97 % with
//     the guard, 87–91 % without).
func TestDesignAtScaleHeldOut(t *testing.T) {
	for seed := range uint64(4) {
		g, err := gen.RandomRegular(300, 6, mc.Source(seed, 34))
		require.NoError(t, err)
		p := traceProblem(g)
		u := exactTrace(t, p, unitWeights(len(p.Links)))
		d, _ := DesignWeightsAtScale(p, &ScaleDesignSettings{Sketch: true, MaxIter: 30}, mc.Source(seed, 35))
		require.NotNil(t, d)
		require.LessOrEqual(t, exactTrace(t, p, d.Weights), u*(1+1e-4), "seed %d: regular graph, design worse than uniform", seed)

		er := traceProblem(randomGraph(200, 8.0/200, mc.Source(seed, 77)))
		u = exactTrace(t, er, unitWeights(len(er.Links)))
		best, err := DesignWeightsAtScale(er, nil, nil)
		require.NoError(t, err)
		d, _ = DesignWeightsAtScale(er, &ScaleDesignSettings{Sketch: true, MaxIter: 30}, mc.Source(seed, 35))
		require.NotNil(t, d)
		share := (u - exactTrace(t, er, d.Weights)) / (u - best.Value.Mean)
		require.GreaterOrEqual(t, share, 0.93, "seed %d: Erdős–Rényi graph", seed)
	}
}

// TestDesignRho2AtScaleHeldOut is TestDesignAtScaleHeldOut for ρ₂ at
// the cycle with γλ_n = ½ on random 6-regular graphs of 300 nodes:
// without the guard the sketched design ended 2.2 % above uniform
// (measured at 600 nodes), with it no more than 10⁻⁴ above.
func TestDesignRho2AtScaleHeldOut(t *testing.T) {
	for seed := range uint64(3) {
		g, err := gen.RandomRegular(300, 6, mc.Source(seed, 34))
		require.NoError(t, err)
		p := traceProblem(g)
		gamma := rho2Gamma(t, p, 0.5)
		u, ok := exactRho2(p, gamma, unitWeights(len(p.Links)))
		require.True(t, ok)
		d, _ := DesignRho2AtScale(Rho2WeightProblem{TraceWeightProblem: p, Gamma: gamma}, &ScaleDesignSettings{Sketch: true, MaxIter: 30}, mc.Source(seed, 35))
		require.NotNil(t, d)
		v, ok := exactRho2(p, gamma, d.Weights)
		require.True(t, ok)
		require.LessOrEqual(t, v, u*(1+1e-4), "seed %d", seed)
	}
}
