package consensus

import (
	"fmt"
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/wgraph"
	"math/rand/v2"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// The delayed H2 functions (spec deployed §2) join the throttler probes:
// each is called with τ = 1 (a*(1) = 1, so γ = 0.2 on path5 is stable,
// γλ_n ≈ 0.72, and γ = 0.6 is not).
func init() {
	for name, f := range map[string]func(th *Throttler) error{
		"DelayStability": func(th *Throttler) error { _, err := DelayStability(th, 1); return err },
		"RhoDelay":       func(th *Throttler) error { _, err := RhoDelay(th, Case2, 1, 1); return err },
		"SecondMomentRho": func(th *Throttler) error {
			_, err := SecondMomentRho(th, Case2, 1, 1, 0.1, 0.9)
			return err
		},
		"EstimateH2Delay": func(th *Throttler) error {
			_, err := EstimateH2Delay(th, 1, 1, nil, rand.NewPCG(1, 1))
			return err
		},
	} {
		throttlerFuncs[name] = f
		linear = append(linear, name)
		stable = append(stable, name)
	}
}

// delayCases probes the delay τ, σ, the traffic case and the sizes of the
// delayed H2 functions beyond the throttler's fields.
func delayCases() []badarg.Case {
	th := func() *Throttler { return &Throttler{Graph: path5(), Gamma: 0.2} }
	s, err := NewSpectral(path5())
	must(err)
	withTau := map[string]func(tau int) error{
		"DelayLimit":                   func(tau int) error { _, err := DelayLimit(tau); return err },
		"DelayStability":               func(tau int) error { _, err := DelayStability(th(), tau); return err },
		"RhoDelay":                     func(tau int) error { _, err := RhoDelay(th(), Case2, tau, 1); return err },
		"Spectral.RhoDelay":            func(tau int) error { _, err := s.RhoDelay(Case2, tau, 0.2, 1); return err },
		"Spectral.GammaH2Delay":        func(tau int) error { _, _, err := s.GammaH2Delay(tau, 1); return err },
		"Spectral.DelayStabilityBound": func(tau int) error { _, err := s.DelayStabilityBound(tau); return err },
		"Spectral.NodalRhoDelay":       func(tau int) error { _, err := s.NodalRhoDelay(nil, Case2, tau, 0.2, 1); return err },
	}
	var cs []badarg.Case
	for _, name := range sortedKeys(withTau) {
		f := withTau[name]
		cs = append(cs,
			badarg.Probe{Func: name, Err: inv, Text: "delay tau = %v"}.Int("tau", badarg.NonNegative, f)...)
		cs = append(cs, badarg.Probe{Func: name, Err: tooLarge}.Fails("tau = MaxDelay + 1", "delay tau = 1025 > MaxDelay", func() error { return f(MaxDelay + 1) }))
	}
	h2 := map[string]func(t Traffic, sigma float64) error{
		"RhoDelay":               func(t Traffic, sg float64) error { _, err := RhoDelay(th(), t, 1, sg); return err },
		"Spectral.RhoDelay":      func(t Traffic, sg float64) error { _, err := s.RhoDelay(t, 1, 0.2, sg); return err },
		"Spectral.NodalRhoDelay": func(t Traffic, sg float64) error { _, err := s.NodalRhoDelay(nil, t, 1, 0.2, sg); return err },
	}
	for _, name := range sortedKeys(h2) {
		f := h2[name]
		p := badarg.Probe{Func: name, Err: inv}
		cs = append(cs, p.Scalar("sigma", badarg.NonNegative, func(sg float64) error { return f(Case2, sg) })...)
		cs = append(cs, p.Fails("Traffic(7)", "Traffic = 7", func() error { return f(Traffic(7), 1) }))
	}
	sp := badarg.Probe{Func: "Spectral.RhoDelay", Err: inv, Text: "Gamma = %v"}
	cs = append(cs, sp.Scalar("gamma", badarg.Positive, func(g float64) error { _, err := s.RhoDelay(Case2, 1, g, 1); return err })...)
	cs = append(cs,
		badarg.Probe{Func: "Spectral.RhoDelay", Err: ErrUnstable}.Fails("γ = 0.3, τ = 1", "a*(τ)/λ_n", func() error { _, err := s.RhoDelay(Case2, 1, 0.3, 1); return err }),
		badarg.Probe{Func: "RhoDelay", Err: tooLarge}.Fails("n = 2^17", "EstimateH2Delay", func() error {
			_, err := RhoDelay(&Throttler{Graph: mustGraph(gen.Path(1 << 17)), Gamma: 0.1}, Case2, 1, 1)
			return err
		}),
	)
	sf, err := SpectralFrom(s.Values())
	must(err)
	cs = append(cs,
		badarg.Probe{Func: "Spectral.NodalRhoDelay", Err: inv}.Fails("from SpectralFrom", "has no eigenvectors", func() error { _, err := sf.NodalRhoDelay(nil, Case2, 1, 0.2, 1); return err }),
		badarg.Probe{Func: "Spectral.NodalRhoDelay"}.Panics("len(dst) = 4", "Spectral.NodalRhoDelay: len(dst) = 4, want 5", func() { _, _ = s.NodalRhoDelay(make([]float64, 4), Case2, 1, 0.2, 1) }),
		badarg.Probe{Func: "Spectral.NodalRhoDelay", Err: ErrUnstable}.Fails("γ = 0.3, τ = 1", "a*(τ)/λ_n", func() error { _, err := s.NodalRhoDelay(nil, Case2, 1, 0.3, 1); return err }),
	)
	cs = append(cs, badarg.Probe{Func: "Spectral.NodalRhoDelay", Err: inv, Text: "Gamma = %v"}.Scalar("gamma", badarg.Positive, func(g float64) error { _, err := s.NodalRhoDelay(nil, Case2, 1, g, 1); return err })...)
	cs = append(cs, badarg.Probe{Func: "Spectral.GammaH2Delay", Err: inv, Text: "GammaH2Delay: sigma = %v"}.Scalar("sigma", badarg.NonNegative, func(sg float64) error { _, _, err := s.GammaH2Delay(1, sg); return err })...)
	cs = append(cs, delayEstimatorCases()...)
	cs = append(cs, gammaDelayCases()...)
	return append(cs, secondMomentCases()...)
}

// delayEstimatorCases probes EstimateH2Delay beyond the throttler's
// fields: τ, σ, the settings and a nil source.
func delayEstimatorCases() []badarg.Case {
	th := func() *Throttler { return &Throttler{Graph: path5(), Gamma: 0.2} }
	f := func(tau int, sg float64, set *estimate.TraceSettings) error {
		_, err := EstimateH2Delay(th(), tau, sg, set, rand.NewPCG(1, 1))
		return err
	}
	p := badarg.Probe{Func: "EstimateH2Delay", Err: inv}
	cs := badarg.Probe{Func: "EstimateH2Delay", Err: inv, Text: "delay tau = %v"}.Int("tau", badarg.NonNegative, func(tau int) error { return f(tau, 1, nil) })
	cs = append(cs, badarg.Probe{Func: "EstimateH2Delay", Err: tooLarge}.Fails("tau = MaxDelay + 1", "MaxDelay", func() error { return f(MaxDelay+1, 1, nil) }))
	cs = append(cs, p.Scalar("sigma", badarg.NonNegative, func(sg float64) error { return f(1, sg, nil) })...)
	cs = append(cs, badarg.Fields(p, estimate.TraceSettings{}, badarg.NonNegative, func(set *estimate.TraceSettings) error { return f(1, 1, set) }, "RelAcc", "MinProbes", "MaxProbes")...)
	return append(cs, p.Panics("src = nil", "nil", func() { _, _ = EstimateH2Delay(th(), 1, 1, nil, nil) }))
}

// secondMomentCases probes SecondMomentRho beyond the throttler's fields:
// τ, σ, the traffic case, the loss and tick probabilities, and a graph
// above SecondMomentMaxNodes.
func secondMomentCases() []badarg.Case {
	th := func() *Throttler { return &Throttler{Graph: path5(), Gamma: 0.2} }
	f := func(t Traffic, tau int, sg, q, pi float64) error {
		_, err := SecondMomentRho(th(), t, tau, sg, q, pi)
		return err
	}
	p := badarg.Probe{Func: "SecondMomentRho", Err: inv}
	cs := badarg.Probe{Func: "SecondMomentRho", Err: inv, Text: "delay tau = %v"}.Int("tau", badarg.NonNegative, func(tau int) error { return f(Case2, tau, 1, 0.1, 0.9) })
	cs = append(cs, p.Scalar("sigma", badarg.NonNegative, func(sg float64) error { return f(Case2, 1, sg, 0.1, 0.9) })...)
	cs = append(cs, p.Fails("Traffic(7)", "Traffic = 7", func() error { return f(Traffic(7), 1, 1, 0.1, 0.9) }))
	for _, q := range []float64{nan, inf, -inf, -0.1, 1, 1.5} {
		cs = append(cs, p.Fails(fmt.Sprintf("loss = %v", q), fmt.Sprintf("loss q = %v", q), func() error { return f(Case2, 1, 1, q, 0.9) }))
	}
	for _, pi := range []float64{nan, inf, -inf, -0.1, 0, 1.5} {
		cs = append(cs, p.Fails(fmt.Sprintf("tick = %v", pi), fmt.Sprintf("tick π = %v", pi), func() error { return f(Case2, 1, 1, 0.1, pi) }))
	}
	return append(cs,
		badarg.Probe{Func: "SecondMomentRho", Err: tooLarge}.Fails("tau = MaxDelay + 1", "MaxDelay", func() error { return f(Case2, MaxDelay+1, 1, 0.1, 0.9) }),
		badarg.Probe{Func: "SecondMomentRho", Err: tooLarge}.Fails("n = 257", "SecondMomentMaxNodes", func() error {
			_, err := SecondMomentRho(&Throttler{Graph: mustGraph(gen.Path(257)), Gamma: 0.1}, Case2, 1, 1, 0.1, 0.9)
			return err
		}),
		// γ m λ_n ≈ 0.3 · 3.618 ≥ a*(1) = 1: the mean dynamics are unstable.
		badarg.Probe{Func: "SecondMomentRho", Err: ErrUnstable}.Fails("γ = 0.3, τ = 1", "mean dynamics", func() error {
			_, err := SecondMomentRho(&Throttler{Graph: path5(), Gamma: 0.3}, Case2, 1, 1, 0, 1)
			return err
		}),
	)
}

// gammaDelayCases probes EstimateGammaH2Delay: τ, σ, the settings, one
// node, a disconnected graph and nil arguments.
func gammaDelayCases() []badarg.Case {
	f := func(g *wgraph.Graph, tau int, sg float64, set *estimate.TraceSettings) error {
		_, err := EstimateGammaH2Delay(g, tau, sg, set, rand.NewPCG(1, 1))
		return err
	}
	p := badarg.Probe{Func: "EstimateGammaH2Delay", Err: inv}
	cs := badarg.Probe{Func: "EstimateGammaH2Delay", Err: inv, Text: "delay tau = %v"}.Int("tau", badarg.NonNegative, func(tau int) error { return f(path5(), tau, 1, nil) })
	cs = append(cs, badarg.Probe{Func: "EstimateGammaH2Delay", Err: inv, Text: "EstimateGammaH2Delay: sigma = %v"}.Scalar("sigma", badarg.NonNegative, func(sg float64) error { return f(path5(), 1, sg, nil) })...)
	cs = append(cs, badarg.Fields(p, estimate.TraceSettings{}, badarg.NonNegative, func(set *estimate.TraceSettings) error { return f(path5(), 1, 1, set) }, "RelAcc", "MinProbes", "MaxProbes")...)
	return append(cs,
		badarg.Probe{Func: "EstimateGammaH2Delay", Err: tooLarge}.Fails("tau = MaxDelay + 1", "MaxDelay", func() error { return f(path5(), MaxDelay+1, 1, nil) }),
		p.Fails("one node", "graph has 1 nodes, want ≥ 2", func() error { return f(mustGraph(gen.Path(1)), 1, 1, nil) }),
		badarg.Probe{Func: "EstimateGammaH2Delay", Err: loadlab.ErrDisconnected}.Fails("two components", "", func() error { return f(twoComponents(), 1, 1, nil) }),
		p.Panics("g = nil", "consensus: EstimateGammaH2Delay: nil graph", func() { _ = f(nil, 1, 1, nil) }),
		p.Panics("src = nil", "nil graph or rand.Source", func() { _, _ = EstimateGammaH2Delay(path5(), 1, 1, nil, nil) }),
	)
}
