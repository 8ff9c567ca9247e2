package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEstimateH2SmallPath: on P_5 a Rademacher probe is constant with
// probability 1/16, so the shifted solve of its projection P q = 0 must
// return x = 0 at once (not divide 0 by 0 and never converge). The
// estimates must match the closed forms over λ_k = 2 − 2 cos(πk/5)
// (spec throttlers.md §4.4).
// Each is a mean with a 95 % interval [Lo, Hi]; the truth must lie within
// two interval widths (≈ 8 standard errors: cannot fail by chance).
func TestEstimateH2SmallPath(t *testing.T) {
	const n = 5
	g := graphtest.Must(gen.Path(n))
	for _, gamma := range []float64{0.1, 0.5} {
		var rho1, rho2 float64
		for k := 1; k < n; k++ {
			l := 2 - 2*math.Cos(math.Pi*float64(k)/n)
			rho1 += 2 / (2 - gamma*l)
			rho2 += 1 / (gamma * l * (2 - gamma*l))
		}
		h, err := estimateH2(g, gamma, &estimate.TraceSettings{RelAcc: 0.05}, rand.NewPCG(1, 2))
		require.NoError(t, err, "γ = %v", gamma)
		require.Equal(t, loadlab.Success, h.Status, "γ = %v", gamma)
		assert.InDelta(t, rho1, h.Rho1.Mean, 2*(h.Rho1.Hi-h.Rho1.Lo), "γ = %v: ρ₁ %+v", gamma, h.Rho1)
		assert.InDelta(t, rho2, h.Rho2.Mean, 2*(h.Rho2.Hi-h.Rho2.Lo), "γ = %v: ρ₂ %+v", gamma, h.Rho2)
	}
	// The constant right-hand side alone: x = 0 after no iterations.
	s := graphtest.Must(laplacian.NewSolver(g, nil, rand.NewPCG(1, 1)))
	x := []float64{1, 2, 3, 4, 5}
	it, err := newShiftedCG(s.Operator(), 0.5, 1e-6, 10).solve(x, []float64{-1, -1, -1, -1, -1})
	require.NoError(t, err)
	assert.Equal(t, 0, it, "constant b: iterations")
	assert.Equal(t, 0.0, dense.Dot(x, x), "constant b: x = %v", x)
}

// TestEstimateH2SolveLimitStatus: a solve stopped by MaxIter returns the
// partial result with Status IterationLimit (docs/conventions.md).
func TestEstimateH2SolveLimitStatus(t *testing.T) {
	g := graphtest.Must(gen.Path(60))
	set := &estimate.TraceSettings{Solver: &laplacian.Settings{MaxIter: 2, Preconditioner: laplacian.Jacobi}}
	h, err := estimateH2(g, 0.1, set, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrNotConverged)
	assert.Equal(t, loadlab.IterationLimit, h.Status)
}

// Coverage of EstimateH2 against the spectral closed forms (spec §4.4)
// on a random weighted graph, over 150 seeds (binomial sd 1.8 %; we
// require ≥ 95 % − 3 sd for ρ₁ and ρ₂ each).
func TestEstimateH2Coverage(t *testing.T) {
	g := graphtest.SparseWeighted(t, 120, 0.06, 1, 41)
	ev, err := spectral.Spectrum(g)
	require.NoError(t, err)
	gamma := 1.6 / ev[len(ev)-1]
	var rho1, rho2 float64
	for _, l := range ev[1:] {
		rho1 += 2 / (2 - gamma*l)
		rho2 += 1 / (gamma * l * (2 - gamma*l))
	}
	const seeds = 150
	c1, c2 := 0, 0
	for seed := range uint64(seeds) {
		h, err := estimateH2(g, gamma, &estimate.TraceSettings{RelAcc: 0.05}, rand.NewPCG(seed, 5))
		require.NoError(t, err)
		require.True(t, h.Rho2.RelHalfWidth() <= 0.05 && h.Rho1.RelHalfWidth() <= 0.05 && math.Abs(h.Rho2T.Mean-gamma*h.Rho2.Mean) <= 1e-12*h.Rho2T.Mean, "seed %d: %+v", seed, h)
		if h.Rho1.Contains(rho1) {
			c1++
		}
		if h.Rho2.Contains(rho2) {
			c2++
		}
	}
	low := 0.95 - 3*math.Sqrt(0.95*0.05/seeds)
	assert.GreaterOrEqual(t, float64(c1)/seeds, low, "coverage ρ₁")
	assert.GreaterOrEqual(t, float64(c2)/seeds, low, "coverage ρ₂")
}

