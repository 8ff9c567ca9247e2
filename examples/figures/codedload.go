package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/plots"
)

func init() {
	register(
		plots.Figure{
			Name:    "codedload-maxload-vs-n",
			Caption: "Maximum load against the number of servers n on the torus (K = 100 files, cache M = 2, uniform popularity): nearest replica grows like log n, two choices (b) like log log n (3 to 4), two choices (a) with the fixed radius r = 16 drifts up (its ball holds about 11 replicas, short of the log² n the analysis asks for), coded delivery with ℓ = ⌈ln n⌉ chunks stays flat (spec §1, §6.2, §7.3); means with 95% confidence bands: each point runs until its mean is within ±5% (95%) with at least 10 runs off its most frequent value (the precision mode, docs/specs/monte-carlo.md §2), from 20 runs (at most 300) up to n = 6400, 10 (at most 40) up to 102 400 and 3 (at most 16) beyond, the title giving the runs taken; a ring marks a point whose runs are too alike for an interval (the CSV gives the binomial interval of the chance of another value); and the black curve E max of n Po(1), the load when every request is served where it arrives.",
			Make:    threeSteps(sizesPreset, sizesCompute, maxLoadDraw),
			Seconds: 1,
		},
		plots.Figure{
			Name:    "codedload-cost-vs-n",
			Caption: "Communication cost (hops per request) against n for the runs of codedload-maxload-vs-n, with the exact infinite-grid costs of spec §6.3 (top, log scales), and every strategy's cost relative to nearest replica (bottom, linear): coded delivery with ℓ = 10 is about 22% cheaper than nearest replica (spec §6.2), two choices (b) pays the network diameter.",
			// The size sweep is shared with codedload-maxload-vs-n and made
			// by whichever of the two runs first (this one, by name).
			Make:    threeSteps(sizesPreset, sizesCompute, costDraw),
			Seconds: 180,
		},
		plots.Figure{
			Name:    "codedload-tradeoff",
			Caption: "Load–cost trade-off on the torus: maximum load against cost as the radius r of two choices (a), the stretch α of two choices (c) or the chunk count ℓ of coded delivery varies (K = 100, M = 2); every point is labelled with its r, α or ℓ; error bars are 95% intervals, each point runs until its mean is within ±5% (95%) with at least 10 runs off its most frequent value (the precision mode, docs/specs/monte-carlo.md §2) (10 to 100 runs, the title gives the range; a ring: runs too alike for an interval).",
			Make:    threeSteps(tradeoffPreset, tradeoffCompute, tradeoffDraw),
			Seconds: 50,
		},
		plots.Figure{
			Name:    "codedload-params",
			Caption: "Maximum load and cost against the Zipf exponent γ, the cache size M and the chunk count ℓ on the torus (K = 100), with the exact cost of spec §6.3; the per-server cap chnk_max = 1 keeps coded load flat for γ > 1 (spec §8 J). At γ = 2 the uncapped coded load is about 4.9, as the spec's erratum to §8 J gives (4.904 ± 0.009; the printed 5.25 is not reproduced by the model); the capped 2.17 agrees. Bands are 95% intervals: each point runs until its mean is within ±5% (95%) with at least 10 runs off its most frequent value (the precision mode, docs/specs/monte-carlo.md §2) (10 to 100 runs; each row's title gives the range; a ring: runs too alike for an interval).",
			Make:    threeSteps(paramsPreset, paramsCompute, paramsDraw),
			Seconds: 12,
		},
		plots.Figure{
			Name:    "codedload-topologies",
			Caption: "The main figure (codedload-maxload-vs-n) on four topologies: maximum load against n on the torus, a random geometric graph (r_n = √(1.25 ln n/n)), a random 6-regular graph and the hypercube (K = 100, M = 2, γ = 0, one graph per n; means with 95% confidence bands: each point runs until its mean is within ±5% (95%) with at least 10 runs off its most frequent value (the precision mode, docs/specs/monte-carlo.md §2), from 10 runs (at most 100) up to n = 4096, 6 (at most 20) at 16384 and 4 (at most 12) at 65536, each panel's title giving the runs taken; a ring: runs too alike for an interval): nearest replica, two choices (a) with a ball of at least 545 nodes (r = 16 on the torus), two choices (b) (on the random graphs the far holder's distance comes from a bidirectional BFS), and coded with ℓ = ⌈ln n⌉ and with ℓ = 10. Every panel stops at n = 2¹⁶ = 65536, so that the figure takes about three CPU-minutes (the main figure, codedload-maxload-vs-n, reaches 10⁶ on the torus; on the random graphs every search is a BFS). The two-choice curves stop earlier where one run would take several seconds: (a), whose ball search visits ≥ 545 nodes per request, at 2¹⁴ on the 6-regular graph and 2¹² on the random geometric graph; (b) at 2¹⁴ on the random geometric graph, where the far holder lies about √(n/ln n) hops away and a run costs about n² work.",
			Make:    threeSteps(topoPreset, topoCompute, topoDraw),
			Seconds: 100,
		},
	)
}

// clBase is the §7.3 setting: K = 100 files, M = 2, uniform popularity.
func clBase(s codedload.Strategy) codedload.Config {
	return codedload.Config{Files: 100, Cache: 2, Strategy: s}
}

// clMainVariants are the strategies of the main figure; radius gives the
// ball of two choices (a) on each topology.
func clMainVariants(radius func(codedload.Topology) int) []codedload.Variant {
	return []codedload.Variant{
		{Name: "nearest replica", Config: clBase(codedload.NearestReplica{})},
		{Name: "two choices (a)", Config: clBase(codedload.TwoChoice{}), Radius: radius},
		{Name: "two choices (b)", Config: clBase(codedload.TwoChoiceGlobal{})},
		{Name: "coded, ℓ = ceil(ln n)", Config: clBase(codedload.Coded{}), Ell: codedload.LogEll},
		{Name: "coded, ℓ = 10", Config: clBase(codedload.Coded{}), Ell: func(int) int { return 10 }},
	}
}

