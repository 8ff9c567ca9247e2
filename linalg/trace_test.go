package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"gonum.org/v1/gonum/floats"
)

// Coverage over many seeds: the 95 % interval of EstimateKirchhoff must
// hold the exact (dense) Kirchhoff index at about its stated rate. With
// 300 seeds the binomial standard deviation of the coverage is 1.3 %;
// we require ≥ 95 % − 3 sd ≈ 91 %. The stopping rule also guarantees the
// requested relative half-width, checked on every run.
func TestEstimateKirchhoffCoverage(t *testing.T) {
	// Mean degree 30: λ₂ far from 0, so every probe's quadrature settles
	// (the Lanczos path never falls back to solves on this graph).
	g := sparseWeighted(t, 150, 0.2, 2, 31)
	exact, err := KirchhoffIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	// Both estimators of a well-conditioned graph: the default rule takes
	// the Lanczos quadrature here (checked), and Hutchinson's with solves.
	for _, force := range []TraceEstimator{EstimatorLanczos, EstimatorHutchinson} {
		const seeds, relAcc = 300, 0.05
		covered := 0
		for seed := range uint64(seeds) {
			res, err := estimateKirchhoff(g, &TraceSettings{RelAcc: relAcc}, rand.NewPCG(seed, 77), force)
			if err != nil {
				t.Fatal(err)
			}
			if res.Estimator != force || res.Estimate.RelHalfWidth() > relAcc || res.Probes != res.Estimate.N {
				t.Fatalf("%v, seed %d: %+v", force, seed, res)
			}
			if res.Estimate.Contains(exact) {
				covered++
			}
		}
		sd := math.Sqrt(0.95 * 0.05 / seeds)
		if c := float64(covered) / seeds; c < 0.95-3*sd {
			t.Errorf("%v: coverage %.3f, want ≈ 0.95 (≥ %.3f)", force, c, 0.95-3*sd)
		}
	}
	if res, err := EstimateKirchhoff(g, nil, rand.NewPCG(1, 77)); err != nil || res.Estimator != EstimatorLanczos {
		t.Errorf("default rule: %+v, %v; want the Lanczos quadrature", res, err)
	}
}

// Closed forms (spec §9) on a torus and a hypercube; fixed seeds, so the
// check is deterministic, and the tolerance is the estimate's own 95 %
// interval widened by 1.5 (a miss would be a 3-sigma event).
func TestEstimateKirchhoffClosedForms(t *testing.T) {
	cases := []struct {
		name string
		g    *Graph
		want float64
	}{
		{"torus 24x24", must(Torus(24, 24)), must(TorusKirchhoff(24, 24))},
		{"hypercube 10", must(Hypercube(10)), must(HypercubeKirchhoff(10))},
	}
	for _, c := range cases {
		res, err := EstimateKirchhoff(c.g, &TraceSettings{RelAcc: 0.02}, rand.NewPCG(4, 2))
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.Estimate.Mean-c.want) > 1.5*res.Estimate.HalfWidth() {
			t.Errorf("%s: %v, want %v", c.name, res.Estimate, c.want)
		}
		t.Logf("%s: %d probes, %+v, exact %v", c.name, res.Probes, res.Estimate, c.want)
	}
}

