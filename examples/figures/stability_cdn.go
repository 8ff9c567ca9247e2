package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot"
)

func init() {
	register(plots.Figure{
		Name:    "stability-cdn-day",
		Caption: "Greedy heuristic (24) against the optimal dual algorithm (Algorithm 1, 20 warm-started steps per 5-minute period) over a day on a 10⁴-node synthetic CDN with sparse C (anycast.GenerateCDN: each region's traffic split over its 10 nearest proxies; capacities for 40–80% utilisation at the base demand, which swings ±60% over the day in three time zones): traffic sent to the second layer, total overload and the number of overloaded proxies (the CSV also holds the total demand and the P1 costs).",
		Make:    threeSteps(cdnPreset, cdnCompute, cdnDraw),
		Seconds: 60,
	})
}

// cdnParams are the sizes of stability-cdn-day.
type cdnParams struct {
	n, k         int
	perHour, sub int
	rhoLo, rhoHi float64    // utilisation range at base demand and x = 1
	betas        [2]float64 // sensitivities of the two greedy runs (1/h)
}

func cdnPreset(quick bool) cdnParams {
	p := cdnParams{n: 10_000, k: 10, perHour: 12, sub: 4, rhoLo: 0.4, rhoHi: 0.8, betas: [2]float64{20, 200}}
	if quick {
		p.n = 500
	}
	return p
}

// cdnCompute draws the CDN and the day of demand and runs stability.Compare
// once per greedy sensitivity (the optimal policy does not depend on it).
func cdnCompute(cfg plots.Config, p cdnParams) (*greedyData, error) {
	nw, err := anycast.GenerateCDN(mc.Source(cfg.Seed, 13, 0), &anycast.CDNSettings{N: p.n, K: p.k, RhoLo: p.rhoLo, RhoHi: p.rhoHi})
	if err != nil {
		return nil, err
	}
	rng := rand.New(mc.Source(cfg.Seed, 13, 1))
	phase := make([]float64, p.n)
	for i := range phase {
		phase[i] = 3 * rng.Float64() // three time zones, hours
	}
	times := make([]float64, 24*p.perHour+1)
	for k := range times {
		times[k] = float64(k) / float64(p.perHour)
	}
	dem, err := stability.Diurnal(nw.A, times, &stability.DiurnalSettings{Amplitude: 0.6, Noise: 0.05, Memory: 0.95, Phase: phase}, mc.Source(cfg.Seed, 13, 2))
	if err != nil {
		return nil, err
	}
	d := &greedyData{}
	for i, b := range p.betas {
		cfg.Logf("stability-cdn-day: N = %d, nnz(C) = %d, β = %g/h, %d periods ...", p.n, nw.NNZ(), b, len(times))
		cmp, err := stability.Compare(nw, times, dem, &stability.CompareSettings{Sensitivity: b, Sub: p.sub})
		if err != nil {
			return nil, err
		}
		d.greedy[i] = &cmp.Greedy
		d.optimal = &cmp.Optimal
	}
	g, gf, o := d.greedy[0], d.greedy[1], d.optimal
	d.demandTotal = make([]float64, len(g.T))
	d.tab = plots.NewTable("hour", "demand", "greedy20_L2", "greedy200_L2", "optimal_L2", "greedy20_overload", "greedy200_overload", "optimal_overload", "greedy20_overloaded_nodes", "greedy200_overloaded_nodes", "optimal_overloaded_nodes", "greedy20_cost", "greedy200_cost", "optimal_cost")
	for k := range g.T {
		d.demandTotal[k] = floats.Sum(dem[k/p.sub])
		d.tab.Add(g.T[k], d.demandTotal[k], g.Second[k], gf.Second[k], o.Second[k], g.Excess[k], gf.Excess[k], o.Excess[k], g.Overloaded[k], gf.Overloaded[k], o.Overloaded[k], g.Cost[k], gf.Cost[k], o.Cost[k])
	}
	return d, nil
}

// cdnDraw draws traffic to L2, total overload and overloaded proxies
// against the time of day, and states the day's cost ratios.
func cdnDraw(p cdnParams, d *greedyData) *plots.Result {
	title := fmt.Sprintf("Synthetic CDN: %d nodes, %d proxies per region, one day", p.n, p.k)
	top := plots.New(title, "time of day (hours)", "traffic to L2 (load units)")
	mid := plots.New("Total overload", "time of day (hours)", "Σ(S−T)_{+} (load units)")
	bot := plots.New("Overloaded proxies (S_{i} > 1.01 T_{i})", "time of day (hours)", "proxies")
	o := d.optimal
	var heads []plots.Headline
	for i, g := range d.greedy {
		name := fmt.Sprintf("greedy (24), β = %g/h", p.betas[i])
		plots.AddCurve(top, 2*i, name, g.T, g.Second) // one legend, on the top panel
		plots.AddCurve(mid, 2*i, "", g.T, g.Excess)
		plots.AddCurve(bot, 2*i, "", g.T, counts(g.Overloaded))
		heads = append(heads, plots.Within(fmt.Sprintf("CDN N=%d greedy β=%g/h: P1 cost over the day / optimal", p.n, p.betas[i]), g.CostTotal/o.CostTotal, 1-1e-9, math.Inf(1), "≥ 1: Algorithm 1 minimises the P1 cost (spec §4)"))
	}
	plots.AddCurve(top, 1, "optimal (dual, Algorithm 1)", o.T, o.Second)
	plots.AddCurve(mid, 1, "", o.T, o.Excess)
	plots.AddCurve(bot, 1, "", o.T, counts(o.Overloaded))
	for _, pl := range []*plot.Plot{top, mid, bot} {
		dayAxis(pl)
	}
	return &plots.Result{Plot: plots.NewStack(top, mid, bot), Width: 20 * cm, Height: 21 * cm, Data: d.tab, Headlines: heads}
}

// counts converts node counts for plotting.
func counts(v []int) []float64 {
	out := make([]float64, len(v))
	for i, c := range v {
		out[i] = float64(c)
	}
	return out
}
