package main

import (
	"fmt"
	"image/color"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/competitive/mobility"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	register(
		plots.Figure{
			Name:    "competitive-mesh-scale",
			Caption: "Wireless mesh (spec §8.1, our reconstruction): average total cost and performance ratio (cost/OPT) against the number of routers at constant density (100 routers per km², random way-point at 10 m/s, hold = distance in m, C = 50 m), with 95% intervals over walks. Ratios are flat in the network size and the motion-aware algorithms stay within 1% of OPT, as the slides report; the opportunistic DTrack versions are only 8–12% above OPT here, below the slides' 20–50%, a band this setup reaches near C = 200 m (competitive-ratio-vs-setup).",
			Make:    competitiveMeshScale,
		},
		plots.Figure{
			Name:    "competitive-ratio-vs-setup",
			Caption: "Mesh with 100 routers (spec §8.1, our reconstruction): performance ratio against the setup cost C for every online algorithm (left), and against the look-ahead window of the motion-aware algorithms at C = 200 m, exact and with 100 m target noise (right); 95% intervals over walks. The slides' 20–50% band for the opportunistic DTrack versions, reported at C = 50 in the paper's unknown units, appears here near C = 200 m (two router spacings).",
			Make:    competitiveRatioVsSetup,
		},
		plots.Figure{
			Name:    "competitive-lower-bound",
			Caption: "Adaptive adversary of spec §6.1 (C = 1, ε = 1/16, T = 4800k; 2400k in quick mode): measured ratio cost/OPT against the number of servers k for every online algorithm on log–log axes, with the lower bound k, the optimal deterministic ratio 2k − 1 and DTrack-RR's guarantee 2k (left), and the same ratios divided by k without DTrack-F (right). DTrack-F is not competitive: from k = 3 on it oscillates between two servers (spec §6.4), so its ratio grows with T (≈ 1.8·10⁴ at k = 32 in the full run); every other algorithm stays between k and 2k here. DTrack-RR, DTrack-B and CTrack make the same moves against this adversary, so their curves coincide. The adversary sees Marking's random choices, so Marking's 2H_k bound for inputs fixed in advance does not apply and its mean ratio may exceed 2k − 1.",
			Make:    competitiveLowerBound,
		},
		plots.Figure{
			Name:    "competitive-chatroom",
			Caption: "Wide-area chat room (spec §8.2, our reconstruction: 3 users on average, Poisson arrivals, hold = sum of distances, C = 10): average total cost and performance ratio against the number of servers, with 95% intervals over runs.",
			Make:    competitiveChatroom,
		},
	)
}

// compSweep runs mobility.Compare at every point of a sweep and returns
// results[point][algorithm].
func compSweep(cfg plots.Config, what string, n int, scen func(i int) mobility.Scenario, cs func(i int) []mobility.Contender, runs int) ([][]mobility.Result, error) {
	out := make([][]mobility.Result, n)
	for i := range n {
		res, err := mobility.Compare(scen(i), cs(i), runs, cfg.Seed, uint64(i))
		if err != nil {
			return nil, err
		}
		out[i] = res
		cfg.Logf("%s: point %d/%d done", what, i+1, n)
	}
	return out, nil
}

// addEstimates draws one series per algorithm: the means as lines with
// markers and the 95% intervals as error bars; ratio selects the ratio
// instead of the cost, legend whether names enter the legend. OPT
// (algorithm 0) is a black reference line unless skipOPT. Every value is
// recorded in tab.
func addEstimates(p *plot.Plot, xs []float64, res [][]mobility.Result, ratio, skipOPT, legend bool, tab *plots.Table, panel string) {
	for a := range res[0] {
		if skipOPT && a == 0 {
			continue
		}
		mean, lo, hi := make([]float64, len(xs)), make([]float64, len(xs)), make([]float64, len(xs))
		for i := range xs {
			e := res[i][a].Cost
			if ratio {
				e = res[i][a].Ratio
			}
			mean[i], lo[i], hi[i] = e.Mean, e.Lo, e.Hi
			if a == 0 && ratio { // OPT's ratio is exactly 1
				lo[i], hi[i] = 1, 1
			}
			tab.Add(panel, xs[i], res[i][a].Name, mean[i], lo[i], hi[i], e.N)
		}
		name := res[0][a].Name
		if !legend {
			name = ""
		}
		if a == 0 {
			refLine(p, name, xs, mean, 0)
			if !ratio {
				plots.AddErrorBars(p, 0, "", xs, mean, lo, hi)
			}
			continue
		}
		plots.AddLine(p, a, name, xs, mean)
		plots.AddErrorBars(p, a, "", xs, mean, lo, hi)
	}
}

