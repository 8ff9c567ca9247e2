package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab"
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
strategy. "compare" runs the strategies side by side; "code" gives the
decoding probability of the random linear chunks the coded strategy
stands for (spec §11); "tail", "slope" and "regime" check the papers'
asymptotic claims numerically (spec §12); "preset" reruns the authors'
experiments and "design" chooses ℓ and the chunk cap for a target
maximum load.`,
	}
	c.AddCommand(a.cacheCompareCommand(), a.cacheCodeCommand(), a.cacheTailCommand(), a.cacheSlopeCommand(), a.cacheRegimeCommand(), a.cachePresetCommand(), a.cacheDesignCommand())
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
	field      *choice
	runs       int
	precision  loadlab.Precision
}

func (a *app) cacheCompareCommand() *cobra.Command {
	f := cacheFlags{topology: newChoice("torus", "torus", "hypercube", "rgg", "regular"), field: newChoice("256", "2", "4", "16", "256")}
	c := &cobra.Command{
		Use:   "compare",
		Short: "Maximum load and cost of each strategy at each size, with 95 % intervals",
		Long: `Runs every --strategy at every size --n on one topology per size and
reports the mean maximum load, communication cost (hops per request) and
outage with their 95 % intervals over --runs runs (spec coded-load.md §7).
Strategies: nearest (nearest replica), two-choice (power of two choices
among holders within a ball of --ball servers), two-choice-global,
coded-log (coded delivery with ℓ = ⌈ln n⌉ pieces) and coded:L (ℓ = L),
which assume that any ℓ chunks decode (an ideal MDS code), and rlnc-log and
rlnc:L, the same with real decoding of random linear chunks over GF(q),
q = --field (spec coded-load.md §11.6): a request takes chunks nearest
first until they decode, and a file whose chunks do not decode is in
outage.

With --rel or --abs, --runs is the pilot and each strategy and size runs
on until the 95 % half-widths of maximum load and cost are within ±rel of
the mean or ±abs (spec monte-carlo.md), at most --max-runs runs; the
"runs" column says how many it took. A point short of the target at
--max-runs is marked in the "met" column and the command exits 1 after
printing the table.`,
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
			p := a.startProgress(-1, fmt.Sprintf("%d runs", len(variants)*len(f.sizes)*f.runs))
			set := &codedload.SweepSettings{Precision: f.precision}
			if !f.precision.IsZero() {
				set.Logf = func(format string, args ...any) { p.describe(fmt.Sprintf(format, args...)) }
			}
			curves, err := codedload.CompareSizes(f.sizes, fam, variants, func(int) int { return f.runs }, a.seed, set)
			p.done()
			if curves == nil {
				return err
			}
			if eerr := a.emit(compareAnswer(curves, f.precision)); eerr != nil {
				return eerr
			}
			return err
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
	fl.Var(f.field, "field", "field size q of rlnc-log and rlnc:L")
	fl.IntVar(&f.runs, "runs", 10, "runs per strategy and size (with --rel or --abs: the pilot)")
	fl.Float64Var(&f.precision.Rel, "rel", 0, "run until each 95 % half-width is ≤ rel·|mean| (0.01: ±1 %)")
	fl.Float64Var(&f.precision.Abs, "abs", 0, "run until each 95 % half-width is ≤ abs (requests per server; hops)")
	fl.IntVar(&f.precision.MaxRuns, "max-runs", 0, "with --rel or --abs: runs per strategy and size at most (0: 10000)")
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
	case s == "rlnc-log":
		q, _ := strconv.Atoi(f.field.val) // one of the choices
		return codedload.Variant{Name: s, Config: with(codedload.Coded{Field: q}), Ell: codedload.LogEll}, nil
	case strings.HasPrefix(s, "coded:"), strings.HasPrefix(s, "rlnc:"):
		word, num, _ := strings.Cut(s, ":")
		ell, err := strconv.Atoi(num)
		if err != nil || ell < 1 {
			return codedload.Variant{}, usagef("--strategy %q: want %s:L with an integer L ≥ 1", s, word)
		}
		q := 0
		if word == "rlnc" {
			q, _ = strconv.Atoi(f.field.val)
		}
		return codedload.Variant{Name: s, Config: with(codedload.Coded{Ell: ell, Field: q})}, nil
	}
	return codedload.Variant{}, usagef("--strategy %q: want nearest, two-choice, two-choice-global, coded-log, coded:L, rlnc-log or rlnc:L", s)
}

// compareAnswer is the table of every strategy at every size.
// With a precision, a "met" column says whether each point met it.
func compareAnswer(curves []codedload.Curve, prec loadlab.Precision) *answer {
	cols := []string{"strategy", "n", "runs", "max load", "max load lo", "max load hi", "cost", "cost lo", "cost hi", "outage"}
	if !prec.IsZero() {
		cols = append(cols, "met")
	}
	t := &table{name: "", cols: cols}
	short := 0
	for _, c := range curves {
		for _, p := range c.Points {
			row := []any{c.Name, int(p.X), p.MaxLoad.N, p.MaxLoad.Mean, p.MaxLoad.Lo, p.MaxLoad.Hi, p.Cost.Mean, p.Cost.Lo, p.Cost.Hi, p.Outage.Mean}
			if !prec.IsZero() {
				met := p.Status == loadlab.Success
				if !met {
					short++
				}
				row = append(row, met)
			}
			t.add(row...)
		}
	}
	var notes []string
	if !prec.IsZero() {
		notes = append(notes, precisionNote(prec, short))
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
	return &answer{tables: []*table{t}, notes: notes, value: summaryCurves(curves), draw: draw}
}

// precisionNote states the target the runs were driven to and how many
// points fell short of it.
func precisionNote(p loadlab.Precision, short int) string {
	var target []string
	if p.Rel > 0 {
		target = append(target, fmt.Sprintf("±%g %% of the mean", 100*p.Rel))
	}
	if p.Abs > 0 {
		target = append(target, fmt.Sprintf("±%g", p.Abs))
	}
	s := fmt.Sprintf("runs until the 95 %% half-widths of max load and cost are within %s, at most %d runs", strings.Join(target, " or "), p.Cap())
	if short > 0 {
		s += fmt.Sprintf("; %d of the points stopped at the cap short of the target (met: false)", short)
	}
	return s
}

// summaryCurves drops the per-run results from the JSON answer.
func summaryCurves(curves []codedload.Curve) any {
	type point struct {
		N                     int
		MaxLoad, Cost, Outage any
		// Status is "success", or "iteration limit" for a point that
		// stopped at --max-runs short of --rel/--abs.
		Status string
	}
	out := map[string][]point{}
	for _, c := range curves {
		for _, p := range c.Points {
			out[c.Name] = append(out[c.Name], point{int(p.X), p.MaxLoad, p.Cost, p.Outage, p.Status.String()})
		}
	}
	return out
}