// clRel is the relative 95 % half-width every codedload point runs to
// (codedload.SweepSettings.Precision): ±5 % of the mean maximum load
// and cost, with at least loadlab.MinOffMode runs off the most frequent
// value (docs/specs/monte-carlo.md §2).
const clRel = 0.05

// clRuns is the run plan of a size sweep, by groups of sizes: for n up
// to upTo[i] (the last group: every larger n) each point starts with
// pilot[i] runs and runs on to the precision clRel, at most caps[i]
// runs; points at the cap are drawn without an interval.
type clRuns struct {
	upTo  []int
	pilot []int
	caps  []int
}

// group returns the index of the group of size n.
func (r clRuns) group(n int) int {
	for i, u := range r.upTo {
		if n <= u {
			return i
		}
	}
	return len(r.pilot) - 1
}

func (r clRuns) at(n int) int { return r.pilot[r.group(n)] }

// clPrecision is the precision asked of every codedload point, capped
// at maxRuns runs.
func clPrecision(maxRuns int) loadlab.Precision {
	return loadlab.Precision{Rel: clRel, MaxRuns: maxRuns}
}

// clCompare is codedload.CompareSizes run to the precision clRel, one
// call per group of sizes of runs (each with its own cap and a seed of
// its own, so that no two points share a random stream). Points that
// reach their cap are kept (their Status says so).
func clCompare(cfg plots.Config, ns []int, fam codedload.Family, variants []codedload.Variant, runs clRuns, seed uint64) ([]codedload.Curve, error) {
	groups := make([][]int, len(runs.pilot))
	for _, n := range ns {
		g := runs.group(n)
		groups[g] = append(groups[g], n)
	}
	var curves []codedload.Curve
	for g, gns := range groups {
		if len(gns) == 0 {
			continue
		}
		set := &codedload.SweepSettings{Logf: cfg.Logf, Precision: clPrecision(runs.caps[g])}
		cs, err := codedload.CompareSizes(gns, fam, variants, runs.at, seed+uint64(g)*0x9E3779B97F4A7C15, set)
		if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
			return nil, err
		}
		if curves == nil {
			curves = cs
			continue
		}
		for v := range cs {
			curves[v].Points = append(curves[v].Points, cs[v].Points...)
		}
	}
	return curves, nil
}

// clRunsRange returns the fewest and most runs of the points of curves.
func clRunsRange(curves ...codedload.Curve) (lo, hi int) {
	lo = math.MaxInt
	for _, c := range curves {
		for _, p := range c.Points {
			lo, hi = min(lo, len(p.Runs)), max(hi, len(p.Runs))
		}
	}
	return lo, hi
}

// clRunsLine is the line a figure's title gives its run counts.
func clRunsLine(curves ...codedload.Curve) string {
	lo, hi := clRunsRange(curves...)
	return fmt.Sprintf("%d–%d runs per point, each until ±%g%% (95%%)", lo, hi, 100*clRel)
}

// clNewTable is the long table of every codedload figure; reference
// curves enter it with strategy "reference: …" and runs 0. The
// intervals are NaN where fewer than loadlab.MinOffMode runs differ
// from the most frequent value (intervals.go); the maximum load's
// most frequent value, the runs off it and the Clopper–Pearson
// interval of the probability of a run off it are given for every
// point.
func clNewTable() *plots.Table {
	return plots.NewTable("panel", "strategy", "x", "runs", "status", "maxload", "maxload_lo95", "maxload_hi95",
		"maxload_mode", "maxload_off_mode", "maxload_p_off_lo95", "maxload_p_off_hi95",
		"cost", "cost_lo95", "cost_hi95", "outage")
}

// clModes returns the mode statistics of a point's maximum load and
// cost.
func clModes(p codedload.PointResult) (ml, co modeStats) {
	mls, cos := make([]float64, len(p.Runs)), make([]float64, len(p.Runs))
	for i, r := range p.Runs {
		mls[i], cos[i] = r.MaxLoad, r.Cost
	}
	return newModeStats(mls), newModeStats(cos)
}

// clStatus names a point's stop in the table.
func clStatus(p codedload.PointResult) string {
	if p.Status == loadlab.IterationLimit {
		return "cap"
	}
	return "met"
}

// clTable records every point of a set of curves.
func clTable(tab *plots.Table, panel string, curves []codedload.Curve) {
	for _, c := range curves {
		for _, p := range c.Points {
			ml, co := clModes(p)
			mlo, mhi := shownInterval(p.MaxLoad, ml)
			clo, chi := shownInterval(p.Cost, co)
			tab.Add(panel, plots.PlainText(c.Name), p.X, len(p.Runs), clStatus(p), p.MaxLoad.Mean, mlo, mhi,
				ml.mode, ml.off, ml.pLo, ml.pHi, p.Cost.Mean, clo, chi, p.Outage.Mean)
		}
	}
}

// clRefRow records one point of a reference curve (a closed form).
func clRefRow(tab *plots.Table, panel, name string, x, maxload, cost float64) {
	nan := math.NaN()
	tab.Add(panel, "reference: "+name, x, 0, "exact", maxload, nan, nan, nan, 0, nan, nan, cost, nan, nan, nan)
}

// clMetric reads the mean and the interval a figure may show (NaN where
// the runs cannot support one) of one metric of a point.
type clMetric func(codedload.PointResult) (mean, lo, hi float64)

