package main

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/linalg"
	"github.com/loadlab/loadlab/plots"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	register(
		plots.Figure{
			Name:    "consensus-rho-vs-gamma",
			Caption: "H2 dispersion of a throttler network against the update cycle γ over the stable range (0, 2/λ_n) for five topologies on the same number of servers: ρ₂ (random-walk demand), ρ₁ (stationary demand) and ρ₂T (time-consistent random walk), each with γ*_H2 (circle) and γ_conv (cross) marked on every curve. γ*_H2 minimises ρ₂; ρ₁ and ρ₂T are strictly increasing in γ (spec §5.1), so on their panels the markers show the cost of those two cycles, not optima.",
			Make:    consensusRhoVsGamma,
		},
		plots.Figure{
			Name:    "consensus-totals",
			Caption: "Six-server throttler under random-walk demand: total requests, the conserved total limit, accepted requests, the ideal curve min{r_total, l_total} and the over-throttling O(k) = ideal − accepted.",
			Make:    consensusTotals,
		},
		plots.Figure{
			Name:    "consensus-rho-vs-n",
			Caption: "ρ₂ at the H2-optimal update cycle γ*_H2 against the number of servers for each topology (closed-form spectra), with the lower bound σ²(n−1) reached only by the complete graph.",
			Make:    consensusRhoVsN,
		},
		plots.Figure{
			Name:    "consensus-design",
			Caption: "Problem A: link weights on a geometric candidate graph under a budget Σ c_e w_e ≤ B (cost = 0.1 + link length): uniform allocation against the certified optimum (edge width and colour by weight).",
			Make:    consensusDesign,
		},
		plots.Figure{
			Name:    "consensus-per-server",
			Caption: "Per-server throttling of one server's clients (sorted by request): Algorithm 1 (uniform throttled ratio) and Algorithm 2 (water-filling, max–min fair, dashed water level); allowed and throttled requests stack to the request.",
			Make:    consensusPerServer,
		},
	)
}

// family is a topology with its closed-form Laplacian spectrum.
type family struct {
	name string
	n    int
	eig  []float64
}

func pathEig(n int) []float64 {
	e := make([]float64, n)
	for k := range n {
		e[k] = 2 - 2*math.Cos(math.Pi*float64(k)/float64(n)) // spec §9
	}
	return e
}

// families returns path, cycle, star, complete and the side×side grid
// on n = side² servers.
func families(side int) []family {
	n := side * side
	cyc := make([]float64, n)
	star := make([]float64, n)
	comp := make([]float64, n)
	for k := range n {
		cyc[k] = 2 - 2*math.Cos(2*math.Pi*float64(k)/float64(n))
		if k > 0 {
			star[k] = 1
			comp[k] = float64(n)
		}
	}
	star[n-1] = float64(n)
	p := pathEig(side)
	grid := make([]float64, 0, n)
	for _, a := range p {
		for _, b := range p {
			grid = append(grid, a+b) // Cartesian product of two paths
		}
	}
	return []family{
		{"path", n, pathEig(n)},
		{"cycle", n, cyc},
		{"star", n, star},
		{"complete", n, comp},
		{fmt.Sprintf("grid %d×%d", side, side), n, grid},
	}
}

