package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/competitive"
)

func (a *app) nomadicPredictCommand() *cobra.Command {
	var noises []float64
	var workload string
	var runs int
	var base competitive.PredictionPoint
	c := &cobra.Command{
		Use:   "predict",
		Short: "Online algorithms that use predicted hold costs, against the prediction error",
		Long: `The prediction study of spec nomadic §16. For every prediction error of
--noise (the standard deviation of the error on each predicted hold cost,
as a fraction of C), runs on --runs random instances (--workload sticky or
uniform, as "nomadic alpha") the look-ahead algorithm that trusts the
predictions of the next --window slots (0: the whole horizon), the guarded
algorithm that follows it until it has cost more than (1 + --lambda) times
WFA plus C and then WFA for good, and the baselines without predictions
(WFA, DTrack-RR) and never migrate. Reports each mean ratio cost/OPT with
its 95 % interval, and the guard's bound ((1 + λ)(2k − 1) + 2)·OPT, which
holds whatever the predictions (the look-ahead alone has none). Exact
predictions over the whole horizon give OPT. Run r of point i draws from
loadlab.Stream(--seed, i, r); shard large studies with "loadlab sweep"
(sweep "nomadic-predict").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			switch strings.ToLower(workload) {
			case "sticky":
				base.Workload = competitive.Sticky
			case "uniform":
				base.Workload = competitive.Uniform
			default:
				return usagef("--workload %q: want sticky or uniform", workload)
			}
			if len(noises) == 0 {
				return usagef("--noise needs at least one value")
			}
			pts := make([]competitive.PredictionPoint, len(noises))
			for i, n := range noises {
				pts[i] = base
				pts[i].Noise = n
			}
			p := a.startProgress(-1, "prediction study")
			sums, err := competitive.PredictionStudy(pts, runs, a.seed)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(predictAnswer(sums))
		},
	}
	fl := c.Flags()
	fl.IntVar(&base.Servers, "k", 5, "servers k (≥ 2)")
	fl.Float64SliceVar(&noises, "noise", []float64{0, 0.1, 0.3, 1, 3, 10}, "prediction errors σ/C ≥ 0 (comma-separated)")
	fl.IntVar(&base.Window, "window", 0, "look-ahead window in slots (0: the whole horizon)")
	fl.Float64Var(&base.Lambda, "lambda", 0.5, "the guard's slack λ ≥ 0")
	fl.StringVar(&workload, "workload", "sticky", "random workload: sticky or uniform")
	fl.IntVar(&runs, "runs", 50, "random instances per point (≥ 2)")
	fl.IntVar(&base.Slots, "slots", 200, "slots T of an instance")
	fl.Float64Var(&base.Setup, "setup", 10, "setup cost C")
	fl.Float64Var(&base.Spread, "spread", 1, "hold costs drawn on [0, spread·C)")
	fl.Float64Var(&base.Persist, "persist", 20, "sticky workload: mean slots the free server lasts (≥ 1)")
	return c
}

func predictAnswer(sums []competitive.PredictionSummary) *answer {
	t := &table{name: "points", cols: []string{"noise", "lookahead", "lo", "hi", "guarded", "lo", "hi",
		"WFA", "DTrack-RR", "never migrate", "lookahead max", "guarded max", "guard bound"}}
	names := []string{"look-ahead (trusts predictions)", "guarded (falls back to WFA)", "WFA (no predictions)", "DTrack-RR (no predictions)"}
	ss := make([]series, len(names))
	for i := range ss {
		ss[i] = series{name: names[i], line: true}
	}
	for _, s := range sums {
		x := s.Point.Noise
		t.add(x, s.Lookahead.Mean, s.Lookahead.Lo, s.Lookahead.Hi, s.Guarded.Mean, s.Guarded.Lo, s.Guarded.Hi,
			s.WFA.Mean, s.DTrack.Mean, s.NeverMigrate.Mean, s.LookaheadMax, s.GuardedMax, s.Bound)
		for i, y := range []float64{s.Lookahead.Mean, s.Guarded.Mean, s.WFA.Mean, s.DTrack.Mean} {
			ss[i].xs, ss[i].ys = append(ss[i].xs, x), append(ss[i].ys, y)
		}
	}
	pt := sums[0].Point
	notes := []string{
		fmt.Sprintf("k = %d, C = %g, T = %d, window %d slots, λ = %g; %d instances per point, intervals 95 %% Student t over instances.", pt.Servers, pt.Setup, pt.Slots, pt.Window, pt.Lambda, sums[0].Guarded.N),
		"The guarded algorithm pays at most the guard bound times OPT whatever the predictions, and OPT when they are exact over the whole horizon; the look-ahead alone has no bound (spec §16).",
	}
	return &answer{tables: []*table{t}, value: sums, notes: notes,
		draw: pointsPicture("Online algorithms with predictions", "prediction error σ/C", "mean cost / OPT", false, ss...)}
}