func clMax(p codedload.PointResult) (float64, float64, float64) {
	ml, _ := clModes(p)
	lo, hi := shownInterval(p.MaxLoad, ml)
	return p.MaxLoad.Mean, lo, hi
}
func clCost(p codedload.PointResult) (float64, float64, float64) {
	_, co := clModes(p)
	lo, hi := shownInterval(p.Cost, co)
	return p.Cost.Mean, lo, hi
}

// clSeries returns the x values, means and shown intervals of a curve
// (NaN where none is shown).
func clSeries(pts []codedload.PointResult, get clMetric) (xs, lo, mean, hi []float64) {
	for _, p := range pts {
		m, l, h := get(p)
		xs, mean, lo, hi = append(xs, p.X), append(mean, m), append(lo, l), append(hi, h)
	}
	return xs, lo, mean, hi
}

// clBands draws one curve per entry of curves for the metric chosen by
// get: the means as a line with markers, the intervals as a band over
// every run of consecutive points that have one (an error bar for a
// point alone), and a ring round every point without one.
func clBands(p *plot.Plot, curves []codedload.Curve, get clMetric, legend bool) {
	for i, c := range curves {
		xs, lo, mean, hi := clSeries(c.Points, get)
		name := c.Name
		if !legend {
			name = ""
		}
		plots.AddIntervals(p, i, name, xs, lo, mean, hi)
	}
}

// clPoissonName is the legend entry of E[max of n Po(1)], the load when
// every request is served where it arrives (spec §8 C).
const clPoissonName = "E max of n Po(1) (all local)"

// clPoissonRef draws E[max of n Po(1)] at the sizes ns and records it.
func clPoissonRef(p *plot.Plot, tab *plots.Table, panel string, ns []float64, legend bool) {
	ys := make([]float64, len(ns))
	for i, n := range ns {
		ys[i] = poissonMax(int(n))
		clRefRow(tab, panel, clPoissonName, n, ys[i], math.NaN())
	}
	name := clPoissonName
	if !legend {
		name = ""
	}
	plots.AddCurve(p, 7, name, ns, ys)
}

// poissonMax is codedload.MaxPoissonMean for the sizes of a sweep
// (n ≥ 1, so an error is a programmer error).
func poissonMax(n int) float64 {
	v, err := codedload.MaxPoissonMean(n)
	if err != nil {
		panic(err)
	}
	return v
}

// exactCost is codedload.Cost for the fixed valid arguments of the
// figures (a Zipf pmf, M = 2, ℓ ≥ 1, a topology's ball sizes).
func exactCost(p []float64, m, ell int, balls []int) float64 {
	v, err := codedload.Cost(p, m, ell, balls)
	if err != nil {
		panic(err)
	}
	return v
}

func clLast(c codedload.Curve) codedload.PointResult { return c.Points[len(c.Points)-1] }

// ---- codedload-maxload-vs-n and codedload-cost-vs-n ----

type sizesParams struct {
	ns   []int
	runs clRuns
}

func sizesPreset(quick bool) sizesParams {
	if quick {
		return sizesParams{ns: []int{100, 400, 1600, 6400}, runs: clRuns{pilot: []int{6}, caps: []int{60}}}
	}
	// A run at n = 10⁶ takes seconds (codedload's benchmarks), one at
	// n ≤ 6400 milliseconds: the caps keep the figure near five CPU-minutes.
	return sizesParams{ns: []int{100, 400, 1600, 6400, 25600, 102400, 409600, 1000000},
		runs: clRuns{upTo: []int{6400, 102400}, pilot: []int{20, 10, 3}, caps: []int{300, 40, 16}}}
}

type sizesData struct {
	curves []codedload.Curve
}

// sizesCache shares the size sweep between the max-load and cost figures.
var sizesCache struct {
	sync.Mutex
	key  [2]uint64
	data *sizesData
}

func sizesCompute(cfg plots.Config, p sizesParams) (*sizesData, error) {
	sizesCache.Lock()
	defer sizesCache.Unlock()
	key := [2]uint64{cfg.Seed, uint64(len(p.ns))}
	if sizesCache.data != nil && sizesCache.key == key {
		return sizesCache.data, nil
	}
	cfg.Logf("codedload: size sweep on the torus, n up to %d", p.ns[len(p.ns)-1])
	r16 := func(codedload.Topology) int { return 16 }
	curves, err := clCompare(cfg, p.ns, codedload.TorusFamily, clMainVariants(r16), p.runs, cfg.Seed)
	if err != nil {
		return nil, err
	}
	curves[1].Name = "two choices (a), r = 16"
	sizesCache.key, sizesCache.data = key, &sizesData{curves: curves}
	return sizesCache.data, nil
}

func maxLoadDraw(p sizesParams, d *sizesData) *plots.Result {
	tab := clNewTable()
	clTable(tab, "torus", d.curves)
	pl := plots.New("Maximum load on the torus (K = 100, M = 2, γ = 0)\n"+clRunsLine(d.curves[:4]...), "servers n (log scale)", "maximum load (files)", plots.LogX())
	clBands(pl, d.curves[:4], clMax, true)
	xs, _, _, _ := clSeries(d.curves[0].Points, clMax)
	clPoissonRef(pl, tab, "torus", xs, true)
	clNoIntervalKey(pl, clMax, d.curves[:4]...)
	nr, coded := clLast(d.curves[0]), clLast(d.curves[3])
	n := int(nr.X)
	po := poissonMax(n)
	return &plots.Result{
		Plot: plots.LegendOutside(pl), Width: 20 * cm, Height: plots.DefaultHeight, Data: tab,
		Headlines: []plots.Headline{
			plots.Within(fmt.Sprintf("NR max load, n = %d", n), nr.MaxLoad.Mean, po, 2*po, "Θ(log n): between E max of n Po(1) (spec §8 C) and twice it"),
			plots.Within(fmt.Sprintf("coded ℓ=ceil(ln n) max load, n = %d", int(coded.X)), coded.MaxLoad.Mean, 2.2, 3.0, "O(1): in [2.2, 3.0] for n ≤ 22500 (spec §8 H)"),
		},
	}
}