func consensusRhoVsGamma(cfg plots.Config) (*plots.Result, error) {
	side, points := 5, 400
	if cfg.Quick {
		side, points = 4, 150
	}
	fams := families(side)
	n := side * side
	nn := float64(n - 1)
	tab := plots.NewTable("family", "measure", "gamma", "rho")
	var heads []plots.Headline
	p2 := plots.New(fmt.Sprintf("ρ₂, random-walk demand (n = %d, σ = 1)", n), "update cycle γ (time units)", "ρ₂ (requests² per step²)", plots.LogY())
	p2n := plots.New("ρ₂ against the normalised cycle γλ_n/2", "γ / (2/λ_n)", "ρ₂ (requests² per step²)", plots.LogY())
	p1 := plots.New("ρ₁, stationary demand (increasing in γ)", "update cycle γ (time units)", "ρ₁ (requests² per step²)", plots.LogY())
	p2t := plots.New("ρ₂T, time-consistent random walk (increasing in γ)", "update cycle γ (time units)", "ρ₂T (requests² per time unit)", plots.LogY())
	for fi, f := range fams {
		s, err := consensus.SpectralFrom(f.eig)
		if err != nil {
			return nil, err
		}
		for _, c := range []struct {
			t consensus.Traffic
			p *plot.Plot
		}{{consensus.Case2, p2}, {consensus.Case1, p1}, {consensus.Case2T, p2t}} {
			g, r, err := s.Curve(c.t, 1, points)
			if err != nil {
				return nil, err
			}
			name := ""
			if c.t == consensus.Case2 {
				name = f.name
			}
			plots.AddCurve(c.p, fi, name, g, r)
			if c.t == consensus.Case2 {
				x := make([]float64, len(g))
				for i := range g {
					x[i] = g[i] / s.StabilityBound()
				}
				plots.AddCurve(p2n, fi, "", x, r)
			}
			for i := range g {
				tab.Add(f.name, c.t.String(), g[i], r[i])
			}
		}
		gs, rs, _ := s.GammaH2(1)
		gc, _ := s.GammaConv()
		rc, _ := s.Rho(consensus.Case2, gc, 1)
		addMarker(p2, fi, gs, rs, draw.RingGlyph{})
		addMarker(p2, fi, gc, rc, draw.CrossGlyph{})
		addMarker(p2n, fi, gs/s.StabilityBound(), rs, draw.RingGlyph{})
		addMarker(p2n, fi, gc/s.StabilityBound(), rc, draw.CrossGlyph{})
		// ρ₁ and ρ₂T are strictly increasing in γ (spec §5.1 fact 4): no
		// interior optimum; the markers show what γ*_H2 and γ_conv cost
		// under those demand models.
		for _, c := range []struct {
			t consensus.Traffic
			p *plot.Plot
		}{{consensus.Case1, p1}, {consensus.Case2T, p2t}} {
			rsc, err := s.Rho(c.t, gs, 1)
			if err != nil {
				return nil, err
			}
			rcc, err := s.Rho(c.t, gc, 1)
			if err != nil {
				return nil, err
			}
			addMarker(c.p, fi, gs, rsc, draw.RingGlyph{})
			addMarker(c.p, fi, gc, rcc, draw.CrossGlyph{})
		}
		heads = append(heads, plots.Headline{Name: fmt.Sprintf("γ*_H2 %s n=%d", f.name, n), Value: gs, Reference: fmt.Sprintf("γ_conv = %.4g", gc)})
	}
	ring := addMarker(p2, -1, math.NaN(), math.NaN(), draw.RingGlyph{})
	cross := addMarker(p2, -1, math.NaN(), math.NaN(), draw.CrossGlyph{})
	p2.Legend.Add("γ*_H2 (min ρ₂)", ring)
	p2.Legend.Add("γ_conv (fastest)", cross)
	// Fix the ranges after the data (adding data widens them): the
	// minima matter, not the blow-up at the ends.
	for _, p := range []*plot.Plot{p2, p2n} {
		p.Y.Min, p.Y.Max = 0.8*nn, 60*nn
	}
	p2n.X.Min, p2n.X.Max = 0, 1
	p1.Y.Min, p1.Y.Max = 0.9*nn, 20*nn // ρ₁ → σ²(n−1) as γ → 0
	for _, p := range []*plot.Plot{p2, p2n, p1, p2t} {
		p.Y.Tick.Marker = ticks125{}
	}
	cfg.Logf("consensus-rho-vs-gamma: %d families, %d points", len(fams), points)
	w, h := plots.PanelSize(2, 2)
	return &plots.Result{Plot: plots.NewPanels(2, 2, plots.LegendOutside(p2), p2n, p1, p2t), Width: w * 1.1, Height: h, Data: tab, Headlines: heads}, nil
}

