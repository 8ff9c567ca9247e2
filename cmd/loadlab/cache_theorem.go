package main

import (
	"fmt"
	"math"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/plots"
)

// cacheTailCommand is "loadlab cache tail": P[L_max > c] against n
// (codedload.TailStudy, spec coded-load.md §11.1).
func (a *app) cacheTailCommand() *cobra.Command {
	f := cacheFlags{topology: newChoice("torus", "torus", "hypercube", "rgg", "regular")}
	var cs []float64
	c := &cobra.Command{
		Use:   "tail",
		Short: "P[max load > c] against n with exact binomial 95 % intervals (the w.h.p. claim)",
		Long: `Runs every --strategy at every size --n (--runs runs each, one topology per
size) and reports, for each threshold --c, the share of runs whose maximum
load exceeds c with its exact Clopper–Pearson 95 % interval (spec
coded-load.md §11.1). "O(1) with high probability" predicts that, for a
fixed c, the share falls with n; for nearest replica it rises. Showing a
probability below 1/n needs about 3.7·n runs: shard such runs with
"loadlab sweep" (codedload-sizes with "thresholds").`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			fam, variants, err := f.model()
			if err != nil {
				return err
			}
			if f.runs < 1 {
				return usagef("--runs = %d: want ≥ 1", f.runs)
			}
			if err := checkFinite("--c", cs); err != nil {
				return err
			}
			pts, owner, err := tailPoints(f.sizes, fam, variants, a.seed)
			if err != nil {
				return err
			}
			p := a.startProgress(-1, fmt.Sprintf("%d runs", len(pts)*f.runs))
			tails, err := codedload.TailStudy(pts, f.runs, cs, a.seed, nil)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(tailAnswer(tails, owner, variants, cs))
		},
	}
	f.flags(c, []string{"nearest", "coded-log"}, 200)
	c.Flags().Float64SliceVar(&cs, "c", []float64{2.5, 3, 4}, "thresholds c of P[max load > c]")
	return c
}

// flags declares the model flags shared by the cache subcommands.
func (f *cacheFlags) flags(c *cobra.Command, strategies []string, runs int) {
	fl := c.Flags()
	fl.IntSliceVar(&f.sizes, "n", []int{100, 400, 1024}, "network sizes n (comma-separated)")
	fl.Var(f.topology, "topology", "topology family")
	fl.IntVar(&f.degree, "degree", 6, "degree of the random regular topology")
	fl.IntVar(&f.files, "files", 100, "library size K")
	fl.IntVar(&f.cache, "cache", 2, "cache size M of each server, in files")
	fl.Float64Var(&f.zipf, "zipf", 0, "Zipf exponent γ of file popularity (0: uniform)")
	fl.StringSliceVar(&f.strategies, "strategy", strategies, "strategies (nearest, two-choice, two-choice-global, coded-log, coded:L)")
	fl.IntVar(&f.ball, "ball", 545, "least number of servers in the ball of two-choice")
	fl.IntVar(&f.runs, "runs", runs, "runs per strategy and size")
}

func checkFinite(flag string, xs []float64) error {
	if len(xs) == 0 {
		return usagef("%s: want at least one value", flag)
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return usagef("%s %v: want finite values", flag, x)
		}
	}
	return nil
}

// tailPoints returns one point per (variant, size) on one topology per
// size, as codedload.CompareSizes builds them, with owner[j] the variant
// of point j.
func tailPoints(ns []int, fam codedload.Family, vs []codedload.Variant, seed uint64) ([]codedload.Point, []int, error) {
	var pts []codedload.Point
	var owner []int
	tops := make([]codedload.Topology, len(ns))
	for i, n := range ns {
		t, err := fam(n, loadlab.Stream(seed, 1<<40, uint64(n)))
		if err != nil {
			return nil, nil, usagef("--n %d: %v", n, err)
		}
		tops[i] = t
	}
	for v := range vs {
		for i, n := range ns {
			pts = append(pts, codedload.Point{X: float64(n), Config: vs[v].At(n, tops[i])})
			owner = append(owner, v)
		}
	}
	return pts, owner, nil
}