func costDraw(p sizesParams, d *sizesData) *plots.Result {
	tab := clNewTable()
	clTable(tab, "torus", d.curves)
	top := plots.New("Communication cost on the torus (K = 100, M = 2, γ = 0)\n"+clRunsLine(d.curves...), "servers n", "cost (hops per request)", plots.LogX(), plots.LogY())
	clBands(top, d.curves, clCost, true)
	// The exact infinite-grid costs of spec §6.3 for ℓ = 1 and ℓ = 10.
	pz, _ := codedload.ZipfPMF(100, 0)
	c1, c10 := exactCost(pz, 2, 1, nil), exactCost(pz, 2, 10, nil)
	plots.AddHLine(top, 0, fmt.Sprintf("exact §6.3, ℓ = 1: %.4g", c1), c1)
	plots.AddHLine(top, 4, fmt.Sprintf("exact §6.3, ℓ = 10: %.4g", c10), c10)
	clNoIntervalKey(top, clCost, d.curves...)
	// Bottom: each coded strategy's mean cost over nearest replica's, on
	// a linear axis.
	rel := plots.New("Coded cost relative to nearest replica (two choices: top panel)", "servers n", "cost / nearest-replica cost")
	nrPts := d.curves[0].Points
	for i, c := range d.curves[1:] {
		if !strings.HasPrefix(c.Name, "coded") {
			continue // two choices cost 2.5× to 60× more: off this scale
		}
		var xs, ys []float64
		for _, pt := range c.Points {
			for _, q := range nrPts {
				if q.X == pt.X {
					xs, ys = append(xs, pt.X), append(ys, pt.Cost.Mean/q.Cost.Mean)
					nan := math.NaN()
					tab.Add("relative to NR", c.Name, pt.X, len(pt.Runs), "ratio of means", nan, nan, nan, nan, 0, nan, nan, ys[len(ys)-1], nan, nan, nan)
				}
			}
		}
		plots.AddLine(rel, i+1, "", xs, ys)
	}
	plots.AddHLine(rel, 4, fmt.Sprintf("exact ratio, ℓ = 10 / ℓ = 1: %.4f", c10/c1), c10/c1)
	plots.AddHLine(rel, -1, "nearest replica (= 1)", 1)
	rel.X.Scale, rel.X.Tick.Marker = plot.LogScale{}, plots.Ticker{Kind: plots.Log}
	for _, n := range p.ns {
		clRefRow(tab, "torus", "exact cost §6.3, ℓ = 1", float64(n), math.NaN(), c1)
		clRefRow(tab, "torus", "exact cost §6.3, ℓ = 10", float64(n), math.NaN(), c10)
	}
	nr, c10mc := clLast(d.curves[0]), clLast(d.curves[4])
	return &plots.Result{
		Plot: plots.NewStack(top, rel), Width: 20 * cm, Height: 20 * cm, Data: tab,
		Headlines: []plots.Headline{
			plots.Near(fmt.Sprintf("NR cost, n = %d", int(nr.X)), nr.Cost.Mean, c1, 0.01*c1, "exact infinite-grid cost (spec §6.3, §8 E), ±1%"),
			plots.Within(fmt.Sprintf("coded ℓ=10 / NR cost, n = %d", int(nr.X)), c10mc.Cost.Mean/nr.Cost.Mean, 0.74, 0.85, fmt.Sprintf("[0.74, 0.85] (spec §8 H); exact ratio %.4f (§6.3)", c10/c1)),
		},
	}
}

// ---- codedload-tradeoff ----

type tradeoffParams struct {
	n, runs int // runs is the pilot of every point
	maxRuns int // the cap of every point (clRel)
	rs      []int
	ells    []int
	alphas  []float64
}

func tradeoffPreset(quick bool) tradeoffParams {
	if quick {
		return tradeoffParams{n: 1024, runs: 4, maxRuns: 30, rs: []int{1, 2, 4, 8, 16}, ells: []int{1, 2, 4, 7, 14}, alphas: []float64{0, 1, 4, 16}}
	}
	return tradeoffParams{n: 10000, runs: 10, maxRuns: 100, rs: []int{1, 2, 3, 4, 6, 8, 11, 16, 23, 32},
		ells: []int{1, 2, 3, 4, 6, 8, 10, 14, 20, 30}, alphas: []float64{0, 0.5, 1, 2, 4, 8, 16}}
}

// tradeoffGroup is one strategy's parameter sweep.
type tradeoffGroup struct {
	name, param, symbol string
	pts                 []codedload.Point
	res                 []codedload.PointResult
}

type tradeoffData struct {
	groups []tradeoffGroup
	tab    *plots.Table
	labels *plots.PointLabels // the points' r, α and ℓ, set by tradeoffDraw
}