// addMarker draws one marker in the colour of series i (grey if i < 0);
// a NaN point adds nothing to the plot and serves as a legend thumbnail.
func addMarker(p *plot.Plot, i int, x, y float64, shape draw.GlyphDrawer) *plotter.Scatter {
	s := &plotter.Scatter{XYs: plotter.XYs{{X: x, Y: y}}}
	col := color.Color(color.Gray{Y: 90})
	if i >= 0 {
		col = plots.Color(i)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(4.5), Shape: shape}
	if !math.IsNaN(x) {
		p.Add(s)
	}
	return s
}

func consensusTotals(cfg plots.Config) (*plots.Result, error) {
	steps := 400
	// Six servers (the paper's Fig. 1 size): a ring with two chords.
	gb := linalg.Cycle(6).Builder()
	if err := gb.SetEdge(0, 3, 1); err != nil {
		return nil, err
	}
	if err := gb.SetEdge(1, 4, 0.5); err != nil {
		return nil, err
	}
	g := gb.Build()
	s, err := consensus.NewSpectral(g)
	if err != nil {
		return nil, err
	}
	gamma, _, _ := s.GammaH2(1)
	// Draw the demand first and set the total limit to the median of
	// r_total, so the run spends time on both sides of the cap (where
	// over-throttling can occur) whatever the random path.
	start := []float64{20, 30, 40, 50, 60, 70}
	d := &consensus.RandomWalkDemand{Start: start, Sigma: 1.5, Src: mc.Source(cfg.Seed, 3, 0)}
	trace := make(consensus.TraceDemand, steps)
	totals := make([]float64, steps)
	for k := range trace {
		trace[k] = make([]float64, 6)
		if err := d.Next(k, trace[k]); err != nil {
			return nil, err
		}
		for _, v := range trace[k] {
			totals[k] += v
		}
	}
	slices.Sort(totals)
	ltotal := totals[steps/2]
	x0 := make([]float64, 6)
	for i := range x0 {
		x0[i] = ltotal / 6 // equal split: the network must rebalance
	}
	tr, err := consensus.Simulate(&consensus.Throttler{Graph: g, Gamma: gamma}, trace, x0, steps, nil)
	if err != nil {
		return nil, err
	}
	ks := make([]float64, tr.Steps)
	tab := plots.NewTable("step", "r_total", "l_total", "a_total", "ideal", "over")
	var overSum float64
	for k := range ks {
		ks[k] = float64(k)
		tab.Add(k, tr.RTotal[k], tr.LTotal[k], tr.ATotal[k], tr.Ideal[k], tr.Over[k])
		overSum += tr.Over[k]
	}
	top := plots.New(fmt.Sprintf("random-walk demand σ = 1.5, γ = γ*_H2 = %.3g", gamma), "step k", "requests per step")
	plots.AddCurve(top, 0, "r_total (requests)", ks, tr.RTotal)
	plots.AddCurve(top, 1, "l_total (limit, conserved)", ks, tr.LTotal)
	plots.AddCurve(top, 2, "a_ideal = min{r_total, l_total}", ks, tr.Ideal)
	plots.AddCurve(top, 3, "a_total (accepted)", ks, tr.ATotal)
	bot := plots.New("over-throttling O(k) = a_ideal − a_total", "step k", "requests per step")
	plots.AddCurve(bot, 4, "O(k)", ks, tr.Over)
	var drift float64
	for _, l := range tr.LTotal {
		drift = max(drift, math.Abs(l-tr.LTotal[0]))
	}
	w, h := plots.PanelSize(2, 1)
	return &plots.Result{
		Plot: stacked{top, bot}, Width: w * 1.3, Height: h * 1.1, Data: tab,
		Headlines: []plots.Headline{
			{Name: "max |l_total(k) − l_total(0)|", Value: drift, Reference: "Lemma 1 (spec §3.3): 0 to rounding"},
			{Name: "mean over-throttling", Value: overSum / float64(tr.Steps), Reference: "requests per step"},
		},
	}, nil
}

