package estimate

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/gonum/floats"
)

// Coverage over many seeds: the 95 % interval of Kirchhoff must
// hold the exact (dense) Kirchhoff index at about its stated rate. With
// 300 seeds the binomial standard deviation of the coverage is 1.3 %;
// we require ≥ 95 % − 3 sd ≈ 91 %. The stopping rule also guarantees the
// requested relative half-width, checked on every run.
func TestEstimateKirchhoffCoverage(t *testing.T) {
	// Mean degree 30: λ₂ far from 0, so every probe's quadrature settles
	// (the Lanczos path never falls back to solves on this graph).
	g := graphtest.SparseWeighted(t, 150, 0.2, 2, 31)
	exact, err := spectral.KirchhoffIndex(g)
	if err != nil {
		t.Fatal(err)
	}
	// Both estimators of a well-conditioned graph: the default rule takes
	// the Lanczos quadrature here (checked), and Hutchinson's with solves.
	for _, force := range []TraceEstimator{EstimatorLanczos, EstimatorHutchinson} {
		const seeds, relAcc = 300, 0.05
		covered := 0
		for seed := range uint64(seeds) {
			res, err := Kirchhoff(g, &TraceSettings{RelAcc: relAcc, Estimator: force}, rand.NewPCG(seed, 77))
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
	if res, err := Kirchhoff(g, nil, rand.NewPCG(1, 77)); err != nil || res.Estimator != EstimatorLanczos {
		t.Errorf("default rule: %+v, %v; want the Lanczos quadrature", res, err)
	}
}

// Closed forms (spec §9) on a torus and a hypercube; fixed seeds, so the
// check is deterministic, and the tolerance is the estimate's own 95 %
// interval widened by 1.5 (a miss would be a 3-sigma event).
func TestEstimateKirchhoffClosedForms(t *testing.T) {
	cases := []struct {
		name string
		g    *wgraph.Graph
		want float64
	}{
		{"torus 24x24", graphtest.Must(gen.Torus(24, 24)), graphtest.Must(spectral.TorusKirchhoff(24, 24))},
		{"hypercube 10", graphtest.Must(gen.Hypercube(10)), graphtest.Must(spectral.HypercubeKirchhoff(10))},
	}
	for _, c := range cases {
		res, err := Kirchhoff(c.g, &TraceSettings{RelAcc: 0.02}, rand.NewPCG(4, 2))
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
		if _, err := Kirchhoff(graphtest.Must(gen.Path(5)), &s, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", s, err)
		}
	}
	// A graph with no nodes is bad data, not a panic (the renumbering
	// that the quadrature attempt and the H2 estimators share).
	empty := graphtest.Must(wgraph.FromEdges(0, nil))
	if _, err := Kirchhoff(empty, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("Kirchhoff, no nodes: err = %v, want ErrInvalid", err)
	}
	res, err := Kirchhoff(graphtest.Must(gen.Torus(10, 10)), &TraceSettings{RelAcc: 1e-6, MaxProbes: 12}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || res.Status != loadlab.IterationLimit || res.Probes != 12 || res.Estimate.N != 12 {
		t.Errorf("MaxProbes: %+v, %v", res, err)
	}
}

// Kirchhoff solves its probes in blocks, but sees the same probes
// in the same order as one solve per probe: the reference below draws
// them from the same source path (the solver takes one number first) and
// solves them one by one. The torus needs more than MinProbes probes at
// 3 %, so later blocks and the discarding of a block's tail are
// exercised. Each value n qᵀx differs from the reference by the solves'
// error only: |qᵀ(x − x')| ≤ ‖q‖ ‖L†‖ 2 Tol ‖q‖ = 2n·Tol/λ₂ relative to
// qᵀL†q ≥ n/λ_n, i.e. 2 Tol κ ≈ 2e-6·81 = 1.6e-4 here (κ(L) of the
// 20 × 20 torus is 8/(2 − 2cos(2π/20)) ≈ 81): 1e-3 relative is safe.
func TestEstimateKirchhoffSameProbesAsSingleSolves(t *testing.T) {
	g := graphtest.Must(gen.Torus(20, 20))
	// Forced onto Hutchinson's estimator: under the default rule the
	// Lanczos-quadrature attempt (which the torus fails) draws first.
	set := &TraceSettings{RelAcc: 0.03, Solver: &laplacian.Settings{Preconditioner: laplacian.Jacobi}, Estimator: EstimatorHutchinson}
	got, err := Kirchhoff(g, set, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	src := rand.NewPCG(3, 4)
	ts, ss := set.Resolved()
	s, err := laplacian.NewSolver(g, &ss, src)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(src)
	n := g.Order()
	q, x := make([]float64, n), make([]float64, n)
	var vals []float64
	for {
		w := drawCentred(q, rng)
		if _, err := s.Solve(x, q); err != nil {
			t.Fatal(err)
		}
		vals = append(vals, float64(n)*w*floats.Dot(q, x))
		if len(vals) >= ts.MinProbes && mc.Estimate(vals).RelHalfWidth() <= ts.RelAcc {
			break
		}
	}
	want := mc.Estimate(vals)
	t.Logf("%d probes, mean %v (one by one %v)", got.Probes, got.Estimate.Mean, want.Mean)
	if got.Probes != len(vals) || got.Probes <= ts.MinProbes || math.Abs(got.Estimate.Mean-want.Mean) > 1e-3*want.Mean {
		t.Errorf("block probes: %d, mean %v; one by one: %d, mean %v (want > %d probes)", got.Probes, got.Estimate.Mean, len(vals), want.Mean, ts.MinProbes)
	}
}

// A single node has L† = 0: a Kirchhoff index of exactly 0 (the
// estimator must stop, not divide 0 by 0 in its relative width), and no
// edges to sketch.
func TestEstimatorsSingleNode(t *testing.T) {
	g := graphtest.Must(wgraph.NewBuilder(1)).Build()
	k, err := Kirchhoff(g, nil, graphtest.PCG(2))
	if err != nil || k.Estimate.Mean != 0 || k.Status != loadlab.Success {
		t.Errorf("Kirchhoff: %+v, %v: want mean 0 and Success", k, err)
	}
	rs, err := NewResistanceSketch(g, nil, graphtest.PCG(4))
	if err != nil {
		t.Fatal(err)
	}
	if r := rs.Between(0, 0); r != 0 {
		t.Errorf("ResistanceSketch.Between(0, 0) = %v, want 0", r)
	}
	er, err := EdgeResistances(g, nil, graphtest.PCG(5))
	if err != nil || len(er.R) != 0 {
		t.Errorf("EdgeResistances: %v, %v: want no edges", er, err)
	}
}

// Coverage on skewed per-probe values (spec throttlers.md §12.12): with
// the weight ‖Pq‖² a probe's n qᵀL†q on a star is n − (Σq)²/n − … , a
// left-skewed χ²₁-type term that put the coverage of the default rule at
// 0.84–0.86 (measured over 1000 seeds: stars of 21 and 100 nodes,
// complete graphs). With the weight n − 1 and the first stop at 16
// probes, each case must cover at ≥ 95 % − 3 binomial sd (300 seeds:
// sd 1.26 %). The complete graph's values are all equal (zero spread):
// only the rounding floor of the brackets keeps its interval honest.
func TestEstimateKirchhoffSkewedCoverage(t *testing.T) {
	cases := []struct {
		name   string
		g      *wgraph.Graph
		relAcc float64
	}{
		{"star 100", graphtest.Must(gen.Star(100)), 0.01},
		{"star 101", graphtest.Must(gen.Star(101)), 0.01},
		{"star 21", graphtest.Must(gen.Star(21)), 0.05},
		{"complete 20", graphtest.Must(gen.Complete(20)), 0.05},
	}
	const seeds = 300
	low := 0.95 - 3*math.Sqrt(0.95*0.05/seeds)
	for _, c := range cases {
		exact := graphtest.Must(spectral.KirchhoffIndex(c.g))
		covered := 0
		for seed := range uint64(seeds) {
			res, err := Kirchhoff(c.g, &TraceSettings{RelAcc: c.relAcc}, rand.NewPCG(seed, 77))
			if err != nil {
				t.Fatal(c.name, err)
			}
			if res.Estimator != EstimatorLanczos {
				t.Fatalf("%s: %v, want the Lanczos quadrature", c.name, res.Estimator)
			}
			if res.Estimate.Contains(exact) {
				covered++
			}
		}
		t.Logf("%s: coverage %d/%d", c.name, covered, seeds)
		if f := float64(covered) / seeds; f < low {
			t.Errorf("%s: coverage %.3f, want ≥ %.3f", c.name, f, low)
		}
	}
}

// On two and three nodes a Rademacher probe has Pq = 0 with probability
// ½ and ¼; such a probe is drawn again (spec throttlers.md §12.12), so
// every probe's value is exact (L† is a multiple of P on two nodes; on
// the path of three the values vary) and the estimate unbiased. Before,
// the zero probes pulled the mean of the two-node graph to about half.
func TestEstimateKirchhoffTinyGraphs(t *testing.T) {
	for _, n := range []int{2, 3} {
		g := graphtest.Must(gen.Path(n))
		exact := graphtest.Must(spectral.KirchhoffIndex(g))
		for _, force := range []TraceEstimator{EstimatorLanczos, EstimatorHutchinson} {
			res, err := Kirchhoff(g, &TraceSettings{RelAcc: 0.05, Estimator: force}, rand.NewPCG(1, 2))
			if err != nil {
				t.Fatal(n, force, err)
			}
			if !res.Estimate.Contains(exact) || (n == 2 && math.Abs(res.Estimate.Mean-exact) > 1e-12*exact) {
				t.Errorf("path %d, %v: %+v, exact %v", n, force, res.Estimate, exact)
			}
		}
	}
}
