package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEstimateH2DelayCoverage checks EstimateH2Delay (spec deployed §2.5)
// against the exact sums of Spectral.RhoDelay: on the 2¹¹-node hypercube
// (closed-form spectrum, well conditioned, a by Lanczos) at τ = 4, the
// 40 × 50 torus (closed-form product spectrum; κ(L) ≈ 10³, so the
// resistance term goes to solves) at τ = 2, and a 500-node sparse random
// weighted graph (dense spectrum) at τ = 3, all at 80 % of the delayed
// stability limit, over 100 seeds at RelAcc 5 %. Every interval meets
// RelAcc, and each of ρ₁, ρ₂ is covered at a rate ≥ 95 % − 3 binomial sd
// (2.2 %); a quadrature bias of the order of the half-width would show
// as a coverage far below that.
func TestEstimateH2DelayCoverage(t *testing.T) {
	hyper, err := spectral.HypercubeSpectrum(11)
	require.NoError(t, err)
	c40, err := spectral.CycleSpectrum(40)
	require.NoError(t, err)
	c50, err := spectral.CycleSpectrum(50)
	require.NoError(t, err)
	torus, err := spectral.ProductSpectrum(c40, c50)
	require.NoError(t, err)
	random := sparseRandom(500, 6, rand.NewPCG(7, 8))
	cases := []struct {
		name string
		g    *wgraph.Graph
		ev   []float64 // nil: the dense spectrum
		tau  int
	}{
		{"hypercube 2^11", mustGraph(gen.Hypercube(11)), hyper, 4},
		{"torus 40×50", mustGraph(gen.Torus(40, 50)), torus, 2},
		{"sparse random 500", random, nil, 3},
	}
	const seeds = 100
	low := 0.95 - 3*math.Sqrt(0.95*0.05/seeds)
	for _, c := range cases {
		var s *Spectral
		if c.ev == nil {
			s = spectralOf(t, c.g)
		} else {
			s, err = SpectralFrom(c.ev)
			require.NoError(t, err)
		}
		lim, err := s.DelayStabilityBound(c.tau)
		require.NoError(t, err)
		th := &Throttler{Graph: c.g, Gamma: 0.8 * lim}
		rho1, err := s.RhoDelay(Case1, c.tau, th.Gamma, 1.5)
		require.NoError(t, err)
		rho2, err := s.RhoDelay(Case2, c.tau, th.Gamma, 1.5)
		require.NoError(t, err)
		c1, c2 := 0, 0
		for seed := range uint64(seeds) {
			h, err := EstimateH2Delay(th, c.tau, 1.5, &estimate.TraceSettings{RelAcc: 0.05}, rand.NewPCG(seed, 11))
			require.NoError(t, err, c.name)
			require.Equal(t, loadlab.Success, h.Status)
			require.True(t, h.Rho1.RelHalfWidth() <= 0.05 && h.Rho2.RelHalfWidth() <= 0.05, "%s seed %d: %+v", c.name, seed, h)
			require.InEpsilon(t, th.Gamma*h.Rho2.Mean, h.Rho2T.Mean, 1e-12)
			if h.Rho1.Contains(rho1) {
				c1++
			}
			if h.Rho2.Contains(rho2) {
				c2++
			}
		}
		t.Logf("%s τ=%d: coverage ρ₁ %d/%d, ρ₂ %d/%d", c.name, c.tau, c1, seeds, c2, seeds)
		assert.GreaterOrEqual(t, float64(c1)/seeds, low, "%s: coverage ρ₁", c.name)
		assert.GreaterOrEqual(t, float64(c2)/seeds, low, "%s: coverage ρ₂", c.name)
	}
}

// TestEstimateH2DelayTau0 checks that τ = 0 estimates the delay-free
// measures: the same probes and quadratures as EstimateH2 up to the
// settle point, so on a random graph both intervals (doubled) cover the
// closed form (spec throttlers §4.4), and an unstable γ is refused.
func TestEstimateH2DelayTau0(t *testing.T) {
	g := sparseRandom(300, 6, rand.NewPCG(2, 3))
	s := spectralOf(t, g)
	th := &Throttler{Graph: g, Gamma: 0.3 * s.StabilityBound()}
	h, err := EstimateH2Delay(th, 0, 1, &estimate.TraceSettings{RelAcc: 0.01}, rand.NewPCG(1, 2))
	require.NoError(t, err)
	for _, tr := range []Traffic{Case1, Case2} {
		want, err := s.Rho(tr, th.Gamma, 1)
		require.NoError(t, err)
		e := h.Of(tr)
		assert.InDelta(t, want, e.Mean, 2*(e.Hi-e.Lo), "%v: %+v", tr, e)
	}
	lim, _ := s.DelayStabilityBound(3)
	_, err = EstimateH2Delay(&Throttler{Graph: g, Gamma: 1.01 * lim}, 3, 1, nil, rand.NewPCG(1, 2))
	assert.ErrorIs(t, err, ErrUnstable)
}