func tradeoffGroups(p tradeoffParams, tor *codedload.Torus) []tradeoffGroup {
	at := func(s codedload.Strategy) codedload.Config {
		c := clBase(s)
		c.Topology = tor
		return c
	}
	ga := tradeoffGroup{name: fmt.Sprintf("two choices (a), r = %d…%d", p.rs[0], p.rs[len(p.rs)-1]), param: "r", symbol: "r"}
	for _, r := range p.rs {
		ga.pts = append(ga.pts, codedload.Point{X: float64(r), Config: at(codedload.TwoChoice{Radius: r})})
	}
	gc := tradeoffGroup{name: fmt.Sprintf("two choices (c), α = %g…%g", p.alphas[0], p.alphas[len(p.alphas)-1]), param: "alpha", symbol: "α"}
	for _, a := range p.alphas {
		gc.pts = append(gc.pts, codedload.Point{X: a, Config: at(codedload.TwoChoiceStretch{Alpha: a})})
	}
	gl := tradeoffGroup{name: fmt.Sprintf("coded, ℓ = %d…%d", p.ells[0], p.ells[len(p.ells)-1]), param: "ell", symbol: "ℓ"}
	for _, l := range p.ells {
		gl.pts = append(gl.pts, codedload.Point{X: float64(l), Config: at(codedload.Coded{Ell: l})})
	}
	gb := tradeoffGroup{name: "two choices (b)", param: "-", pts: []codedload.Point{{Config: at(codedload.TwoChoiceGlobal{})}}}
	return []tradeoffGroup{ga, gc, gl, gb}
}

func tradeoffCompute(cfg plots.Config, p tradeoffParams) (*tradeoffData, error) {
	tor, err := codedload.NewTorus(p.n)
	if err != nil {
		return nil, err
	}
	groups := tradeoffGroups(p, tor)
	var all []codedload.Point
	for _, g := range groups {
		all = append(all, g.pts...)
	}
	cfg.Logf("codedload: trade-off sweep on the %d-node torus", p.n)
	res, err := codedload.Sweep(all, p.runs, cfg.Seed, &codedload.SweepSettings{Logf: cfg.Logf, Precision: clPrecision(p.maxRuns)})
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return nil, err
	}
	d := &tradeoffData{tab: plots.NewTable("strategy", "parameter", "value", "runs", "status", "cost", "cost_lo95", "cost_hi95",
		"maxload", "maxload_lo95", "maxload_hi95", "maxload_mode", "maxload_off_mode", "maxload_p_off_lo95", "maxload_p_off_hi95", "fallback_rate")}
	at := 0
	for gi := range groups {
		g := &groups[gi]
		g.res = res[at : at+len(g.pts)]
		at += len(g.pts)
		for _, pt := range g.res {
			var fb float64
			for _, r := range pt.Runs {
				fb += float64(r.Fallbacks) / float64(r.Requests) / float64(len(pt.Runs))
			}
			ml, co := clModes(pt)
			clo, chi := shownInterval(pt.Cost, co)
			mlo, mhi := shownInterval(pt.MaxLoad, ml)
			d.tab.Add(g.name, g.param, pt.X, len(pt.Runs), clStatus(pt), pt.Cost.Mean, clo, chi,
				pt.MaxLoad.Mean, mlo, mhi, ml.mode, ml.off, ml.pLo, ml.pHi, fb)
		}
	}
	d.groups = groups
	return d, nil
}

func tradeoffDraw(p tradeoffParams, d *tradeoffData) *plots.Result {
	var all []codedload.Curve
	for _, g := range d.groups {
		all = append(all, codedload.Curve{Points: g.res})
	}
	pl := plots.New(fmt.Sprintf("Load–cost trade-off, torus n = %d (K = 100, M = 2)\n%s", p.n, clRunsLine(all...)), "cost (hops per request, log scale)", "maximum load (files)", plots.LogX())
	d.labels = &plots.PointLabels{}
	for i, g := range d.groups {
		var xs, ys, lo, hi []float64
		var labels []string
		for _, pt := range g.res {
			m, l, h := clMax(pt)
			xs, ys = append(xs, pt.Cost.Mean), append(ys, m)
			lo, hi = append(lo, l), append(hi, h)
			labels = append(labels, fmt.Sprintf("%s=%s", g.symbol, strconv.FormatFloat(pt.X, 'g', -1, 64)))
		}
		if len(xs) == 1 {
			plots.AddPoints(pl, i, g.name, xs, ys)
		} else {
			plots.AddLine(pl, i, g.name, xs, ys)
			d.labels.Add(i, xs, ys, labels)
			d.labels.AvoidBars(xs, lo, hi)
		}
		addBarsOrRings(pl, i, xs, ys, lo, hi)
	}
	pl.Add(d.labels)
	clNoIntervalKey(pl, clMax, all...)
	// Pad the cost range so the outermost markers and labels fit.
	pl.X.Min, pl.X.Max = pl.X.Min/1.05, pl.X.Max*1.15
	coded := d.groups[2].res
	lim := 4 / (3 * math.Sqrt(math.Pi))
	return &plots.Result{
		Plot: plots.LegendOutside(pl), Width: 24 * cm, Height: 14 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			plots.Within(fmt.Sprintf("coded ℓ=%d max load / ℓ=1 (NR), n = %d", p.ells[len(p.ells)-1], p.n), coded[len(coded)-1].MaxLoad.Mean/coded[0].MaxLoad.Mean, 0, 0.5, "< 1/2: O(1) for ℓ = Θ(log n) against Θ(log n) (spec §1)"),
			plots.Within(fmt.Sprintf("coded ℓ=%d cost / NR cost", p.ells[len(p.ells)-1]), coded[len(coded)-1].Cost.Mean/coded[0].Cost.Mean, lim, lim*1.05, "→ 4/(3√π) = 0.752 from above as ℓ → ∞ (spec §6.2), within 5%"),
		},
	}
}

// ---- codedload-params ----

type paramsParams struct {
	runs       int // the pilot of every point
	maxRuns    int // the cap of every point (clRel)
	nG, nM, nL int
	gammas     []float64
	ms, ells   []int
}