// refLine draws a black reference line with dash pattern d (OPT, or a
// theoretical bound) and a legend entry if name is not empty.
func refLine(p *plot.Plot, name string, xs, ys []float64, d int) {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		panic(err) // NaN or Inf in a computed reference: a bug
	}
	l.Color = color.Black
	l.Width = vg.Points(1.5)
	l.Dashes = plots.Dashes(d)
	p.Add(l)
	if name != "" {
		p.Legend.Add(name, l)
	}
}

func newCompTable() *plots.Table {
	return plots.NewTable("panel", "x", "algorithm", "mean", "lo95", "hi95", "runs")
}

func find(res []mobility.Result, name string) mobility.Result {
	for _, r := range res {
		if r.Name == name {
			return r
		}
	}
	return mobility.Result{Name: name, Cost: loadlab.Estimate{Mean: math.NaN()}, Ratio: loadlab.Estimate{Mean: math.NaN()}}
}

func meshContenders() []mobility.Contender {
	return append(mobility.Baselines(), mobility.TargetAware(10, 0), mobility.DirectionAware(10, 0))
}

func competitiveMeshScale(cfg plots.Config) (*plots.Result, error) {
	grids, slots, runs := []int{10, 20, 30, 40, 50}, 3600, 16
	if cfg.Quick {
		grids, slots, runs = []int{10, 20, 30}, 500, 4
	}
	res, err := compSweep(cfg, "mesh scale", len(grids),
		func(i int) mobility.Scenario { return mobility.Mesh{Grid: grids[i], Slots: slots} },
		func(int) []mobility.Contender { return meshContenders() }, runs)
	if err != nil {
		return nil, err
	}
	out := costRatioFigure(grids, res, "routers (100 per km²)", fmt.Sprintf("total cost over %d s (m)", slots))
	last := res[len(res)-1]
	out.Headlines = []plots.Headline{
		{Name: fmt.Sprintf("mesh %d routers, C = 50: DTrack-F ratio", grids[len(grids)-1]*grids[len(grids)-1]), Value: find(last, "DTrack-F").Ratio.Mean, Reference: "slides: 20–50% at C = 50; not reproduced in our setup (band near C = 200 m)"},
		{Name: "mesh: Target-Aware(10) ratio", Value: find(last, "Target-Aware(10)").Ratio.Mean, Reference: "spec §8.1: motion-aware gap < 10%"},
		{Name: "mesh: DTrack-RR ratio, largest/smallest network", Value: find(last, "DTrack-RR").Ratio.Mean / find(res[0], "DTrack-RR").Ratio.Mean, Reference: "spec §8.1: no degradation with scale (≈ 1)"},
	}
	return out, nil
}

