package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/graphio"
)

func (a *app) nomadicTraceCommand() *cobra.Command {
	var trace, routers, graph string
	var delays bool
	var setup float64
	var opts dataio.MobilityOptions
	c := &cobra.Command{
		Use:   "trace",
		Short: "Online algorithms against the optimum on hold costs made from a mobility trace",
		Long: `Reads a mobility trace from --trace FILE (CSV with the columns time, user,
x, y: one line per sample, each user's times increasing) and router
positions from --routers FILE (CSV with the columns x, y; router i is row
i, from 0), turns them into hold costs (spec nomadic §17.1: one slot per
--slot time units from the first sample, each user where the trace puts
it, linear between samples; a router costs the user's Euclidean distance
to it, or with --router-graph FILE the hop count from the user's nearest
router through that graph, whose node labels are the router numbers 0,
1, ...; --router-delays takes the edge weights as link delays instead;
the users of --users, by default all, form one session whose hold costs
add), and compares the online algorithms with the offline optimum as
"nomadic compare" does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if trace == "" || routers == "" {
				return usagef("give the trace with --trace FILE and the routers with --routers FILE")
			}
			if delays && graph == "" {
				return usagef("--router-delays needs --router-graph")
			}
			in, note, err := traceInstance(trace, routers, graph, delays, setup, &opts)
			if err != nil {
				return err
			}
			ans, err := a.nomadicCompare(in)
			if err != nil {
				return err
			}
			ans.notes = append(ans.notes, note)
			return a.emit(ans)
		},
	}
	fl := c.Flags()
	fl.StringVar(&trace, "trace", "", "mobility trace `FILE` (CSV: time, user, x, y)")
	fl.StringVar(&routers, "routers", "", "router positions `FILE` (CSV: x, y)")
	fl.StringVar(&graph, "router-graph", "", "network `FILE` of the routers (node labels 0, 1, ...): hold cost = hop count from the user's nearest router")
	fl.BoolVar(&delays, "router-delays", false, "with --router-graph: the edge weights are link delays, and the hold cost is the delay of a shortest path")
	fl.Float64Var(&setup, "setup", 50, "setup cost C of a migration")
	fl.Float64Var(&opts.Slot, "slot", 1, "slot length in the trace's time unit")
	fl.IntVar(&opts.Slots, "slots", 0, "slots T (0: up to the last sample)")
	fl.IntSliceVar(&opts.Users, "users", nil, "users of the session (comma-separated ids; default all)")
	return c
}

// traceInstance reads the trace and the routers and builds the
// instance; the note says what was read.
func traceInstance(trace, routers, graph string, delays bool, setup float64, opts *dataio.MobilityOptions) (*competitive.Instance, string, error) {
	m, err := dataio.ReadMobilityFile(trace)
	if err != nil {
		return nil, "", err
	}
	t, err := dataio.ReadTableFile(routers, &dataio.TableOptions{Header: graphio.HeaderYes, Columns: []string{"x", "y"}})
	if err != nil {
		return nil, "", err
	}
	pos := make([][2]float64, len(t.Rows))
	for i, r := range t.Rows {
		pos[i] = [2]float64{r[0], r[1]}
	}
	how := "Euclidean distance"
	if graph != "" {
		names := make([]string, len(pos))
		for i := range names {
			names[i] = strconv.Itoa(i)
		}
		met, err := migrationGraphMetric("--router-graph", "the routers file", graph, delays, names, 1)
		if err != nil {
			return nil, "", err
		}
		opts.Hops = make([][]float64, len(pos))
		for i := range opts.Hops {
			opts.Hops[i] = make([]float64, len(pos))
			for j := range opts.Hops[i] {
				opts.Hops[i][j] = met.Dist(i, j)
			}
		}
		how = "hop count from the nearest router"
		if delays {
			how = "shortest-path delay from the nearest router"
		}
	}
	in, err := dataio.MobilityInstance(m, pos, setup, opts)
	if err != nil {
		return nil, "", err
	}
	note := fmt.Sprintf("Hold costs from %s: %d users (%d in the session), %d routers, %d slots of %g; hold = %s (spec nomadic §17.1).",
		trace, len(m.Users), sessionSize(m, opts), len(pos), in.Slots(), max(opts.Slot, 0), how)
	return in, note, nil
}

func sessionSize(m *dataio.Mobility, o *dataio.MobilityOptions) int {
	if len(o.Users) == 0 {
		return len(m.Users)
	}
	return len(o.Users)
}
