package consensus

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a random 6-regular graph the deterministic bound λ_n ≤ 2d = 12
// already proves every γ of the search stable (γ*_H2 ≈ 1.556/λ_n with
// λ_n ≈ 6 + 2√5, so γ*_H2 ≈ 0.149 < 2/12 ≈ 0.167): EstimateGammaH2
// keeps the CertBounds bracket [6, 12] (δ = 0, no Lanczos) and its
// estimate still agrees with the dense root (within 4 of its standard
// errors, a 4σ band: a false alarm has probability ~6e-5).
func TestEstimateGammaH2BoundsBracket(t *testing.T) {
	g, err := gen.RandomRegular(1000, 6, rand.NewPCG(3, 3))
	require.NoError(t, err)
	e, err := EstimateGammaH2(g, 1, nil, rand.NewPCG(1, 2))
	require.NoError(t, err)
	assert.True(t, e.LambdaMax.Cert == spectral.CertBounds && e.LambdaMax.Delta == 0 && e.LambdaMax.Hi >= 12 && e.LambdaMax.Hi <= 12*(1+1e-12) && e.LambdaMax.Lo <= 6,
		"bracket %v cert %v δ %g, want the deterministic [6, 12]", e.LambdaMax, e.LambdaMax.Cert, e.LambdaMax.Delta)
	checkGammaH2Dense(t, g, e)
}

// A 40-clique joined by one edge to a random 3-regular graph of 960
// nodes: the bounds give λ_n ≤ about 2·40 (edge and Collatz–Wielandt
// bounds on the clique), twice λ_n ≈ 41, while the expander's 960 small
// eigenvalues (≤ 3 + 2√2) push γ*_H2 to about 1.9/λ_n, beyond the
// bounds' cap 2/80: the root cannot be reached under it, so
// EstimateGammaH2 must refine the bracket by Lanczos and still find the
// dense root (RelAcc 5 %: the clique's eigenvalues near 2/γ make ρ₂'s
// probes spread widely).
func TestEstimateGammaH2RefinesBracket(t *testing.T) {
	const k, n = 40, 1000
	r, err := gen.RandomRegular(n-k, 3, rand.NewPCG(5, 5))
	require.NoError(t, err)
	b := graphtest.Must(wgraph.NewBuilder(n))
	for u := range k {
		for v := u + 1; v < k; v++ {
			require.NoError(t, b.SetEdge(u, v, 1))
		}
	}
	for u := range n - k {
		for _, v := range r.Neighbors(u) {
			if int(v) > u {
				require.NoError(t, b.SetEdge(k+u, k+int(v), 1))
			}
		}
	}
	require.NoError(t, b.SetEdge(0, k, 1))
	g := b.Build()
	e, err := EstimateGammaH2(g, 1, &estimate.TraceSettings{RelAcc: 0.05}, rand.NewPCG(1, 2))
	require.NoError(t, err)
	assert.Equal(t, spectral.CertLanczos, e.LambdaMax.Cert, "bracket %v", e.LambdaMax)
	assert.Less(t, e.LambdaMax.Hi, 60.0, "bracket %v", e.LambdaMax)
	checkGammaH2Dense(t, g, e)
}

// checkGammaH2Dense compares an estimate with the dense γ*_H2 and ρ₂
// (4 standard errors each) and checks the certificate: every γ of the
// interval is below 2/λ_n⁺ and λ_n⁺ is above the dense λ_n.
func checkGammaH2Dense(t *testing.T, g *wgraph.Graph, e GammaH2Estimate) {
	t.Helper()
	ev, err := spectral.Spectrum(g)
	require.NoError(t, err)
	checkGammaH2Spectrum(t, ev, e)
}

// checkGammaH2Spectrum is checkGammaH2Dense with the spectrum given
// (ascending).
func checkGammaH2Spectrum(t *testing.T, ev []float64, e GammaH2Estimate) {
	t.Helper()
	gs, r2 := exactGammaH2(ev)
	ln := ev[len(ev)-1]
	assert.True(t, e.LambdaMax.Contains(ln), "λ_n = %v, bracket %v", ln, e.LambdaMax)
	assert.Less(t, e.Gamma.Hi, 2/e.LambdaMax.Hi, "γ interval [%v, %v], bracket %v", e.Gamma.Lo, e.Gamma.Hi, e.LambdaMax)
	assert.InDelta(t, gs, e.Gamma.Mean, 4*e.Gamma.StdErr, "γ* (se %v)", e.Gamma.StdErr)
	assert.InDelta(t, r2, e.Rho2.Mean, 4*e.Rho2.StdErr, "ρ₂ (se %v)", e.Rho2.StdErr)
}

// On a 2000-cycle (κ(L) = λ_n/λ₂ ≈ 4·10⁵) the Lanczos quadrature of
// the resistance term a = qᵀL†q would need thousands of steps, so the
// sampler must leave a to Laplacian solves (Iterations > 0, solveA) after
// at most resLanczosMax steps per probe, and still find the closed-form
// root (checkGammaH2Dense's 4σ band; RelAcc 10 %: on a cycle a probe's
// relative spread is about 0.6, so ~160 probes are needed).
func TestEstimateGammaH2SolveFallback(t *testing.T) {
	const n = 2000
	g := graphtest.Must(gen.Cycle(n))
	e, err := EstimateGammaH2(g, 1, &estimate.TraceSettings{RelAcc: 0.1}, rand.NewPCG(3, 4))
	require.NoError(t, err)
	assert.True(t, e.Iterations > 0 && e.MatVecs <= e.Probes*(lanczos.ResMax+2*lanczos.CheckSteps+1), "solves: %d iterations, %d products for %d probes", e.Iterations, e.MatVecs, e.Probes)
	t.Logf("%+v", e)
	ev, err := spectral.CycleSpectrum(n)
	require.NoError(t, err)
	slices.Sort(ev)
	checkGammaH2Spectrum(t, ev, e)
}