func paramsPreset(quick bool) paramsParams {
	if quick {
		return paramsParams{runs: 3, maxRuns: 30, nG: 1024, nM: 1024, nL: 1024, gammas: []float64{0, 0.5, 1, 1.5, 2},
			ms: []int{1, 5, 20, 100}, ells: []int{1, 2, 5, 10, 20}}
	}
	return paramsParams{runs: 10, maxRuns: 100, nG: 1024, nM: 2025, nL: 10000, gammas: []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2},
		ms: []int{1, 2, 5, 10, 20, 50, 100}, ells: []int{1, 2, 3, 5, 7, 10, 14, 20, 30, 50}}
}

// paramsSeries is one curve of a panel row.
type paramsSeries struct {
	panel, name string
	colour      int
	pts         []codedload.Point
	res         []codedload.PointResult
}

type paramsData struct {
	series []paramsSeries
	exactL [2][]float64 // exact cost against ℓ (spec §6.3)
	exactG [2][]float64 // exact NR cost against γ
	tab    *plots.Table
}

func paramsSeriesOf(p paramsParams) []paramsSeries {
	torus := func(n int) *codedload.Torus {
		t, err := codedload.NewTorus(n)
		if err != nil {
			panic(err) // fixed perfect squares
		}
		return t
	}
	tG, tM, tL := torus(p.nG), torus(p.nM), torus(p.nL)
	strategies := []struct {
		name string
		mod  func(*codedload.Config)
	}{
		{"nearest replica", func(c *codedload.Config) { c.Strategy = codedload.NearestReplica{} }},
		{"coded, ℓ = 10", func(c *codedload.Config) { c.Strategy = codedload.Coded{Ell: 10} }},
		{"coded, ℓ = 10, chnk_{max} = 1", func(c *codedload.Config) { c.Strategy = codedload.Coded{Ell: 10, ChunkCap: 1} }},
	}
	var ss []paramsSeries
	for i, st := range strategies {
		sg, sm := paramsSeries{panel: "gamma", name: st.name, colour: i}, paramsSeries{panel: "cache", name: st.name, colour: i}
		for _, g := range p.gammas {
			c := codedload.Config{Topology: tG, Files: 100, Cache: 2, Gamma: g}
			st.mod(&c)
			sg.pts = append(sg.pts, codedload.Point{X: g, Config: c})
		}
		for _, m := range p.ms {
			c := codedload.Config{Topology: tM, Files: 100, Cache: m}
			st.mod(&c)
			sm.pts = append(sm.pts, codedload.Point{X: float64(m), Config: c})
		}
		ss = append(ss, sg, sm)
	}
	for cp, name := range []string{"coded, no cap", "coded, chnk_{max} = 1"} {
		s := paramsSeries{panel: "ell", name: name, colour: cp + 1} // series 0 is nearest replica elsewhere
		for _, l := range p.ells {
			c := codedload.Config{Topology: tL, Files: 100, Cache: 2, Strategy: codedload.Coded{Ell: l, ChunkCap: cp}}
			s.pts = append(s.pts, codedload.Point{X: float64(l), Config: c})
		}
		ss = append(ss, s)
	}
	return ss
}

func paramsCompute(cfg plots.Config, p paramsParams) (*paramsData, error) {
	d := &paramsData{series: paramsSeriesOf(p), tab: clNewTable()}
	var all []codedload.Point
	for _, s := range d.series {
		all = append(all, s.pts...)
	}
	cfg.Logf("codedload: parameter sweeps (γ, M, ℓ), %d to %d runs per point", p.runs, p.maxRuns)
	res, err := codedload.Sweep(all, p.runs, cfg.Seed, &codedload.SweepSettings{Logf: cfg.Logf, Precision: clPrecision(p.maxRuns)})
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return nil, err
	}
	at := 0
	for i := range d.series {
		s := &d.series[i]
		s.res = res[at : at+len(s.pts)]
		at += len(s.pts)
		clTable(d.tab, s.panel, []codedload.Curve{{Name: s.name, Points: s.res}})
	}
	// Exact costs (spec §6.3, finite torus, no cap): against ℓ, and the
	// nearest replica cost against γ.
	tL, _ := codedload.NewTorus(p.nL)
	tG, _ := codedload.NewTorus(p.nG)
	pz, _ := codedload.ZipfPMF(100, 0)
	for l := p.ells[0]; l <= p.ells[len(p.ells)-1]; l++ {
		c := exactCost(pz, 2, l, tL.Balls())
		d.exactL[0], d.exactL[1] = append(d.exactL[0], float64(l)), append(d.exactL[1], c)
		clRefRow(d.tab, "ell", "exact cost §6.3", float64(l), math.NaN(), c)
	}
	for _, g := range p.gammas {
		pg, _ := codedload.ZipfPMF(100, g)
		c := exactCost(pg, 2, 1, tG.Balls())
		d.exactG[0], d.exactG[1] = append(d.exactG[0], g), append(d.exactG[1], c)
		clRefRow(d.tab, "gamma", "exact NR cost §6.3", g, math.NaN(), c)
	}
	return d, nil
}

