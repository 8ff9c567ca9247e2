package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Per-node coverage of EstimateNodalH2 against the dense nodal measures
// ρ₁,j = 2 (PQP)_jj and ρ₂,j = ½ [L†_jj/γ + (PQP)_jj] (spec §4.3) from
// the eigendecomposition.
func TestEstimateNodalH2Coverage(t *testing.T) {
	g := graphtest.SparseWeighted(t, 60, 0.1, 1, 52)
	ev, vecs, err := spectral.SymEigen(graphtest.Must(g.Laplacian()), true)
	require.NoError(t, err)
	gamma := 1.5 / ev[len(ev)-1]
	n := g.Order()
	r1, r2 := make([]float64, n), make([]float64, n)
	for j := range n {
		for i := 1; i < n; i++ {
			v2 := vecs.At(j, i) * vecs.At(j, i)
			u := gamma * ev[i]
			r1[j] += 2 / (2 - u) * v2
			r2[j] += 1 / (u * (2 - u)) * v2
		}
	}
	const seeds, relAcc = 40, 0.02
	f1, f2 := make([]float64, seeds), make([]float64, seeds)
	for s := range seeds {
		e, err := estimateNodalH2(g, gamma, &estimate.TraceSettings{RelAcc: relAcc}, rand.NewPCG(uint64(s), 4))
		require.NoError(t, err)
		require.True(t, e.Rho1.MaxRelHW <= relAcc && e.Rho2.MaxRelHW <= relAcc, "seed %d: %v %v", s, e.Rho1.MaxRelHW, e.Rho2.MaxRelHW)
		for j := range n {
			if e.Rho1.Diag[j].Contains(r1[j]) {
				f1[s] += 1 / float64(n)
			}
			if e.Rho2.Diag[j].Contains(r2[j]) {
				f2[s] += 1 / float64(n)
			}
		}
	}
	graphtest.CoverageAcrossSeeds(t, "ρ₁,j", f1)
	graphtest.CoverageAcrossSeeds(t, "ρ₂,j", f2)
}

// At the default 1 % on a random 6-regular graph of 600 nodes, where the
// control variate has at least the depth it has at 10⁶ nodes (K ≥ 8; the
// balls of the small graph saturate, so the budget allows more), the
// estimates meet RelAcc within a few dozen probes and their per-node
// intervals cover the dense diag(L†) and ρ₂,j at their stated rate.
func TestNodalDefaultAccuracyRegular(t *testing.T) {
	g, err := gen.RandomRegular(600, 6, rand.NewPCG(8, 8))
	require.NoError(t, err)
	ev, vecs, err := spectral.SymEigen(graphtest.Must(g.Laplacian()), true)
	require.NoError(t, err)
	n := g.Order()
	gamma := 1.5 / ev[n-1]
	lp, r2 := make([]float64, n), make([]float64, n)
	for j := range n {
		for i := 1; i < n; i++ {
			v2 := vecs.At(j, i) * vecs.At(j, i)
			lp[j] += v2 / ev[i]
			r2[j] += v2 / (gamma * ev[i] * (2 - gamma*ev[i]))
		}
	}
	const seeds = 30
	fd, f2 := make([]float64, seeds), make([]float64, seeds)
	for s := range seeds {
		d, err := estimate.PinvDiag(g, nil, rand.NewPCG(uint64(s), 6))
		require.NoError(t, err, "seed %d: diag L†", s)
		require.True(t, d.Degree >= 8 && d.Probes <= 40, "seed %d: diag L†: K = %d, %d probes", s, d.Degree, d.Probes)
		e, err := estimateNodalH2(g, gamma, nil, rand.NewPCG(uint64(s), 7))
		require.NoError(t, err, "seed %d: nodal", s)
		require.LessOrEqual(t, e.Rho2.Probes, 40, "seed %d: nodal probes", s)
		for j := range n {
			if d.Diag[j].Contains(lp[j]) {
				fd[s] += 1 / float64(n)
			}
			if e.Rho2.Diag[j].Contains(r2[j]) {
				f2[s] += 1 / float64(n)
			}
		}
		if s == 0 {
			t.Logf("probes %d (diag L†), %d (nodal); largest half-widths %.3g, %.3g", d.Probes, e.Rho2.Probes, d.MaxRelHW, e.Rho2.MaxRelHW)
		}
	}
	graphtest.CoverageAcrossSeeds(t, "diag(L†), 1 %", fd)
	graphtest.CoverageAcrossSeeds(t, "ρ₂,j, 1 %", f2)
}

// TestEstimateNodalH2Errors: an unstable or invalid γ of the internal
// entry point, and MaxProbes short of RelAcc.
func TestEstimateNodalH2Errors(t *testing.T) {
	g := graphtest.Must(gen.Cycle(12)) // λ_n = 4
	_, err := estimateNodalH2(g, 0.6, nil, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrUnstable, "γ = 0.6 > 2/λ_n")
	for _, gamma := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		_, err := estimateNodalH2(g, gamma, nil, rand.NewPCG(1, 1))
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "γ = %v", gamma)
	}
	// The 2000-cycle of TestEstimateDiagErrors: the nodal estimate stops
	// at MaxProbes short of RelAcc.
	big := graphtest.Must(gen.Cycle(2000))
	e, err := estimateNodalH2(big, 0.4, &estimate.TraceSettings{MaxProbes: 12}, rand.NewPCG(1, 1))
	assert.ErrorIs(t, err, loadlab.ErrNotConverged, "2000-cycle nodal")
	assert.Equal(t, loadlab.IterationLimit, e.Rho2.Status, "2000-cycle nodal")
	assert.LessOrEqual(t, e.Rho2.Probes, 12, "2000-cycle nodal")
}
