package consensus

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// EstimateGammaH2 against the dense Spectral.GammaH2: on a 600-node
// random weighted graph the stochastic 95 % intervals (fixed seed) hold
// the dense values, widened by 1.5 so that a failure is a ≈ 3-sigma event
// (the coverage rate itself is tested over 120 seeds in
// TestEstimateGammaH2Coverage); ρ₂ scales with σ², γ*_H2 does not.
func TestEstimateGammaH2AgainstDense(t *testing.T) {
	g := randomGraph(600, 0.01, rand.NewPCG(3, 3))
	const sigma = 1.5
	s, err := NewSpectral(g)
	if err != nil {
		t.Fatal(err)
	}
	gam, rho, err := s.GammaH2(sigma)
	if err != nil {
		t.Fatal(err)
	}
	e, err := EstimateGammaH2(g, sigma, &estimate.TraceSettings{RelAcc: 0.01}, rand.NewPCG(1, 1))
	if err != nil || e.Status != loadlab.Success {
		t.Fatalf("stochastic: %+v, %v", e, err)
	}
	for _, c := range []struct {
		name  string
		est   loadlab.Estimate
		exact float64
	}{{"γ*", e.Gamma, gam}, {"ρ₂", e.Rho2, rho}} {
		if math.Abs(c.est.Mean-c.exact) > 1.5*max(c.est.Hi-c.est.Mean, c.est.Mean-c.est.Lo) {
			t.Errorf("%s: %+v, exact %v", c.name, c.est, c.exact)
		}
		if c.est.HalfWidth() > 0.01*c.est.Mean {
			t.Errorf("%s: %+v wider than 1 %%", c.name, c.est)
		}
	}
	t.Logf("dense γ* = %.6g ρ₂ = %.6g; stochastic %+v", gam, rho, e)
}

func TestEstimateGammaH2SigmaAndSettings(t *testing.T) {
	g := randomGraph(30, 0.2, rand.NewPCG(1, 1))
	src := rand.NewPCG(1, 1)
	for _, sigma := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := EstimateGammaH2(g, sigma, nil, src); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("σ = %v: err = %v, want ErrInvalid", sigma, err)
		}
	}
	for _, set := range []estimate.TraceSettings{{RelAcc: -0.1}, {RelAcc: math.NaN()}} {
		if _, err := EstimateGammaH2(g, 1, &set, src); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", set, err)
		}
	}
	b := newBuilder(4)
	must(b.SetEdge(0, 1, 1))
	must(b.SetEdge(2, 3, 1))
	if _, err := EstimateGammaH2(b.Build(), 1, nil, src); !errors.Is(err, loadlab.ErrDisconnected) {
		t.Errorf("disconnected: err = %v, want ErrDisconnected", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("nil source: no panic")
		}
	}()
	_, _ = EstimateGammaH2(g, 1, nil, nil)
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
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: 1.2 / s.LambdaMax()}
	e, err := EstimateH2(th, 2, &estimate.TraceSettings{RelAcc: 0.02}, rand.NewPCG(2, 2))
	if err != nil {
		t.Fatal(err)
	}
	ns, err := EstimateNodalH2(th, 2, &estimate.TraceSettings{RelAcc: 0.2}, rand.NewPCG(3, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []Traffic{Case1, Case2, Case2T} {
		d, err := Rho(th, tc, 2)
		if err != nil {
			t.Fatalf("%v dense: %v", tc, err)
		}
		if est := e.Of(tc); est.RelHalfWidth() > 0.02 || math.Abs(est.Mean-d) > 1.5*est.HalfWidth() {
			t.Errorf("%v: stochastic %+v, dense %v", tc, est, d)
		}
		nd, err := NodalRho(nil, th, tc, 2)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, x := range nd {
			sum += x
		}
		if math.Abs(sum-d) > 1e-9*d { // two dense routes, κ ≈ 10²: rounding only
			t.Errorf("%v: Σ ρ_j = %v, ρ = %v", tc, sum, d)
		}
		est := ns.Of(tc)
		if est.MaxRelHW > 0.2 {
			t.Fatalf("%v nodal stochastic: %v", tc, est.MaxRelHW)
		}
		hit := 0
		for j, x := range est.Diag {
			if x.Contains(nd[j]) {
				hit++
			}
		}
		if f := float64(hit) / float64(len(est.Diag)); f < 0.9 {
			t.Errorf("%v: %.3f of the nodal intervals hold the dense value", tc, f)
		}
	}
}

// Above spectral.DenseMaxNodes the bare-number entry points are exact or
// an error naming the estimator: Rho and NodalRho refuse with
// ErrTooLarge, and the estimators answer with their intervals.
func TestRhoLargeIsTooLarge(t *testing.T) {
	g, err := gen.RandomRegular(3000, 6, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: 0.15}
	if _, err := Rho(th, Case2, 1); !errors.Is(err, loadlab.ErrTooLarge) || !strings.Contains(err.Error(), "EstimateH2") {
		t.Errorf("Rho: err = %v, want ErrTooLarge naming EstimateH2", err)
	}
	if _, err := NodalRho(nil, th, Case2, 1); !errors.Is(err, loadlab.ErrTooLarge) || !strings.Contains(err.Error(), "EstimateNodalH2") {
		t.Errorf("NodalRho: err = %v, want ErrTooLarge naming EstimateNodalH2", err)
	}
	if _, err := spectral.KirchhoffIndex(g); !errors.Is(err, loadlab.ErrTooLarge) {
		t.Errorf("KirchhoffIndex: err = %v, want ErrTooLarge", err)
	}
	w, err := EstimateH2(th, 1, nil, rand.NewPCG(1, 1))
	if err != nil || w.Rho2.RelHalfWidth() > 0.01 {
		t.Errorf("EstimateH2: %+v, %v", w, err)
	}
}