func paramsDraw(p paramsParams, d *paramsData) *plots.Result {
	mk := func(title, xlabel, ylabel string, logx bool) *plot.Plot {
		if logx {
			return plots.New(title, xlabel, ylabel, plots.LogX())
		}
		return plots.New(title, xlabel, ylabel)
	}
	rows := map[string][2]*plot.Plot{
		"gamma": {mk(fmt.Sprintf("Max load vs γ (n = %d, M = 2, ℓ = 10)", p.nG), "Zipf exponent γ", "maximum load (files)", false),
			mk(fmt.Sprintf("Cost vs γ (n = %d, M = 2, ℓ = 10)", p.nG), "Zipf exponent γ", "cost (hops per request)", false)},
		"cache": {mk(fmt.Sprintf("Max load vs M (n = %d, γ = 0, ℓ = 10)", p.nM), "cache size M (files)", "maximum load (files)", true),
			mk(fmt.Sprintf("Cost vs M (n = %d, γ = 0, ℓ = 10)", p.nM), "cache size M (files)", "cost (hops per request)", true)},
		"ell": {mk(fmt.Sprintf("Max load vs ℓ (n = %d, M = 2, γ = 0)", p.nL), "chunks per file ℓ", "maximum load (files)", true),
			mk(fmt.Sprintf("Cost vs ℓ (n = %d, M = 2, γ = 0)", p.nL), "chunks per file ℓ", "cost (hops per request)", true)},
	}
	// One legend for the figure, on the first row: the rows share their
	// series' colours and styles.
	legendName := map[int]string{0: "nearest replica", 1: "coded, no cap", 2: "coded, chnk_{max} = 1"}
	for _, s := range d.series {
		pp := rows[s.panel]
		xs, lo, mean, hi := clSeries(s.res, clMax)
		name := ""
		if s.panel == "gamma" {
			name = legendName[s.colour]
		}
		plots.AddIntervals(pp[0], s.colour, name, xs, lo, mean, hi)
		xs, lo, mean, hi = clSeries(s.res, clCost)
		plots.AddIntervals(pp[1], s.colour, "", xs, lo, mean, hi)
	}
	var all []codedload.Curve
	for k, pp := range rows {
		var cs []codedload.Curve
		for _, s := range d.series {
			if s.panel == k {
				cs = append(cs, codedload.Curve{Points: s.res})
			}
		}
		all = append(all, cs...)
		lo, hi := clRunsRange(cs...)
		pp[0].Title.Text += fmt.Sprintf("\n%d–%d runs per point", lo, hi)
	}
	plots.AddCurve(rows["ell"][1], 7, "", d.exactL[0], d.exactL[1])
	plots.AddCurve(rows["gamma"][1], 7, "", d.exactG[0], d.exactG[1])
	exactKey(rows["gamma"][0], "exact cost, spec §6.3\n(NR in the γ row, coded in the ℓ row)")
	// The key explains rings on the load and on the cost panels.
	either := func(pt codedload.PointResult) (float64, float64, float64) {
		m, lo, hi := clMax(pt)
		if _, clo, _ := clCost(pt); math.IsNaN(clo) {
			lo = clo
		}
		return m, lo, hi
	}
	clNoIntervalKey(rows["gamma"][0], either, all...)
	var cells []plots.Drawer
	for i, k := range []string{"gamma", "cache", "ell"} {
		ax, leg := plots.SplitLegend(rows[k][0])
		if i > 0 {
			leg = nil
		}
		cells = append(cells, ax, rows[k][1], leg)
	}
	grid := plots.NewPanels(3, 3, cells...)
	grid.ColWeights = []float64{1, 1, 0.62}
	// Headline: the multiplicity effect at γ = 2 (spec §8 J).
	free, capped := d.series[2].res[len(p.gammas)-1], d.series[4].res[len(p.gammas)-1]
	half := func(r codedload.PointResult) float64 { return (r.MaxLoad.Hi - r.MaxLoad.Lo) / 2 }
	return &plots.Result{
		Plot: grid, Width: 26 * cm, Height: 24 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			// Spec §8 J printed 5.25, which the model as the spec states it
			// does not reproduce; its erratum gives 4.904 ± 0.009 (mean ±
			// standard error, 4000 runs; codedload/doc.go).
			plots.Near(fmt.Sprintf("coded ℓ=10 max load γ=2, n=%d, no cap", p.nG), free.MaxLoad.Mean, 4.904, half(free)+2*0.009,
				"spec §8 J erratum: 4.904 ± 0.009 (the printed 5.25 is not reproduced), ± our 95% half-width"),
			plots.Near(fmt.Sprintf("coded ℓ=10 max load γ=2, n=%d, chnk_max=1", p.nG), capped.MaxLoad.Mean, 2.17, half(capped), "spec §8 J: 2.17, ± the 95% half-width of our mean"),
		},
	}
}

// ---- codedload-topologies ----

// topoFamily is one panel: a topology family with the largest sizes of
// the panel and of the two two-choice strategies (0 = the panel's).
type topoFamily struct {
	title      string
	fam        codedload.Family
	maxN       int
	maxA, maxB int
}

type topoParams struct {
	ns   []int // powers of 4: perfect squares and powers of 2
	runs clRuns
	fams []topoFamily
}

func topoPreset(quick bool) topoParams {
	// The torus and the hypercube have closed-form distances; on the
	// random graphs every search visits nodes by BFS, each visit a cache
	// miss, and the searches of two choices cost most: (a) explores a
	// ball of at least 545 nodes per request, (b)'s far holder on the RGG,
	// whose diameter grows like √(n/ln n), costs about n² work. The caps
	// keep every run under about two seconds on one core.
	p := topoParams{
		ns:   []int{256, 1024, 4096, 16384, 65536},
		runs: clRuns{upTo: []int{4096, 16384}, pilot: []int{10, 6, 4}, caps: []int{100, 20, 12}},
		fams: []topoFamily{
			{title: "torus", fam: codedload.TorusFamily, maxN: 65536},
			{title: "random geometric graph", fam: codedload.RGGFamily, maxN: 65536, maxA: 4096, maxB: 16384},
			{title: "random 6-regular graph", fam: codedload.RegularFamily(6), maxN: 65536, maxA: 16384},
			{title: "hypercube", fam: codedload.HypercubeFamily, maxN: 65536},
		},
	}
	if quick {
		p.ns, p.runs = []int{256, 1024}, clRuns{pilot: []int{4}, caps: []int{40}}
	}
	return p
}

