package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// In the decoupled regime (tr L† by Hutch++ once, the shifted traces by
// the probes, intervals by Welch–Satterthwaite) the 95 % intervals of
// γ*_H2 and ρ₂(γ*_H2) cover the dense values at their stated rate over
// 120 seeds (≥ 0.95 − 3 binomial standard errors), each estimate meets
// RelAcc, and the work shows the solves of tr L† (the Hutch++ sketch and
// residual probes), not one per probe. The 20 × 15 grid has κ(L) = 322,
// so a's quadrature is predicted past resLanczosMax steps.
func TestEstimateGammaH2DecoupledCoverage(t *testing.T) {
	checkGammaH2Coverage(t, graphtest.Must(gen.Grid(20, 15)), 11, func(e GammaH2Estimate) bool { return e.Solves > 0 })
}

// EstimateH2 at a fixed γ in the decoupled regime (a 24 × 16 torus,
// κ(L) = 117): ρ₂'s interval covers the dense value at its stated rate,
// ρ₁'s (no resistance term) too.
func TestEstimateH2DecoupledCoverage(t *testing.T) {
	g := graphtest.Must(gen.Torus(24, 16))
	ev, err := spectral.Spectrum(g)
	require.NoError(t, err)
	gamma := 1.2 / ev[len(ev)-1]
	var r1, r2 float64
	for _, l := range ev[1:] {
		r1 += 2 / (2 - gamma*l)
		r2 += 1 / (gamma * l * (2 - gamma*l))
	}
	const seeds, relAcc = 120, 0.02
	c1, c2 := 0, 0
	for seed := range uint64(seeds) {
		e, err := estimateH2(g, gamma, &estimate.TraceSettings{RelAcc: relAcc}, rand.NewPCG(seed, 12))
		require.NoError(t, err)
		require.True(t, e.Solves > 0 && e.Rho2.RelHalfWidth() <= relAcc && e.Rho1.RelHalfWidth() <= relAcc, "seed %d: %+v", seed, e)
		if e.Rho1.Contains(r1) {
			c1++
		}
		if e.Rho2.Contains(r2) {
			c2++
		}
	}
	graphtest.CheckRates(t, seeds, map[string]int{"ρ₁": c1, "ρ₂": c2})
}

// refineTrace runs again, more tightly, only when the part of a
// half-width due to tr L̂† exceeds traceRefine·RelAcc while the whole
// exceeds RelAcc, and by at most the factor 4 at a time.
func TestRefineTrace(t *testing.T) {
	g := graphtest.Must(gen.Grid(20, 15))
	mat, err := lapmat.New(g)
	require.NoError(t, err)
	ts, solverSet := (&estimate.TraceSettings{RelAcc: 0.02}).Resolved()
	hs := newH2Sampler(g, mat, solverSet, 5, spectral.Bracket{Lo: 8, Hi: 8}, ts)
	ran, err := hs.refineTrace([2]float64{1, 1})
	require.NoError(t, err)
	require.False(t, ran, "refined with the term off")
	require.NoError(t, hs.decouple(nil))
	require.Equal(t, 1, hs.res.runs, "first estimate: %+v", hs.res)
	require.Equal(t, traceShare*ts.RelAcc, hs.res.relAcc, "first estimate: %+v", hs.res)
	require.Positive(t, hs.solves, "first estimate: solves")
	for _, c := range [][2]float64{{0.019, 1}, {0.03, 0.01}} { // met; T's part 0.003 < 0.014
		ran, err := hs.refineTrace(c)
		assert.NoError(t, err, "check %v", c)
		assert.False(t, ran, "check %v refined", c)
	}
	// hw 0.03 all from T: target 0.014/0.03 → factor 0.467.
	ran, err = hs.refineTrace([2]float64{0.03, 1})
	require.NoError(t, err)
	require.True(t, ran, "not refined")
	want := traceShare * ts.RelAcc * traceRefine * ts.RelAcc / 0.03
	assert.Equal(t, 2, hs.res.runs)
	assert.InDelta(t, want, hs.res.relAcc, 1e-15) // one rounding of the product
	assert.True(t, hs.res.est.RelHalfWidth() <= hs.res.relAcc, "refined estimate %+v misses its accuracy %v", hs.res.est, hs.res.relAcc)
}
