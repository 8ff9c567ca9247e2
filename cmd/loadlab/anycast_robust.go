package main

import (
	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
)

// anycastRobustCommand is "loadlab anycast robust": what deciding on a
// measured or stale C costs.
func (a *app) anycastRobustCommand() *cobra.Command {
	var in networkInput
	var set stability.RobustSettings
	var budgets []int
	var driftTo string
	var eps float64
	var days []int
	c := &cobra.Command{
		Use:   "robust",
		Short: "What deciding on a C measured by beacons, or gone stale, costs the optimal DNS split",
		Long: `Takes the network's C as the truth and scores the optimal split x of P1
(costs f_i = (w/2) A_i (1 − x_i)², h_i = (penalty/2) (S_i − T_i)₊²)
computed on a wrong C (spec §15.5):

  - a C estimated from a simulated beacon campaign of --budgets beacons
    per region, --runs campaigns each (run r of budget k on the stream
    (--seed, k, r)): the loss of optimality P(x̂) − P* and the overload
    Σ(S_i − T_i)₊ on the true C, with 95 % intervals over campaigns, and
    the share of campaigns whose robust Π_C check passed and whose
    confidence set held the true C;
  - with --drift-to FILE.json (another network whose C is the pattern C′
    the routing drifts to), the stale C of the drift model
    C_d = (1 − ε)^d C + (1 − (1 − ε)^d) C′ after --days days: the same
    two measures, and the smallest Π_C slack on C and on C_d.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			nw, err := in.load()
			if err != nil {
				return err
			}
			r, err := stability.NewRobustness(nw, &set)
			if err != nil {
				return err
			}
			var drift *table
			if driftTo != "" { // first: its bad input is found before the campaigns run
				if drift, err = driftStudy(r, driftTo, eps, days); err != nil {
					return err
				}
			}
			bs := make([]int64, len(budgets))
			for k, b := range budgets {
				bs[k] = int64(b)
			}
			p := a.startProgress(-1, "beacon campaigns")
			pts, err := r.BeaconStudy(bs, a.seed)
			p.done()
			if err != nil {
				return err
			}
			ans := robustStudyAnswer(r, pts)
			if drift != nil {
				ans.tables = append(ans.tables, drift)
			}
			return a.emit(withNote(ans, in.note()))
		},
	}
	in.register(c)
	fl := c.Flags()
	fl.IntSliceVar(&budgets, "budgets", []int{100, 1000, 10000}, "beacons per region of each campaign size (comma-separated)")
	fl.IntVar(&set.Runs, "runs", 20, "campaigns per budget (≥ 2)")
	fl.Float64Var(&set.W, "w", 1, "weight w of the cost of demand sent to L2")
	fl.Float64Var(&set.Penalty, "penalty", 1000, "weight of the cost of overload")
	fl.StringVar(&driftTo, "drift-to", "", "network `FILE`.json whose C is the pattern the routing drifts to")
	fl.Float64Var(&eps, "eps", 0.05, "share ε of each region's traffic that drifts per day, in [0, 1]")
	fl.IntSliceVar(&days, "days", []int{0, 1, 7, 30}, "ages of the stale C in days (comma-separated)")
	return c
}

// robustStudyAnswer tabulates the beacon-budget study.
func robustStudyAnswer(r *stability.Robustness, pts []stability.BeaconPoint) *answer {
	t := &table{name: "budget", cols: []string{"beacons/region", "loss", "loss lo", "loss hi", "overload", "overload lo", "overload hi", "robust share", "covered share"}}
	xs, ys := make([]float64, len(pts)), make([]float64, len(pts))
	for k, p := range pts {
		t.add(int(p.Beacons), p.Loss.Mean, p.Loss.Lo, p.Loss.Hi, p.Excess.Mean, p.Excess.Lo, p.Excess.Hi, p.Robust, p.Covered)
		xs[k], ys[k] = float64(p.Beacons), p.Loss.Mean
	}
	s := quantityTable("truth")
	s.add("optimal cost P* on the true C", r.Opt.Upper, r.Opt.Best, r.Opt.Upper, "cost", "certified: P* in [lo, hi]")
	s.add("overload of the optimum", r.Excess, nil, nil, "load", "Σ (S_i − T_i)₊")
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Loss of optimality of the split computed on Ĉ", "beacons per region", "P(x̂) − P* on the true C (mean over campaigns)")
		plots.AddPoints(p, 0, "loss", xs, ys)
		return p, 0, 0, nil
	}
	return &answer{tables: []*table{t, s}, value: map[string]any{"budgets": pts, "opt": r.Opt.Upper, "opt_lower": r.Opt.Best, "opt_excess": r.Excess}, draw: draw,
		notes: []string{"Loss and overload are measured on the true C (the network's); intervals are 95 % over campaigns (spec §15.5)."}}
}

// driftStudy runs the drift study towards the C of the network file
// path and tabulates it.
func driftStudy(r *stability.Robustness, path string, eps float64, days []int) (*table, error) {
	nd, err := dataio.ReadNetworkJSONFile(path, nil)
	if err != nil {
		return nil, err
	}
	sp, err := nd.Network.AsSparse()
	if err != nil {
		return nil, err
	}
	dps, err := r.DriftStudy(sp.Sparse, eps, days)
	if err != nil {
		return nil, err
	}
	return driftTable(dps), nil
}

// driftTable tabulates the drift study.
func driftTable(dps []stability.DriftPoint) *table {
	t := &table{name: "drift", cols: []string{"days", "loss", "overload", "min slack on C", "min slack on C_d"}}
	for _, d := range dps {
		t.add(d.Days, d.Loss, d.Excess, d.Slack0, d.Slack)
	}
	return t
}