func TestEstimateKirchhoffErrors(t *testing.T) {
	for _, s := range []TraceSettings{{RelAcc: -1}, {RelAcc: math.NaN()}, {RelAcc: 1}, {MinProbes: 1}, {MaxProbes: -1}, {MinProbes: 20, MaxProbes: 10}} {
		if _, err := EstimateKirchhoff(must(Path(5)), &s, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", s, err)
		}
	}
	// A graph with no nodes is bad data, not a panic (the renumbering
	// that the quadrature attempt and the H2 estimators share).
	empty := must(FromEdges(0, nil))
	if _, err := EstimateKirchhoff(empty, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("EstimateKirchhoff, no nodes: err = %v, want ErrInvalid", err)
	}
	if _, err := EstimateH2(empty, 0.1, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("EstimateH2, no nodes: err = %v, want ErrInvalid", err)
	}
	if _, err := EstimateGammaH2(empty, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("EstimateGammaH2, no nodes: err = %v, want ErrInvalid", err)
	}
	res, err := EstimateKirchhoff(must(Torus(10, 10)), &TraceSettings{RelAcc: 1e-6, MaxProbes: 12}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || res.Status != loadlab.IterationLimit || res.Probes != 12 || res.Estimate.N != 12 {
		t.Errorf("MaxProbes: %+v, %v", res, err)
	}
}

// Coverage of EstimateH2 against the spectral closed forms (spec §4.4)
// on a random weighted graph, over 150 seeds (binomial sd 1.8 %; we
// require ≥ 95 % − 3 sd for ρ₁ and ρ₂ each).
func TestEstimateH2Coverage(t *testing.T) {
	g := sparseWeighted(t, 120, 0.06, 1, 41)
	ev, err := Spectrum(g)
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
		h, err := EstimateH2(g, gamma, &TraceSettings{RelAcc: 0.05}, rand.NewPCG(seed, 5))
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
	g := must(Cycle(12)) // λ_n = 4
	if _, err := EstimateH2(g, 0.6, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrUnstable) {
		t.Errorf("γ = 0.6 > 2/λ_n = 0.5: err = %v, want ErrUnstable", err)
	}
	for _, gamma := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := EstimateH2(g, gamma, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("γ = %v: err = %v, want ErrInvalid", gamma, err)
		}
	}
}

// EstimateKirchhoff solves its probes in blocks, but sees the same probes
// in the same order as one solve per probe: the reference below draws
// them from the same source path (the solver takes one number first) and
// solves them one by one. The torus needs more than MinProbes probes at
// 3 %, so later blocks and the discarding of a block's tail are
// exercised. Each value n qᵀx differs from the reference by the solves'
// error only: |qᵀ(x − x')| ≤ ‖q‖ ‖L†‖ 2 Tol ‖q‖ = 2n·Tol/λ₂ relative to
// qᵀL†q ≥ n/λ_n, i.e. 2 Tol κ ≈ 2e-6·81 = 1.6e-4 here (κ(L) of the
// 20 × 20 torus is 8/(2 − 2cos(2π/20)) ≈ 81): 1e-3 relative is safe.
func TestEstimateKirchhoffSameProbesAsSingleSolves(t *testing.T) {
	g := must(Torus(20, 20))
	set := &TraceSettings{RelAcc: 0.03, Solver: &SolverSettings{Preconditioner: Jacobi}}
	// Forced onto Hutchinson's estimator: under the default rule the
	// Lanczos-quadrature attempt (which the torus fails) draws first.
	got, err := estimateKirchhoff(g, set, rand.NewPCG(3, 4), EstimatorHutchinson)
	if err != nil {
		t.Fatal(err)
	}
	src := rand.NewPCG(3, 4)
	ts, ss := set.resolved()
	s, err := NewLaplacianSolver(g, &ss, src)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(src)
	n := g.Order()
	q, x := make([]float64, n), make([]float64, n)
	var vals []float64
	for {
		rademacher(q, rng)
		if _, err := s.Solve(x, q); err != nil {
			t.Fatal(err)
		}
		vals = append(vals, float64(n)*floats.Dot(q, x))
		if len(vals) >= ts.MinProbes && summarize(vals).RelHalfWidth() <= ts.RelAcc {
			break
		}
	}
	want := summarize(vals)
	t.Logf("%d probes, mean %v (one by one %v)", got.Probes, got.Estimate.Mean, want.Mean)
	if got.Probes != len(vals) || got.Probes <= ts.MinProbes || math.Abs(got.Estimate.Mean-want.Mean) > 1e-3*want.Mean {
		t.Errorf("block probes: %d, mean %v; one by one: %d, mean %v (want > %d probes)", got.Probes, got.Estimate.Mean, len(vals), want.Mean, ts.MinProbes)
	}
}
