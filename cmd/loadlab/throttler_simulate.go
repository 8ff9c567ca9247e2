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

// simulateFlags are the flags of "throttler simulate".
type simulateFlags struct {
	f          throttlerFlags
	steps      int
	trace      string
	limit      float64
	tab        tableInput
	byPosition bool
	cst        centralFlags
	net        networkFlags
}

func (a *app) throttlerSimulateCommand() *cobra.Command {
	o := &simulateFlags{
		cst: newCentralFlags(),
		net: networkFlags{protocol: newChoice("joint", "joint", "separate")},
	}
	c := &cobra.Command{
		Use:   "simulate",
		Short: "Run the throttler on a demand trace or a random walk",
		Long: `Runs the throttler (spec §3.1) for --steps update cycles at --gamma
(default γ*_H2, or γ*_H2(τ) with --delay τ) with the limits starting equal (total --limit, default one
per server) and the demand read from --trace FILE (a CSV, one row per
step, one column per server: matched to the servers by the header's
names, which must be the graph's node labels; without a header, in the
graph's node order, as with --trace-by-position) or, without it, a
random walk from one per server with step σ (spec §4.2, Case 2). Prints
the totals of every step: demand, limit, admitted, over-throttling and the
dispersion whose mean is ρ (spec §3.2, §4.3).

--central RULE runs the centralized baseline instead (spec
throttlers-deployed.md §3): every cycle one decision maker sets every limit
from all demands by RULE (proportional, equal, max-min-fair,
proportional-floor with --floor f), taking effect --central-delay cycles
late, on the same demand and with the same totals, so that the two
throttlers can be compared run for run.

The network as deployed (spec throttlers-deployed.md §1): --delay τ (or a
random delay by --delay-law), --loss q (in bursts of mean length --burst),
--tick π (each server updates in a cycle with probability π), --gammas
FILE (each server's own cycle γ_i; a link steps by the smaller). Under
--protocol joint (the default) a transfer is applied by both ends of a
link or by neither, so the total limit is conserved to the last bit; the
table then counts the exchanges due and lost in each cycle.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			return a.runSimulate(cmd, o)
		},
	}
	o.f.register(c)
	c.Flags().IntVar(&o.steps, "steps", 0, "update cycles to run; 0 means the trace's length, or 1000 for the random walk")
	c.Flags().StringVar(&o.trace, "trace", "", "demand trace `FILE` (CSV: one row per step, one column per server)")
	c.Flags().Float64Var(&o.limit, "limit", 0, "total limit shared by the servers; 0 means one per server")
	o.tab.register(c.Flags(), "trace-", "trace")
	c.Flags().BoolVar(&o.byPosition, "trace-by-position", false, "take the trace's columns in the graph's node order, whatever their names")
	o.cst.register(c)
	o.net.register(c)
	return c
}

// runSimulate answers "throttler simulate".
func (a *app) runSimulate(cmd *cobra.Command, o *simulateFlags) error {
	d, _, err := o.f.in.load()
	if err != nil {
		return err
	}
	g := d.Graph
	if err := wgraph.CheckConnected(g); err != nil {
		return err
	}
	th, err := simulateThrottler(g, o.net.withDelay(o.f))
	if err != nil {
		return err
	}
	dem, n, err := a.demand(d.Labels, o.trace, o.tab.options(), o.byPosition, o.f.sigma)
	if err != nil {
		return err
	}
	steps := o.steps
	if steps == 0 {
		steps = n
	}
	if o.limit < 0 {
		return usagef("--limit = %v: want > 0, or 0 for one per server", o.limit)
	}
	per := 1.0
	if o.limit > 0 {
		per = o.limit / float64(g.Order())
	}
	x0 := make([]float64, g.Order())
	for i := range x0 {
		x0[i] = per
	}
	nw, err := o.net.network(cmd, g.Order(), a.seed)
	if err != nil {
		return err
	}
	switch {
	case o.cst.rule.val == "" && (cmd.Flags().Changed("central-delay") || cmd.Flags().Changed("floor")):
		return usagef("--central-delay and --floor go with --central RULE")
	case o.cst.rule.val != "" && nw != nil:
		return usagef("--central runs the centralized throttler: the network flags (--delay, --loss, …) do not apply")
	}
	p := a.startProgress(-1, "simulate")
	var tr *consensus.Trajectory
	if o.cst.rule.val != "" {
		tr, err = o.cst.simulate(dem, x0, steps)
	} else {
		tr, err = consensus.Simulate(th, dem, x0, steps, &consensus.Settings{Network: nw})
	}
	p.done()
	if err != nil {
		return err
	}
	return a.emit(trajectoryAnswer(tr, th.Gamma))
}

// centralFlags select the centralized baseline of "simulate".
type centralFlags struct {
	rule  *choice
	delay int
	floor float64
}

// newCentralFlags returns the flags with no rule chosen (the distributed
// throttler runs).
func newCentralFlags() centralFlags {
	return centralFlags{rule: newChoice("", "proportional", "equal", "max-min-fair", "proportional-floor")}
}

func (f *centralFlags) register(c *cobra.Command) {
	c.Flags().Var(f.rule, "central", "run the centralized throttler with this rule instead of the distributed one")
	c.Flags().IntVar(&f.delay, "central-delay", 0, "cycles before the centralized decisions take effect")
	c.Flags().Float64Var(&f.floor, "floor", 0, "with --central proportional-floor: the share f in [0, 1] of the limit split equally")
}

// central is the centralized throttler the flags describe (spec
// deployed §3), validated.
func (f *centralFlags) central() (*consensus.Central, error) {
	rules := map[string]consensus.Rule{"proportional": consensus.Proportional, "equal": consensus.Equal,
		"max-min-fair": consensus.MaxMinFair, "proportional-floor": consensus.ProportionalFloor}
	c := &consensus.Central{Rule: rules[f.rule.val], Delay: f.delay, Floor: f.floor}
	return c, c.Validate()
}

// simulate runs the centralized throttler.
func (f *centralFlags) simulate(d consensus.Demand, x0 []float64, steps int) (*consensus.Trajectory, error) {
	c, err := f.central()
	if err != nil {
		return nil, err
	}
	return consensus.SimulateCentral(c, d, x0, steps, nil)
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
func (a *app) demand(labels []string, trace string, opts *dataio.TableOptions, byPosition bool, sigma float64) (consensus.Demand, int, error) {
	n := len(labels)
	if trace != "" {
		t, err := dataio.ReadTableFile(trace, opts)
		if err != nil {
			return nil, 0, err
		}
		td, err := traceByLabel(t, labels, trace, byPosition)
		return td, len(td), err
	}
	start := make([]float64, n)
	for i := range start {
		start[i] = 1
	}
	return &consensus.RandomWalkDemand{Start: start, Sigma: sigma, Src: rand.NewPCG(a.seed, 3)}, 1000, nil
}

// traceByLabel orders the columns of a trace as the graph's nodes: by
// the header's names, which must then be the node labels, or by position
// (the graph's node order: the order in which its file first names each
// node) for a file without a header or with byPosition.
func traceByLabel(t *dataio.Table, labels []string, path string, byPosition bool) (consensus.TraceDemand, error) {
	width := len(t.Columns)
	if len(t.Rows) > 0 {
		width = len(t.Rows[0])
	}
	if width != len(labels) {
		return nil, usagef("--trace %s has %d columns, the graph %d servers", path, width, len(labels))
	}
	perm := make([]int, len(labels)) // perm[node] = column
	for i := range perm {
		perm[i] = i
	}
	if t.Columns != nil && !byPosition {
		byName := labelIndex(t.Columns)
		for i, l := range labels {
			j, ok := byName[l]
			if !ok {
				return nil, usagef("--trace %s: no column is named after server %q; name the columns by the graph's node labels, or give --trace-by-position to take them in the graph's node order", path, l)
			}
			perm[i] = j
		}
	}
	td := make(consensus.TraceDemand, len(t.Rows))
	for k, row := range t.Rows {
		r := make([]float64, len(labels))
		for i, j := range perm {
			r[i] = row[j]
		}
		td[k] = r
	}
	return td, nil
}

// trajectoryAnswer is the table of the totals of every step and their
// picture.
func trajectoryAnswer(tr *consensus.Trajectory, gamma float64) *answer {
	cols := []string{"step", "time", "demand", "limit", "admitted", "over-throttled", "dispersion"}
	if tr.Exchanges != nil {
		cols = append(cols, "exchanges due", "exchanges lost")
	}
	t := &table{name: "steps", cols: cols}
	xs := make([]float64, tr.Steps)
	for k := range tr.Steps {
		xs[k] = float64(k) * gamma
		row := []any{k, xs[k], tr.RTotal[k], tr.LTotal[k], tr.ATotal[k], tr.Over[k], tr.Dispersion[k]}
		if tr.Exchanges != nil {
			row = append(row, tr.Exchanges.Due[k], tr.Exchanges.Lost[k])
		}
		t.add(row...)
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