func consensusRhoVsN(cfg plots.Config) (*plots.Result, error) {
	sides := []int{2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64}
	if cfg.Quick {
		sides = []int{2, 3, 4, 6, 8, 11, 16, 23, 32}
	}
	names := []string{"path", "cycle", "star", "complete", "grid"}
	xs := make([][]float64, len(names))
	ys := make([][]float64, len(names))
	tab := plots.NewTable("family", "n", "gamma_H2", "rho2")
	for _, side := range sides {
		for fi, f := range families(side) {
			if f.n < 3 && fi == 1 {
				continue // no simple cycle on 2 nodes... (side ≥ 2 gives n ≥ 4)
			}
			s, err := consensus.SpectralFrom(f.eig)
			if err != nil {
				return nil, err
			}
			g, r, _ := s.GammaH2(1)
			xs[fi] = append(xs[fi], float64(f.n))
			ys[fi] = append(ys[fi], r)
			tab.Add(names[fi], f.n, g, r)
		}
		cfg.Logf("consensus-rho-vs-n: n = %d", side*side)
	}
	p := plots.New("ρ₂ at the H2-optimal update cycle, σ = 1", "servers n", "ρ₂(γ*_H2) (requests² per step²)", plots.LogX(), plots.LogY())
	for fi := range names {
		plots.AddLine(p, fi, names[fi], xs[fi], ys[fi])
	}
	lo := make([]float64, len(xs[3]))
	for i, n := range xs[3] {
		lo[i] = n - 1
	}
	plots.AddCurve(p, 7, "bound σ²(n − 1)", xs[3], lo)
	last := len(xs[0]) - 1
	return &plots.Result{
		Plot: plots.LegendOutside(p), Width: plots.DefaultWidth * 1.3, Height: plots.DefaultHeight, Data: tab,
		Headlines: []plots.Headline{
			{Name: fmt.Sprintf("ρ₂(γ*) path n=%d", int(xs[0][last])), Value: ys[0][last], Reference: "grows like n²"},
			{Name: fmt.Sprintf("ρ₂(γ*) complete n=%d", int(xs[3][last])), Value: ys[3][last], Reference: fmt.Sprintf("n − 1 = %d (spec §5.1 fact 3)", int(xs[3][last])-1)},
		},
	}, nil
}

func consensusDesign(cfg plots.Config) (*plots.Result, error) {
	n, radius := 30, 0.33
	if cfg.Quick {
		n, radius = 20, 0.4
	}
	// Random geometric candidate graph; redraw (deterministically) until
	// the candidate links connect the servers.
	var pos [][2]float64
	var links []consensus.Link
	for attempt := uint64(0); ; attempt++ {
		rnd := mc.Source(cfg.Seed, 4, attempt)
		pos = make([][2]float64, n)
		for i := range pos {
			pos[i] = [2]float64{float64(rnd.Uint64()>>11) / (1 << 53), float64(rnd.Uint64()>>11) / (1 << 53)}
		}
		links = links[:0]
		sup, err := linalg.NewBuilder(n)
		if err != nil {
			return nil, err
		}
		for u := range n {
			for v := u + 1; v < n; v++ {
				if d := math.Hypot(pos[u][0]-pos[v][0], pos[u][1]-pos[v][1]); d < radius {
					links = append(links, consensus.Link{U: u, V: v, Cost: 0.1 + d})
					if err := sup.SetEdge(u, v, 1); err != nil {
						return nil, err
					}
				}
			}
		}
		if linalg.IsConnected(sup.Build()) {
			break
		}
	}
	gamma, budget := 0.1, 3.0
	prob := consensus.WeightProblem{Nodes: n, Links: links, Gamma: gamma, Budget: budget}
	des, err := consensus.DesignWeights(prob, nil)
	if err != nil {
		return nil, fmt.Errorf("consensus-design: %w", err)
	}
	var cs float64
	for _, l := range links {
		cs += l.Cost
	}
	uni := make([]float64, len(links))
	ug, err := linalg.NewBuilder(n)
	if err != nil {
		return nil, err
	}
	for i, l := range links {
		uni[i] = budget / cs
		if err := ug.SetEdge(l.U, l.V, uni[i]); err != nil {
			return nil, err
		}
	}
	ru, err := consensus.Rho(&consensus.Throttler{Graph: ug.Build(), Gamma: gamma}, consensus.Case2, 1)
	if err != nil {
		return nil, err
	}
	cfg.Logf("consensus-design: %d links, optimum %.6g (gap %.2g), uniform %.6g", len(links), des.Value, des.Gap, ru)
	wmax := slices.Max(des.Weights)
	left := drawNetwork(fmt.Sprintf("uniform weights: ρ₂ = %.4g", ru), pos, links, uni, wmax)
	right := drawNetwork(fmt.Sprintf("Problem A optimum: ρ₂ = %.4g (certified gap %.1e)", des.Value, des.Gap), pos, links, des.Weights, wmax)
	// Weight key, on the scale shared by both panels.
	for _, f := range []float64{1, 0.5, 0.1, 0} {
		label := fmt.Sprintf("w = %.3g", f*wmax)
		if f == 0 {
			label = "w = 0 (unused)"
		}
		right.Legend.Add(label, &plotter.Line{LineStyle: linkStyle(f)})
	}
	tab := plots.NewTable("u", "v", "cost", "w_uniform", "w_optimal")
	var used int
	for i, l := range links {
		tab.Add(l.U, l.V, l.Cost, uni[i], des.Weights[i])
		if des.Weights[i] > 1e-6*wmax {
			used++
		}
	}
	w, h := plots.PanelSize(1, 2)
	return &plots.Result{
		Plot: plots.NewPanels(1, 2, left, plots.LegendOutside(right)), Width: w, Height: h * 1.05, Data: tab,
		Headlines: []plots.Headline{
			{Name: "ρ₂ optimal / uniform", Value: des.Value / ru, Reference: fmt.Sprintf("certified absolute gap %.1e (relative %.1e)", des.Gap, des.Gap/des.Value)},
			{Name: "links used", Value: float64(used), Reference: fmt.Sprintf("of %d candidates", len(links))},
		},
	}, nil
}