func competitiveRatioVsSetup(cfg plots.Config) (*plots.Result, error) {
	setups, windows, slots, runs := []float64{10, 25, 50, 100, 200, 400, 800}, []int{0, 1, 2, 3, 5, 10, 20, 40}, 3600, 16
	if cfg.Quick {
		setups, windows, slots, runs = []float64{10, 50, 200, 800}, []int{0, 1, 2, 5, 10, 20}, 500, 4
	}
	res, err := compSweep(cfg, "ratio vs C", len(setups),
		func(i int) mobility.Scenario { return mobility.Mesh{Setup: setups[i], Slots: slots} },
		func(int) []mobility.Contender { return meshContenders() }, runs)
	if err != nil {
		return nil, err
	}
	tab := newCompTable()
	left := plots.New("Ratio against setup cost", "setup cost C (m)", "cost / OPT", plots.LogX())
	addEstimates(left, setups, res, true, true, true, tab, "setup")

	const wC = 200
	motion := func(w int) []mobility.Contender {
		return []mobility.Contender{
			mobility.TargetAware(w, 0), mobility.DirectionAware(w, 0),
			mobility.TargetAware(w, 100), mobility.DirectionAware(w, 100),
		}
	}
	// compSweep passes the point index, not the window: map it.
	wres, err := compSweep(cfg, "ratio vs window", len(windows),
		func(int) mobility.Scenario { return mobility.Mesh{Setup: wC, Slots: slots} },
		func(i int) []mobility.Contender { return motion(windows[i]) }, runs)
	if err != nil {
		return nil, err
	}
	// Series names without the window, which varies along x.
	names := []string{"OPT", "Target-Aware", "Direction-Aware", "Target-Aware, σ = 100 m", "Direction-Aware, σ = 100 m"}
	for i := range wres {
		for a := range wres[i] {
			wres[i][a].Name = names[a]
		}
	}
	wx := make([]float64, len(windows))
	for i, w := range windows {
		wx[i] = float64(w)
	}
	right := plots.New(fmt.Sprintf("Look-ahead (C = %d m)", wC), "look-ahead window W (slots of 1 s)", "cost / OPT")
	addEstimates(right, wx, wres, true, true, true, tab, "window")
	w, h := plots.PanelSize(1, 2)
	at := func(i int, name string) float64 { return find(res[i], name).Ratio.Mean }
	iC, iBand := len(setups)-1, indexOfFloat(setups, 200)
	return &plots.Result{
		Plot: plots.NewPanels(1, 2, plots.LegendOutside(left), plots.LegendOutside(right)), Width: w * 1.45, Height: h,
		Data: tab,
		Headlines: []plots.Headline{
			{Name: fmt.Sprintf("C = %g: DTrack-RR ratio", setups[iC]), Value: at(iC, "DTrack-RR"), Reference: "≤ 2k = 200 (spec §6.3); grows with C"},
			{Name: "C = 200: DTrack-F ratio", Value: at(iBand, "DTrack-F"), Reference: "slides' 20–50% band (spec §8.1, reported at C = 50 in unknown units)"},
			{Name: "C = 200: DTrack-B ratio", Value: at(iBand, "DTrack-B"), Reference: "slides' 20–50% band (spec §8.1, reported at C = 50 in unknown units)"},
			{Name: "C = 200, W = 10: Target-Aware ratio", Value: find(wres[indexOf(windows, 10)], names[1]).Ratio.Mean, Reference: "spec §8.1: gap < 10% with small window"},
		},
	}, nil
}

// indexOfFloat returns the index of x in xs; it panics if x is missing
// (a sweep edited without its headlines: a bug).
func indexOfFloat(xs []float64, x float64) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	panic(fmt.Sprintf("figures: %v not in the sweep %v", x, xs))
}

func indexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return 0
}

