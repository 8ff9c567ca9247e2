package consensus

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/linalg"
)

// The two paths of EstimateGammaH2 agree: on a 600-node random weighted
// graph the stochastic 95 % intervals (fixed seed) hold the dense
// values, widened by 1.5 so that a failure is a ≈ 3-sigma event (the
// coverage rate itself is tested over 120 seeds in linalg); ρ₂ scales
// with σ², γ*_H2 does not.
func TestEstimateGammaH2Paths(t *testing.T) {
	g := randomGraph(600, 0.01, rand.NewPCG(3, 3))
	const sigma = 1.5
	d, err := EstimateGammaH2(g, sigma, nil, rand.NewPCG(1, 1))
	if err != nil || d.Method != linalg.MethodDense || d.Gamma.Lo != d.Gamma.Mean {
		t.Fatalf("auto at 600 nodes: %+v, %v", d, err)
	}
	s, err := NewSpectral(g)
	if err != nil {
		t.Fatal(err)
	}
	if gam, rho, _ := s.GammaH2(sigma); gam != d.Gamma.Mean || rho != d.Rho2.Mean {
		t.Errorf("dense path (%v, %v), Spectral.GammaH2 (%v, %v)", d.Gamma.Mean, d.Rho2.Mean, gam, rho)
	}
	e, err := EstimateGammaH2(g, sigma, &linalg.TraceSettings{Method: linalg.MethodStochastic, RelAcc: 0.01}, rand.NewPCG(1, 1))
	if err != nil || e.Method != linalg.MethodStochastic || e.Status != loadlab.Success {
		t.Fatalf("stochastic: %+v, %v", e, err)
	}
	for _, c := range []struct {
		name  string
		est   loadlab.Estimate
		exact float64
	}{{"γ*", e.Gamma, d.Gamma.Mean}, {"ρ₂", e.Rho2, d.Rho2.Mean}} {
		if math.Abs(c.est.Mean-c.exact) > 1.5*max(c.est.Hi-c.est.Mean, c.est.Mean-c.est.Lo) {
			t.Errorf("%s: %+v, exact %v", c.name, c.est, c.exact)
		}
		if c.est.HalfWidth() > 0.01*c.est.Mean {
			t.Errorf("%s: %+v wider than 1 %%", c.name, c.est)
		}
	}
	t.Logf("dense γ* = %.6g ρ₂ = %.6g; stochastic %+v", d.Gamma.Mean, d.Rho2.Mean, e)
}

func TestEstimateGammaH2Errors(t *testing.T) {
	g := randomGraph(30, 0.2, rand.NewPCG(1, 1))
	src := rand.NewPCG(1, 1)
	for _, sigma := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := EstimateGammaH2(g, sigma, nil, src); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("σ = %v: err = %v, want ErrInvalid", sigma, err)
		}
	}
	for _, set := range []linalg.TraceSettings{{RelAcc: -0.1}, {RelAcc: math.NaN()}, {Method: 7}} {
		if _, err := EstimateGammaH2(g, 1, &set, src); !errors.Is(err, loadlab.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", set, err)
		}
	}
	b := newBuilder(4)
	must(b.SetEdge(0, 1, 1))
	must(b.SetEdge(2, 3, 1))
	for _, m := range []linalg.Method{linalg.MethodDense, linalg.MethodStochastic} {
		if _, err := EstimateGammaH2(b.Build(), 1, &linalg.TraceSettings{Method: m}, src); !errors.Is(err, loadlab.ErrDisconnected) {
			t.Errorf("%v, disconnected: err = %v, want ErrDisconnected", m, err)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("nil source: no panic")
		}
	}()
	_, _ = EstimateGammaH2(g, 1, nil, nil)
}
