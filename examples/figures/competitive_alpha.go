package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/plots"
	"gonum.org/v1/plot"
)

func init() {
	register(plots.Figure{
		Name:    "competitive-alpha",
		Caption: "DTrack's threshold α (spec nomadic §15): for k = 2, 3 and 5 servers (top three panels), DTrack-RR's measured ratio cost/OPT against the adaptive adversary built for it (ε = C/256, 100 cycles) and its mean ratio on random sticky workloads (C = 10, T = 200, one free server lasting 20 slots on average, the others uniform on [0, C); 95% Student-t intervals over 200 instances, 20 in quick mode), beside the bound U(α) = max{k(1 + 1/α), (k − 1)α + k} (solid) and the adversary's limit L(α) = max{k(1 + 1/α), (k − 1)(1 + α)} (dashed), a proved lower bound. U is least at α* = √(k/(k−1)) (marked), not at α = 1, where the ratio is exactly 2k; the adversary's ratio follows L, least near k/(k − 1). Bottom: DTrack-B at α = 1 on the sticky workload against β, with DTrack-RR (β = −∞) and DTrack-F as references: a larger β follows the free server sooner, at the price of the trap's Ω(C) worst case at β = α (spec §6.4).",
		Make:    threeSteps(alphaPreset, alphaCompute, alphaDraw),
		Seconds: 3,
	})
}

type alphaParams struct {
	ks     []int
	alphas []float64
	betas  []float64
	bks    []int // servers of the β panel
	runs   int
	eps    float64
}

func alphaPreset(quick bool) alphaParams {
	p := alphaParams{
		ks:     []int{2, 3, 5},
		alphas: []float64{0.25, 0.35, 0.5, 0.7, 0.85, 1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.75, 2, 2.5, 3, 4},
		betas:  []float64{-1, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 0.9, 1},
		bks:    []int{3, 5},
		runs:   200,
		eps:    1.0 / 256,
	}
	if quick {
		p.runs = 20
	}
	return p
}

type alphaData struct {
	rr    [][]competitive.AlphaSummary // [k][α]
	beta  [][]competitive.AlphaSummary // [k][β], then RR and F
	ref   [][2]competitive.AlphaSummary
	tab   *plots.Table
	delta float64
}

func alphaCompute(cfg plots.Config, p alphaParams) (*alphaData, error) {
	var pts []competitive.AlphaPoint
	for _, k := range p.ks {
		for _, a := range p.alphas {
			pts = append(pts, competitive.AlphaPoint{Servers: k, Alpha: a, Eps: p.eps})
		}
	}
	for _, k := range p.bks {
		for _, b := range p.betas {
			pts = append(pts, competitive.AlphaPoint{Servers: k, Policy: competitive.Backward, Beta: b})
		}
		pts = append(pts, competitive.AlphaPoint{Servers: k}, competitive.AlphaPoint{Servers: k, Policy: competitive.Forward, AdversarySlots: 1})
	}
	out, err := competitive.AlphaStudy(pts, p.runs, cfg.Seed)
	if err != nil {
		return nil, err
	}
	cfg.Logf("alpha study: %d points done", len(pts))
	d := &alphaData{tab: plots.NewTable("panel", "k", "policy", "alpha", "beta", "bound_U", "limit_L", "adversary", "random_mean", "lo95", "hi95", "runs", "never_migrate_mean")}
	i := 0
	for range p.ks {
		d.rr = append(d.rr, out[i:i+len(p.alphas)])
		i += len(p.alphas)
	}
	for range p.bks {
		d.beta = append(d.beta, out[i:i+len(p.betas)])
		i += len(p.betas)
		d.ref = append(d.ref, [2]competitive.AlphaSummary{out[i], out[i+1]})
		i += 2
	}
	for _, row := range append(d.rr, d.beta...) {
		for _, s := range row {
			addAlphaRow(d.tab, s)
		}
	}
	for _, r := range d.ref {
		addAlphaRow(d.tab, r[0])
		addAlphaRow(d.tab, r[1])
	}
	return d, nil
}

func addAlphaRow(tab *plots.Table, s competitive.AlphaSummary) {
	pt := s.Point
	panel, beta := "alpha", math.NaN()
	if pt.Policy == competitive.Backward {
		panel, beta = "beta", pt.Beta
	}
	if pt.Policy == competitive.Forward || pt.Policy == competitive.RoundRobin && pt.Eps != 1.0/256 {
		panel = "beta-reference"
	}
	u, l := math.NaN(), math.NaN()
	if s.Bounded {
		u, l = s.Bound, s.Limit
	}
	adv := s.Adversary
	if pt.Policy == competitive.Forward {
		adv = math.NaN() // one slot: not a measurement
	}
	tab.Add(panel, pt.Servers, pt.Policy.String(), pt.Alpha, beta, u, l, adv, s.Random.Mean, s.Random.Lo, s.Random.Hi, s.Random.N, s.NeverMigrate.Mean)
}

