package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGammaH2IntervalCoverage: the intervals of γ*_H2 and of
// ρ₂(γ*) = min ρ₂ from EstimateGammaH2Delay at τ = 1 and τ = 0 (where it
// is EstimateGammaH2) over 200 seeds at RelAcc 5 % against the dense
// values (Spectral.GammaH2Delay): the 30-node star (γ* at 96–97 % of the
// limit; τ = 1 and 0) and the 2⁵-node hypercube (80 %; τ = 1) (spec
// throttlers.md §12.15). With ρ₂'s interval taken at γ̂ alone, the
// star's ρ₂ at τ = 1 covered 0.82 on these seeds (the interval at γ̂ is a
// few 10⁻⁵ wide there, below ρ₂'s rise over γ̂'s error); with the union
// over γ*'s interval, 1.00. The kurtosis-matched degrees of freedom move
// the hypercube's γ* by about 1 % (measured over 1000 seeds in §12.15;
// a binomial sd at 200 seeds is 1.5 %, so this test does not separate
// them). Each rate must be ≥ 95 % − 3 binomial sd (≥ 90.4 %), and every
// run must answer within RelAcc. About 3 s.
func TestGammaH2IntervalCoverage(t *testing.T) {
	const seeds = 200
	low := 0.95 - 3*math.Sqrt(0.95*0.05/seeds)
	set := &estimate.TraceSettings{RelAcc: 0.05}
	for _, c := range []struct {
		name string
		g    *wgraph.Graph
		tau  int
	}{
		{"star 30", graphtest.Must(gen.Star(30)), 1},
		{"star 30", graphtest.Must(gen.Star(30)), 0},
		{"hypercube 5", graphtest.Must(gen.Hypercube(5)), 1},
	} {
		gs, rs, err := spectralOf(t, c.g).GammaH2Delay(c.tau, 1)
		require.NoError(t, err)
		cg, cr := 0, 0
		for seed := range uint64(seeds) {
			e, err := EstimateGammaH2Delay(c.g, c.tau, 1, set, rand.NewPCG(seed, 35))
			require.NoError(t, err, "%s τ=%d seed %d", c.name, c.tau, seed)
			require.True(t, e.Gamma.HalfWidth() <= 0.05*e.Gamma.Mean && e.Rho2.RelHalfWidth() <= 0.05)
			require.True(t, e.Rho2.Lo <= e.Rho2.Mean && e.Rho2.Mean <= e.Rho2.Hi)
			cg += b2i(e.Gamma.Contains(gs))
			cr += b2i(e.Rho2.Contains(rs))
		}
		t.Logf("%s τ=%d: coverage γ* %d, ρ₂(γ*) %d of %d", c.name, c.tau, cg, cr, seeds)
		assert.GreaterOrEqual(t, float64(cg)/seeds, low, "%s τ=%d: γ*", c.name, c.tau)
		assert.GreaterOrEqual(t, float64(cr)/seeds, low, "%s τ=%d: ρ₂", c.name, c.tau)
	}
}

// TestKurtosisDF checks the Satterthwaite degrees of freedom against
// their formula ν = (N − 1)/(1 + κ(N − 1)/(2N)) on large samples of
// known excess kurtosis κ: a normal sample (κ = 0, ν within 2 % of
// N − 1: the sample kurtosis of 10⁵ normal values has sd √(24/N) ≈
// 0.015), an exponential one (κ = 6, ν ≈ (N − 1)/4; the sample kurtosis
// has sd of about 0.5 at this N, so ν is checked to 15 %), a constant
// sample and one of 3 values (N − 1). kurtosisT keeps the mean and never
// narrows the interval.
func TestKurtosisDF(t *testing.T) {
	const n = 100000
	rng := rand.New(rand.NewPCG(1, 36))
	norm, expo := make([]float64, n), make([]float64, n)
	for i := range norm {
		norm[i], expo[i] = rng.NormFloat64(), rng.ExpFloat64()
	}
	assert.InDelta(t, n-1, kurtosisDF(norm), 0.02*n)
	want := (n - 1) / (1 + 6*float64(n-1)/(2*n))
	assert.InDelta(t, want, kurtosisDF(expo), 0.15*want)
	assert.Equal(t, 9.0, kurtosisDF(make([]float64, 10)))
	assert.Equal(t, 2.0, kurtosisDF([]float64{1, 5, 2}))
	vals := []float64{1, 1.1, 0.9, 1, 1.05, 0.95, 1, 9} // one large value: κ̂ > 0
	e := loadlab.Estimate{Mean: 2, StdErr: 1, Lo: 2 - 2.36, Hi: 2 + 2.36, N: len(vals)}
	k, df := kurtosisT(e, 0, vals)
	assert.Less(t, df, 7.0)
	assert.Equal(t, e.Mean, k.Mean)
	assert.Less(t, k.Lo, e.Lo)
	assert.Greater(t, k.Hi, e.Hi)
}

