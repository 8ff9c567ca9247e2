package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
	"gonum.org/v1/gonum/stat"
)

func init() {
	register(
		plots.Figure{
			Name:    "anycast-robust-beacons",
			Caption: "What a measured C costs (stability.Robustness.BeaconStudy, spec §15.5): on a 40-node synthetic CDN (anycast.GenerateCDN, 4 proxies per region, demand 1.3 times the generated one, optimal P1 cost P* = 1.53) the optimal split computed on Ĉ from a beacon campaign and applied to the true C loses optimality about in proportion to 1/(beacons per region) from 1000 beacons on (fitted slope −0.90 on log–log axes; a loss of second order in Ĉ − C predicts −1), and overloads the proxies 2 to 27 times more than the true optimum; means over 40 campaigns per budget with 95 % Student intervals (every campaign's simultaneous confidence set held the true C).",
			Make:    threeSteps(beaconPreset, beaconCompute, beaconDraw),
			Seconds: 5,
		},
		plots.Figure{
			Name:    "anycast-robust-drift",
			Caption: "What a stale C costs (stability.Robustness.DriftStudy, spec §15.5): the routing of the network of anycast-robust-beacons drifts each day a share ε = 5 % of every region's traffic towards another pattern C′ (the C of an independently drawn CDN); the split optimal on the day-0 C, applied on day d, loses 0.68 of P* = 1.53 after one day, as much as a fresh campaign of a few thousand beacons per region, and hundreds of times P* after a month, its overload growing alike; this demand lies outside Π_C (28) on every C_d (negative smallest slack), so the stale verdict on the polytope happens to stay right.",
			Make:    threeSteps(fixed(driftSettings), driftCompute, driftDraw),
			Seconds: 2,
		},
	)
}

// beaconParams are the sizes of anycast-robust-beacons.
type beaconParams struct {
	n, k    int
	scale   float64 // demand multiplier on GenerateCDN's
	budgets []int64 // beacons per region
	runs    int     // campaigns per budget
}

func beaconPreset(quick bool) beaconParams {
	p := beaconParams{n: 40, k: 4, scale: 1.3, runs: 40,
		budgets: []int64{10, 30, 100, 300, 1000, 3000, 10_000, 30_000, 100_000}}
	if quick {
		p.runs, p.budgets = 8, []int64{10, 100, 1000, 10_000}
	}
	return p
}

// robustNet is the truth of both robustness figures: GenerateCDN on
// stream (seed, 29, 0) with its demand scaled, so that the optimum sheds
// load and a wrong C costs something.
func robustNet(seed uint64, n, k int, scale float64) (*anycast.Network, error) {
	nw, err := anycast.GenerateCDN(mc.Source(seed, 29, 0), &anycast.CDNSettings{N: n, K: k})
	if err != nil {
		return nil, err
	}
	for j := range nw.A {
		nw.A[j] *= scale
	}
	return nw, nw.Validate()
}

type beaconData struct {
	r     *stability.Robustness
	pts   []stability.BeaconPoint
	slope float64 // of log mean loss on log budget, budgets ≥ 1000
	tab   *plots.Table
}

func beaconCompute(cfg plots.Config, p beaconParams) (*beaconData, error) {
	nw, err := robustNet(cfg.Seed, p.n, p.k, p.scale)
	if err != nil {
		return nil, err
	}
	d := &beaconData{}
	if d.r, err = stability.NewRobustness(nw, &stability.RobustSettings{Runs: p.runs}); err != nil {
		return nil, err
	}
	cfg.Logf("anycast-robust-beacons: N = %d, %d budgets × %d campaigns ...", p.n, len(p.budgets), p.runs)
	if d.pts, err = d.r.BeaconStudy(p.budgets, cfg.Seed); err != nil {
		return nil, err
	}
	d.tab = plots.NewTable("beacons_per_region", "runs", "loss", "loss_lo", "loss_hi", "overload", "overload_lo", "overload_hi", "robust_share", "covered_share", "optimal_cost", "optimal_overload")
	var lx, ly []float64
	for _, pt := range d.pts {
		lm, ll, lh := estimateCols(pt.Loss)
		em, el, eh := estimateCols(pt.Excess)
		d.tab.Add(pt.Beacons, p.runs, lm, ll, lh, em, el, eh, pt.Robust, pt.Covered, d.r.Opt.Upper, d.r.Excess)
		if pt.Beacons >= 1000 { // the 1/n regime: below, Ĉ's error is not small
			lx, ly = append(lx, math.Log(float64(pt.Beacons))), append(ly, math.Log(lm))
		}
	}
	_, d.slope = stat.LinearRegression(lx, ly, nil, false)
	return d, nil
}