// The solve path computes the same estimator as the quadrature path:
// with the resistance term forced to solves (Tol 1e-10, so a's error is
// ≤ κ(L)·1e-20 relative), the estimates from the same 24 probes (RelAcc
// 5 %, met at MinProbes by both paths) agree to the quadratures'
// brackets: each probe's a within QuadRel·RelAcc = 5e-3 relative of its
// bracket's midpoint, which moves γ* and ρ₂ by less than that (their
// terms in a are below the whole). So the coverage test of the
// quadrature path (TestEstimateGammaH2Coverage, same graph) covers the
// solve path too.
func TestEstimateGammaH2SolvePathSame(t *testing.T) {
	g := graphtest.SparseWeighted(t, 150, 0.05, 1, 43)
	set := &estimate.TraceSettings{RelAcc: 0.05, MinProbes: 24, Solver: &laplacian.Settings{Tol: 1e-10}}
	tol := lanczos.QuadRel * set.RelAcc
	for seed := range uint64(5) {
		q, err := estimateGammaH2(g, set, rand.NewPCG(seed, 9), false)
		require.NoError(t, err)
		s, err := estimateGammaH2(g, set, rand.NewPCG(seed, 9), true)
		require.NoError(t, err)
		require.True(t, q.Iterations == 0 && s.Iterations > 0 && q.Probes == s.Probes, "seed %d: paths not as forced: %+v, %+v", seed, q, s)
		t.Logf("seed %d: rel. differences γ* %.2g, ρ₂ %.2g", seed, q.Gamma.Mean/s.Gamma.Mean-1, q.Rho2.Mean/s.Rho2.Mean-1)
		assert.InEpsilon(t, s.Gamma.Mean, q.Gamma.Mean, tol, "seed %d: γ*, quadrature against solves", seed)
		assert.InEpsilon(t, s.Rho2.Mean, q.Rho2.Mean, tol, "seed %d: ρ₂, quadrature against solves", seed)
	}
}

// EstimateH2 on a random 6-regular graph (κ(L) ≈ 7) takes the
// resistance term from the Lanczos quadrature, without solves, in about
// ten steps per probe (the bound 20 leaves a factor 2), and agrees with
// the dense ρ₁ and ρ₂ (4 standard errors).
func TestEstimateH2Quadrature(t *testing.T) {
	g, err := gen.RandomRegular(1000, 6, rand.NewPCG(3, 3))
	require.NoError(t, err)
	const gamma = 0.14
	e, err := estimateH2(g, gamma, nil, rand.NewPCG(1, 2))
	require.NoError(t, err)
	assert.True(t, e.Iterations == 0 && e.MatVecs <= 20*e.Probes && e.LambdaMax.Cert == spectral.CertBounds, "work: %+v", e)
	ev, err := spectral.Spectrum(g)
	require.NoError(t, err)
	var rho1, rho2 float64
	for _, l := range ev[1:] {
		rho1 += 2 / (2 - gamma*l)
		rho2 += 1 / (gamma * l * (2 - gamma*l))
	}
	assert.InDelta(t, rho1, e.Rho1.Mean, 4*e.Rho1.StdErr, "ρ₁ (se %v)", e.Rho1.StdErr)
	assert.InDelta(t, rho2, e.Rho2.Mean, 4*e.Rho2.StdErr, "ρ₂ (se %v)", e.Rho2.StdErr)
}

// moveCap narrows the λ_n bracket step by step once the gap is at its
// smallest: bounds → Lanczos at 1 % → each time at most 1/16 of the last
// relative width, each bracket still containing the dense λ_n, until the
// width would fall below capMinWidth or no narrower bracket comes.
func TestMoveCapNarrowsBracket(t *testing.T) {
	g, err := gen.RandomRegular(1000, 6, rand.NewPCG(3, 3))
	require.NoError(t, err)
	ev, err := spectral.Spectrum(g)
	require.NoError(t, err)
	mat, err := lapmat.New(g)
	require.NoError(t, err)
	br, err := spectral.LambdaMaxBounds(g)
	require.NoError(t, err)
	ts, solverSet := (&estimate.TraceSettings{}).Resolved()
	hs := newH2Sampler(g, mat, solverSet, 1, br, ts)
	last := math.Inf(1)
	for step := 0; ; step++ {
		hs.gap = capMinGap
		moved, err := hs.moveCap()
		require.NoError(t, err)
		if !moved {
			require.GreaterOrEqual(t, step, 2, "stopped after %d narrowings at %v", step, hs.br)
			break
		}
		w := hs.br.Width() / hs.br.Lo
		require.True(t, hs.br.Cert == spectral.CertLanczos && hs.br.Contains(ev[len(ev)-1]) && (w <= last/16 || step == 0) && hs.gap == capFirstGap && hs.lmax == hs.br.Hi,
			"step %d: bracket %v (width %g after %g), λ_n %v, gap %v", step, hs.br, w, last, ev[len(ev)-1], hs.gap)
		last = w
	}
}