// linkStyle is the style of a link with weight f·wmax: width and colour
// (light blue #9ecae1 to dark navy #08306b) grow with f; f ≈ 0 is a
// thin dotted grey line.
func linkStyle(f float64) draw.LineStyle {
	if f < 1e-6 {
		return draw.LineStyle{Color: color.Gray{Y: 200}, Width: vg.Points(0.5), Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}
	}
	mix := func(a, b uint8) uint8 { return uint8(float64(a) + f*(float64(b)-float64(a))) }
	return draw.LineStyle{Color: color.RGBA{R: mix(0x9e, 0x08), G: mix(0xca, 0x30), B: mix(0xe1, 0x6b), A: 255}, Width: vg.Points(0.5 + 5.5*f)}
}

// drawNetwork draws nodes at pos and each link with width and colour
// (light blue to dark navy) growing with its weight; zero weights are
// drawn as thin dotted grey lines.
func drawNetwork(title string, pos [][2]float64, links []consensus.Link, w []float64, wmax float64) *plot.Plot {
	p := plots.New(title, "", "")
	p.HideAxes()
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -0.05, 1.05, -0.05, 1.05
	for i, l := range links {
		f := w[i] / wmax
		line, err := plotter.NewLine(plotter.XYs{{X: pos[l.U][0], Y: pos[l.U][1]}, {X: pos[l.V][0], Y: pos[l.V][1]}})
		if err != nil {
			panic(err)
		}
		line.LineStyle = linkStyle(f)
		p.Add(line)
	}
	pts := make(plotter.XYs, len(pos))
	for i, q := range pos {
		pts[i] = plotter.XY{X: q[0], Y: q[1]}
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		panic(err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{R: 213, G: 94, A: 255}, Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	p.Add(s)
	return p
}

func consensusPerServer(cfg plots.Config) (*plots.Result, error) {
	requests := []float64{2, 3, 5, 8, 12, 15, 20, 25} // sorted ascending, as the paper's Fig. 7
	limit := 60.0
	a1, err := consensus.UniformRatio(nil, requests, limit)
	if err != nil {
		return nil, err
	}
	a2, level, err := consensus.WaterFill(nil, requests, limit)
	if err != nil {
		return nil, err
	}
	tab := plots.NewTable("client", "request", "alg1_allowed", "alg2_allowed")
	names := make([]string, len(requests))
	for j := range requests {
		names[j] = fmt.Sprint(j + 1)
		tab.Add(j+1, requests[j], a1[j], a2[j])
	}
	var total float64
	for _, r := range requests {
		total += r
	}
	mk := func(title string, allowed []float64) (*plot.Plot, error) {
		p := plots.New(title, fmt.Sprintf("client, sorted by request (server limit %g of %g)", limit, total), "requests per step")
		thr := make(plotter.Values, len(requests))
		ok := make(plotter.Values, len(requests))
		for j := range requests {
			ok[j] = allowed[j]
			thr[j] = requests[j] - allowed[j]
		}
		bw := vg.Points(22)
		b1, err := plotter.NewBarChart(ok, bw)
		if err != nil {
			return nil, err
		}
		b1.Color = plots.Color(0) // blue: allowed, as the paper's Fig. 7
		b1.LineStyle.Width = 0
		b2, err := plotter.NewBarChart(thr, bw)
		if err != nil {
			return nil, err
		}
		b2.Color = color.RGBA{R: 213, G: 94, A: 255}
		b2.LineStyle.Width = 0
		b2.StackOn(b1)
		p.Add(b1, b2)
		p.Legend.Add("allowed", b1)
		p.Legend.Add("throttled", b2)
		p.NominalX(names...)
		p.Y.Min = 0
		return p, nil
	}
	left, err := mk(fmt.Sprintf("Algorithm 1: uniform ratio (%.0f%% throttled each)", 100*(1-limit/total)), a1)
	if err != nil {
		return nil, err
	}
	right, err := mk(fmt.Sprintf("Algorithm 2: water-filling, level t = %.3g", level), a2)
	if err != nil {
		return nil, err
	}
	plots.AddHLine(right, 7, "water level t", level)
	cfg.Logf("consensus-per-server: limit %v, level %v", limit, level)
	w, h := plots.PanelSize(1, 2)
	return &plots.Result{
		Plot: plots.NewPanels(1, 2, plots.LegendOutside(left), plots.LegendOutside(right)), Width: w * 1.2, Height: h, Data: tab,
		Headlines: []plots.Headline{{Name: "water level t (requests 2..25, limit 60)", Value: level, Reference: "Σ min{r_j, t} = 60"}},
	}, nil
}

// ticks125 labels a log axis at 1, 2 and 5 times each power of ten,
// so short ranges still carry several labels.
type ticks125 struct{}

// Ticks implements plot.Ticker.
func (ticks125) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= lo && v <= hi {
				ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
			}
		}
	}
	return ts
}