func beaconDraw(p beaconParams, d *beaconData) *plots.Result {
	top := plots.New(fmt.Sprintf("Optimum computed on Ĉ, applied to the true C (N = %d)", p.n), "beacons per region", "loss of optimality P − P* on the true C", plots.LogX(), plots.LogY())
	bot := plots.New("Overload of that decision on the true C", "beacons per region", "Σ(S−T)_{+} (load units)", plots.LogX(), plots.LogY())
	xs := make([]float64, len(d.pts))
	lm, ll, lh := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	em, el, eh := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	var ref []float64
	opt := make([]float64, len(xs))
	for k, pt := range d.pts {
		xs[k] = float64(pt.Beacons)
		lm[k], ll[k], lh[k] = estimateCols(pt.Loss)
		em[k], el[k], eh[k] = estimateCols(pt.Excess)
		opt[k] = d.r.Excess
	}
	last := len(xs) - 1
	var rx []float64
	for k := range xs {
		if xs[k] >= 1000 {
			rx, ref = append(rx, xs[k]), append(ref, lm[last]*xs[last]/xs[k])
		}
	}
	plots.AddIntervals(top, 0, "mean over campaigns, 95 % interval", xs, ll, lm, lh)
	plots.AddCurve(top, 7, "slope −1: loss proportional to 1/beacons", rx, ref)
	plots.AddIntervals(bot, 1, "decision on Ĉ, 95 % interval", xs, el, em, eh)
	plots.AddCurve(bot, 7, "optimum on the true C", xs, opt)
	minCov := 1.0
	for _, pt := range d.pts {
		minCov = math.Min(minCov, pt.Covered)
	}
	heads := []plots.Headline{
		plots.Near("slope of log loss on log beacons, budgets ≥ 1000", d.slope, -1, 0.25, "−1: the loss is second order in Ĉ − C = O(n^−½) (spec §15.5)"),
		plots.Within("smallest share of campaigns whose confidence set holds the true C", minCov, 0.85, 1, "≥ 0.95 expected (Bonferroni set, spec §15.3); 0.85 allows for the campaigns' sampling"),
	}
	return &plots.Result{Plot: plots.NewStack(top, bot), Width: 20 * cm, Height: 18 * cm, Data: d.tab, Headlines: heads}
}

// driftParams are the settings of anycast-robust-drift.
type driftParams struct {
	n, k  int
	scale float64
	eps   float64 // share of traffic that drifts per day
	days  []int
}

var driftSettings = driftParams{n: 40, k: 4, scale: 1.3, eps: 0.05, days: []int{0, 1, 2, 3, 5, 7, 10, 14, 21, 30, 45, 60}}

type driftData struct {
	pts []stability.DriftPoint
	opt float64 // P* on the day-0 C
	tab *plots.Table
}

func driftCompute(cfg plots.Config, p driftParams) (*driftData, error) {
	nw, err := robustNet(cfg.Seed, p.n, p.k, p.scale)
	if err != nil {
		return nil, err
	}
	r, err := stability.NewRobustness(nw, nil)
	if err != nil {
		return nil, err
	}
	other, err := anycast.GenerateCDN(mc.Source(cfg.Seed, 29, 1), &anycast.CDNSettings{N: p.n, K: p.k})
	if err != nil {
		return nil, err
	}
	sp, err := other.AsSparse()
	if err != nil {
		return nil, err
	}
	d := &driftData{tab: plots.NewTable("days", "eps", "loss", "overload", "min_slack_C0", "min_slack_Cd", "optimal_cost")}
	if d.pts, err = r.DriftStudy(sp.Sparse, p.eps, p.days); err != nil {
		return nil, err
	}
	d.opt = r.Opt.Upper
	for _, pt := range d.pts {
		d.tab.Add(pt.Days, p.eps, pt.Loss, pt.Excess, pt.Slack0, pt.Slack, r.Opt.Upper)
	}
	cfg.Logf("anycast-robust-drift: %d ages", len(p.days))
	return d, nil
}

func driftDraw(p driftParams, d *driftData) *plots.Result {
	top := plots.New(fmt.Sprintf("Decision on a stale C, drift ε = %g per day (N = %d, P* = %.3g on C_{0})", p.eps, p.n, d.opt), "age of C (days)", "loss of optimality P − P* on C_{d}", plots.LogY(), plots.XRange(0, float64(p.days[len(p.days)-1])))
	bot := plots.New("Overload and Π_{C} slack", "age of C (days)", "load units")
	xs := make([]float64, len(d.pts))
	loss, exc, s0, sd := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
	for k, pt := range d.pts {
		xs[k], loss[k], exc[k], s0[k], sd[k] = float64(pt.Days), pt.Loss, pt.Excess, pt.Slack0, pt.Slack
	}
	plots.AddLine(top, 0, "", xs[1:], loss[1:]) // day 0 loses only the certified gap: off the log axis
	plots.AddLine(bot, 1, "overload Σ(S−T)_{+} on C_{d}", xs, exc)
	plots.AddLine(bot, 2, "smallest Π_{C} slack on C_{d}", xs, sd)
	plots.AddCurve(bot, 7, "smallest Π_{C} slack on C_{0}", xs, s0)
	heads := []plots.Headline{
		plots.Within("loss at day 0 (decision on the true C)", d.pts[0].Loss, 0, 1e-4*math.Max(1, d.pts[len(d.pts)-1].Loss), "≈ 0: only the certified gap (spec §15.5)"),
		plots.Within(fmt.Sprintf("loss at day %d", p.days[len(p.days)-1]), d.pts[len(d.pts)-1].Loss, 1e-9, math.Inf(1), "> 0: a stale C costs (spec §15.5)"),
	}
	return &plots.Result{Plot: plots.NewStack(top, bot), Width: 20 * cm, Height: 16 * cm, Data: d.tab, Headlines: heads}
}
