package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/plots"
)

// cacheCommand is "loadlab cache": coded load balancing in cache
// networks (spec coded-load.md).
func (a *app) cacheCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "cache",
		Short: "Cache networks: delivery strategies compared on maximum load and cost",
		Long: `A cache network (spec coded-load.md): n servers on a topology, each caching
M of K files, requests for Zipf-popular files served by a delivery
strategy. "compare" runs the strategies side by side.`,
	}
	c.AddCommand(a.cacheCompareCommand())
	return c
}

// cacheFlags are the model flags of "cache compare".
type cacheFlags struct {
	sizes      []int
	topology   *choice
	degree     int
	files      int
	cache      int
	zipf       float64
	strategies []string
	ball       int
	runs       int
}

func (a *app) cacheCompareCommand() *cobra.Command {
	f := cacheFlags{topology: newChoice("torus", "torus", "hypercube", "rgg", "regular")}
	c := &cobra.Command{
		Use:   "compare",
		Short: "Maximum load and cost of each strategy at each size, with 95 % intervals",
		Long: `Runs every --strategy at every size --n on one topology per size and
reports the mean maximum load, communication cost (hops per request) and
outage with their 95 % intervals over --runs runs (spec coded-load.md §7).
Strategies: nearest (nearest replica), two-choice (power of two choices
among holders within a ball of --ball servers), two-choice-global,
coded-log (coded delivery with ℓ = ⌈ln n⌉ pieces) and coded:L (ℓ = L).`,
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
			total := 0
			for range variants {
				total += len(f.sizes) * f.runs
			}
			p := a.startProgress(-1, fmt.Sprintf("%d runs", total))
			set := &codedload.SweepSettings{}
			curves, err := codedload.CompareSizes(f.sizes, fam, variants, func(int) int { return f.runs }, a.seed, set)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(compareAnswer(curves))
		},
	}
	fl := c.Flags()
	fl.IntSliceVar(&f.sizes, "n", []int{1024}, "network sizes n (comma-separated)")
	fl.Var(f.topology, "topology", "topology family")
	fl.IntVar(&f.degree, "degree", 6, "degree of the random regular topology")
	fl.IntVar(&f.files, "files", 100, "library size K")
	fl.IntVar(&f.cache, "cache", 2, "cache size M of each server, in files")
	fl.Float64Var(&f.zipf, "zipf", 0, "Zipf exponent γ of file popularity (0: uniform)")
	fl.StringSliceVar(&f.strategies, "strategy", []string{"nearest", "two-choice", "coded-log"}, "strategies to compare")
	fl.IntVar(&f.ball, "ball", 545, "least number of servers in the ball of two-choice")
	fl.IntVar(&f.runs, "runs", 10, "runs per strategy and size")
	return c
}

// model returns the topology family and the variants the flags name.
func (f *cacheFlags) model() (codedload.Family, []codedload.Variant, error) {
	var fam codedload.Family
	switch f.topology.val {
	case "torus":
		fam = codedload.TorusFamily
	case "hypercube":
		fam = codedload.HypercubeFamily
	case "rgg":
		fam = codedload.RGGFamily
	case "regular":
		fam = codedload.RegularFamily(f.degree)
	}
	for _, n := range f.sizes {
		if n < 1 {
			return nil, nil, usagef("--n %d: want sizes ≥ 1", n)
		}
	}
	base := codedload.Config{Files: f.files, Cache: f.cache, Gamma: f.zipf}
	var vs []codedload.Variant
	for _, s := range f.strategies {
		v, err := f.variant(strings.TrimSpace(s), base)
		if err != nil {
			return nil, nil, err
		}
		vs = append(vs, v)
	}
	return fam, vs, nil
}

// variant is the comparison variant of one --strategy word.
func (f *cacheFlags) variant(s string, base codedload.Config) (codedload.Variant, error) {
	with := func(st codedload.Strategy) codedload.Config { c := base; c.Strategy = st; return c }
	switch {
	case s == "nearest":
		return codedload.Variant{Name: s, Config: with(codedload.NearestReplica{})}, nil
	case s == "two-choice":
		ball := f.ball
		return codedload.Variant{Name: s, Config: with(codedload.TwoChoice{}), Radius: func(t codedload.Topology) int { return codedload.BallRadius(t, ball) }}, nil
	case s == "two-choice-global":
		return codedload.Variant{Name: s, Config: with(codedload.TwoChoiceGlobal{})}, nil
	case s == "coded-log":
		return codedload.Variant{Name: s, Config: with(codedload.Coded{}), Ell: codedload.LogEll}, nil
	case strings.HasPrefix(s, "coded:"):
		ell, err := strconv.Atoi(strings.TrimPrefix(s, "coded:"))
		if err != nil || ell < 1 {
			return codedload.Variant{}, usagef("--strategy %q: want coded:L with an integer L ≥ 1", s)
		}
		return codedload.Variant{Name: s, Config: with(codedload.Coded{Ell: ell})}, nil
	}
	return codedload.Variant{}, usagef("--strategy %q: want nearest, two-choice, two-choice-global, coded-log or coded:L", s)
}

// compareAnswer is the table of every strategy at every size.
func compareAnswer(curves []codedload.Curve) *answer {
	t := &table{name: "", cols: []string{"strategy", "n", "runs", "max load", "max load lo", "max load hi", "cost", "cost lo", "cost hi", "outage"}}
	for _, c := range curves {
		for _, p := range c.Points {
			t.add(c.Name, int(p.X), p.MaxLoad.N, p.MaxLoad.Mean, p.MaxLoad.Lo, p.MaxLoad.Hi, p.Cost.Mean, p.Cost.Lo, p.Cost.Hi, p.Outage.Mean)
		}
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Maximum load by strategy", "servers n", "maximum load (requests per server)")
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
	return &answer{tables: []*table{t}, value: summaryCurves(curves), draw: draw}
}

// summaryCurves drops the per-run results from the JSON answer.
func summaryCurves(curves []codedload.Curve) any {
	type point struct {
		N                     int
		MaxLoad, Cost, Outage any
	}
	out := map[string][]point{}
	for _, c := range curves {
		for _, p := range c.Points {
			out[c.Name] = append(out[c.Name], point{int(p.X), p.MaxLoad, p.Cost, p.Outage})
		}
	}
	return out
}
