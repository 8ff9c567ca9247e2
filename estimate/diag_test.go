package estimate

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Per-node coverage of PinvDiag against the dense diag(L†) over
// 60 seeds on a random weighted graph, with the requested accuracy met on
// every run.
func TestEstimatePinvDiagCoverage(t *testing.T) {
	g := graphtest.SparseWeighted(t, 60, 0.1, 1, 51)
	var f dense.SPDFactor
	a, alpha, err := spectral.LiftedLaplacian(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Factorize(a); err != nil {
		t.Fatal(err)
	}
	exact := f.InverseDiag(nil)
	for j := range exact {
		exact[j] -= 1 / (alpha * float64(g.Order())) // L† = (L + αJ/n)⁻¹ − J/(αn)
	}
	const seeds, relAcc = 40, 0.02
	frac := make([]float64, seeds)
	for s := range seeds {
		d, err := PinvDiag(g, &TraceSettings{RelAcc: relAcc}, rand.NewPCG(uint64(s), 3))
		if err != nil {
			t.Fatal(err)
		}
		if d.MaxRelHW > relAcc || d.Status != loadlab.Success {
			t.Fatalf("seed %d: %v %v", s, d.MaxRelHW, d.Status)
		}
		for j, e := range d.Diag {
			if e.Contains(exact[j]) {
				frac[s]++
			}
		}
		frac[s] /= float64(len(exact))
	}
	graphtest.CoverageAcrossSeeds(t, "diag(L†)", frac)
}

func TestEstimateDiagErrors(t *testing.T) {
	g := graphtest.Must(gen.Cycle(12))
	if _, err := PinvDiag(g, &TraceSettings{RelAcc: -1}, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("RelAcc = -1: err = %v", err)
	}
	// A 2000-cycle (κ(L) ≈ 4·10⁵): no polynomial of degree ≤ 25 fits 1/λ
	// on its spectrum, so per node the probe values keep a relative
	// spread far above one and 1 % would take millions of probes; the
	// default settings stop after MinProbes with ErrNotConverged.
	big := graphtest.Must(gen.Cycle(2000))
	d, err := PinvDiag(big, nil, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || d.Status != loadlab.IterationLimit || d.Probes != DefaultTraceMinProbes || len(d.Diag) != 2000 {
		t.Errorf("2000-cycle at 1 %%: %v %v %v", d.Status, d.Probes, err)
	}
}

// The pilot keeps the plain probe values when the control variate adds
// variance: a polynomial fitted on [0.01, 0.02] while a random 6-regular
// graph's spectrum lies in [1.5, 10.5] is huge on all of it, so
// after MinProbes the estimator must drop it (degree 0) and still meet a
// loose RelAcc with plain Hutchinson probes; with the fitted interval it
// keeps it.
func TestDiagPilotChoosesPlain(t *testing.T) {
	g := graphtest.Must(gen.RandomRegular(400, 6, rand.NewPCG(4, 4)))
	ts, solverSet := diagSettings(&TraceSettings{RelAcc: 0.2})
	s, err := laplacian.NewSolver(g, &solverSet, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	lm := graphtest.Must(lapmat.New(g))
	for _, c := range []struct {
		a, b float64
		want int
	}{{0.01, 0.02, 0}, {1.3, 12, 6}} {
		cv := &chebCV{n: g.Order(), a: c.a, b: c.b, k: 6, c1: 2 / (c.b - c.a), c0: -(c.a + c.b) / (c.b - c.a)}
		cv.mu = make([]float64, g.Order()*7)
		cv.moments(lm, 3)
		d, err := pinvDiagProbes(s, cv, ts, rand.New(rand.NewPCG(5, 5)))
		if err != nil || d.Degree != c.want {
			t.Errorf("interval [%v, %v]: degree %d (want %d), %d probes, err %v", c.a, c.b, d.Degree, c.want, d.Probes, err)
		}
		// Two terms and two outputs (as the nodal estimates): the pilot
		// judges all outputs together.
		pinv := DiagTerm{F: func(x float64) float64 { return 1 / x },
			Apply: func(dst, x []float64) (int, error) { r, err := s.Solve(dst, x); return r.Iterations, err }}
		proj := pinv
		proj.Project = true
		e, err := estimateDiagonals(s.Operator(), cv, []DiagTerm{pinv, proj}, [][]float64{{0, 2}, {0.5, 0.5}}, ts, rand.New(rand.NewPCG(6, 6)), "test")
		if err != nil || e[0].Degree != c.want || e[1].Degree != c.want {
			t.Errorf("two terms, interval [%v, %v]: degree %d (want %d), %d probes, err %v", c.a, c.b, e[1].Degree, c.want, e[1].Probes, err)
		}
	}
}
