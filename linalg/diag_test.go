package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
)

// coverageAcrossSeeds checks a per-node coverage experiment: frac[s] is
// the fraction of nodes whose interval held the exact value in seed s.
// The nodes of one run share probes, so their hits are correlated and a
// binomial count over nodes would overstate the precision; the seeds are
// independent, so the mean coverage is compared with 95 % using the
// standard error across seeds: it must not fall 3 standard errors (plus
// 1 % for the sequential stopping rule, which looks at every node) below.
func coverageAcrossSeeds(t *testing.T, name string, frac []float64) {
	t.Helper()
	var m, v float64
	for _, f := range frac {
		m += f / float64(len(frac))
	}
	for _, f := range frac {
		v += (f - m) * (f - m) / float64(len(frac)-1)
	}
	se := math.Sqrt(v / float64(len(frac)))
	if m < 0.94-3*se {
		t.Errorf("%s: mean per-node coverage %.3f (se %.3f), want ≈ 0.95", name, m, se)
	} else {
		t.Logf("%s: mean per-node coverage %.3f (se %.3f)", name, m, se)
	}
}

// Per-node coverage of EstimatePinvDiag against the dense diag(L†) over
// 60 seeds on a random weighted graph, with the requested accuracy met on
// every run.
func TestEstimatePinvDiagCoverage(t *testing.T) {
	g := sparseWeighted(t, 60, 0.1, 1, 51)
	var f SPDFactor
	a, alpha, err := LiftedLaplacian(g)
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
		d, err := EstimatePinvDiag(g, &TraceSettings{RelAcc: relAcc}, rand.NewPCG(uint64(s), 3))
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
	coverageAcrossSeeds(t, "diag(L†)", frac)
}

// Per-node coverage of EstimateNodalH2 against the dense nodal measures
// ρ₁,j = 2 (PQP)_jj and ρ₂,j = ½ [L†_jj/γ + (PQP)_jj] (spec §4.3) from
// the eigendecomposition.
func TestEstimateNodalH2Coverage(t *testing.T) {
	g := sparseWeighted(t, 60, 0.1, 1, 52)
	ev, vecs, err := SymEigen(must(g.Laplacian()), true)
	if err != nil {
		t.Fatal(err)
	}
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
		e, err := EstimateNodalH2(g, gamma, &TraceSettings{RelAcc: relAcc}, rand.NewPCG(uint64(s), 4))
		if err != nil {
			t.Fatal(err)
		}
		if e.Rho1.MaxRelHW > relAcc || e.Rho2.MaxRelHW > relAcc {
			t.Fatalf("seed %d: %v %v", s, e.Rho1.MaxRelHW, e.Rho2.MaxRelHW)
		}
		for j := range n {
			if e.Rho1.Diag[j].Contains(r1[j]) {
				f1[s] += 1 / float64(n)
			}
			if e.Rho2.Diag[j].Contains(r2[j]) {
				f2[s] += 1 / float64(n)
			}
		}
	}
	coverageAcrossSeeds(t, "ρ₁,j", f1)
	coverageAcrossSeeds(t, "ρ₂,j", f2)
}

func TestEstimateDiagErrors(t *testing.T) {
	g := must(Cycle(12)) // λ_n = 4
	if _, err := EstimateNodalH2(g, 0.6, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrUnstable) {
		t.Errorf("γ = 0.6 > 2/λ_n: err = %v, want ErrUnstable", err)
	}
	for _, gamma := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := EstimateNodalH2(g, gamma, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("γ = %v: err = %v, want ErrInvalid", gamma, err)
		}
	}
	if _, err := EstimatePinvDiag(g, &TraceSettings{RelAcc: -1}, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("RelAcc = -1: err = %v", err)
	}
	// A 2000-cycle (κ(L) ≈ 4·10⁵): no polynomial of degree ≤ 25 fits 1/λ
	// on its spectrum, so per node the probe values keep a relative
	// spread far above one and 1 % would take millions of probes; the
	// default settings stop after MinProbes with ErrNotConverged.
	big := must(Cycle(2000))
	d, err := EstimatePinvDiag(big, nil, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || d.Status != loadlab.IterationLimit || d.Probes != DefaultTraceMinProbes || len(d.Diag) != 2000 {
		t.Errorf("2000-cycle at 1 %%: %v %v %v", d.Status, d.Probes, err)
	}
	e, err := EstimateNodalH2(big, 0.4, &TraceSettings{MaxProbes: 12}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || e.Rho2.Status != loadlab.IterationLimit || e.Rho2.Probes > 12 {
		t.Errorf("2000-cycle nodal: %v %v %v", e.Rho2.Status, e.Rho2.Probes, err)
	}
}

// At the default 1 % on a random 6-regular graph of 600 nodes, where the
// control variate has at least the depth it has at 10⁶ nodes (K ≥ 8; the
// balls of the small graph saturate, so the budget allows more), the
// estimates meet RelAcc within a few dozen probes and their per-node
// intervals cover the dense diag(L†) and ρ₂,j at their stated rate.
func TestNodalDefaultAccuracyRegular(t *testing.T) {
	g, err := RandomRegular(600, 6, rand.NewPCG(8, 8))
	if err != nil {
		t.Fatal(err)
	}
	ev, vecs, err := SymEigen(must(g.Laplacian()), true)
	if err != nil {
		t.Fatal(err)
	}
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
		d, err := EstimatePinvDiag(g, nil, rand.NewPCG(uint64(s), 6))
		if err != nil || d.Degree < 8 || d.Probes > 40 {
			t.Fatalf("seed %d: diag L†: %v, K = %d, %d probes", s, err, d.Degree, d.Probes)
		}
		e, err := EstimateNodalH2(g, gamma, nil, rand.NewPCG(uint64(s), 7))
		if err != nil || e.Rho2.Probes > 40 {
			t.Fatalf("seed %d: nodal: %v, %d probes", s, err, e.Rho2.Probes)
		}
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
	coverageAcrossSeeds(t, "diag(L†), 1 %", fd)
	coverageAcrossSeeds(t, "ρ₂,j, 1 %", f2)
}

// The pilot keeps the plain probe values when the control variate adds
// variance: a polynomial fitted on [0.01, 0.02] while a random 6-regular
// graph's spectrum lies in [1.5, 10.5] is huge on all of it, so
// after MinProbes the estimator must drop it (degree 0) and still meet a
// loose RelAcc with plain Hutchinson probes; with the fitted interval it
// keeps it.
func TestDiagPilotChoosesPlain(t *testing.T) {
	g := must(RandomRegular(400, 6, rand.NewPCG(4, 4)))
	ts, solverSet := diagSettings(&TraceSettings{RelAcc: 0.2})
	s, err := NewLaplacianSolver(g, &solverSet, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	lm := must(newLapMatrix(g))
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
		e, err := nodalH2Probes(NodalH2Estimate{}, s, cv, 0.15, ts, rand.New(rand.NewPCG(6, 6)))
		if err != nil || e.Rho2.Degree != c.want || e.Rho1.Degree != c.want {
			t.Errorf("nodal, interval [%v, %v]: degree %d (want %d), %d probes, err %v", c.a, c.b, e.Rho2.Degree, c.want, e.Rho2.Probes, err)
		}
	}
}
