package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// overFlags are the flags of "throttler over".
type overFlags struct {
	f          throttlerFlags
	mean       float64 // every server's mean demand
	means      string  // or a file with one per server
	column     string
	tab        tableInput
	limit      float64
	runs       int
	steps      int
	burn       int
	precision  loadlab.Precision
	cst        centralFlags
	byPosition bool
}

func (a *app) throttlerOverCommand() *cobra.Command {
	o := overFlags{cst: newCentralFlags()}
	c := &cobra.Command{
		Use:   "over",
		Short: "Over-throttling in the Gaussian stationary regime: estimate with its interval, and the exact value",
		Long: `Over-throttling O = a_ideal − a_total is the demand a throttler rejects
beyond what the ideal one would (spec throttlers-deployed.md §4). With each
server's demand its mean (--mean m, or one per server from the column of
--means FILE) plus white noise of level --sigma, and a total limit --limit
(default the total mean demand), it runs the distributed throttler at
--gamma (default γ*_H2) --runs times for --steps cycles after --burn, and
reports E O and each server's part with 95 % intervals; up to 2048 servers
also the exact value (spec deployed §4.2). With --central RULE the
centralized baseline runs on the same draws (decisions --central-delay
cycles late), so the two compare run for run. --rel, --abs and --max-runs
run until the interval of E O is that narrow (spec monte-carlo.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			return a.runOver(cmd, &o)
		},
	}
	o.f.register(c)
	fl := c.Flags()
	fl.Float64Var(&o.mean, "mean", 1, "mean demand of every server (load per cycle)")
	fl.StringVar(&o.means, "means", "", "`FILE` of the servers' mean demands (CSV, one row per server in the graph's node order)")
	fl.StringVar(&o.column, "column", "", "the column of --means holding the mean demand")
	o.tab.register(fl, "means-", "means")
	fl.Float64Var(&o.limit, "limit", 0, "total limit l_total; 0 means the total mean demand")
	fl.IntVar(&o.runs, "runs", 20, "independent runs (with --rel or --abs: the pilot)")
	fl.IntVar(&o.steps, "steps", 2000, "cycles averaged in each run")
	fl.IntVar(&o.burn, "burn", 200, "cycles discarded at the start of each run")
	fl.Float64Var(&o.precision.Rel, "rel", 0, "run until the 95 % half-width of E O is ≤ rel·E O")
	fl.Float64Var(&o.precision.Abs, "abs", 0, "run until the 95 % half-width of E O is ≤ abs (load per cycle)")
	fl.IntVar(&o.precision.MaxRuns, "max-runs", 0, "with --rel or --abs: runs at most (0: 10000)")
	o.cst.register(c)
	return c
}

// runOver answers "throttler over".
func (a *app) runOver(cmd *cobra.Command, o *overFlags) error {
	d, _, err := o.f.in.load()
	if err != nil {
		return err
	}
	g := d.Graph
	if err := wgraph.CheckConnected(g); err != nil {
		return err
	}
	th, err := simulateThrottler(g, o.f)
	if err != nil {
		return err
	}
	reg, err := o.regime(cmd, g.Order())
	if err != nil {
		return err
	}
	m := consensus.MonteCarlo{Runs: o.runs, Steps: o.steps, Burn: o.burn, Seed: a.seed, Precision: o.precision}
	p := a.startProgress(-1, "over-throttling")
	est, err := consensus.EstimateOver(th, reg, m)
	p.done()
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return err
	}
	t := quantityTable("over-throttling")
	t.add("γ used", th.Gamma, nil, nil, "time", "")
	excess := -reg.LTotal
	for _, x := range reg.Mean {
		excess += x
	}
	t.add("mean excess demand", excess, nil, nil, "load", "r̄_total − l_total")
	t.add("E O, distributed", est.Total.Mean, est.Total.Lo, est.Total.Hi, "load per cycle", fmt.Sprintf("estimate, 95 %% interval, %d runs", est.Total.N))
	if g.Order() <= spectral.DenseMaxNodes {
		ex, xerr := consensus.ExpectedOver(th, consensus.Case1, reg.Sigma, excess)
		if xerr != nil {
			return xerr
		}
		t.add("E O, distributed, exact", ex.Total, nil, nil, "load per cycle", "closed form (spec deployed §4.2)")
	}
	if o.cst.rule.val != "" {
		cerr := o.addCentral(t, reg, m)
		err = errors.Join(err, cerr)
		if cerr != nil && !errors.Is(cerr, loadlab.ErrNotConverged) {
			return cerr
		}
	}
	servers := &table{name: "servers", cols: []string{"server", "E O_i", "lo", "hi"}}
	for i, e := range est.Server {
		servers.add(d.Labels[i], e.Mean, e.Lo, e.Hi)
	}
	if eerr := a.emit(&answer{tables: []*table{t, servers}}); eerr != nil {
		return eerr
	}
	return err
}

// addCentral adds the centralized baseline's estimate on the same draws.
func (o *overFlags) addCentral(t *table, reg consensus.Regime, m consensus.MonteCarlo) error {
	c, err := o.cst.central()
	if err != nil {
		return err
	}
	est, err := consensus.EstimateCentralOver(c, reg, m)
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return err
	}
	t.add(fmt.Sprintf("E O, centralized (%s, %d cycles late)", o.cst.rule.val, o.cst.delay), est.Total.Mean, est.Total.Lo, est.Total.Hi, "load per cycle", fmt.Sprintf("estimate, 95 %% interval, %d runs", est.Total.N))
	return err
}

// regime is the Gaussian stationary regime the flags describe.
func (o *overFlags) regime(cmd *cobra.Command, n int) (consensus.Regime, error) {
	mean := make([]float64, n)
	if o.means != "" {
		if cmd.Flags().Changed("mean") {
			return consensus.Regime{}, usagef("--mean and --means exclude each other")
		}
		col, err := readColumn(o.means, o.column, o.tab.options())
		if err != nil {
			return consensus.Regime{}, err
		}
		if len(col) != n {
			return consensus.Regime{}, usagef("--means %s has %d rows, the graph %d servers", o.means, len(col), n)
		}
		copy(mean, col)
	} else {
		for i := range mean {
			mean[i] = o.mean
		}
	}
	reg := consensus.Regime{Mean: mean, Sigma: o.f.sigma, LTotal: o.limit}
	if o.limit == 0 {
		for _, x := range mean {
			reg.LTotal += x
		}
	}
	if o.cst.rule.val == "" && (cmd.Flags().Changed("central-delay") || cmd.Flags().Changed("floor")) {
		return reg, usagef("--central-delay and --floor go with --central RULE")
	}
	return reg, reg.Validate()
}
