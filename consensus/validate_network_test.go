package consensus

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
)

// networkCases probes Network.Validate field by field and Simulate with
// a Settings.Network whose slices do not fit the graph (P5: 5 servers,
// 4 links), an orientation that is not strongly connected, and cycles
// γ_i that make the run unstable (spec deployed §1).
func networkCases() []badarg.Case {
	p := badarg.Probe{Func: "Network.Validate", Err: inv}
	val := func(nw *Network) error { return nw.Validate() }
	src := mc.Source(1)
	cs := badarg.Fields(p, Network{}, badarg.Unit, val, "Loss")
	cs = append(cs, badarg.Fields(p, Network{}, badarg.NonNegative, val, "Burst")...)
	cs = append(cs, badarg.Fields(p, Network{}, badarg.NonNegative, val, "Delay")...)
	cs = append(cs,
		p.Fails("Loss = 1", "Network.Loss = 1", func() error { return val(&Network{Loss: 1, Src: src}) }),
		p.Fails("Burst = 0.5", "Network.Burst = 0.5", func() error { return val(&Network{Loss: 0.1, Burst: 0.5, Src: src}) }),
		p.Fails("Burst = 2 at Loss = 0.8", "Network.Burst = 2", func() error { return val(&Network{Loss: 0.8, Burst: 2, Src: src}) }),
		p.Fails("Delay = 4097", "Network.Delay = 4097", func() error { return val(&Network{Delay: maxDelay + 1}) }),
		p.Fails("LinkDelay[1] = -1", "Network.LinkDelay[1] = -1", func() error { return val(&Network{LinkDelay: []int{0, -1}}) }),
		p.Fails("Delay with LinkDelay", "Network.Delay = 2 with LinkDelay set", func() error { return val(&Network{Delay: 2, LinkDelay: []int{0}}) }),
		p.Fails("DelayLaw with Delay", "Network.DelayLaw with Delay = 1", func() error { return val(&Network{Delay: 1, DelayLaw: []float64{1}, Src: src}) }),
		p.Fails("DelayLaw empty", "Network.DelayLaw has 0 entries", func() error { return val(&Network{DelayLaw: []float64{}, Src: src}) }),
		p.Fails("DelayLaw sums to 0.9", "Network.DelayLaw sums to 0.9", func() error { return val(&Network{DelayLaw: []float64{0.5, 0.4}, Src: src}) }),
		p.Fails("Tick and Period", "Network.Tick and Period both set", func() error { return val(&Network{Tick: []float64{1}, Period: []int{1}, Src: src}) }),
		p.Fails("Phase without Period", "Network.Phase set without Period", func() error { return val(&Network{Phase: []int{0}}) }),
		p.Fails("len(Phase) = 2", "Network.Phase has length 2, want len(Period) = 1", func() error { return val(&Network{Period: []int{1}, Phase: []int{0, 0}}) }),
		p.Fails("Period[0] = 0", "Network.Period[0] = 0", func() error { return val(&Network{Period: []int{0}}) }),
		p.Fails("Phase[0] = 3", "Network.Phase[0] = 3", func() error { return val(&Network{Period: []int{3}, Phase: []int{3}}) }),
		p.Fails("Directed[0] = 7", "Network.Directed[0] = 7", func() error { return val(&Network{Directed: []Direction{7}}) }),
		p.Fails("Protocol = 5", "Network.Protocol = 5", func() error { return val(&Network{Protocol: 5}) }),
		p.Fails("Src = nil with Loss", "Network.Src is nil", func() error { return val(&Network{Loss: 0.1}) }),
		p.Fails("Src = nil with Tick", "Network.Src is nil", func() error { return val(&Network{Tick: []float64{1}}) }),
	)
	for _, v := range badarg.NonNegative.Floats() {
		cs = append(cs, p.Fails("DelayLaw entry", "Network.DelayLaw[1] = ", func() error { return val(&Network{DelayLaw: []float64{1, v}, Src: src}) }))
	}
	good := []float64{0.1, 0.2, 0.3, 0.2, 0.1}
	cs = append(cs, badarg.Probe{Func: "Network.Validate", Err: inv, Text: "Network.Gammas[1] = %v"}.Entries("Gammas", good, 1, badarg.Positive, func(g []float64) error { return val(&Network{Gammas: g}) })...)
	for _, v := range []float64{nan, inf, -1, 0, 1.5} {
		tick := []float64{1, v}
		cs = append(cs, p.Fails("Tick entry", "Network.Tick[1] = ", func() error { return val(&Network{Tick: tick, Src: src}) }))
	}
	cs = append(cs, rhoNetworkCases()...)
	return append(cs, networkSimulateCases()...)
}

