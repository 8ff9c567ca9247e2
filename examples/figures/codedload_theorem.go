package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/plots"
)

// The theorem-shaped checks of spec coded-load.md §11: the tail of the
// maximum load against n, the slope of its mean against ln n with
// ℓ = c·ln n on four topologies, and two choices in its analysed regime
// against ln ln n.

func init() {
	register(
		plots.Figure{
			Name:    "codedload-tail-vs-n",
			Caption: "P[L_max > c] against n on the torus (K = 100, M = 2, γ = 0), with exact Clopper–Pearson 95% intervals (spec coded-load.md §12.1): for coded delivery with ℓ = ⌈ln n⌉ the chance of exceeding c = 3.5 stays near 0 at every n, as 'O(1) w.h.p.' asks, and that of exceeding c = 3 at 1–3% (it creeps up with n as the mean drifts, spec §12.6), while for nearest replica the chance of exceeding any fixed c (here 6 and 8) climbs towards 1 (its load grows like log n); runs per point in the CSV (from 1000 at n = 100 down to 100 at n = 25600).",
			Make:    threeSteps(tailPreset, tailCompute, tailDraw),
			Seconds: 40,
		},
		plots.Figure{
			Name:    "codedload-slope",
			Caption: "Mean maximum load against n with ℓ = round(c·ln n) for c = 0.5, 1, 2, beside nearest replica, on the torus, a random geometric graph, a random 6-regular graph and the hypercube (K = 100, M = 2, γ = 0, one graph per n), with the least-squares slope against ln n and its 95% interval in each legend (spec coded-load.md §12.2): nearest replica climbs by 0.3 to 0.6 requests per unit of ln n, coded delivery by a tenth of that or less, less as c grows (40 runs per point up to n = 4096, 12 at 16384; error bars are 95% intervals of the means, left out where the runs are too alike for one).",
			Make:    threeSteps(slopePreset, slopeCompute, slopeDraw),
			Seconds: 70,
		},
		plots.Figure{
			Name:    "codedload-regime",
			Caption: "Proximity-aware two choices in its analysed regime (spec coded-load.md §6.2, §12.3): torus of n servers, K = n files of uniform popularity, caches of M = ⌈n^α⌉ files, radius round(n^β); mean maximum load against ln ln n with the least-squares line and its slope's 95% interval, for α + 2β = 1.3 (α = 0.5, β = 0.4) and on the boundary α + 2β = 1 (α = 0.5, β = 0.25), where a ball holds about two holders of a file, 4–13% of requests fall back to nearest replica and the load grows like log n (100 runs per point up to n = 4096, 16 at 16384; error bars are 95% intervals, left out where the runs are too alike for one).",
			Make:    threeSteps(regimePreset, regimeCompute, regimeDraw),
			Seconds: 60,
		},
	)
}

// ---- codedload-tail-vs-n ----

type tailParams struct {
	ns   []int
	runs []int // per size
	cs   [2][]float64
}

func tailPreset(quick bool) tailParams {
	cs := [2][]float64{{6, 8}, {3, 3.5}}
	if quick {
		return tailParams{ns: []int{100, 400, 1600}, runs: []int{60, 40, 20}, cs: cs}
	}
	return tailParams{ns: []int{100, 400, 1600, 6400, 25600}, runs: []int{1000, 1000, 500, 300, 100}, cs: cs}
}

type tailData struct {
	names  [2]string
	points [2][]codedload.TailPoint
}