type topoData struct {
	curves [][]codedload.Curve // per family
	tab    *plots.Table
}

func topoCompute(cfg plots.Config, p topoParams) (*topoData, error) {
	ball := func(t codedload.Topology) int { return codedload.BallRadius(t, 545) }
	d := &topoData{tab: clNewTable()}
	for i, f := range p.fams {
		var fns []int
		for _, n := range p.ns {
			if n <= f.maxN {
				fns = append(fns, n)
			}
		}
		vs := clMainVariants(ball)
		vs[1].Name = "two choices (a), |B_{r}| ≥ 545"
		vs[1].MaxN, vs[2].MaxN = f.maxA, f.maxB
		cfg.Logf("codedload: topology %s, n up to %d", f.title, fns[len(fns)-1])
		curves, err := clCompare(cfg, fns, f.fam, vs, p.runs, cfg.Seed+uint64(i))
		if err != nil {
			return nil, err
		}
		clTable(d.tab, f.title, curves)
		d.curves = append(d.curves, curves)
	}
	return d, nil
}

func topoDraw(p topoParams, d *topoData) *plots.Result {
	var cells []*plot.Plot
	var heads []plots.Headline
	for i, f := range p.fams {
		lo, hi := clRunsRange(d.curves[i]...)
		pl := plots.New(fmt.Sprintf("%s: %d–%d runs per point", f.title, lo, hi), "servers n", "maximum load (files)", plots.LogX())
		clBands(pl, d.curves[i], clMax, true)
		xs, _, _, _ := clSeries(d.curves[i][0].Points, clMax)
		clPoissonRef(pl, d.tab, f.title, xs, true)
		cells = append(cells, pl)
		nr, co := clLast(d.curves[i][0]), clLast(d.curves[i][3])
		heads = append(heads, plots.Within(fmt.Sprintf("%s n=%d: NR / coded max load", f.title, int(nr.X)), nr.MaxLoad.Mean/co.MaxLoad.Mean, 1.5, math.Inf(1),
			"> 1.5: Θ(log n) against O(1) (spec §1)"))
	}
	clNoIntervalKey(cells[0], clMax, slices.Concat(d.curves...)...)
	topoSharedAxes(cells)
	_, legend := plots.SplitLegend(cells[0])
	var axes []plots.Drawer
	for _, c := range cells {
		a, _ := plots.SplitLegend(c)
		axes = append(axes, a)
	}
	grid := plots.NewPanels(2, 3, axes[0], axes[1], legend, axes[2], axes[3], nil)
	grid.ColWeights = []float64{1, 1, 0.75} // the widest legend entry fits
	return &plots.Result{Plot: grid, Width: 26 * cm, Height: 18 * cm, Data: d.tab, Headlines: heads}
}

// topoSharedAxes gives every panel the same axes, so that the panels
// compare at a glance and show where the shorter curves stop, with whole
// loads labelled on the vertical axis.
func topoSharedAxes(cells []*plot.Plot) {
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, p := range cells {
		x0, x1, y0, y1 = min(x0, p.X.Min), max(x1, p.X.Max), min(y0, p.Y.Min), max(y1, p.Y.Max)
	}
	// Labelled ticks at both ends: the range runs between whole loads,
	// every one labelled.
	y0, y1 = math.Floor(y0), math.Ceil(y1)
	var yt []plot.Tick
	for v := y0; v <= y1; v++ {
		yt = append(yt, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	for _, p := range cells {
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
		p.Y.Tick.Marker = plot.ConstantTicks(yt)
	}
}

// clNoIntervalKey adds the legend key of the rings of clBands when some
// point of curves has none.
func clNoIntervalKey(p *plot.Plot, get clMetric, curves ...codedload.Curve) {
	for _, c := range curves {
		for _, pt := range c.Points {
			if _, lo, _ := get(pt); math.IsNaN(lo) {
				plots.AddNoIntervalKey(p, fmt.Sprintf("ring: no interval (fewer than %d\nruns off the most frequent value)", loadlab.MinOffMode))
				return
			}
		}
	}
}

// addBarsOrRings draws the error bars of series i where a point has an
// interval, and the ring of plots.AddIntervals where it has none (lo
// and hi NaN).
func addBarsOrRings(p *plot.Plot, i int, xs, ys, lo, hi []float64) {
	var bx, by, bl, bh, rx, ry []float64
	for k := range xs {
		if math.IsNaN(lo[k]) {
			rx, ry = append(rx, xs[k]), append(ry, ys[k])
			continue
		}
		bx, by, bl, bh = append(bx, xs[k]), append(by, ys[k]), append(bl, lo[k]), append(bh, hi[k])
	}
	if len(bx) > 0 {
		plots.AddErrorBars(p, i, "", bx, by, bl, bh)
	}
	if len(rx) > 0 {
		nan := []float64{math.NaN()}
		for k := range rx {
			plots.AddIntervals(p, i, "", rx[k:k+1], nan, ry[k:k+1], nan)
		}
	}
}

// exactKey adds the legend entry of the black exact curves drawn with
// plots.AddCurve(…, 7, …) on other panels.
func exactKey(p *plot.Plot, name string) {
	l, err := plotter.NewLine(plotter.XYs{{}, {X: 1}})
	if err != nil {
		panic(err) // two finite points
	}
	l.LineStyle = draw.LineStyle{Color: plots.Color(7), Width: vg.Points(1.4), Dashes: plots.Dashes(7)}
	p.Legend.Add(name, l)
}