func competitiveLowerBound(cfg plots.Config) (*plots.Result, error) {
	ks, perK, seeds := []int{2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32}, 300, 16
	if cfg.Quick {
		ks, perK, seeds = []int{2, 3, 4, 6, 8}, 150, 4
	}
	algs := []struct {
		name string
		new  func(seed uint64) competitive.Online
	}{
		{"DTrack-RR", func(uint64) competitive.Online { return competitive.NewDTrack(competitive.RoundRobin) }},
		{"DTrack-F", func(uint64) competitive.Online { return competitive.NewDTrack(competitive.Forward) }},
		{"DTrack-B", func(uint64) competitive.Online { return competitive.NewDTrack(competitive.Backward) }},
		{"CTrack", func(uint64) competitive.Online { return competitive.NewCTrack() }},
		{"WFA", func(uint64) competitive.Online { return &competitive.WFA{} }},
		{"Marking (mean)", func(s uint64) competitive.Online { return &competitive.Marking{Src: mc.Source(cfg.Seed, s)} }},
	}
	// Small steps (ε = C/16) make the adversary fine-grained: it then
	// pushes DTrack-RR towards its guarantee 2k, beyond 2k − 1 (spec §6.3;
	// TestCruelFineGrained). T = perK·k/ε keeps (T−1)ε/C ≫ k.
	const C, eps = 1.0, 1.0 / 16
	perK = int(float64(perK) / eps)
	ratios := make([][]float64, len(algs)) // [alg][k]
	tab := plots.NewTable("algorithm", "k", "T", "ratio", "ratio_over_k")
	for a, alg := range algs {
		ratios[a] = make([]float64, len(ks))
		for i, k := range ks {
			n := 1
			if a == len(algs)-1 {
				n = seeds // the randomised algorithm: average over its seeds
			}
			rs := make([]float64, n)
			var errs = make([]error, n)
			mc.For(n, 0, func(r int) {
				rs[r], errs[r] = competitive.CruelRatio(alg.new(uint64(k*1000+r)), k, perK*k, C, eps)
			})
			for _, err := range errs {
				if err != nil {
					return nil, err
				}
			}
			ratios[a][i] = mc.Summarize(rs).Mean
			tab.Add(alg.name, k, perK*k, ratios[a][i], ratios[a][i]/float64(k))
		}
		cfg.Logf("lower bound: %s done", alg.name)
	}
	// Left: the measured ratio cost/OPT on log–log axes, where the bounds
	// k, 2k − 1 and 2k are parallel lines and DTrack-F, unbounded (spec
	// §6.4), fits orders of magnitude above them. Right: the ratio divided
	// by k, so that the bounds become 1, 2 − 1/k and 2 and the competitive
	// algorithms can be told apart; DTrack-F is left out there.
	xs := make([]float64, len(ks))
	lk, l2k1, l2k := make([]float64, len(ks)), make([]float64, len(ks)), make([]float64, len(ks))
	nk, n2k1, n2k := make([]float64, len(ks)), make([]float64, len(ks)), make([]float64, len(ks))
	for i, k := range ks {
		kf := float64(k)
		xs[i] = kf
		lk[i], l2k1[i], l2k[i] = kf, 2*kf-1, 2*kf
		nk[i], n2k1[i], n2k[i] = 1, 2-1/kf, 2
	}
	kTicks := powerOfTwoTicks(ks)
	left := plots.New("Measured ratio", "servers k", "cost / OPT", plots.LogX(), plots.LogY())
	right := plots.New("Ratio divided by k (without DTrack-F)", "servers k", "cost / (k · OPT)", plots.LogX(), plots.YRange(0.9, 2.1))
	left.X.Tick.Marker, right.X.Tick.Marker = kTicks, kTicks
	// The bounds go under the data on the left, where they crowd it.
	refLine(left, "", xs, lk, 1)
	refLine(left, "", xs, l2k1, 2)
	refLine(left, "", xs, l2k, 0)
	for a, alg := range algs {
		plots.AddLine(left, a+1, "", xs, ratios[a])
		if alg.name == "DTrack-F" {
			// One legend, beside the right panel, serves both panels:
			// DTrack-F enters it with its left-panel style.
			legendOnly(right, a+1, alg.name+" (left panel only)")
			continue
		}
		ys := make([]float64, len(ks))
		for i, k := range ks {
			ys[i] = ratios[a][i] / float64(k)
		}
		plots.AddLine(right, a+1, alg.name, xs, ys)
	}
	refLine(right, "k (lower bound)", xs, nk, 1)
	refLine(right, "2k − 1 (best deterministic)", xs, n2k1, 2)
	refLine(right, "2k (DTrack-RR guarantee)", xs, n2k, 0)
	w, h := plots.PanelSize(1, 2)
	last := len(ks) - 1
	bound, err := competitive.CruelBound(ks[last], perK*ks[last], C, eps)
	if err != nil {
		return nil, err
	}
	return &plots.Result{
		Plot: plots.NewPanels(1, 2, left, plots.LegendOutside(right)), Width: w * 1.3, Height: h * 1.15,
		Data: tab,
		Headlines: []plots.Headline{
			{Name: fmt.Sprintf("WFA ratio at k = %d", ks[last]), Value: ratios[4][last], Reference: fmt.Sprintf("2k − 1 = %d (Borodin–Linial–Saks)", 2*ks[last]-1)},
			{Name: fmt.Sprintf("DTrack-F ratio at k = %d", ks[last]), Value: ratios[1][last], Reference: "unbounded (spec §6.4): F oscillates between servers 0 and 1, OPT pays C"},
			{Name: "DTrack-RR ratio at k = 2", Value: ratios[0][0], Reference: "> 2k − 1 = 3, ≤ 2k = 4: the 2k bound is nearly tight"},
			{Name: fmt.Sprintf("DTrack-RR ratio at k = %d", ks[last]), Value: ratios[0][last], Reference: fmt.Sprintf("≥ %.3f (spec §6.1 guarantee), ≤ 2k = %d (§6.3)", bound, 2*ks[last])},
		},
	}, nil
}