// TestRho2Union: the union of the intervals at the points of γ*'s
// interval, the mean kept; no root (N = 0) leaves the estimate as it is.
func TestRho2Union(t *testing.T) {
	gam := loadlab.Estimate{Mean: 1, Lo: 0.5, Hi: 2, N: 10}
	rho := loadlab.Estimate{Mean: 3, Lo: 2.9, Hi: 3.1, N: 10}
	var xs []float64
	at := func(x float64) loadlab.Estimate {
		xs = append(xs, x)
		return loadlab.Estimate{Mean: 3 + (x-1)*(x-1), Lo: 2.95 - x/10, Hi: 3.05 + (x-1)*(x-1)}
	}
	u := rho2Union(gam, rho, at)
	require.Len(t, xs, rho2Points)
	assert.Equal(t, 0.5, xs[0])
	assert.Equal(t, 2.0, xs[len(xs)-1])
	assert.Equal(t, 3.0, u.Mean)
	assert.InDelta(t, 2.95-0.2, u.Lo, 1e-15)
	assert.InDelta(t, 3.05+1, u.Hi, 1e-15)
	assert.Equal(t, rho, rho2Union(loadlab.Estimate{}, rho, at))
}

// TestEstimateGammaH2TopModeCoverage: γ*'s interval from the plain
// EstimateGammaH2 over 200 seeds against the dense γ*_H2 (spec
// throttlers.md §12.15). The 2⁵-node hypercube at RelAcc 5 %, where the
// top eigenvector's weight made the probes' g heavy-tailed (over 1000
// seeds 0.909 before the control variate, 88 misses above and 3 below;
// 0.959 after), must cover at least 95 % − 3 binomial sd (90.4 %); 200
// seeds do not separate the two (on these, 190 before, 188 after). The
// star of 21 nodes at RelAcc 1 % (0.917 over 1000 seeds before), whose g
// is affine in that weight, so that the control variate leaves each
// probe the exact g up to rounding, must cover at least 99 %: every
// interval holds γ* (1.000 over 1000 seeds; on these seeds 183 of 200,
// 0.915, before). About 3 s on a quiet host.
func TestEstimateGammaH2TopModeCoverage(t *testing.T) {
	const seeds = 200
	low := 0.95 - 3*math.Sqrt(0.95*0.05/seeds)
	for _, c := range []struct {
		name   string
		g      *wgraph.Graph
		relAcc float64
		want   float64
	}{
		{"hypercube 5", graphtest.Must(gen.Hypercube(5)), 0.05, low},
		{"star 21", graphtest.Must(gen.Star(21)), 0.01, 0.99},
	} {
		gs, _, err := spectralOf(t, c.g).GammaH2(1)
		require.NoError(t, err)
		cov, above := 0, 0
		for seed := range uint64(seeds) {
			e, err := EstimateGammaH2(c.g, 1, &estimate.TraceSettings{RelAcc: c.relAcc}, rand.NewPCG(seed, 37))
			require.NoError(t, err, "%s seed %d", c.name, seed)
			require.LessOrEqual(t, e.Gamma.HalfWidth(), c.relAcc*e.Gamma.Mean)
			cov += b2i(e.Gamma.Contains(gs))
			above += b2i(e.Gamma.Lo > gs)
		}
		t.Logf("%s: γ* coverage %d of %d (%d misses above)", c.name, cov, seeds, above)
		assert.GreaterOrEqual(t, float64(cov)/seeds, c.want, c.name)
	}
}
