package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEstimateGammaH2ExactTrace: on a 140 × 140 torus (19 600 nodes,
// above exactTraceMinOrder) the sampler's tr L† is the exact one — the
// closed form K_f/n to 1e-10 (sums of positive terms each within κε,
// κ ≤ 8·n·max R ≈ 2·10⁵) with no variance — and over 20 seeds the 95 %
// intervals of γ*_H2 and ρ₂(γ̂) hold the closed forms of the spectrum
// at least 17 times (a correct 95 % interval misses 3 or more of 20 with
// probability 0.08; 17 of 20 is the usual bar of such short checks).
func TestEstimateGammaH2ExactTrace(t *testing.T) {
	const side = 140
	g := mustGraph(gen.Torus(side, side))
	require.Greater(t, g.Order(), exactTraceMinOrder)
	kf, err := spectral.TorusKirchhoff(side, side)
	must(err)
	ev, err := spectral.TorusSpectrum(side, side)
	must(err)
	gs, rs := closedGammaH2(ev)
	var gammaIn, rhoIn int
	for seed := range uint64(20) {
		e, hs, err := gammaH2Sampler(g, nil, rand.NewPCG(seed, 9), false)
		require.NoError(t, err)
		require.True(t, hs.res.on && hs.res.exact, "seed %d: the trace term should be exact", seed)
		tr := kf / float64(g.Order())
		require.InDelta(t, tr, hs.res.est.Mean, 1e-10*tr)
		assert.Zero(t, hs.res.est.StdErr)
		if e.Gamma.Contains(gs) {
			gammaIn++
		}
		if e.Rho2.Lo <= rs && rs <= e.Rho2.Hi {
			rhoIn++
		}
		if seed == 0 {
			t.Logf("γ* %v (exact %v), ρ₂ %+v (exact %v), probes %d", e.Gamma, gs, e.Rho2, rs, e.Probes)
		}
	}
	assert.GreaterOrEqual(t, gammaIn, 17, "γ*_H2 covered %d of 20", gammaIn)
	assert.GreaterOrEqual(t, rhoIn, 17, "ρ₂ covered %d of 20", rhoIn)
}
