package consensus

import (
	"errors"
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
// probability 1/16, and the shifted solve of its projection P q = 0 used
// to divide 0 by 0 and never converge. The estimates must now match the
// closed forms over λ_k = 2 − 2 cos(πk/5) (spec throttlers.md §4.4).
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
		if err != nil || h.Status != loadlab.Success {
			t.Fatalf("γ = %v: %v, status %v", gamma, err, h.Status)
		}
		if math.Abs(h.Rho1.Mean-rho1) > 2*(h.Rho1.Hi-h.Rho1.Lo) || math.Abs(h.Rho2.Mean-rho2) > 2*(h.Rho2.Hi-h.Rho2.Lo) {
			t.Errorf("γ = %v: ρ₁ %+v (want %v), ρ₂ %+v (want %v)", gamma, h.Rho1, rho1, h.Rho2, rho2)
		}
	}
	// The constant right-hand side alone: x = 0 after no iterations.
	s := graphtest.Must(laplacian.NewSolver(g, nil, rand.NewPCG(1, 1)))
	x := []float64{1, 2, 3, 4, 5}
	if it, err := newShiftedCG(s.Operator(), 0.5, 1e-6, 10).solve(x, []float64{-1, -1, -1, -1, -1}); it != 0 || err != nil || dense.Dot(x, x) != 0 {
		t.Errorf("constant b: %d iterations, %v, x = %v", it, err, x)
	}
}

// TestEstimateH2SolveLimitStatus: a solve stopped by MaxIter returns the
// partial result with Status IterationLimit (docs/conventions.md).
func TestEstimateH2SolveLimitStatus(t *testing.T) {
	g := graphtest.Must(gen.Path(60))
	set := &estimate.TraceSettings{Solver: &laplacian.Settings{MaxIter: 2, Preconditioner: laplacian.Jacobi}}
	h, err := estimateH2(g, 0.1, set, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || h.Status != loadlab.IterationLimit {
		t.Errorf("err = %v, status %v, want ErrNotConverged, IterationLimit", err, h.Status)
	}
}

// Coverage of EstimateH2 against the spectral closed forms (spec §4.4)
// on a random weighted graph, over 150 seeds (binomial sd 1.8 %; we
// require ≥ 95 % − 3 sd for ρ₁ and ρ₂ each).
func TestEstimateH2Coverage(t *testing.T) {
	g := graphtest.SparseWeighted(t, 120, 0.06, 1, 41)
	ev, err := spectral.Spectrum(g)
	if err != nil {
		t.Fatal(err)
	}
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
		if err != nil {
			t.Fatal(err)
		}
		if h.Rho2.RelHalfWidth() > 0.05 || h.Rho1.RelHalfWidth() > 0.05 || math.Abs(h.Rho2T.Mean-gamma*h.Rho2.Mean) > 1e-12*h.Rho2T.Mean {
			t.Fatalf("seed %d: %+v", seed, h)
		}
		if h.Rho1.Contains(rho1) {
			c1++
		}
		if h.Rho2.Contains(rho2) {
			c2++
		}
	}
	low := 0.95 - 3*math.Sqrt(0.95*0.05/seeds)
	if f1, f2 := float64(c1)/seeds, float64(c2)/seeds; f1 < low || f2 < low {
		t.Errorf("coverage ρ₁ %.3f, ρ₂ %.3f, want ≥ %.3f", f1, f2, low)
	}
}

func TestEstimateH2Errors(t *testing.T) {
	g := graphtest.Must(gen.Cycle(12)) // λ_n = 4
	if _, err := estimateH2(g, 0.6, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrUnstable) {
		t.Errorf("γ = 0.6 > 2/λ_n = 0.5: err = %v, want ErrUnstable", err)
	}
	for _, gamma := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := estimateH2(g, gamma, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("γ = %v: err = %v, want ErrInvalid", gamma, err)
		}
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
	if _, err := estimateH2(empty, 0.1, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("EstimateH2, no nodes: err = %v, want ErrInvalid", err)
	}
	if _, err := EstimateGammaH2(empty, 1, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("EstimateGammaH2, no nodes: err = %v, want ErrInvalid", err)
	}
}
