package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
	"gonum.org/v1/plot"
)

func init() {
	register(plots.Figure{
		Name:    "anycast-headline-study",
		Caption: "The paper's headline comparison as a study (stability.Study, spec §13.9): on random 1000-node CDNs (anycast.GenerateCDN, 10 proxies per region, every C_jj set to the self-correlation s, utilisations uniform on [u/2, 3u/2] at x = 1) the greedy law's end state costs what the optimum costs while the demand fits (u ≤ 0.4: both zero), and from u = 0.7 on 1.03–1.3 times the optimal P1 cost at s = 0.8, 1.6–8 times at s = 0.5 and 10–37 times at s = 0.2; from u = 0.8 (s = 0.2), 0.9 (s = 0.5) or 1.1 (s = 0.8) on, every instance ends with a proxy in uncontrollable overload. Means over 40 instances per point with 95 % Student intervals (a ring: all instances alike); shares with Clopper–Pearson intervals, the series shifted slightly left to keep the bars apart; a point with some instance of zero optimal but positive greedy cost (u = 0.5–0.6) has no finite ratio and is left out (ratio_runs in the CSV).",
		Make:    threeSteps(headlinePreset, headlineCompute, headlineDraw),
		Seconds: 100,
	})
}

// headlineParams are the sizes of anycast-headline-study.
type headlineParams struct {
	n, runs int
	loads   []float64 // mean utilisations u at x = 1
	selfs   []float64 // self-correlations s
}

func headlinePreset(quick bool) headlineParams {
	p := headlineParams{n: 1000, runs: 40, selfs: []float64{0.2, 0.5, 0.8}}
	p.loads = make([]float64, 20)
	for k := range p.loads {
		p.loads[k] = 0.1 * float64(k+1)
	}
	if quick {
		p.n, p.runs = 100, 8
		p.loads = []float64{0.25, 0.5, 1, 1.5, 2}
	}
	return p
}

// headlineData holds the study's summaries, point k·len(loads)+l at
// self-correlation k and load l.
type headlineData struct {
	sums []stability.StudySummary
	tab  *plots.Table
}

func headlineCompute(cfg plots.Config, p headlineParams) (*headlineData, error) {
	var pts []stability.StudyPoint
	for _, s := range p.selfs {
		for _, u := range p.loads {
			pts = append(pts, stability.StudyPoint{N: p.n, Load: u, SelfCorr: s})
		}
	}
	cfg.Logf("anycast-headline-study: N = %d, %d points × %d instances ...", p.n, len(pts), p.runs)
	sums, err := stability.Study(pts, p.runs, cfg.Seed)
	if err != nil {
		return nil, err
	}
	d := &headlineData{sums: sums, tab: plots.NewTable("self_corr", "load", "runs", "ratio_runs", "cost_ratio", "cost_ratio_lo", "cost_ratio_hi",
		"uncontrollable_share", "uncontrollable_share_lo", "uncontrollable_share_hi",
		"greedy_L2_share", "greedy_L2_share_lo", "greedy_L2_share_hi", "optimal_L2_share", "optimal_L2_share_lo", "optimal_L2_share_hi",
		"greedy_overload_share", "greedy_overload_share_lo", "greedy_overload_share_hi", "optimal_overload_share", "optimal_overload_share_lo", "optimal_overload_share_hi")}
	for _, s := range sums {
		row := []any{s.Point.SelfCorr, s.Point.Load, s.Runs, s.CostRatioRuns}
		for _, e := range []loadlab.Estimate{s.CostRatio, s.Uncontrollable, s.GreedySecond, s.OptimalSecond, s.GreedyExcess, s.OptimalExcess} {
			m, lo, hi := estimateCols(e)
			row = append(row, m, lo, hi)
		}
		d.tab.Add(row...)
	}
	return d, nil
}