// tailAnswer is one row per strategy, size and threshold.
func tailAnswer(tails []codedload.TailPoint, owner []int, vs []codedload.Variant, cs []float64) *answer {
	t := &table{cols: []string{"strategy", "n", "ℓ", "runs", "mean max load", "c", "P[max load > c]", "lo", "hi"}}
	type row struct {
		Strategy string
		N, Ell   int
		MaxLoad  loadlab.Estimate
		C        float64
		Tail     loadlab.Estimate
	}
	var rows []row
	for j, tp := range tails {
		for i, c := range cs {
			e := tp.Tail[i]
			t.add(vs[owner[j]].Name, int(tp.X), tp.Ell, e.N, tp.MaxLoad.Mean, c, e.Mean, e.Lo, e.Hi)
			rows = append(rows, row{vs[owner[j]].Name, int(tp.X), tp.Ell, tp.MaxLoad, c, e})
		}
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("P[max load > c] against n", "servers n", "P[max load > c]")
		k := 0
		for v := range vs {
			for i, c := range cs {
				var xs, ys, lo, hi []float64
				for j, tp := range tails {
					if owner[j] == v {
						xs, ys = append(xs, tp.X), append(ys, tp.Tail[i].Mean)
						lo, hi = append(lo, tp.Tail[i].Lo), append(hi, tp.Tail[i].Hi)
					}
				}
				plots.AddErrorBars(p, k, fmt.Sprintf("%s, c = %g", vs[v].Name, c), xs, ys, lo, hi)
				k++
			}
		}
		return p, 0, 0, nil
	}
	return &answer{tables: []*table{t}, value: rows, draw: draw}
}

// cacheSlopeCommand is "loadlab cache slope": E[max load] against ln n
// with ℓ = c·ln n (codedload.SlopeStudy, spec §11.2).
func (a *app) cacheSlopeCommand() *cobra.Command {
	f := cacheFlags{topology: newChoice("torus", "torus", "hypercube", "rgg", "regular")}
	var cs []float64
	var chunkCap int
	c := &cobra.Command{
		Use:   "slope",
		Short: "Fitted slope of the mean max load against ln n, coded with ℓ = c·ln n",
		Long: `Runs coded delivery with ℓ = round(c·ln n) for each --c, and every --strategy
as a baseline, at every size --n, and fits the mean maximum load against
ln n by least squares over the runs, with the slope's 95 % interval (spec
coded-load.md §11.2). The O(1) claim predicts a flat line (slope ≈ 0);
nearest replica's Θ(log n) a positive slope.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			fam, variants, err := f.model()
			if err != nil {
				return err
			}
			if f.runs < 2 {
				return usagef("--runs = %d: want ≥ 2", f.runs)
			}
			for _, x := range cs {
				if !(x > 0) || math.IsInf(x, 1) {
					return usagef("--c %v: want finite values > 0", x)
				}
			}
			base := codedload.Config{Files: f.files, Cache: f.cache, Gamma: f.zipf, Strategy: codedload.Coded{ChunkCap: chunkCap}}
			p := a.startProgress(-1, "slope study")
			curves, err := codedload.SlopeStudy(f.sizes, fam, base, cs, variants, func(int) int { return f.runs }, a.seed, nil)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(slopeAnswer(curves))
		},
	}
	f.flags(c, []string{"nearest"}, 40)
	c.Flags().Float64SliceVar(&cs, "c", []float64{0.5, 1, 2}, "constants c of ℓ = round(c·ln n)")
	c.Flags().IntVar(&chunkCap, "chunk-cap", 0, "per-server cap on the chunks one server sends per request (0: none)")
	return c
}

// slopeAnswer is the fit of each curve, then its points.
func slopeAnswer(curves []codedload.SlopeCurve) *answer {
	fits := &table{name: "slope of the mean max load against ln n", cols: []string{"strategy", "slope", "lo", "hi", "intercept", "flat"}}
	pts := &table{name: "points", cols: []string{"strategy", "n", "ℓ", "runs", "max load", "lo", "hi", "cost"}}
	for _, c := range curves {
		s := c.Fit.Slope
		fits.add(c.Name, s.Mean, s.Lo, s.Hi, c.Fit.Intercept.Mean, s.Contains(0))
		for _, p := range c.Points {
			pts.add(c.Name, int(p.X), p.Runs[0].Ell, p.MaxLoad.N, p.MaxLoad.Mean, p.MaxLoad.Lo, p.MaxLoad.Hi, p.Cost.Mean)
		}
	}
	type curve struct {
		Name             string
		C                float64
		Slope, Intercept loadlab.Estimate
	}
	var out []curve
	for _, c := range curves {
		out = append(out, curve{c.Name, c.C, c.Fit.Slope, c.Fit.Intercept})
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Mean max load against n", "servers n", "mean max load")
		for i, c := range curves {
			var xs, ys, lo, hi []float64
			for _, pt := range c.Points {
				xs, ys = append(xs, pt.X), append(ys, pt.MaxLoad.Mean)
				lo, hi = append(lo, pt.MaxLoad.Lo), append(hi, pt.MaxLoad.Hi)
			}
			plots.AddErrorBars(p, i, c.Name, xs, ys, lo, hi)
		}
		return p, 0, 0, nil
	}
	return &answer{tables: []*table{fits, pts}, value: out, draw: draw}
}

// cacheRegimeCommand is "loadlab cache regime": two choices in its
// analysed regime against n (codedload.RegimeStudy, spec §11.3).
func (a *app) cacheRegimeCommand() *cobra.Command {
	var ns []int
	var r codedload.Regime
	var runs int
	c := &cobra.Command{
		Use:   "regime",
		Short: "Two choices with K = n, M = n^α, radius n^β: max load against log log n",
		Long: `Runs proximity-aware two choices in its analysed regime (spec coded-load.md
§11.3): the √n×√n torus, K = n files of uniform popularity, caches of
M = ⌈n^α⌉ files, radius r = round(n^β), α + 2β ≥ 1. Reports the mean
maximum load at each --n (perfect squares) and the fitted slopes against
ln ln n and ln n with 95 % intervals; Θ(log log n) predicts a small
positive slope against ln ln n. A run at n = 16384 with α = 0.5,
β = 0.4 takes about a second.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if err := r.Validate(); err != nil {
				return usagef("--alpha %v --beta %v: %v", r.Alpha, r.Beta, err)
			}
			if runs < 2 {
				return usagef("--runs = %d: want ≥ 2", runs)
			}
			for _, n := range ns {
				if _, err := r.Config(n); err != nil || n < 16 {
					return usagef("--n %d: want perfect squares ≥ 16 (%v)", n, err)
				}
			}
			p := a.startProgress(-1, "regime study")
			res, err := codedload.RegimeStudy(ns, r, func(int) int { return runs }, a.seed, nil)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(regimeAnswer(res))
		},
	}
	fl := c.Flags()
	fl.IntSliceVar(&ns, "n", []int{256, 1024, 4096}, "network sizes n (perfect squares ≥ 16)")
	fl.Float64Var(&r.Alpha, "alpha", 0.5, "cache exponent α: M = ⌈n^α⌉")
	fl.Float64Var(&r.Beta, "beta", 0.4, "radius exponent β: r = round(n^β)")
	fl.IntVar(&runs, "runs", 20, "runs per size")
	return c
}