// powerOfTwoTicks returns log-axis ticks at every k of the sweep,
// labelled at the powers of two only, so that labels do not collide.
func powerOfTwoTicks(ks []int) plot.ConstantTicks {
	ts := make(plot.ConstantTicks, len(ks))
	for i, k := range ks {
		ts[i].Value = float64(k)
		if k&(k-1) == 0 {
			ts[i].Label = fmt.Sprint(k)
		}
	}
	return ts
}

// legendOnly adds a legend entry for series i of plots.AddLine to p
// without drawing data in p, for a series shown in another panel.
func legendOnly(p *plot.Plot, i int, name string) {
	l, s, err := plotter.NewLinePoints(plotter.XYs{{X: 1, Y: 1}})
	if err != nil {
		panic(err) // constant finite points
	}
	// The style of plots.AddLine's series i (its width is 1.4 pt).
	l.LineStyle = draw.LineStyle{Color: plots.Color(i), Width: vg.Points(1.4), Dashes: plots.Dashes(i)}
	s.GlyphStyle = plots.Glyph(i)
	p.Legend.Add(name, l, s)
}

func competitiveChatroom(cfg plots.Config) (*plots.Result, error) {
	grids, slots, runs := []int{10, 15, 20, 25}, 3600, 32
	if cfg.Quick {
		grids, slots, runs = []int{10, 15, 20}, 800, 6
	}
	res, err := compSweep(cfg, "chat room", len(grids),
		func(i int) mobility.Scenario { return mobility.ChatRoom{Grid: grids[i], Slots: slots} },
		func(int) []mobility.Contender { return mobility.Baselines() }, runs)
	if err != nil {
		return nil, err
	}
	out := costRatioFigure(grids, res, "servers", fmt.Sprintf("total cost over %d slots (distance units)", slots))
	first := res[0]
	out.Headlines = []plots.Headline{
		{Name: "chat room 100 servers: DTrack-F ratio", Value: find(first, "DTrack-F").Ratio.Mean, Reference: "spec §8.2 (no number recovered)"},
		{Name: "chat room 100 servers: DTrack-RR ratio", Value: find(first, "DTrack-RR").Ratio.Mean, Reference: "≤ 2k = 200 (spec §6.3)"},
	}
	return out, nil
}

// costRatioFigure draws a scaling sweep over square grids of side
// grids[i] (so grids[i]² routers or servers) as two panels: average total
// cost, and cost/OPT with the legend beside it.
func costRatioFigure(grids []int, res [][]mobility.Result, xlabel, costLabel string) *plots.Result {
	xs := make([]float64, len(grids))
	for i, g := range grids {
		xs[i] = float64(g * g)
	}
	tab := newCompTable()
	cost := plots.New("Average total cost", xlabel, costLabel)
	addEstimates(cost, xs, res, false, false, false, tab, "cost")
	ratio := plots.New("Performance ratio", xlabel, "cost / OPT")
	addEstimates(ratio, xs, res, true, false, true, tab, "ratio")
	w, h := plots.PanelSize(1, 2)
	return &plots.Result{
		Plot: plots.NewPanels(1, 2, cost, plots.LegendOutside(ratio)), Width: w * 1.25, Height: h,
		Data: tab,
	}
}