// stacked draws plots one above the other with aligned data areas (the
// same left and right edges whatever their tick labels) and their
// legends in one column of common width on the right, each level with
// the top of its panel's data area.
type stacked []*plot.Plot

func (s stacked) Draw(c draw.Canvas) {
	pad := vg.Points(8)
	var lw vg.Length
	for _, p := range s {
		lw = max(lw, p.Legend.Rectangle(c).Size().X)
	}
	lw += pad
	pc := c
	pc.Max.X -= lw
	rows := make([][]*plot.Plot, len(s))
	for i, p := range s {
		rows[i] = []*plot.Plot{p}
	}
	cs := plot.Align(rows, draw.Tiles{Rows: len(s), Cols: 1, PadY: vg.Points(10)}, pc)
	for i, p := range s {
		leg := p.Legend
		p.Legend = plot.NewLegend() // axes and data only
		p.Draw(cs[i][0])
		p.Legend = leg
		lc := cs[i][0]
		lc.Min.X, lc.Max.X = c.Max.X-lw+pad/2, c.Max.X
		lc.Max.Y = p.DataCanvas(cs[i][0]).Max.Y
		leg.Top, leg.Left = true, true
		leg.XOffs, leg.YOffs = 0, 0
		leg.Draw(lc)
	}
}
