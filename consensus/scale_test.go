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

// RhoWith and NodalRhoWith: the stochastic intervals (fixed seeds) hold
// the dense values on a 400-node random weighted graph — widened by 1.5
// for the totals (a failure is then a ≈ 3-sigma event); per node, at
// least 90 % of the intervals must hold their value (95 % nominal; the
// coverage rate itself is tested over seeds in linalg). Σ_j ρ_j = ρ on
// the dense path.
func TestRhoWithPaths(t *testing.T) {
	g := randomGraph(400, 0.02, rand.NewPCG(5, 5))
	s, err := NewSpectral(g)
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: 1.2 / s.LambdaMax()}
	stoch := &linalg.TraceSettings{Method: linalg.MethodStochastic, RelAcc: 0.02}
	for _, tc := range []Traffic{Case1, Case2, Case2T} {
		d, err := RhoWith(th, tc, 2, nil, rand.NewPCG(1, 1))
		if err != nil || d.Method != linalg.MethodDense || d.Rho.Lo != d.Rho.Hi {
			t.Fatalf("%v dense: %+v %v", tc, d, err)
		}
		e, err := RhoWith(th, tc, 2, stoch, rand.NewPCG(2, 2))
		if err != nil || e.Method != linalg.MethodStochastic || e.Rho.RelHalfWidth() > 0.02 {
			t.Fatalf("%v stochastic: %+v %v", tc, e, err)
		}
		if math.Abs(e.Rho.Mean-d.Rho.Mean) > 1.5*e.Rho.HalfWidth() {
			t.Errorf("%v: stochastic %+v, dense %v", tc, e.Rho, d.Rho.Mean)
		}
		nd, err := NodalRhoWith(th, tc, 2, nil, rand.NewPCG(1, 1))
		if err != nil || nd.Method != linalg.MethodDense {
			t.Fatal(err)
		}
		var sum float64
		for _, x := range nd.Rho {
			sum += x.Mean
		}
		if math.Abs(sum-d.Rho.Mean) > 1e-9*d.Rho.Mean { // two dense routes, κ ≈ 10²: rounding only
			t.Errorf("%v: Σ ρ_j = %v, ρ = %v", tc, sum, d.Rho.Mean)
		}
		ns, err := NodalRhoWith(th, tc, 2, &linalg.TraceSettings{Method: linalg.MethodStochastic, RelAcc: 0.2}, rand.NewPCG(3, 3))
		if err != nil || ns.MaxRelHW > 0.2 {
			t.Fatalf("%v nodal stochastic: %v %v", tc, ns.MaxRelHW, err)
		}
		hit := 0
		for j, x := range ns.Rho {
			if x.Contains(nd.Rho[j].Mean) {
				hit++
			}
		}
		if f := float64(hit) / float64(len(ns.Rho)); f < 0.9 {
			t.Errorf("%v: %.3f of the nodal intervals hold the dense value", tc, f)
		}
	}
}

// Above linalg.DenseMaxNodes the bare-number entry points return the
// stochastic path's mean from linalg.DefaultSource: deterministic, equal
// to the With variant's, and within 1 % (95 %) of it.
func TestRhoLargeIsStochastic(t *testing.T) {
	g, err := linalg.RandomRegular(3000, 6, rand.NewPCG(7, 7))
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: 0.15}
	r, err := Rho(th, Case2, 1)
	if err != nil {
		t.Fatal(err)
	}
	w, err := RhoWith(th, Case2, 1, nil, linalg.DefaultSource())
	if err != nil || w.Method != linalg.MethodStochastic || w.Rho.Mean != r || w.Rho.RelHalfWidth() > 0.01 {
		t.Errorf("Rho = %v, RhoWith %+v, %v", r, w, err)
	}
	k, err := linalg.KirchhoffIndex(g)
	kw, _ := linalg.KirchhoffIndexWith(g, nil, linalg.DefaultSource())
	if err != nil || kw.Method != linalg.MethodStochastic || kw.Estimate.Mean != k {
		t.Errorf("KirchhoffIndex = %v, With %+v, %v", k, kw, err)
	}
}

// Tiny graphs at the default 1 % take the exact path and do not exhaust
// the probe budget (EstimateH2 alone returns IterationLimit there).
func TestTinyGraphsExact(t *testing.T) {
	th := &Throttler{Graph: weightedTriangle(), Gamma: 0.1}
	r, err := RhoWith(th, Case2, 1, nil, rand.NewPCG(1, 1))
	if err != nil || r.Method != linalg.MethodDense || r.Status != loadlab.Success {
		t.Errorf("%+v %v", r, err)
	}
	gr, err := EstimateGammaH2(weightedTriangle(), 1, nil, rand.NewPCG(1, 1))
	if err != nil || gr.Method != linalg.MethodDense {
		t.Errorf("%+v %v", gr, err)
	}
}
