package consensus

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/internal/badarg"
)

// fiveClients are one client per node of path5, in node order.
func fiveClients() *Clients { return &Clients{Server: []int{0, 1, 2, 3, 4}} }

func init() {
	// SimulateClients takes a *Throttler: the throttler probes apply.
	throttlerFuncs["SimulateClients"] = func(th *Throttler) error {
		_, err := SimulateClients(th, fiveClients(), &ClientStationary{Mean: []float64{1, 2, 3, 4, 5}}, make([]float64, 5), 2, nil)
		return err
	}
}

// clientsCases probes SimulateClients beyond the throttler's fields (the
// layout, the demand, x0, steps, the settings, the memory budget, an
// unstable γ, nil arguments), ClientSettings, the client demand models
// and JainIndex.
func clientsCases() []badarg.Case {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	mean := []float64{1, 2, 3, 4, 5}
	x0 := []float64{1, 2, 3, 4, 5}
	sim := func(cl *Clients, d ClientDemand, x0 []float64, steps int, s *ClientSettings) error {
		_, err := SimulateClients(th, cl, d, x0, steps, s)
		return err
	}
	stat := func() ClientDemand { return &ClientStationary{Mean: mean} }
	p := badarg.Probe{Func: "SimulateClients", Err: inv}
	cs := []badarg.Case{
		p.Fails("server 4 without clients", "Clients: server 4 has no clients", func() error {
			return sim(&Clients{Server: []int{0, 1, 2, 3}}, &ClientStationary{Mean: mean[:4]}, x0, 2, nil)
		}),
		p.Fails("Server[2] = 5", "Clients.Server[2] = 5, want a server in [0, 5)", func() error {
			return sim(&Clients{Server: []int{0, 1, 5, 3, 4}}, stat(), x0, 2, nil)
		}),
		p.Fails("Server[0] = -1", "Clients.Server[0] = -1", func() error {
			return sim(&Clients{Server: []int{-1, 1, 2, 3, 4}}, stat(), x0, 2, nil)
		}),
		p.Fails("Split = 7", "Clients.Split = 7", func() error { return sim(&Clients{Server: []int{0, 1, 2, 3, 4}, Split: 7}, stat(), x0, 2, nil) }),
		p.Fails("len(Mean) = 4", "ClientStationary: len(Mean) = 4, want 5", func() error {
			return sim(fiveClients(), &ClientStationary{Mean: mean[:4]}, x0, 2, nil)
		}),
		p.Fails("a trace of 2 cycles", "ClientTrace: cycle 2 beyond the 2 values of client 0", func() error {
			return sim(fiveClients(), ClientTrace{{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}, x0, 3, nil)
		}),
		p.Panics("cl = nil", "nil *Clients cl", func() { _ = sim(nil, stat(), x0, 2, nil) }),
		p.Panics("d = nil", "nil ClientDemand d", func() { _ = sim(fiveClients(), nil, x0, 2, nil) }),
		badarg.Probe{Func: "SimulateClients", Err: ErrUnstable}.Fails("Gamma = 0.6 (γλ_n ≈ 2.17)", "", func() error {
			_, err := SimulateClients(&Throttler{Graph: path5(), Gamma: 0.6}, fiveClients(), stat(), x0, 3, nil)
			return err
		}),
		// 2^28 cycles of 80 bytes (the servers' totals and the
		// clients' indices) are 20 GiB; 2^27 cycles of 240 bytes (with
		// the series of 5 clients on 5 servers) 30 GiB, 10 GiB without.
		badarg.Probe{Func: "SimulateClients", Err: tooLarge}.Fails("2^28 steps", "SimulateClients: steps", func() error {
			return sim(fiveClients(), stat(), x0, 1<<28, nil)
		}),
		badarg.Probe{Func: "SimulateClients", Err: tooLarge}.Fails("2^27 steps with series", "SimulateClients: steps", func() error {
			return sim(fiveClients(), stat(), x0, 1<<27, &ClientSettings{Series: true})
		}),
	}
	// A negative, NaN or infinite request of client 3 at cycle 0.
	for _, v := range []float64{-1, nan, inf, -inf} {
		req := []float64{1, 2, 3, v, 5}
		cs = append(cs, p.Fails(fmt.Sprintf("request %v", v), fmt.Sprintf("client 3 (server 3) requests r = %v", v), func() error {
			return sim(fiveClients(), TraceDemand{req}, x0, 1, nil)
		}))
	}
	cs = append(cs, p.Slice("x0", x0, 1, badarg.Finite, func(x []float64) error { return sim(fiveClients(), stat(), x, 2, nil) })...)
	cs = append(cs, p.Int("steps", badarg.NonNegative, func(k int) error { return sim(fiveClients(), stat(), x0, k, nil) })...)
	for name, f := range map[string]func(s *ClientSettings) error{
		"SimulateClients":         func(s *ClientSettings) error { return sim(fiveClients(), stat(), x0, 2, s) },
		"ClientSettings.Validate": func(s *ClientSettings) error { return s.Validate() },
	} {
		cs = append(cs, badarg.Fields(badarg.Probe{Func: name, Err: inv}, ClientSettings{}, badarg.NonNegative, f, "Workers")...)
	}
	return append(append(cs, clientDemandCases()...), jainCases()...)
}

// clientDemandCases probes the client demand models: lengths, negative
// or non-finite parameters, a nil Src where noise is drawn, cycles out
// of order or beyond a trace.
func clientDemandCases() []badarg.Case {
	r := make([]float64, 2)
	src := rand.NewPCG(1, 1)
	st := ClientStationary{Mean: []float64{1, 2}, Sigma: []float64{1, 1}, Src: src}
	rw := ClientRandomWalk{Start: []float64{1, 2}, Sigma: []float64{1, 1}, Src: src}
	ps := badarg.Probe{Func: "ClientStationary.Next", Err: inv}
	pw := badarg.Probe{Func: "ClientRandomWalk.Next", Err: inv}
	next := func(d ClientDemand) func() error { return func() error { return d.Next(0, r) } }
	cs := badarg.Probe{Func: "ClientStationary.Next", Err: inv, Text: "ClientStationary.Mean[1] = %v"}.Entries("Mean", st.Mean, 1, badarg.NonNegative, func(m []float64) error {
		d := st
		d.Mean = m
		return d.Next(0, r)
	})
	cs = append(cs, badarg.Probe{Func: "ClientStationary.Next", Err: inv, Text: "ClientStationary.Sigma[0] = %v"}.Entries("Sigma", st.Sigma, 0, badarg.NonNegative, func(s []float64) error {
		d := st
		d.Sigma = s
		return d.Next(0, r)
	})...)
	cs = append(cs, badarg.Probe{Func: "ClientRandomWalk.Next", Err: inv, Text: "ClientRandomWalk.Start[0] = %v"}.Entries("Start", rw.Start, 0, badarg.NonNegative, func(m []float64) error {
		d := rw
		d.Start = m
		return d.Next(0, r)
	})...)
	cs = append(cs, badarg.Probe{Func: "ClientRandomWalk.Next", Err: inv, Text: "ClientRandomWalk.Sigma[1] = %v"}.Entries("Sigma", rw.Sigma, 1, badarg.NonNegative, func(s []float64) error {
		d := rw
		d.Sigma = s
		return d.Next(0, r)
	})...)
	pt := badarg.Probe{Func: "ClientTrace.Next", Err: inv}
	return append(cs,
		ps.Fails("len(Mean) = 3", "ClientStationary: len(Mean) = 3, want 2", next(&ClientStationary{Mean: []float64{1, 2, 3}})),
		ps.Fails("len(Sigma) = 1", "ClientStationary: len(Sigma) = 1, want 0 or 2", next(&ClientStationary{Mean: []float64{1, 2}, Sigma: []float64{1}})),
		ps.Fails("Src = nil", "ClientStationary.Src is nil", next(&ClientStationary{Mean: []float64{1, 2}, Sigma: []float64{0, 1}})),
		pw.Fails("len(Start) = 1", "ClientRandomWalk: len(Start) = 1, want 2", next(&ClientRandomWalk{Start: []float64{1}})),
		pw.Fails("Src = nil", "ClientRandomWalk.Src is nil", next(&ClientRandomWalk{Start: []float64{1, 2}, Sigma: []float64{1, 0}})),
		pw.Fails("k = 1 first", "Next must start at k = 0", func() error { d := rw; return d.Next(1, r) }),
		pt.Fails("3 series", "ClientTrace: 3 series, want one per client (2)", next(ClientTrace{{1}, {1}, {1}})),
		pt.Fails("cycle 1 of 1", "ClientTrace: cycle 1 beyond the 1 values of client 1", func() error { return ClientTrace{{1, 1}, {1}}.Next(1, r) }),
		pt.Fails("cycle -1", "ClientTrace: cycle -1", func() error { return ClientTrace{{1}, {1}}.Next(-1, r) }),
	)
}

// jainCases probes JainIndex: no values, and a negative, NaN or
// infinite value.
func jainCases() []badarg.Case {
	p := badarg.Probe{Func: "JainIndex", Err: inv, Text: "JainIndex: v[2] = %v"}
	cs := p.Entries("v", []float64{1, 2, 3}, 2, badarg.NonNegative, func(v []float64) error { _, err := JainIndex(v); return err })
	return append(cs, badarg.Probe{Func: "JainIndex", Err: inv}.Fails("v = nil", "JainIndex: no values", func() error { _, err := JainIndex(nil); return err }))
}
