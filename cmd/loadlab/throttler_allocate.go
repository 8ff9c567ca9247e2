package main

import (
	"math"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/plots"
)

func (a *app) throttlerAllocateCommand() *cobra.Command {
	var requests, column string
	var limit float64
	var tab tableInput
	c := &cobra.Command{
		Use:   "allocate",
		Short: "Split one server's limit among its clients (uniform ratio and max–min fair)",
		Long: `Splits the limit --limit of one server among its clients, whose requests
are a column of --requests FILE (the column named --column, or the only
column): by Algorithm 1 of spec §7 (every client loses the same fraction)
and by Algorithm 2 (max–min fair: clients under a common level are served
in full, the others get the level).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if requests == "" {
				return usagef("give the clients' requests with --requests FILE")
			}
			r, err := readColumn(requests, column, tab.options())
			if err != nil {
				return err
			}
			uni, err := consensus.UniformRatio(nil, r, limit)
			if err != nil {
				return err
			}
			fair, level, err := consensus.WaterFill(nil, r, limit)
			if err != nil {
				return err
			}
			return a.emit(allocationAnswer(r, uni, fair, level))
		},
	}
	c.Flags().StringVar(&requests, "requests", "", "`FILE` of the clients' requests (CSV, one row per client)")
	c.Flags().StringVar(&column, "column", "", "the column of requests in a headed file with several columns")
	c.Flags().Float64Var(&limit, "limit", 0, "the server's limit x (requests per time unit)")
	tab.register(c.Flags(), "", "requests table")
	return c
}

// readColumn reads one column of a numeric table: the one named name, or
// the only one.
func readColumn(path, name string, opts *dataio.TableOptions) ([]float64, error) {
	if name != "" {
		if len(opts.Columns) > 0 {
			return nil, usagef("--column and --columns exclude each other")
		}
		opts.Columns = []string{name}
	}
	t, err := dataio.ReadTableFile(path, opts)
	if err != nil {
		return nil, err
	}
	if len(t.Rows) > 0 && len(t.Rows[0]) != 1 {
		return nil, usagef("%s has %d columns: choose one with --column", path, len(t.Rows[0]))
	}
	col := make([]float64, len(t.Rows))
	for i, row := range t.Rows {
		col[i] = row[0]
	}
	return col, nil
}

// allocationAnswer lists both splits per client.
func allocationAnswer(r, uni, fair []float64, level float64) *answer {
	t := &table{name: "clients", cols: []string{"client", "requests", "uniform ratio", "max-min fair"}}
	xs := make([]float64, len(r))
	for i := range r {
		xs[i] = float64(i + 1)
		t.add(i+1, r[i], uni[i], fair[i])
	}
	ans := &answer{tables: []*table{t}, value: map[string]any{"requests": r, "uniform_ratio": uni, "max_min_fair": fair, "level": level}}
	if math.IsInf(level, 1) {
		ans.notes = []string{"The requests fit within the limit: every client is served in full."}
	} else {
		ans.notes = []string{"Max–min fair level: " + formatCell(level, false) + " (clients asking less are served in full)."}
	}
	ans.draw = func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Per-client limits", "client", "limit (requests per time unit)")
		plots.AddBars(p, 0, 3, "requests", r)
		plots.AddBars(p, 1, 3, "uniform ratio", uni)
		plots.AddBars(p, 2, 3, "max-min fair", fair)
		return p, 0, 0, nil
	}
	return ans
}