// TestEstimateH2Errors: an unstable or invalid γ of the internal entry
// point.
func TestEstimateH2Errors(t *testing.T) {
	g := graphtest.Must(gen.Cycle(12)) // λ_n = 4
	_, err := estimateH2(g, 0.6, nil, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrUnstable, "γ = 0.6 > 2/λ_n = 0.5")
	for _, gamma := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, err := estimateH2(g, gamma, nil, rand.NewPCG(1, 1))
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "γ = %v", gamma)
	}
}

// A single node has dispersions of exactly 0.
func TestEstimateH2SingleNode(t *testing.T) {
	g := graphtest.Must(wgraph.NewBuilder(1)).Build()
	h, err := estimateH2(g, 0.5, nil, graphtest.PCG(3))
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, h.Status)
	assert.Equal(t, 0.0, h.Rho1.Mean)
	assert.Equal(t, 0.0, h.Rho2.Mean)
}

// A graph with no nodes is bad data, not a panic (the renumbering that
// the H2 estimators share with the Kirchhoff estimator).
func TestEstimateH2NoNodes(t *testing.T) {
	empty := graphtest.Must(wgraph.FromEdges(0, nil))
	_, err := estimateH2(empty, 0.1, nil, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid, "EstimateH2, no nodes")
	_, err = EstimateGammaH2(empty, 1, nil, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrInvalid, "EstimateGammaH2, no nodes")
}

// EstimateH2 and EstimateNodalH2 against Rho and NodalRho: the
// stochastic intervals (fixed seeds) hold the dense values on a 400-node
// random weighted graph — widened by 1.5 for the totals (a failure is
// then a ≈ 3-sigma event); per node, at least 90 % of the intervals must
// hold their value (95 % nominal; the coverage rate itself is tested
// over seeds in TestEstimateNodalH2Coverage). Σ_j ρ_j = ρ on the dense
// path.
func TestEstimateH2AgainstDense(t *testing.T) {
	g := randomGraph(400, 0.02, rand.NewPCG(5, 5))
	s, err := NewSpectral(g)
	require.NoError(t, err)
	th := &Throttler{Graph: g, Gamma: 1.2 / s.LambdaMax()}
	e, err := EstimateH2(th, 2, &estimate.TraceSettings{RelAcc: 0.02}, rand.NewPCG(2, 2))
	require.NoError(t, err)
	ns, err := EstimateNodalH2(th, 2, &estimate.TraceSettings{RelAcc: 0.2}, rand.NewPCG(3, 3))
	require.NoError(t, err)
	for _, tc := range []Traffic{Case1, Case2, Case2T} {
		d, err := Rho(th, tc, 2)
		require.NoError(t, err, "%v dense", tc)
		est := e.Of(tc)
		assert.LessOrEqual(t, est.RelHalfWidth(), 0.02, "%v: stochastic %+v", tc, est)
		assert.InDelta(t, d, est.Mean, 1.5*est.HalfWidth(), "%v: stochastic %+v", tc, est)
		nd, err := NodalRho(nil, th, tc, 2)
		require.NoError(t, err)
		var sum float64
		for _, x := range nd {
			sum += x
		}
		assert.InDelta(t, d, sum, 1e-9*d, "%v: Σ ρ_j against ρ", tc) // two dense routes, κ ≈ 10²: rounding only
		nest := ns.Of(tc)
		require.LessOrEqual(t, nest.MaxRelHW, 0.2, "%v nodal stochastic", tc)
		hit := 0
		for j, x := range nest.Diag {
			if x.Contains(nd[j]) {
				hit++
			}
		}
		assert.GreaterOrEqual(t, float64(hit)/float64(len(nest.Diag)), 0.9, "%v: fraction of the nodal intervals that hold the dense value", tc)
	}
}
