package consensus

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Coverage of EstimateGammaH2 against the dense spectrum over 120 seeds
// on a random weighted graph: both 95 % intervals (γ*_H2 and ρ₂ there)
// must hold the exact values at about their rate (binomial sd 2 %; we
// require ≥ 95 % − 3 sd ≈ 89 %), and every run must meet RelAcc.
func TestEstimateGammaH2Coverage(t *testing.T) {
	g := graphtest.SparseWeighted(t, 150, 0.05, 1, 43)
	checkGammaH2Coverage(t, g, 9, func(e GammaH2Estimate) bool { return true })
}

// checkGammaH2Coverage runs EstimateGammaH2 over 120 seeds (stream
// stream) at RelAcc 2 %: every run must meet RelAcc, have γ̂ inside its
// interval and pass ok, and the intervals of γ*_H2 and ρ₂(γ*_H2) must
// hold the dense values at ≥ 95 % − 3 binomial standard errors.
func checkGammaH2Coverage(t *testing.T, g *wgraph.Graph, stream uint64, ok func(GammaH2Estimate) bool) {
	t.Helper()
	ev, err := spectral.Spectrum(g)
	if err != nil {
		t.Fatal(err)
	}
	gstar, rstar := ExactGammaH2(ev)
	const seeds, relAcc = 120, 0.02
	cg, cr := 0, 0
	for seed := range uint64(seeds) {
		e, err := EstimateGammaH2(g, 1, &estimate.TraceSettings{RelAcc: relAcc}, rand.NewPCG(seed, stream))
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
	graphtest.CheckRates(t, seeds, map[string]int{"γ*": cg, "ρ₂": cr})
}

func TestEstimateGammaH2Errors(t *testing.T) {
	if _, err := EstimateGammaH2(graphtest.Must(gen.Path(5)), 1, &estimate.TraceSettings{RelAcc: -1}, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("RelAcc = -1: err = %v, want ErrInvalid", err)
	}
	b := graphtest.Must(wgraph.NewBuilder(6))
	_ = b.SetEdge(0, 1, 1)
	_ = b.SetEdge(2, 3, 1)
	if _, err := EstimateGammaH2(b.Build(), 1, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrDisconnected) {
		t.Errorf("disconnected: err = %v, want ErrDisconnected", err)
	}
	if _, err := EstimateGammaH2(graphtest.Must(wgraph.NewBuilder(1)).Build(), 1, nil, rand.NewPCG(1, 1)); !errors.Is(err, loadlab.ErrInvalid) {
		t.Errorf("one node: err = %v, want ErrInvalid", err)
	}
	res, err := EstimateGammaH2(graphtest.Must(gen.Torus(8, 8)), 1, &estimate.TraceSettings{RelAcc: 1e-6, MaxProbes: 12}, rand.NewPCG(1, 1))
	if !errors.Is(err, loadlab.ErrNotConverged) || res.Status != loadlab.IterationLimit || res.Probes != 12 {
		t.Errorf("MaxProbes: %+v, %v", res, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("nil source: no panic")
		}
	}()
	_, _ = EstimateGammaH2(graphtest.Must(gen.Path(5)), 1, nil, nil)
}

// EstimateGammaH2 returns the same estimate bit for bit at GOMAXPROCS 1
// and 2 (n > blockLen, so the row blocks are split between goroutines).
func TestEstimateGammaH2Deterministic(t *testing.T) {
	g, err := gen.RandomRegular(10000, 6, rand.NewPCG(6, 6))
	if err != nil {
		t.Fatal(err)
	}
	run := func(procs int) GammaH2Estimate {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		e, err := EstimateGammaH2(g, 1, nil, rand.NewPCG(9, 9))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if a, b := run(1), run(2); a != b {
		t.Errorf("GOMAXPROCS 1: %+v\nGOMAXPROCS 2: %+v", a, b)
	}
}

// exactGammaH2 returns γ*_H2 and ρ₂(γ*_H2) (σ = 1) from a Laplacian
// spectrum (ascending, λ₁ = 0) by bisection on g (spec throttlers.md
// §5.1), the dense reference of EstimateGammaH2.
func ExactGammaH2(ev []float64) (gamma, rho2 float64) {
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