func tailCompute(cfg plots.Config, p tailParams) (*tailData, error) {
	cfg.Logf("codedload: tail study, n up to %d", p.ns[len(p.ns)-1])
	d := &tailData{names: [2]string{"nearest replica", "coded ℓ = ceil(ln n)"}}
	for k, st := range []codedload.Strategy{codedload.NearestReplica{}, codedload.Coded{}} {
		pts, err := codedload.SizePoints(p.ns, clBase(st), codedload.TorusFamily, false, codedload.LogEll)
		if err != nil {
			return nil, err
		}
		for i := range pts {
			pts[i].Runs = p.runs[i]
		}
		if d.points[k], err = codedload.TailStudy(pts, 1, p.cs[k], cfg.Seed+uint64(k), nil); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func tailDraw(p tailParams, d *tailData) *plots.Result {
	tab := plots.NewTable("strategy", "n", "ell", "runs", "maxload", "c", "p_exceed", "p_exceed_lo95", "p_exceed_hi95")
	pl := plots.New("P[max load > c] against n (torus, K = 100, M = 2)", "servers n (log scale)", "P[max load > c]", plots.LogX(), plots.YRange(0, 1))
	series := 0
	for k := range d.points {
		for i, c := range p.cs[k] {
			var xs, ys, lo, hi []float64
			for _, tp := range d.points[k] {
				e := tp.Tail[i]
				xs, ys, lo, hi = append(xs, tp.X), append(ys, e.Mean), append(lo, e.Lo), append(hi, e.Hi)
				tab.Add(plots.PlainText(d.names[k]), tp.X, tp.Ell, e.N, tp.MaxLoad.Mean, c, e.Mean, e.Lo, e.Hi)
			}
			plots.AddErrorBars(pl, series, fmt.Sprintf("%s, c = %g", d.names[k], c), xs, ys, lo, hi)
			plots.AddLine(pl, series, "", xs, ys)
			series++
		}
	}
	last := len(p.ns) - 1
	nr, coded := d.points[0][last], d.points[1][last]
	return &plots.Result{
		Plot: plots.LegendOutside(pl), Width: 20 * cm, Height: plots.DefaultHeight, Data: tab,
		Headlines: []plots.Headline{
			plots.Within(fmt.Sprintf("NR P[L > 6], n = %d", int(nr.X)), nr.Tail[0].Mean, 0.5, 1, "Θ(log n): a fixed c is exceeded more often as n grows (spec §12.1)"),
			plots.Within(fmt.Sprintf("coded P[L > 3.5], n = %d (95%% upper end)", int(coded.X)), coded.Tail[1].Hi, 0, 0.1, "O(1) w.h.p.: small at every n (spec §12.1)"),
		},
	}
}

// ---- codedload-slope ----

type slopeParams struct {
	ns   []int
	runs func(n int) int
	cs   []float64
}

func slopePreset(quick bool) slopeParams {
	if quick {
		return slopeParams{ns: []int{64, 256, 1024}, runs: func(int) int { return 8 }, cs: []float64{0.5, 1, 2}}
	}
	return slopeParams{ns: []int{256, 1024, 4096, 16384}, cs: []float64{0.5, 1, 2},
		runs: func(n int) int { return map[bool]int{true: 40, false: 12}[n <= 4096] }}
}

type slopeData struct {
	topos  []string
	curves [][]codedload.SlopeCurve
}

func slopeCompute(cfg plots.Config, p slopeParams) (*slopeData, error) {
	d := &slopeData{topos: []string{"torus", "random geometric graph", "random 6-regular graph", "hypercube"}}
	fams := []codedload.Family{codedload.TorusFamily, codedload.RGGFamily, codedload.RegularFamily(6), codedload.HypercubeFamily}
	nr := []codedload.Variant{{Name: "nearest replica", Config: clBase(codedload.NearestReplica{})}}
	for i, fam := range fams {
		cfg.Logf("codedload: slope study on the %s", d.topos[i])
		cs, err := codedload.SlopeStudy(p.ns, fam, clBase(codedload.Coded{}), p.cs, nr, p.runs, cfg.Seed+uint64(i), nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.topos[i], err)
		}
		d.curves = append(d.curves, cs)
	}
	return d, nil
}

func slopeDraw(p slopeParams, d *slopeData) *plots.Result {
	tab := plots.NewTable("topology", "strategy", "n", "ell", "runs", "maxload", "maxload_lo95", "maxload_hi95", "slope", "slope_lo95", "slope_hi95")
	var panels []plots.Drawer
	for t, curves := range d.curves {
		pl := plots.New(d.topos[t], "servers n (log scale)", "mean max load", plots.LogX())
		for i, c := range curves {
			var xs, ys, lo, hi []float64
			for _, q := range c.Points {
				ml, _ := clModes(q)
				slo, shi := shownInterval(q.MaxLoad, ml)
				tab.Add(d.topos[t], plots.PlainText(c.Name), q.X, q.Runs[0].Ell, len(q.Runs), q.MaxLoad.Mean, slo, shi, c.Fit.Slope.Mean, c.Fit.Slope.Lo, c.Fit.Slope.Hi)
				if math.IsNaN(slo) {
					slo, shi = q.MaxLoad.Mean, q.MaxLoad.Mean
				}
				xs, ys, lo, hi = append(xs, q.X), append(ys, q.MaxLoad.Mean), append(lo, slo), append(hi, shi)
			}
			s := c.Fit.Slope
			plots.AddErrorBars(pl, i, fmt.Sprintf("%s: slope %.2f ± %.2f", c.Name, s.Mean, s.HalfWidth()), xs, ys, lo, hi)
			plots.AddLine(pl, i, "", xs, ys)
		}
		pl.Legend.Top, pl.Legend.Left = true, true
		// Room above the curves for the legend.
		pl.Y.Max = pl.Y.Min + 1.45*(pl.Y.Max-pl.Y.Min)
		panels = append(panels, pl)
	}
	w, h := plots.PanelSize(2, 2)
	tor := d.curves[0]
	return &plots.Result{
		Plot: plots.NewPanels(2, 2, panels...), Width: w, Height: h, Data: tab,
		Headlines: []plots.Headline{
			plots.Within("NR slope against ln n, torus", tor[0].Fit.Slope.Mean, 0.5, 1.5, "Θ(log n) (spec §6.2 T-NR)"),
			plots.Within("coded c = 1 slope against ln n, torus", tor[2].Fit.Slope.Mean, -0.1, 0.2, "O(1): far below NR's (spec §12.2)"),
		},
	}
}

// ---- codedload-regime ----

type regimeParams struct {
	ns      []int
	runs    func(n int) int
	regimes []codedload.Regime
}

func regimePreset(quick bool) regimeParams {
	rs := []codedload.Regime{{Alpha: 0.5, Beta: 0.4}, {Alpha: 0.5, Beta: 0.25}}
	if quick {
		return regimeParams{ns: []int{64, 256, 1024}, runs: func(int) int { return 10 }, regimes: rs}
	}
	return regimeParams{ns: []int{64, 256, 1024, 4096, 16384}, regimes: rs,
		runs: func(n int) int { return map[bool]int{true: 100, false: 16}[n <= 4096] }}
}

func regimeCompute(cfg plots.Config, p regimeParams) ([]*codedload.RegimeResult, error) {
	var out []*codedload.RegimeResult
	for i, r := range p.regimes {
		cfg.Logf("codedload: two choices, α = %g, β = %g", r.Alpha, r.Beta)
		res, err := codedload.RegimeStudy(p.ns, r, p.runs, cfg.Seed+uint64(i), nil)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

func regimeDraw(p regimeParams, d []*codedload.RegimeResult) *plots.Result {
	tab := plots.NewTable("alpha", "beta", "n", "loglog_n", "runs", "maxload", "maxload_lo95", "maxload_hi95", "fallback_share", "slope_loglog", "slope_loglog_lo95", "slope_loglog_hi95", "slope_log", "slope_log_lo95", "slope_log_hi95")
	pl := plots.New("Two choices with K = n, M = n^α, radius n^β", "ln ln n", "mean max load")
	for i, r := range d {
		var xs, ys, lo, hi []float64
		for _, q := range r.Points {
			ml, _ := clModes(q)
			slo, shi := shownInterval(q.MaxLoad, ml)
			x := math.Log(math.Log(q.X))
			fb := 0.0
			for _, run := range q.Runs {
				fb += float64(run.Fallbacks) / float64(run.Requests)
			}
			tab.Add(r.Regime.Alpha, r.Regime.Beta, q.X, x, len(q.Runs), q.MaxLoad.Mean, slo, shi, fb/float64(len(q.Runs)),
				r.LogLog.Slope.Mean, r.LogLog.Slope.Lo, r.LogLog.Slope.Hi, r.Log.Slope.Mean, r.Log.Slope.Lo, r.Log.Slope.Hi)
			if math.IsNaN(slo) {
				slo, shi = q.MaxLoad.Mean, q.MaxLoad.Mean
			}
			xs, ys, lo, hi = append(xs, x), append(ys, q.MaxLoad.Mean), append(lo, slo), append(hi, shi)
		}
		s := r.LogLog.Slope
		plots.AddErrorBars(pl, i, fmt.Sprintf("α = %g, β = %g: slope %.2f ± %.2f per unit of ln ln n", r.Regime.Alpha, r.Regime.Beta, s.Mean, s.HalfWidth()), xs, ys, lo, hi)
		fit := []float64{r.LogLog.Intercept.Mean + s.Mean*xs[0], r.LogLog.Intercept.Mean + s.Mean*xs[len(xs)-1]}
		plots.AddCurve(pl, i, "", []float64{xs[0], xs[len(xs)-1]}, fit)
	}
	pl.Legend.Top, pl.Legend.Left = true, true
	main := d[0]
	return &plots.Result{
		Plot: pl, Width: 20 * cm, Height: plots.DefaultHeight, Data: tab,
		Headlines: []plots.Headline{
			plots.Within("two choices α = 0.5, β = 0.4: slope against ln ln n", main.LogLog.Slope.Mean, 0, 3, "Θ(log log n): a slow positive growth (spec §12.3)"),
			plots.Within(fmt.Sprintf("two choices α = 0.5, β = 0.4: max load at n = %d", int(main.Points[len(main.Points)-1].X)), main.Points[len(main.Points)-1].MaxLoad.Mean, 2, 5, "far below NR's ≈ 7–8 at these n (spec §7.3)"),
		},
	}
}