func regimeAnswer(res *codedload.RegimeResult) *answer {
	pts := &table{name: "points", cols: []string{"n", "ln ln n", "runs", "max load", "lo", "hi", "cost", "fallbacks"}}
	for _, p := range res.Points {
		fb := 0.0
		for _, r := range p.Runs {
			fb += float64(r.Fallbacks) / float64(max(1, r.Requests))
		}
		pts.add(int(p.X), math.Log(math.Log(p.X)), p.MaxLoad.N, p.MaxLoad.Mean, p.MaxLoad.Lo, p.MaxLoad.Hi, p.Cost.Mean, fb/float64(len(p.Runs)))
	}
	fits := &table{name: "fits of the mean max load", cols: []string{"against", "slope", "lo", "hi", "intercept"}}
	fits.add("ln ln n", res.LogLog.Slope.Mean, res.LogLog.Slope.Lo, res.LogLog.Slope.Hi, res.LogLog.Intercept.Mean)
	fits.add("ln n", res.Log.Slope.Mean, res.Log.Slope.Lo, res.Log.Slope.Hi, res.Log.Intercept.Mean)
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Two choices in its regime", "ln ln n", "mean max load")
		var xs, ys, lo, hi []float64
		for _, pt := range res.Points {
			x := math.Log(math.Log(pt.X))
			xs, ys = append(xs, x), append(ys, pt.MaxLoad.Mean)
			lo, hi = append(lo, pt.MaxLoad.Lo), append(hi, pt.MaxLoad.Hi)
		}
		plots.AddErrorBars(p, 0, "two choices (a)", xs, ys, lo, hi)
		return p, 0, 0, nil
	}
	value := map[string]any{"regime": res.Regime, "loglog": res.LogLog, "log": res.Log}
	return &answer{tables: []*table{fits, pts}, value: value, draw: draw}
}
