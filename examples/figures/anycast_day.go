package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
	"gonum.org/v1/plot"
)

func init() {
	register(plots.Figure{
		Name:    "anycast-fastcontrol-day",
		Caption: "Algorithm 1 as deployed over a day (stability.Compare with FastControl, spec §13.6): on a 10⁴-node synthetic CDN (anycast.GenerateCDN, 10 proxies per region, diurnal demand with noise, 5-minute periods, 4 warm-started dual steps per period) the dual algorithm whose nodes learn β only from FastControl packets (30-s Poisson window, 1 % loss, one step of delay) follows the exact-β one (P1 cost over the day 0.94 times its cost; with 4 steps a period neither reaches each period's optimum); both send more demand to L2 than the greedy law (β = 20/h) but overload far less (greedy's P1 cost is 10.6 times), and FastControl costs 0.0048 control messages per HTTP request (one unit of load is 1000 requests per second): the paper's negligible overhead, checked.",
		Make:    threeSteps(fcDayPreset, fcDayCompute, fcDayDraw),
		Seconds: 30,
	})
}

// fcDayParams are the sizes of anycast-fastcontrol-day.
type fcDayParams struct {
	n, k           int
	perHour, sub   int
	dualSteps      int
	beta           float64 // greedy sensitivity (1/(hour·load))
	gamma, window  float64 // FastControl: packets per hour per unit of μ; window (hours)
	loss           float64
	delay          int
	requestsPerLdH float64 // HTTP requests per hour per unit of load
}

func fcDayPreset(quick bool) fcDayParams {
	p := fcDayParams{n: 10_000, k: 10, perHour: 12, sub: 2, dualSteps: 4, beta: 20,
		gamma: 1e4, window: 30.0 / 3600, loss: 0.01, delay: 1, requestsPerLdH: 3.6e6}
	if quick {
		p.n = 500
	}
	return p
}

type fcDayData struct {
	cmp *stability.Comparison
	tab *plots.Table
}

func fcDayCompute(cfg plots.Config, p fcDayParams) (*fcDayData, error) {
	nw, err := anycast.GenerateCDN(mc.Source(cfg.Seed, 29, 2), &anycast.CDNSettings{N: p.n, K: p.k})
	if err != nil {
		return nil, err
	}
	times := make([]float64, 24*p.perHour+1)
	for k := range times {
		times[k] = float64(k) / float64(p.perHour)
	}
	dem, err := stability.Diurnal(nw.A, times, nil, mc.Source(cfg.Seed, 29, 3))
	if err != nil {
		return nil, err
	}
	set := &stability.CompareSettings{Sensitivity: p.beta, Sub: p.sub, DualSteps: p.dualSteps,
		FastControl: &dual.FastControl{Gamma: p.gamma, Window: p.window, Loss: p.loss, Delay: p.delay, Unreachable: dual.Direct, Src: mc.Source(cfg.Seed, 29, 4)}}
	cfg.Logf("anycast-fastcontrol-day: N = %d, nnz(C) = %d, %d periods ...", p.n, nw.NNZ(), len(times))
	cmp, err := stability.Compare(nw, times, dem, set)
	if err != nil {
		return nil, err
	}
	d := &fcDayData{cmp: cmp, tab: plots.NewTable("hour", "greedy_L2", "optimal_L2", "fastcontrol_L2", "greedy_overload", "optimal_overload", "fastcontrol_overload",
		"greedy_overloaded_nodes", "optimal_overloaded_nodes", "fastcontrol_overloaded_nodes", "greedy_cost", "optimal_cost", "fastcontrol_cost")}
	g, o, f := &cmp.Greedy, &cmp.Optimal, cmp.FastControl
	for k := range g.T {
		d.tab.Add(g.T[k], g.Second[k], o.Second[k], f.Second[k], g.Excess[k], o.Excess[k], f.Excess[k],
			g.Overloaded[k], o.Overloaded[k], f.Overloaded[k], g.Cost[k], o.Cost[k], f.Cost[k])
	}
	return d, nil
}

func fcDayDraw(p fcDayParams, d *fcDayData) *plots.Result {
	top := plots.New(fmt.Sprintf("Synthetic CDN: %d nodes, one day, 5-minute periods", p.n), "time of day (hours)", "traffic to L2 (load units)")
	bot := plots.New("Total overload", "time of day (hours)", "Σ(S−T)_{+} (load units)")
	g, o, f := &d.cmp.Greedy, &d.cmp.Optimal, d.cmp.FastControl
	over := f.Overhead(p.requestsPerLdH)
	names := []string{
		fmt.Sprintf("greedy (24), β = %g/h", p.beta),
		"dual, exact β (Algorithm 1)",
		fmt.Sprintf("dual, β from FastControl packets\n(%g %% loss, %d-step delay):\n%.2g control messages\nper HTTP request", 100*p.loss, p.delay, over),
	}
	for i, pol := range []*stability.Policy{g, o, f} {
		plots.AddCurve(top, i, names[i], pol.T, pol.Second) // one legend, on the top panel
		plots.AddCurve(bot, i, "", pol.T, pol.Excess)
	}
	for _, pl := range []*plot.Plot{top, bot} {
		dayAxis(pl)
	}
	heads := []plots.Headline{
		plots.Within("FastControl: control messages per HTTP request", over, 0, 0.01, "negligible: below 1 % (spec §13.6; benchmark 0.005 at 1-minute periods)"),
		plots.Within("P1 cost over the day, FastControl / exact β", f.CostTotal/o.CostTotal, 0.8, 1.25, "≈ 1: FastControl's β̂ is unbiased but for the loss (spec §4.7, §13.6)"),
		plots.Within("P1 cost over the day, greedy / exact β", g.CostTotal/o.CostTotal, 1, math.Inf(1), "≥ 1: Algorithm 1 minimises the P1 cost (spec §4)"),
	}
	return &plots.Result{Plot: plots.NewStack(top, bot), Width: 21 * cm, Height: 16 * cm, Data: d.tab, Headlines: heads}
}
