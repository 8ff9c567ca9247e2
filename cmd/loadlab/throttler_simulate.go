package main

import (
	"math/rand/v2"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

func (a *app) throttlerSimulateCommand() *cobra.Command {
	var f throttlerFlags
	var steps int
	var trace string
	var limit float64
	c := &cobra.Command{
		Use:   "simulate",
		Short: "Run the throttler on a demand trace or a random walk",
		Long: `Runs the throttler (spec §3.1) for --steps update cycles at --gamma
(default γ*_H2) with the limits starting equal (total --limit, default one
per server) and the demand read from --trace FILE (a CSV, one row per
step, one column per server in the graph's node order) or, without it, a
random walk from one per server with step σ (spec §4.2, Case 2). Prints
the totals of every step: demand, limit, admitted, over-throttling and the
dispersion whose mean is ρ (spec §3.2, §4.3).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			d, _, err := f.in.load()
			if err != nil {
				return err
			}
			g := d.Graph
			if err := wgraph.CheckConnected(g); err != nil {
				return err
			}
			th, err := simulateThrottler(g, f)
			if err != nil {
				return err
			}
			dem, n, err := a.demand(g.Order(), trace, f.sigma)
			if err != nil {
				return err
			}
			if steps == 0 {
				steps = n
			}
			if limit < 0 {
				return usagef("--limit = %v: want > 0, or 0 for one per server", limit)
			}
			per := 1.0
			if limit > 0 {
				per = limit / float64(g.Order())
			}
			x0 := make([]float64, g.Order())
			for i := range x0 {
				x0[i] = per
			}
			p := a.startProgress(-1, "simulate")
			tr, err := consensus.Simulate(th, dem, x0, steps, nil)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(trajectoryAnswer(tr, th.Gamma))
		},
	}
	f.register(c)
	c.Flags().IntVar(&steps, "steps", 0, "update cycles to run; 0 means the trace's length, or 1000 for the random walk")
	c.Flags().StringVar(&trace, "trace", "", "demand trace `FILE` (CSV: one row per step, one column per server)")
	c.Flags().Float64Var(&limit, "limit", 0, "total limit shared by the servers; 0 means one per server")
	return c
}

// simulateThrottler is the throttler at --gamma, or at γ*_H2 (dense
// spectrum) when --gamma is not given.
func simulateThrottler(g *wgraph.Graph, f throttlerFlags) (*consensus.Throttler, error) {
	if f.gamma > 0 {
		return &consensus.Throttler{Graph: g, Gamma: f.gamma}, nil
	}
	if g.Order() > spectral.DenseMaxNodes {
		return nil, usagef("the graph has %d servers: give --gamma (\"loadlab throttler analyze\" estimates γ*_H2)", g.Order())
	}
	return designThrottler(g, f)
}

// demand returns the demand of "simulate" and its natural length (0 for
// the random walk's default).
func (a *app) demand(n int, trace string, sigma float64) (consensus.Demand, int, error) {
	if trace != "" {
		td, err := dataio.ReadTraceFile(trace)
		if err != nil {
			return nil, 0, err
		}
		if len(td) > 0 && len(td[0]) != n {
			return nil, 0, usagef("--trace %s has %d columns, the graph %d servers", trace, len(td[0]), n)
		}
		return td, len(td), nil
	}
	start := make([]float64, n)
	for i := range start {
		start[i] = 1
	}
	return &consensus.RandomWalkDemand{Start: start, Sigma: sigma, Src: rand.NewPCG(a.seed, 3)}, 1000, nil
}

// trajectoryAnswer is the table of the totals of every step and their
// picture.
func trajectoryAnswer(tr *consensus.Trajectory, gamma float64) *answer {
	t := &table{name: "steps", cols: []string{"step", "time", "demand", "limit", "admitted", "over-throttled", "dispersion"}}
	xs := make([]float64, tr.Steps)
	for k := range tr.Steps {
		xs[k] = float64(k) * gamma
		t.add(k, xs[k], tr.RTotal[k], tr.LTotal[k], tr.ATotal[k], tr.Over[k], tr.Dispersion[k])
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Throttler simulation", "time (time units)", "load (requests per time unit)")
		plots.AddLine(p, 0, "demand", xs, tr.RTotal)
		plots.AddLine(p, 1, "admitted", xs, tr.ATotal)
		plots.AddLine(p, 2, "over-throttled", xs, tr.Over)
		return p, 0, 0, nil
	}
	return &answer{tables: []*table{t}, value: tr, draw: draw}
}