// rhoNetworkCases probes SimulateRhoNetwork (the run of EstimateRho with
// MonteCarlo.Network) and MonteCarlo.Validate's check of the network.
func rhoNetworkCases() []badarg.Case {
	p := badarg.Probe{Func: "SimulateRhoNetwork", Err: inv}
	run := func(th *Throttler, t Traffic, sigma float64, steps, burn int, nw *Network) func() error {
		return func() error {
			_, err := SimulateRhoNetwork(th, t, sigma, steps, burn, nw, mc.Source(1))
			return err
		}
	}
	good := &Throttler{Graph: path5(), Gamma: 0.2}
	nw := &Network{Delay: 1, Loss: 0.1}
	m := badarg.Probe{Func: "MonteCarlo.Validate", Err: inv}
	return []badarg.Case{
		p.Fails("steps = 0", "steps = 0", run(good, Case2, 1, 0, 0, nw)),
		p.Fails("burn = -1", "burn = -1", run(good, Case2, 1, 5, -1, nw)),
		p.Fails("sigma = -1", "sigma = -1", run(good, Case2, -1, 5, 0, nw)),
		p.Fails("gamma = 0", "Gamma = 0", run(&Throttler{Graph: path5()}, Case2, 1, 5, 0, nw)),
		p.Fails("Loss = 1", "Network.Loss = 1", run(good, Case2, 1, 5, 0, &Network{Loss: 1})),
		p.Fails("Delay = -1", "Network.Delay = -1", run(good, Case2, 1, 5, 0, &Network{Delay: -1})),
		m.Fails("Network.Loss = 2", "Network.Loss = 2", func() error { return MonteCarlo{Runs: 2, Steps: 1, Network: &Network{Loss: 2}}.Validate() }),
	}
}

// networkSimulateCases probes what Simulate checks of a Network against
// the graph P5.
func networkSimulateCases() []badarg.Case {
	x0 := []float64{1, 2, 3, 4, 5}
	sim := func(gamma float64, nw *Network) error {
		th := &Throttler{Graph: path5(), Gamma: gamma}
		_, err := Simulate(th, constant(x0, 3), x0, 3, &Settings{Network: nw})
		return err
	}
	p := badarg.Probe{Func: "Simulate", Err: inv}
	return []badarg.Case{
		p.Fails("len(LinkDelay) = 3", "Network.LinkDelay has length 3, want 4", func() error { return sim(0.2, &Network{LinkDelay: []int{1, 1, 1}}) }),
		p.Fails("len(Directed) = 5", "Network.Directed has length 5, want 4", func() error { return sim(0.2, &Network{Directed: make([]Direction, 5)}) }),
		p.Fails("len(Gammas) = 4", "Network.Gammas has length 4, want 5", func() error { return sim(0.2, &Network{Gammas: []float64{1, 1, 1, 1}}) }),
		p.Fails("len(Tick) = 0", "Network.Tick has length 0, want 5", func() error { return sim(0.2, &Network{Tick: []float64{}, Src: mc.Source(1)}) }),
		p.Fails("len(Period) = 6", "Network.Period has length 6, want 5", func() error { return sim(0.2, &Network{Period: []int{1, 1, 1, 1, 1, 1}}) }),
		p.Fails("Network.Loss = 2", "Network.Loss = 2", func() error { return sim(0.2, &Network{Loss: 2}) }),
		// A path oriented one way: no way back from its end.
		badarg.Probe{Func: "Simulate", Err: loadlab.ErrDisconnected}.Fails("Directed: a one-way path", "not strongly connected", func() error {
			return sim(0.2, &Network{Directed: []Direction{Forward, Forward, Forward, Forward}})
		}),
		// γ_i λ_n ≥ 0.6·3.618 ≈ 2.17 on every link; and γ = 0.3 with delay 1
		// (limit γλ_n < 1).
		badarg.Probe{Func: "Simulate", Err: ErrUnstable}.Fails("Gammas = 0.6", "Settings.Network", func() error { return sim(0.2, &Network{Gammas: []float64{0.6, 0.6, 0.6, 0.6, 0.6}}) }),
		badarg.Probe{Func: "Simulate", Err: ErrUnstable}.Fails("Delay = 1 at γ = 0.3", "delay τ = 1", func() error { return sim(0.3, &Network{Delay: 1}) }),
		// The mean update: (1 − 0.1)·0.7·3.618 ≈ 2.28 ≥ 2.
		badarg.Probe{Func: "Simulate", Err: ErrUnstable}.Fails("Loss = 0.1 at γ = 0.7", "the expected limits diverge", func() error { return sim(0.7, &Network{Loss: 0.1, Src: mc.Source(1)}) }),
		// γ_e w_e = 1e200·1e100 lies beyond the weights of a graph (2^500).
		p.Fails("Gammas = 1e200 on weight 1e100", "expected link step", func() error {
			g := mustGraph(wgraph.FromEdges(2, []wgraph.Edge{{U: 0, V: 1, W: 1e100}}))
			_, err := Simulate(&Throttler{Graph: g, Gamma: 0.1}, constant([]float64{1, 1}, 2), []float64{1, 1}, 2, &Settings{Network: &Network{Gammas: []float64{1e200, 1e200}}})
			return err
		}),
	}
}
