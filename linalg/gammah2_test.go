package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
)

// exactGammaH2 returns γ*_H2 and ρ₂(γ*_H2) (σ = 1) from a Laplacian
// spectrum (ascending, λ₁ = 0) by bisection on g (spec throttlers.md
// §5.1), the dense reference of EstimateGammaH2.
func exactGammaH2(ev []float64) (gamma, rho2 float64) {
	g := func(x float64) float64 {
		var s float64
		for _, l := range ev[1:] {
			u := x * l
			s += (1 - u) / (l * (2 - u) * (2 - u))
		}
		return s
	}
	ln, l2 := ev[len(ev)-1], ev[1]
	gamma = bisect(g, 1/ln, min(1/l2, 2/ln))
	for _, l := range ev[1:] {
		rho2 += 1 / (gamma * l * (2 - gamma*l))
	}
	return gamma, rho2
}

// Coverage of EstimateGammaH2 against the dense spectrum over 120 seeds
// on a random weighted graph: both 95 % intervals (γ*_H2 and ρ₂ there)
// must hold the exact values at about their rate (binomial sd 2 %; we
// require ≥ 95 % − 3 sd ≈ 89 %), and every run must meet RelAcc.
func TestEstimateGammaH2Coverage(t *testing.T) {
	g := sparseWeighted(t, 150, 0.05, 1, 43)
	checkGammaH2Coverage(t, g, 9, func(e GammaH2Estimate) bool { return true })
}

// checkGammaH2Coverage runs EstimateGammaH2 over 120 seeds (stream
// stream) at RelAcc 2 %: every run must meet RelAcc, have γ̂ inside its
// interval and pass ok, and the intervals of γ*_H2 and ρ₂(γ*_H2) must
// hold the dense values at ≥ 95 % − 3 binomial standard errors.
func checkGammaH2Coverage(t *testing.T, g *Graph, stream uint64, ok func(GammaH2Estimate) bool) {
	t.Helper()
	ev, err := Spectrum(g)
	if err != nil {
		t.Fatal(err)
	}
	gstar, rstar := exactGammaH2(ev)
	const seeds, relAcc = 120, 0.02
	cg, cr := 0, 0
	for seed := range uint64(seeds) {
		e, err := EstimateGammaH2(g, &TraceSettings{RelAcc: relAcc}, rand.NewPCG(seed, stream))
		if err != nil {
			t.Fatal(err)
		}
		if !ok(e) || e.Gamma.HalfWidth() > relAcc*e.Gamma.Mean || e.Rho2.RelHalfWidth() > relAcc || !(e.Gamma.Lo <= e.Gamma.Mean && e.Gamma.Mean <= e.Gamma.Hi) {
			t.Fatalf("seed %d: %+v", seed, e)
		}
		if e.Gamma.Contains(gstar) {
			cg++
		}
		if e.Rho2.Contains(rstar) {
			cr++
		}
		if seed == 0 {
			t.Logf("exact γ* = %.6g ρ₂ = %.6g; %+v", gstar, rstar, e)
		}
	}
	checkRates(t, seeds, map[string]int{"γ*": cg, "ρ₂": cr})
}

// checkRates checks coverage counts out of seeds runs against 95 %: each
// must be ≥ 0.95 − 3 binomial standard errors.
func checkRates(t *testing.T, seeds int, hits map[string]int) {
	t.Helper()
	low := 0.95 - 3*math.Sqrt(0.95*0.05/float64(seeds))
	for name, h := range hits {
		if f := float64(h) / float64(seeds); f < low {
			t.Errorf("coverage %s %.3f, want ≥ %.3f", name, f, low)
		} else {
			t.Logf("coverage %s %.3f", name, f)
		}
	}
}

// The quadratures of one probe agree with the dense quadratic forms
// (Pq)ᵀ(2I − γL)⁻ᵏ(Pq), k = 1, 2, and (Pq)ᵀL†(Pq) from the
// eigendecomposition, at γ up to the cap: with RelAcc = 1e-5 the
// quadratures settle to an estimated 1e-8 relative (quadRel·RelAcc), so
// 1e-6 leaves a factor 100 for the tail estimate's error.
func TestProbeQuadrature(t *testing.T) {
	g := sparseWeighted(t, 80, 0.1, 1, 7)
	ev, vecs, err := SymEigen(must(g.Laplacian()), true)
	if err != nil {
		t.Fatal(err)
	}
	mat, err := newLapMatrix(g)
	if err != nil {
		t.Fatal(err)
	}
	lmax := ev[len(ev)-1]
	set := (&SolverSettings{Tol: 1e-12}).resolved()
	hs := newH2Sampler(g, mat, set, 1, Bracket{Lo: lmax, Hi: lmax}, TraceSettings{RelAcc: 1e-5})
	hs.gap = 0.05
	p := &probeQuad{seed: 12345}
	if err := hs.runChunk([]*probeQuad{p}, false); err != nil {
		t.Fatal(err)
	}
	n := g.Order()
	q := make([]float64, n)
	probeVector(q, p.seed)
	var a float64
	proj := make([]float64, n)
	for i := 1; i < n; i++ {
		for u := range n {
			proj[i] += vecs.At(u, i) * q[u]
		}
		a += proj[i] * proj[i] / ev[i]
	}
	if math.Abs(p.a-a) > 1e-6*a {
		t.Errorf("a = %v (solveA %v), dense %v", p.a, hs.solveA, a)
	}
	for _, gamma := range []float64{0.5 / lmax, 1 / lmax, hs.gcap()} {
		var b, c float64
		for i := 1; i < n; i++ {
			d := 2 - gamma*ev[i]
			b += proj[i] * proj[i] / d
			c += proj[i] * proj[i] / (d * d)
		}
		gb, gc := p.shifted(gamma, &hs.qw)
		if math.Abs(gb-b) > 1e-6*b || math.Abs(gc-c) > 1e-6*c {
			t.Errorf("γ = %v: quadrature (%v, %v), dense (%v, %v)", gamma, gb, gc, b, c)
		}
	}
}

func TestEstimateGammaH2Errors(t *testing.T) {
	if _, err := EstimateGammaH2(must(Path(5)), &TraceSettings{RelAcc: -1}, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("RelAcc = -1: err = %v, want ErrInvalid", err)
	}
	b := must(NewBuilder(6))
	_ = b.SetEdge(0, 1, 1)
	_ = b.SetEdge(2, 3, 1)
	if _, err := EstimateGammaH2(b.Build(), nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrDisconnected) {
		t.Errorf("disconnected: err = %v, want ErrDisconnected", err)
	}
	if _, err := EstimateGammaH2(must(NewBuilder(1)).Build(), nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("one node: err = %v, want ErrInvalid", err)
	}
	res, err := EstimateGammaH2(must(Torus(8, 8)), &TraceSettings{RelAcc: 1e-6, MaxProbes: 12}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || res.Status != loadlab.IterationLimit || res.Probes != 12 {
		t.Errorf("MaxProbes: %+v, %v", res, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("nil source: no panic")
		}
	}()
	_, _ = EstimateGammaH2(must(Path(5)), nil, nil)
}
