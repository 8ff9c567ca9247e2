package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/dataio"
)

func (a *app) nomadicSessionsCommand() *cobra.Command {
	var costs []string
	var capacity []int
	var setup float64
	var tab tableInput
	c := &cobra.Command{
		Use:   "sessions",
		Short: "Several sessions sharing servers with capacities: the joint optimum and a heuristic",
		Long: `Reads one hold-cost table per session from --costs FILE,FILE,... (each as
"nomadic compare" reads --costs; all with the same slots and servers) and
a capacity per server from --capacity (the most sessions a server holds in
a slot), and reports the joint optimum (spec nomadic §17.4: a dynamic
program over the joint states, exact for small sizes; left out, with the
reason, when too large), the sequential heuristic (each session in turn
takes its own optimum on the capacity left) and the sum of the sessions'
own optima, which ignores the capacities (a lower bound).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if len(costs) == 0 {
				return usagef("give one hold-cost table per session with --costs FILE,FILE,...")
			}
			ss := &competitive.Sessions{Capacity: capacity}
			for _, path := range costs {
				in, err := dataio.ReadInstanceFile(path, setup, tab.options())
				if err != nil {
					return err
				}
				ss.In = append(ss.In, in)
			}
			if err := ss.Validate(); err != nil {
				return err
			}
			return a.emit(sessionsAnswer(ss))
		},
	}
	c.Flags().StringSliceVar(&costs, "costs", nil, "hold-cost `FILES` (comma-separated CSVs, one per session)")
	c.Flags().IntSliceVar(&capacity, "capacity", nil, "sessions each server holds at most (comma-separated, one per server)")
	c.Flags().Float64Var(&setup, "setup", 1, "setup cost C of a migration")
	tab.register(c.Flags(), "", "hold-cost tables")
	return c
}

func sessionsAnswer(ss *competitive.Sessions) *answer {
	t := &table{cols: []string{"schedule", "cost", "ratio to joint optimum"}}
	var notes []string
	lower := 0.0
	for _, in := range ss.In {
		lower += competitive.OptimumCost(in)
	}
	opt, _, err := competitive.SessionsOptimum(ss)
	seq, _, serr := competitive.SessionsSequential(ss)
	if serr != nil {
		notes = append(notes, fmt.Sprintf("sequential heuristic left out: %v", serr))
	}
	ratio := func(x float64) any {
		if err != nil {
			return "-"
		}
		return x / opt
	}
	if err == nil {
		t.add("joint optimum", opt, 1.0)
	} else if errors.Is(err, loadlab.ErrTooLarge) {
		notes = append(notes, fmt.Sprintf("joint optimum left out: %v", err))
	}
	if serr == nil {
		t.add("sequential heuristic", seq, ratio(seq))
	}
	t.add("sessions' own optima, capacities ignored (lower bound)", lower, ratio(lower))
	notes = append(notes, fmt.Sprintf("%d sessions, %d servers with capacities %v, %d slots, C = %g (spec nomadic §17.4).",
		len(ss.In), ss.In[0].Servers(), ss.Capacity, ss.In[0].Slots(), ss.In[0].Setup()))
	return &answer{tables: []*table{t}, notes: notes}
}