func alphaDraw(p alphaParams, d *alphaData) *plots.Result {
	var panels []*plot.Plot
	var heads []plots.Headline
	fine := make([]float64, 0, 200)
	for x := p.alphas[0]; x <= p.alphas[len(p.alphas)-1]*1.0001; x *= 1.02 {
		fine = append(fine, x)
	}
	for i, k := range p.ks {
		kf := float64(k)
		top := 2*kf*2 + 1
		pl := plots.New(fmt.Sprintf("k = %d servers", k), "threshold α", "cost / OPT", plots.LogX(), plots.YRange(1, top))
		u, l := make([]float64, len(fine)), make([]float64, len(fine))
		for j, x := range fine {
			u[j], _ = competitive.DTrackBound(k, x)
			l[j], _ = competitive.DTrackCruelLimit(k, x)
		}
		refLine(pl, "bound U(α)", fine, u, 0)
		refLine(pl, "adversary's limit L(α)", fine, l, 1)
		adv, mean, lo, hi := make([]float64, len(p.alphas)), make([]float64, len(p.alphas)), make([]float64, len(p.alphas)), make([]float64, len(p.alphas))
		for j, s := range d.rr[i] {
			adv[j], mean[j], lo[j], hi[j] = s.Adversary, s.Random.Mean, s.Random.Lo, s.Random.Hi
		}
		plots.AddPoints(pl, 1, "adversary (measured)", p.alphas, adv)
		plots.AddLine(pl, 2, "sticky workload (mean)", p.alphas, mean)
		plots.AddErrorBars(pl, 2, "", p.alphas, mean, lo, hi)
		a, b, _ := competitive.BestAlpha(k)
		plots.AddPoints(pl, 3, "α* = √(k/(k−1)), min of U", []float64{a}, []float64{b})
		panels = append(panels, pl)
		at1 := d.rr[i][indexOfFloat(p.alphas, 1)].Adversary
		heads = append(heads, plots.Within(fmt.Sprintf("k = %d: adversary ratio at α = 1", k), at1, 2*kf*(1-3*p.eps-0.02), 2*kf,
			"L(1) = U(1) = 2k (spec §15.3), less the finite-ε and finite-horizon effects (3ε + 2/100 relative at 100 cycles)"))
		lo2 := 0
		for j := range adv {
			if adv[j] < adv[lo2] {
				lo2 = j
			}
		}
		heads = append(heads, plots.Within(fmt.Sprintf("k = %d: α of the least adversary ratio", k), p.alphas[lo2], a*0.95, kf/(kf-1)*1.15,
			"between α* and k/(k − 1) (the minimisers of U and L, spec §15.2–15.3), ± the grid's spacing"))
	}
	bp := plots.New("DTrack-B at α = 1, sticky workload", "eligibility factor β", "mean cost / OPT", plots.LegendAt(true, false))
	for i, k := range p.bks {
		mean, lo, hi := make([]float64, len(p.betas)), make([]float64, len(p.betas)), make([]float64, len(p.betas))
		for j, s := range d.beta[i] {
			mean[j], lo[j], hi[j] = s.Random.Mean, s.Random.Lo, s.Random.Hi
		}
		plots.AddLine(bp, i, fmt.Sprintf("DTrack-B, k = %d", k), p.betas, mean)
		plots.AddErrorBars(bp, i, "", p.betas, mean, lo, hi)
		x := []float64{p.betas[0], p.betas[len(p.betas)-1]}
		rr, f := d.ref[i][0].Random.Mean, d.ref[i][1].Random.Mean
		refLine(bp, fmt.Sprintf("DTrack-RR (β = −∞), k = %d", k), x, []float64{rr, rr}, 1+i)
		refLine(bp, fmt.Sprintf("DTrack-F, k = %d", k), x, []float64{f, f}, 3+i)
		heads = append(heads, plots.Within(fmt.Sprintf("k = %d: DTrack-B(β = 1) / DTrack-RR mean ratio, sticky", k), d.beta[i][len(p.betas)-1].Random.Mean/rr, 0, 1,
			"< 1: eager β follows the free server sooner (measured, spec §15.6)"))
	}
	panels = append(panels, bp)
	return &plots.Result{Plot: plots.NewStack(panels...), Width: 18 * cm, Height: 34 * cm, Data: d.tab, Headlines: heads}
}
