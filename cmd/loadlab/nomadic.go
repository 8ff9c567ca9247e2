package main

import (
	"math/rand/v2"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/plots"
)

// nomadicCommand is "loadlab nomadic": where to hold a mobile user's
// service over time (spec nomadic.md).
func (a *app) nomadicCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "nomadic",
		Short: "Nomadic service points: online migration policies against the offline optimum",
		Long: `A session is held on one of k servers in each time slot, paying the slot's
hold cost there and a setup cost C for each migration (spec nomadic.md
§2). "compare" runs the online algorithms on a table of hold costs and
compares each with the offline optimum; "adversary" runs each against the
adaptive adversary built for it; "alpha" studies DTrack's threshold α
(and DTrack-B's β) against the adversary and on random workloads, beside
its bound (spec §15); "predict" measures algorithms that use predicted
hold costs against the prediction error (spec §16); "trace" makes the hold
costs from a mobility trace and router positions (spec §17); "sessions"
puts several sessions on servers with capacities (spec §17.4).`,
	}
	c.AddCommand(a.nomadicCompareCommand(), a.nomadicAdversaryCommand(), a.nomadicAlphaCommand(), a.nomadicPredictCommand(), a.nomadicTraceCommand(), a.nomadicSessionsCommand())
	return c
}

// onlineAlgorithms are the algorithms "nomadic compare" runs, by name.
func onlineAlgorithms(src func() rand.Source) []onlineAlg {
	return []onlineAlg{
		{"DTrack-RR", "DT-RR", competitive.NewDTrack(competitive.RoundRobin)},
		{"DTrack-F", "DT-F", competitive.NewDTrack(competitive.Forward)},
		{"DTrack-B", "DT-B", competitive.NewDTrack(competitive.Backward)},
		{"CTrack", "CTrack", competitive.NewCTrack()},
		{"WFA", "WFA", &competitive.WFA{}},
		{"Marking (randomised)", "Marking", &competitive.Marking{Src: src()}},
		{"never migrate", "never", &competitive.NeverMigrate{}},
	}
}

// onlineAlg is an online algorithm with its name in tables and in
// pictures.
type onlineAlg struct {
	name, short string
	alg         competitive.Online
}

func (a *app) nomadicCompareCommand() *cobra.Command {
	var costs string
	var migration migrationFlags
	var setup float64
	var tab tableInput
	c := &cobra.Command{
		Use:   "compare",
		Short: "Cost of each online algorithm and its ratio to the offline optimum",
		Long: `Reads the hold costs from --costs FILE (a CSV: one row per slot, one
column per server; --skip a time-stamp column, or choose the servers'
columns with --columns) and the setup cost --setup C, computes the offline
optimum (spec §3) and runs DTrack (round-robin, forward, backward; spec
§4), CTrack (spec §5), the work function algorithm, the randomised
marking algorithm and the never-migrate baseline (stay on the first
slot's cheapest server), beside the best single server in hindsight
(spec §12.7), reporting each cost, its ratio to the optimum and its
number of setups.

With --migration-costs FILE (a CSV k × k matrix: row i, column j is the
cost of moving the session from server i to server j, 0 on the diagonal;
an optional header of server names) a migration costs what the matrix
says and the first placement costs --setup C (spec §14). The command
then reports the optimum of that metrical task system (spec §14.2), the
work function algorithm on it (§14.4; left out, with the reason, when
the matrix is not a metric), DTrack with a threshold per destination
(§14.3), never migrate and the best single server. --migration-graph FILE
gives the migration costs as shortest paths on a network of the servers
instead (a graph file whose node labels are the hold-cost table's column
names): hop counts, or with --migration-delays the edge weights as link
delays.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if costs == "" {
				return usagef("give the hold costs with --costs FILE")
			}
			in, err := dataio.ReadInstanceFile(costs, setup, tab.options())
			if err != nil {
				return err
			}
			m, from, err := migration.metric(costs, &tab, setup)
			if err != nil {
				return err
			}
			var ans *answer
			if m != nil {
				ans, err = a.nomadicCompareMetric(in, m, from)
			} else {
				ans, err = a.nomadicCompare(in)
			}
			if err != nil {
				return err
			}
			return a.emit(ans)
		},
	}
	c.Flags().StringVar(&costs, "costs", "", "hold-cost `FILE` (CSV: one row per slot, one column per server)")
	c.Flags().Float64Var(&setup, "setup", 1, "setup cost C of a migration (with --migration-costs: of the first placement)")
	c.Flags().StringVar(&migration.costs, "migration-costs", "", "migration-cost `FILE` (CSV k × k matrix: row = from, column = to)")
	c.Flags().StringVar(&migration.graph, "migration-graph", "", "network `FILE` of the servers (a graph file; nodes named as the hold-cost columns): a migration costs the hop count of a shortest path")
	c.Flags().BoolVar(&migration.delays, "migration-delays", false, "with --migration-graph: the edge weights are link delays, and a migration costs the delay of a shortest path")
	tab.register(c.Flags(), "", "hold-cost table")
	return c
}

// nomadicCompare runs every algorithm on in.
func (a *app) nomadicCompare(in *competitive.Instance) (*answer, error) {
	opt, sched, err := competitive.Optimum(in)
	if err != nil {
		return nil, err
	}
	t := &table{cols: []string{"algorithm", "cost", "ratio to optimum", "setups"}}
	t.add("offline optimum", opt, 1.0, competitive.Setups(sched))
	static, _ := competitive.StaticBest(in)
	sr, err := competitive.PerformanceRatio(static, opt)
	if err != nil {
		return nil, err
	}
	t.add("static best server (offline)", static, sr, 1)
	names := []string{"OPT", "static"}
	ratios := []float64{1, sr}
	for _, al := range onlineAlgorithms(func() rand.Source { return rand.NewPCG(a.seed, 4) }) {
		s, err := competitive.Run(al.alg, in)
		if err != nil {
			return nil, err
		}
		cost := in.Cost(s)
		r, err := competitive.PerformanceRatio(cost, opt)
		if err != nil {
			return nil, err
		}
		t.add(al.name, cost, r, competitive.Setups(s))
		names, ratios = append(names, al.short), append(ratios, r)
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Online algorithms against the offline optimum", "algorithm", "cost / optimal cost")
		plots.AddBars(p, 0, 1, "ratio", ratios)
		plots.NominalX(p, names...)
		return p, 0, 0, nil
	}
	return &answer{tables: []*table{t}, draw: draw}, nil
}
