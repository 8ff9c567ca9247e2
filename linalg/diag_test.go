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
	const seeds, relAcc = 40, 0.2
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
	const seeds, relAcc = 40, 0.2
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
	d, err := EstimatePinvDiag(g, &TraceSettings{RelAcc: 1e-4, MaxProbes: 15}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || d.Status != loadlab.IterationLimit || d.Probes != 15 || len(d.Diag) != 12 {
		t.Errorf("MaxProbes: %v %v %v", d.Status, d.Probes, err)
	}
}
