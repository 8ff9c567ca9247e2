package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/stability"
)

func (a *app) anycastStudyCommand() *cobra.Command {
	var n, runs int
	var loads, selfCorrs []float64
	var beta float64
	c := &cobra.Command{
		Use:   "study",
		Short: "Greedy against optimal on random CDNs across load level and self-correlation, with intervals",
		Long: `The paper's headline comparison as a study (spec §13.9): for each load
level u (utilisations uniform on [u/2, 3u/2] at x = 1) and self-correlation
s (every C_jj = s; 0 keeps GenerateCDN's split), --runs random CDNs of --n
nodes; on each the greedy law's end state from x = ½ against the certified
optimum of P1. Prints the greedy/optimal cost ratio, the share of
instances left in an uncontrollable overload and the overload of both,
each with its 95 % interval over the instances. Shard large studies with
"loadlab sweep" (sweep "stability-study").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if len(loads) == 0 {
				return usagef("--loads is empty: want at least one load level")
			}
			if len(selfCorrs) == 0 {
				selfCorrs = []float64{0}
			}
			var points []stability.StudyPoint
			for _, u := range loads {
				for _, s := range selfCorrs {
					points = append(points, stability.StudyPoint{N: n, Load: u, SelfCorr: s, Sensitivity: beta})
				}
			}
			p := a.startProgress(-1, "study")
			sums, err := stability.Study(points, runs, a.seed)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(studyAnswer(sums))
		},
	}
	c.Flags().IntVar(&n, "n", 1000, "nodes of each random CDN")
	c.Flags().Float64SliceVar(&loads, "loads", []float64{0.5, 1, 1.5, 2}, "load levels u (mean utilisation at x = 1)")
	c.Flags().Float64SliceVar(&selfCorrs, "self-corr", nil, "self-correlations s in [0, 1); 0 keeps the generated C")
	c.Flags().IntVar(&runs, "runs", 20, "random CDNs per point (≥ 2)")
	c.Flags().Float64Var(&beta, "beta", 1, "sensitivity β of the greedy law")
	return c
}

// studyAnswer is one row per point and the cost ratio against the load,
// one curve per self-correlation.
func studyAnswer(sums []stability.StudySummary) *answer {
	t := &table{name: "points", cols: []string{"load", "self-corr", "cost ratio", "lo", "hi",
		"uncontrollable share", "lo", "hi", "greedy overload/demand", "optimal overload/demand"}}
	curve := make(map[float64]int) // self-correlation → index in ss
	var ss []series
	for _, s := range sums {
		pt := s.Point
		t.add(pt.Load, pt.SelfCorr, s.CostRatio.Mean, s.CostRatio.Lo, s.CostRatio.Hi,
			s.Uncontrollable.Mean, s.Uncontrollable.Lo, s.Uncontrollable.Hi, s.GreedyExcess.Mean, s.OptimalExcess.Mean)
		i, ok := curve[pt.SelfCorr]
		if !ok {
			name := fmt.Sprintf("self-correlation %g", pt.SelfCorr)
			if pt.SelfCorr == 0 {
				name = "self-correlation as generated"
			}
			i = len(ss)
			curve[pt.SelfCorr] = i
			ss = append(ss, series{name: name, line: true})
		}
		ss[i].xs, ss[i].ys = append(ss[i].xs, pt.Load), append(ss[i].ys, s.CostRatio.Mean)
	}
	notes := []string{fmt.Sprintf("%d instances per point; intervals are 95 %% over instances (Student t; exact binomial for the share).", sums[0].Runs)}
	return &answer{tables: []*table{t}, value: sums, notes: notes,
		draw: pointsPicture("Greedy against optimal on random CDNs", "load level u (mean utilisation at x = 1)", "P1 cost ratio greedy/optimal", false, ss...)}
}
