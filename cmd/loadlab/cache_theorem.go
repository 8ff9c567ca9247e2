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
// (codedload.TailStudy, spec coded-load.md §12.1).
func (a *app) cacheTailCommand() *cobra.Command {
	f := cacheFlags{topology: newChoice("torus", "torus", "hypercube", "rgg", "regular")}
	var cs []float64
	c := &cobra.Command{
		Use:   "tail",
		Short: "P[max load > c] against n with exact binomial 95 % intervals (the w.h.p. claim)",
		Long: `Runs every --strategy at every size --n (--runs runs each, one topology per
size) and reports, for each threshold --c, the share of runs whose maximum
load exceeds c with its exact Clopper–Pearson 95 % interval (spec
coded-load.md §12.1). "O(1) with high probability" predicts that, for a
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
// with ℓ = c·ln n (codedload.SlopeStudy, spec §12.2).
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
coded-load.md §12.2). The O(1) claim predicts a flat line (slope ≈ 0);
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
// analysed regime against n (codedload.RegimeStudy, spec §12.3).
func (a *app) cacheRegimeCommand() *cobra.Command {
	var ns []int
	var r codedload.Regime
	var runs int
	c := &cobra.Command{
		Use:   "regime",
		Short: "Two choices with K = n, M = n^α, radius n^β: max load against log log n",
		Long: `Runs proximity-aware two choices in its analysed regime (spec coded-load.md
§12.3): the √n×√n torus, K = n files of uniform popularity, caches of
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

// cachePresetCommand is "loadlab cache preset": the authors' experiments
// (codedload.Presets, spec §12.4).
func (a *app) cachePresetCommand() *cobra.Command {
	var list bool
	var runs int
	c := &cobra.Command{
		Use:   "preset [NAME]",
		Short: "Rerun one of the authors' experiments (--list names them)",
		Long: `Runs one of the reference simulators' experiments (spec coded-load.md §7.1,
§12.4) with the authors' runs per point (or --runs): every curve at every
point, with the mean maximum load, cost and outage and their 95 % intervals.
--list names the presets and what each varies. The same experiments shard
with "loadlab sweep" (codedload-preset).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if list || len(args) == 0 {
				return a.emit(presetList())
			}
			p, err := codedload.LookupPreset(args[0])
			if err != nil {
				return usagef("%v", err)
			}
			if runs < 0 {
				return usagef("--runs = %d: want ≥ 1, or 0 for the preset's", runs)
			}
			pr := a.startProgress(-1, "preset "+p.Name)
			curves, err := codedload.RunPreset(p, runs, a.seed, nil)
			pr.done()
			if err != nil {
				return err
			}
			return a.emit(presetAnswer(p, curves))
		},
	}
	c.Flags().BoolVar(&list, "list", false, "list the presets")
	c.Flags().IntVar(&runs, "runs", 0, "runs per point (0: the authors')")
	return c
}

func presetList() *answer {
	t := &table{cols: []string{"preset", "x", "runs", "curves", "description"}}
	type row struct {
		Name, X, Description string
		Runs                 int
	}
	var rows []row
	for _, p := range codedload.Presets() {
		var names []string
		for _, c := range p.Curves() {
			names = append(names, c.Name)
		}
		t.add(p.Name, p.X, p.Runs, fmt.Sprint(names), p.Description)
		rows = append(rows, row{p.Name, p.X, p.Description, p.Runs})
	}
	return &answer{tables: []*table{t}, value: rows}
}

func presetAnswer(p codedload.Preset, curves []codedload.Curve) *answer {
	t := &table{cols: []string{"curve", p.X, "runs", "max load", "max load lo", "max load hi", "cost", "cost lo", "cost hi", "outage"}}
	type point struct {
		X                     float64
		MaxLoad, Cost, Outage loadlab.Estimate
	}
	out := map[string][]point{}
	for _, c := range curves {
		for _, q := range c.Points {
			t.add(c.Name, q.X, q.MaxLoad.N, q.MaxLoad.Mean, q.MaxLoad.Lo, q.MaxLoad.Hi, q.Cost.Mean, q.Cost.Lo, q.Cost.Hi, q.Outage.Mean)
			out[c.Name] = append(out[c.Name], point{q.X, q.MaxLoad, q.Cost, q.Outage})
		}
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		pl := plots.New("Preset "+p.Name, p.X, "maximum load (requests per server)")
		for i, c := range curves {
			var xs, ys, lo, hi []float64
			for _, q := range c.Points {
				xs, ys = append(xs, q.X), append(ys, q.MaxLoad.Mean)
				lo, hi = append(lo, q.MaxLoad.Lo), append(hi, q.MaxLoad.Hi)
			}
			plots.AddErrorBars(pl, i, c.Name, xs, ys, lo, hi)
		}
		return pl, 0, 0, nil
	}
	return &answer{tables: []*table{t}, value: out, draw: draw}
}

// cacheDesignCommand is "loadlab cache design": the cheapest ℓ and chunk
// cap meeting a target maximum load (codedload.DesignCoded, spec §12.5).
func (a *app) cacheDesignCommand() *cobra.Command {
	f := cacheFlags{topology: newChoice("torus", "torus", "hypercube", "rgg", "regular")}
	var n int
	var d codedload.Design
	c := &cobra.Command{
		Use:   "design",
		Short: "Cheapest ℓ and chunk cap whose maximum load meets a target",
		Long: `Tries every ℓ of --ell and every chunk cap of --caps (0: no cap) on one
topology of --n servers, --runs runs each, and chooses the candidate of
least price, cost + --chunk-price·ℓ, among those whose mean maximum load
has the upper end of its 95 % interval at most --target (spec coded-load.md
§12.5). The cost is exact (spec §6.3) where that formula applies (no cap,
torus or hypercube). Exit code 1 when no candidate meets the target.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if err := d.Validate(); err != nil {
				return usagef("%v", err)
			}
			f.sizes = []int{n}
			fam, _, err := f.model()
			if err != nil {
				return err
			}
			top, err := fam(n, loadlab.Stream(a.seed, 1<<40, uint64(n)))
			if err != nil {
				return usagef("--n %d: %v", n, err)
			}
			base := codedload.Config{Topology: top, Files: f.files, Cache: f.cache, Gamma: f.zipf}
			p := a.startProgress(-1, "design grid")
			r, err := codedload.DesignCoded(base, d, a.seed, nil)
			p.done()
			if err != nil {
				return err
			}
			if err := a.emit(designAnswer(r, d)); err != nil {
				return err
			}
			if r.Best < 0 {
				return fmt.Errorf("no candidate meets --target %g", d.Target)
			}
			return nil
		},
	}
	fl := c.Flags()
	fl.IntVar(&n, "n", 1024, "network size n")
	fl.Var(f.topology, "topology", "topology family")
	fl.IntVar(&f.degree, "degree", 6, "degree of the random regular topology")
	fl.IntVar(&f.files, "files", 100, "library size K")
	fl.IntVar(&f.cache, "cache", 2, "cache size M of each server, in files")
	fl.Float64Var(&f.zipf, "zipf", 0, "Zipf exponent γ of file popularity (0: uniform)")
	fl.Float64Var(&d.Target, "target", 3, "target maximum load (files per server)")
	fl.IntSliceVar(&d.Ells, "ell", []int{2, 4, 6, 8, 10, 12, 14, 16}, "candidate piece counts ℓ")
	fl.IntSliceVar(&d.Caps, "caps", []int{0, 1}, "candidate chunk caps (0: no cap)")
	fl.Float64Var(&d.ChunkPrice, "chunk-price", 0.05, "price of one chunk fetched, in hops")
	fl.IntVar(&d.Runs, "runs", 20, "runs per candidate")
	return c
}

func designAnswer(r *codedload.DesignResult, d codedload.Design) *answer {
	t := &table{cols: []string{"ℓ", "cap", "max load", "lo", "hi", "cost", "exact cost", "price", "meets", "chosen"}}
	for i, c := range r.Candidates {
		var exact any
		if !math.IsNaN(c.ExactCost) {
			exact = c.ExactCost
		}
		t.add(c.Ell, c.ChunkCap, c.MaxLoad.Mean, c.MaxLoad.Lo, c.MaxLoad.Hi, c.Cost.Mean, exact, c.Price, c.Meets, i == r.Best)
	}
	var notes []string
	if r.Best >= 0 {
		b := r.Candidates[r.Best]
		notes = append(notes, fmt.Sprintf("chosen: ℓ = %d, chunk cap %d (max load %.3g ≤ %.3g, price %.4g hops)", b.Ell, b.ChunkCap, b.MaxLoad.Mean, b.MaxLoad.Hi, b.Price))
	} else {
		notes = append(notes, fmt.Sprintf("no candidate meets the target %g: try larger ℓ or a cap", d.Target))
	}
	value := map[string]any{"candidates": r.Candidates, "best": r.Best}
	return &answer{tables: []*table{t}, notes: notes, value: value}
}
