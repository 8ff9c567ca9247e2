package consensus

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Coverage of EstimateGammaH2 against the dense spectrum over 120 seeds
// on a random weighted graph: both 95 % intervals (γ*_H2 and ρ₂ there)
// must hold the exact values at about their rate (binomial sd 2 %; we
// require ≥ 95 % − 3 sd ≈ 89 %), and every run must meet RelAcc.
func TestEstimateGammaH2Coverage(t *testing.T) {
	g := graphtest.SparseWeighted(t, 150, 0.05, 1, 43)
	checkGammaH2Coverage(t, g, 9, func(e GammaH2Estimate) bool { return true })
}

// checkGammaH2Coverage runs EstimateGammaH2 over 120 seeds (stream
// stream) at RelAcc 2 %: every run must meet RelAcc, have γ̂ inside its
// interval and pass ok, and the intervals of γ*_H2 and ρ₂(γ*_H2) must
// hold the dense values at ≥ 95 % − 3 binomial standard errors.
func checkGammaH2Coverage(t *testing.T, g *wgraph.Graph, stream uint64, ok func(GammaH2Estimate) bool) {
	t.Helper()
	ev, err := spectral.Spectrum(g)
	require.NoError(t, err)
	gstar, rstar := exactGammaH2(ev)
	const seeds, relAcc = 120, 0.02
	cg, cr := 0, 0
	for seed := range uint64(seeds) {
		e, err := EstimateGammaH2(g, 1, &estimate.TraceSettings{RelAcc: relAcc}, rand.NewPCG(seed, stream))
		require.NoError(t, err)
		require.True(t, ok(e) && e.Gamma.HalfWidth() <= relAcc*e.Gamma.Mean && e.Rho2.RelHalfWidth() <= relAcc && e.Gamma.Lo <= e.Gamma.Mean && e.Gamma.Mean <= e.Gamma.Hi, "seed %d: %+v", seed, e)
		if e.Gamma.Contains(gstar) {
			cg++
		}
		if e.Rho2.Contains(rstar) {
			cr++
		}
		if seed == 0 {
			t.Logf("exact γ* = %.6g ρ₂ = %.6g; %+v", gstar, rstar, e)
		}
	}
	graphtest.CheckRates(t, seeds, map[string]int{"γ*": cg, "ρ₂": cr})
}

// TestEstimateGammaH2MaxProbes: an estimate that reaches MaxProbes short
// of RelAcc returns its partial result with Status IterationLimit and
// ErrNotConverged. On this torus the probes' spread hands tr L† to
// Hutch++ after the first 10 probes (spec §12.11), whose own MaxProbes
// ends the run there. (Bad settings, σ, graphs and sources are rows of
// TestValidate.)
func TestEstimateGammaH2MaxProbes(t *testing.T) {
	res, err := EstimateGammaH2(graphtest.Must(gen.Torus(8, 8)), 1, &estimate.TraceSettings{RelAcc: 1e-6, MaxProbes: 12}, rand.NewPCG(1, 1))
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.IterationLimit, res.Status)
	assert.True(t, res.Probes >= 10 && res.Probes <= 12 && res.Gamma.N == res.Probes, "%+v", res)
}

// EstimateGammaH2 returns the same estimate bit for bit at GOMAXPROCS 1
// and 2 (n > blockLen, so the row blocks are split between goroutines).
func TestEstimateGammaH2Deterministic(t *testing.T) {
	g, err := gen.RandomRegular(10000, 6, rand.NewPCG(6, 6))
	require.NoError(t, err)
	run := func(procs int) GammaH2Estimate {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		e, err := EstimateGammaH2(g, 1, nil, rand.NewPCG(9, 9))
		require.NoError(t, err)
		return e
	}
	assert.Equal(t, run(1), run(2), "GOMAXPROCS 1 against 2")
}

// exactGammaH2 returns γ*_H2 and ρ₂(γ*_H2) (σ = 1) from a Laplacian
// spectrum (ascending, λ₁ = 0) by bisection on g (spec throttlers.md
// §5.1), the dense reference of EstimateGammaH2.
func exactGammaH2(ev []float64) (gamma, rho2 float64) {
	g := func(x float64) float64 {
		var s float64
		for _, l := range ev[1:] {
			u := x * l
			s += (1 - u) / (l * (2 - u) * (2 - u))
		}
		return s
	}
	ln, l2 := ev[len(ev)-1], ev[1]
	gamma = bisect(g, 1/ln, min(1/l2, 2/ln))
	for _, l := range ev[1:] {
		rho2 += 1 / (gamma * l * (2 - gamma*l))
	}
	return gamma, rho2
}

// EstimateGammaH2 against the dense Spectral.GammaH2: on a 600-node
// random weighted graph the stochastic 95 % intervals (fixed seed) hold
// the dense values, widened by 1.5 so that a failure is a ≈ 3-sigma event
// (the coverage rate itself is tested over 120 seeds in
// TestEstimateGammaH2Coverage); ρ₂ scales with σ², γ*_H2 does not.
func TestEstimateGammaH2AgainstDense(t *testing.T) {
	g := randomGraph(600, 0.01, rand.NewPCG(3, 3))
	const sigma = 1.5
	s, err := NewSpectral(g)
	require.NoError(t, err)
	gam, rho, err := s.GammaH2(sigma)
	require.NoError(t, err)
	e, err := EstimateGammaH2(g, sigma, &estimate.TraceSettings{RelAcc: 0.01}, rand.NewPCG(1, 1))
	require.NoError(t, err)
	require.Equal(t, loadlab.Success, e.Status, "stochastic: %+v", e)
	for _, c := range []struct {
		name  string
		est   loadlab.Estimate
		exact float64
	}{{"γ*", e.Gamma, gam}, {"ρ₂", e.Rho2, rho}} {
		assert.InDelta(t, c.exact, c.est.Mean, 1.5*max(c.est.Hi-c.est.Mean, c.est.Mean-c.est.Lo), "%s: %+v", c.name, c.est)
		assert.LessOrEqual(t, c.est.HalfWidth(), 0.01*c.est.Mean, "%s: %+v wider than 1 %%", c.name, c.est)
	}
	t.Logf("dense γ* = %.6g ρ₂ = %.6g; stochastic %+v", gam, rho, e)
}