// estimateCols returns an estimate's mean and the interval a figure may
// show: NaN when fewer than two runs entered it (no interval), or when
// every run gave the same value (a zero width from equal runs is no 95 %
// interval; intervals.go).
func estimateCols(e loadlab.Estimate) (mean, lo, hi float64) {
	if e.N < 2 || e.Lo == e.Hi {
		return e.Mean, math.NaN(), math.NaN()
	}
	return e.Mean, e.Lo, e.Hi
}

func headlineDraw(p headlineParams, d *headlineData) *plots.Result {
	top := plots.New(fmt.Sprintf("Greedy end state against the optimum, N = %d random CDNs", p.n), "mean utilisation u at x = 1", "P1 cost, greedy / optimal", plots.LogY())
	bot := plots.New("Instances ending in uncontrollable overload", "mean utilisation u at x = 1", "share of instances")
	minRatio := math.Inf(1)
	var heads []plots.Headline
	for k, s := range p.selfs {
		var xs, m, lo, hi, us, ulo, uhi []float64
		for l := range p.loads {
			sum := d.sums[k*len(p.loads)+l]
			um, ul, uh := estimateCols(sum.Uncontrollable)
			if math.IsNaN(ul) { // all instances alike: the exact interval still holds
				ul, uh = sum.Uncontrollable.Lo, sum.Uncontrollable.Hi
			}
			us, ulo, uhi = append(us, um), append(ulo, ul), append(uhi, uh)
			if sum.CostRatioRuns < sum.Runs {
				// Some instance has a zero optimal cost but not a zero
				// greedy cost (an infinite ratio): the mean of the rest
				// would mislead, so the point is left out (CSV: ratio_runs).
				continue
			}
			cm, cl, ch := estimateCols(sum.CostRatio)
			xs, m, lo, hi = append(xs, sum.Point.Load), append(m, cm), append(lo, cl), append(hi, ch)
			minRatio = math.Min(minRatio, cm)
		}
		addSegments(top, k, fmt.Sprintf("s = C_{jj} = %g", s), p.loads, xs, lo, m, hi)
		// Clopper–Pearson bars, each series shifted left by a sixth of a load step
		// so that the three do not hide one another.
		ux := make([]float64, len(p.loads))
		for l, u := range p.loads {
			ux[l] = u - float64(len(p.selfs)-1-k)*(p.loads[1]-p.loads[0])/6
		}
		plots.AddLine(bot, k, "", ux, us)
		plots.AddErrorBars(bot, k, "", ux, us, ulo, uhi)
		last := d.sums[(k+1)*len(p.loads)-1]
		heads = append(heads, plots.Within(fmt.Sprintf("s=%g, u=%g: mean cost ratio greedy/optimal", s, last.Point.Load), last.CostRatio.Mean, 1, math.Inf(1), "≥ 1: the optimum minimises P1 (spec §13.9)"))
	}
	heads = append(heads, plots.Within("smallest mean cost ratio over all points", minRatio, 1-1e-6, math.Inf(1), "≥ 1 − 10⁻⁶: greedy's state is feasible, the optimum certified (spec §13.9)"))
	bot.Y.Min, bot.Y.Max = 0, 1
	return &plots.Result{Plot: plots.NewStack(top, bot), Width: 20 * cm, Height: 20 * cm, Data: d.tab, Headlines: heads}
}

// addSegments adds series i with AddIntervals, one piece per run of
// points that are neighbours on the grid, so that no line is drawn
// across left-out points; the legend names the first piece.
func addSegments(p *plot.Plot, i int, name string, grid, xs, lo, mean, hi []float64) {
	next := map[float64]float64{}
	for k := 1; k < len(grid); k++ {
		next[grid[k-1]] = grid[k]
	}
	start := 0
	for k := 1; k <= len(xs); k++ {
		if k < len(xs) && next[xs[k-1]] == xs[k] {
			continue
		}
		plots.AddIntervals(p, i, name, xs[start:k], lo[start:k], mean[start:k], hi[start:k])
		name, start = "", k
	}
}
