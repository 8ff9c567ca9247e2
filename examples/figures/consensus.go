package main

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	register(
		plots.Figure{
			Name:    "consensus-rho-vs-gamma",
			Caption: "H2 dispersion of a throttler network against the update cycle γ over the stable range (0, 2/λₙ) for five topologies on the same number of servers: ρ₂ (random-walk demand), ρ₁ (stationary demand) and ρ₂T (time-consistent random walk), each with γ*_H2 (circle) and γ_conv (cross) marked on every curve. γ*_H2 minimises ρ₂; ρ₁ and ρ₂T are strictly increasing in γ (spec §5.1), so on their panels the markers show the cost of those two cycles, not optima.",
			Make:    threeSteps(rhoGammaPreset, rhoGammaCompute, rhoGammaDraw),
			Seconds: 1,
		},
		plots.Figure{
			Name:    "consensus-totals",
			Caption: "The six-server throttler of consensus-throttler-graph under random-walk demand: total requests, the conserved total limit, accepted requests, the ideal curve min{r_total, l_total} and the over-throttling O(k) = ideal − accepted.",
			Make:    threeSteps(fixed(totalsParams{steps: 400, sigma: 1.5}), totalsCompute, totalsDraw),
			Seconds: 1,
		},
		plots.Figure{
			Name:    "consensus-rho-vs-n",
			Caption: "ρ₂ at the H2-optimal update cycle γ*_H2 against the number of servers for each topology (closed-form spectra), with the lower bound σ²(n−1) reached only by the complete graph.",
			Make:    threeSteps(rhoNPreset, rhoNCompute, rhoNDraw),
			Seconds: 1,
		},
		plots.Figure{
			Name:    "consensus-design",
			Caption: "Problem A: link weights on a random geometric candidate graph (gen.RandomGeometricPoints) under a budget Σ c_e w_e ≤ B (cost = 0.1 + link length): uniform allocation against the certified optimum (edge width and colour by weight).",
			Make:    threeSteps(designPreset, designCompute, designDraw),
			Seconds: 3,
		},
		plots.Figure{
			Name:    "consensus-per-server",
			Caption: "Per-server throttling of one server's clients (sorted by request): Algorithm 1 (uniform throttled ratio) and Algorithm 2 (water-filling, max–min fair, dashed water level); allowed and throttled requests stack to the request.",
			Make:    threeSteps(fixed(perServerParams{requests: []float64{2, 3, 5, 8, 12, 15, 20, 25}, limit: 60}), perServerCompute, perServerDraw),
			Seconds: 1,
		},
		plots.Figure{
			Name:    "consensus-throttler-graph",
			Caption: "A distributed system throttler with six servers, as in the paper's Fig. 1 (spec §1, §3): servers (numbered as in the CSV) with their clients, and the weighted communication links over which the servers exchange limits. The paper's drawing was not recovered; this topology (a ring with two chords, weights 1 and 0.5) is ours, the network of consensus-totals.",
			Make:    threeSteps(fixed(throttlerGraphParams{clients: []int{3, 2, 4, 2, 3, 2}}), throttlerGraphCompute, throttlerGraphDraw),
			Seconds: 1,
		},
	)
}

// ---- consensus-rho-vs-gamma ----

type rhoGammaParams struct{ side, points int }

func rhoGammaPreset(quick bool) rhoGammaParams {
	if quick {
		return rhoGammaParams{side: 4, points: 150}
	}
	return rhoGammaParams{side: 5, points: 400}
}

// rhoCurves are the curves of one family: ρ against γ for each traffic
// case, and the two marked cycles with their costs.
type rhoCurves struct {
	name           string
	bound          float64 // 2/λ_n
	gamma          [3][]float64
	rho            [3][]float64
	gStar, gConv   float64
	atStar, atConv [3]float64 // ρ of each case at γ*_H2 and γ_conv
	gridMin        float64    // min of ρ₂ over the sampled γ
}

// rhoCases are the traffic cases of the three panels, ρ₂ first.
var rhoCases = [3]consensus.Traffic{consensus.Case2, consensus.Case1, consensus.Case2T}

type rhoGammaData struct {
	fams []rhoCurves
	tab  *plots.Table
	p6   float64 // γ*_H2 of the path on six nodes (spec §6 table)
}

func rhoGammaCompute(cfg plots.Config, p rhoGammaParams) (*rhoGammaData, error) {
	d := &rhoGammaData{tab: plots.NewTable("family", "measure", "gamma", "rho")}
	for _, f := range families(p.side) {
		s, err := consensus.SpectralFrom(f.eig)
		if err != nil {
			return nil, err
		}
		c := rhoCurves{name: f.name, bound: s.StabilityBound(), gridMin: math.Inf(1)}
		c.gStar, _, _ = s.GammaH2(1)
		c.gConv, _ = s.GammaConv()
		for k, t := range rhoCases {
			if c.gamma[k], c.rho[k], err = s.Curve(t, 1, p.points); err != nil {
				return nil, err
			}
			for i := range c.gamma[k] {
				d.tab.Add(f.name, t.String(), c.gamma[k][i], c.rho[k][i])
			}
			if c.atStar[k], err = s.Rho(t, c.gStar, 1); err != nil {
				return nil, err
			}
			if c.atConv[k], err = s.Rho(t, c.gConv, 1); err != nil {
				return nil, err
			}
			d.tab.Add(f.name, t.String()+" at gamma*_H2 (circle)", c.gStar, c.atStar[k])
			d.tab.Add(f.name, t.String()+" at gamma_conv (cross)", c.gConv, c.atConv[k])
		}
		c.gridMin = slices.Min(c.rho[0])
		d.fams = append(d.fams, c)
	}
	s6, err := consensus.SpectralFrom(pathEig(6))
	if err != nil {
		return nil, err
	}
	d.p6, _, _ = s6.GammaH2(1)
	cfg.Logf("consensus-rho-vs-gamma: %d families, %d points", len(d.fams), p.points)
	return d, nil
}

func rhoGammaDraw(p rhoGammaParams, d *rhoGammaData) *plots.Result {
	n := p.side * p.side
	nn := float64(n - 1)
	const ylabel = "(requests² per step²)"
	panels := [3]*plot.Plot{
		plots.New(fmt.Sprintf("ρ₂, random-walk demand (n = %d, σ = 1)", n), "update cycle γ (time units)", "ρ₂ "+ylabel, plots.LogY(), plots.YTicks(plots.OneTwoFive)),
		plots.New("ρ₁, stationary demand (increasing in γ)", "update cycle γ (time units)", "ρ₁ "+ylabel, plots.LogY(), plots.YTicks(plots.OneTwoFive)),
		plots.New("ρ₂T, time-consistent random walk (increasing in γ)", "update cycle γ (time units)", "ρ₂T (requests² per time unit)", plots.LogY(), plots.YTicks(plots.OneTwoFive)),
	}
	norm := plots.New("ρ₂ against the normalised cycle γλ_{n}/2", "γ / (2/λ_{n})", "ρ₂ "+ylabel, plots.LogY(), plots.YTicks(plots.OneTwoFive))
	var heads []plots.Headline
	for fi, c := range d.fams {
		for k, pl := range panels {
			name := ""
			if k == 0 {
				name = c.name
			}
			plots.AddCurve(pl, fi, name, c.gamma[k], c.rho[k])
			addMarker(pl, fi, c.gStar, c.atStar[k], draw.RingGlyph{})
			addMarker(pl, fi, c.gConv, c.atConv[k], draw.CrossGlyph{})
		}
		x := make([]float64, len(c.gamma[0]))
		for i, g := range c.gamma[0] {
			x[i] = g / c.bound
		}
		plots.AddCurve(norm, fi, "", x, c.rho[0])
		addMarker(norm, fi, c.gStar/c.bound, c.atStar[0], draw.RingGlyph{})
		addMarker(norm, fi, c.gConv/c.bound, c.atConv[0], draw.CrossGlyph{})
		heads = append(heads, plots.Within(fmt.Sprintf("ρ₂(γ*_H2) / min over the %d-point γ grid, %s n=%d", p.points, c.name, n),
			c.atStar[0]/c.gridMin, 0.98, 1+1e-12, "≤ 1: γ*_H2 minimises ρ₂ (spec §5.1); ≥ 0.98: the grid resolves the minimum"))
	}
	heads = append(heads, plots.Near("γ*_H2 of the path P_6", d.p6, 0.429515, 1e-6, "spec §6 table: 0.429515"))
	ring := addMarker(panels[0], -1, math.NaN(), math.NaN(), draw.RingGlyph{})
	cross := addMarker(panels[0], -1, math.NaN(), math.NaN(), draw.CrossGlyph{})
	panels[0].Legend.Add("γ*_{H2} (min ρ₂)", ring)
	panels[0].Legend.Add("γ_{conv} (fastest)", cross)
	// Fix the ranges after the data (adding data widens them): the
	// minima matter, not the blow-up at the ends.
	for _, pl := range []*plot.Plot{panels[0], norm} {
		pl.Y.Min, pl.Y.Max = 0.8*nn, 60*nn
	}
	norm.X.Min, norm.X.Max = 0, 1
	panels[1].Y.Min, panels[1].Y.Max = 0.9*nn, 20*nn // ρ₁ → σ²(n−1) as γ → 0
	axes, legend := plots.SplitLegend(panels[0])
	grid := plots.NewPanels(2, 3, axes, norm, legend, panels[1], panels[2], nil)
	grid.ColWeights = []float64{1, 1, 0.42}
	return &plots.Result{Plot: grid, Width: 24 * cm, Height: 16 * cm, Data: d.tab, Headlines: heads}
}

// ---- consensus-totals ----

type totalsParams struct {
	steps int
	sigma float64
}

type totalsData struct {
	gamma float64
	tr    *consensus.Trajectory
	tab   *plots.Table
}

// sixServers is the six-server network of consensus-totals and
// consensus-throttler-graph (the paper's Fig. 1 size): a ring with two
// chords.
func sixServers() (*wgraph.Graph, *consensus.Spectral, error) {
	ring, err := gen.Cycle(6)
	if err != nil {
		return nil, nil, err
	}
	gb := ring.Builder()
	if err := gb.SetEdge(0, 3, 1); err != nil {
		return nil, nil, err
	}
	if err := gb.SetEdge(1, 4, 0.5); err != nil {
		return nil, nil, err
	}
	g := gb.Build()
	s, err := consensus.NewSpectral(g)
	return g, s, err
}

func totalsCompute(cfg plots.Config, p totalsParams) (*totalsData, error) {
	g, s, err := sixServers()
	if err != nil {
		return nil, err
	}
	gamma, _, _ := s.GammaH2(1)
	// Draw the demand first and set the total limit to the median of
	// r_total, so the run spends time on both sides of the cap (where
	// over-throttling can occur) whatever the random path.
	dem := &consensus.RandomWalkDemand{Start: []float64{20, 30, 40, 50, 60, 70}, Sigma: p.sigma, Src: mc.Source(cfg.Seed, 3, 0)}
	trace := make(consensus.TraceDemand, p.steps)
	totals := make([]float64, p.steps)
	for k := range trace {
		trace[k] = make([]float64, 6)
		if err := dem.Next(k, trace[k]); err != nil {
			return nil, err
		}
		for _, v := range trace[k] {
			totals[k] += v
		}
	}
	slices.Sort(totals)
	x0 := make([]float64, 6)
	for i := range x0 {
		x0[i] = totals[p.steps/2] / 6 // equal split: the network must rebalance
	}
	tr, err := consensus.Simulate(&consensus.Throttler{Graph: g, Gamma: gamma}, trace, x0, p.steps, nil)
	if err != nil {
		return nil, err
	}
	tab := plots.NewTable("step", "r_total", "l_total", "a_total", "ideal", "over")
	for k := 0; k < tr.Steps; k++ {
		tab.Add(k, tr.RTotal[k], tr.LTotal[k], tr.ATotal[k], tr.Ideal[k], tr.Over[k])
	}
	return &totalsData{gamma: gamma, tr: tr, tab: tab}, nil
}

func totalsDraw(p totalsParams, d *totalsData) *plots.Result {
	tr := d.tr
	ks := make([]float64, tr.Steps)
	for k := range ks {
		ks[k] = float64(k)
	}
	top := plots.New(fmt.Sprintf("random-walk demand σ = %g, γ = γ*_{H2} = %.3g", p.sigma, d.gamma), "step k", "requests per step")
	plots.AddCurve(top, 0, "r_{total} (requests)", ks, tr.RTotal)
	plots.AddCurve(top, 1, "l_{total} (limit, conserved)", ks, tr.LTotal)
	plots.AddCurve(top, 2, "a_{ideal} = min{r_{total}, l_{total}}", ks, tr.Ideal)
	plots.AddCurve(top, 3, "a_{total} (accepted)", ks, tr.ATotal)
	bot := plots.New("over-throttling O(k) = a_{ideal} − a_{total}", "step k", "requests per step")
	plots.AddCurve(bot, 4, "O(k)", ks, tr.Over)
	var drift float64
	for _, l := range tr.LTotal {
		drift = max(drift, math.Abs(l-tr.LTotal[0]))
	}
	return &plots.Result{
		Plot: plots.NewStack(top, bot), Width: 18 * cm, Height: 16 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			// 400 steps of sums of six values near 50: rounding ≈ 400·6·ε·300.
			plots.Within("max |l_total(k) − l_total(0)|", drift, 0, 1e-9*tr.LTotal[0], "Lemma 1 (spec §3.3): conserved, to rounding (1e-9 relative)"),
			plots.Within("min over k of O(k)", slices.Min(tr.Over), -1e-9*tr.LTotal[0], math.Inf(1), "≥ 0: Σ min{x_i, r_i} ≤ min{Σ x_i, Σ r_i} (spec §3)"),
		},
	}
}

// ---- consensus-rho-vs-n ----

type rhoNParams struct{ sides []int }

func rhoNPreset(quick bool) rhoNParams {
	if quick {
		return rhoNParams{sides: []int{2, 3, 4, 6, 8, 11, 16, 23, 32}}
	}
	return rhoNParams{sides: []int{2, 3, 4, 6, 8, 11, 16, 23, 32, 45, 64}}
}

type rhoNData struct {
	names  []string
	xs, ys [][]float64 // per family
	tab    *plots.Table
}

func rhoNCompute(cfg plots.Config, p rhoNParams) (*rhoNData, error) {
	d := &rhoNData{names: []string{"path", "cycle", "star", "complete", "grid"}, tab: plots.NewTable("family", "n", "gamma_H2", "rho2")}
	d.xs, d.ys = make([][]float64, len(d.names)), make([][]float64, len(d.names))
	for _, side := range p.sides {
		for fi, f := range families(side) {
			s, err := consensus.SpectralFrom(f.eig)
			if err != nil {
				return nil, err
			}
			g, r, _ := s.GammaH2(1)
			d.xs[fi], d.ys[fi] = append(d.xs[fi], float64(f.n)), append(d.ys[fi], r)
			d.tab.Add(d.names[fi], f.n, g, r)
		}
		cfg.Logf("consensus-rho-vs-n: n = %d", side*side)
	}
	return d, nil
}

func rhoNDraw(_ rhoNParams, d *rhoNData) *plots.Result {
	p := plots.New("ρ₂ at the H2-optimal update cycle, σ = 1", "servers n", "ρ₂(γ*_{H2}) (requests² per step²)", plots.LogX(), plots.LogY())
	for fi := range d.names {
		plots.AddLine(p, fi, d.names[fi], d.xs[fi], d.ys[fi])
	}
	lo := make([]float64, len(d.xs[3]))
	for i, n := range d.xs[3] {
		lo[i] = n - 1
	}
	plots.AddCurve(p, 7, "bound σ²(n − 1)", d.xs[3], lo)
	for i := range lo {
		d.tab.Add("bound sigma^2(n-1)", int(d.xs[3][i]), math.NaN(), lo[i])
	}
	last := len(d.xs[0]) - 1
	n1, n0 := d.xs[0][last], d.xs[0][last-1]
	growth := d.ys[0][last] / d.ys[0][last-1] / ((n1 / n0) * (n1 / n0))
	nc := d.xs[3][last]
	return &plots.Result{
		Plot: plots.LegendOutside(p), Width: 18 * cm, Height: plots.DefaultHeight, Data: d.tab,
		Headlines: []plots.Headline{
			plots.Within(fmt.Sprintf("path: ρ₂(γ*) growth n=%d→%d over (n ratio)²", int(n0), int(n1)), growth, 0.9, 1.1, "ρ₂(γ*) of the path grows like n² (K_f ∝ n³, γ* ∝ 1/n)"),
			plots.Near(fmt.Sprintf("ρ₂(γ*) complete n=%d", int(nc)), d.ys[3][last], nc-1, 1e-9*nc, "n − 1 (spec §5.1 fact 3)"),
		},
	}
}

// ---- consensus-design ----

type designParams struct {
	n             int
	radius        float64
	gamma, budget float64
}

func designPreset(quick bool) designParams {
	if quick {
		return designParams{n: 20, radius: 0.4, gamma: 0.1, budget: 3}
	}
	return designParams{n: 30, radius: 0.33, gamma: 0.1, budget: 3}
}

type designData struct {
	pos     [][2]float64
	links   []consensus.Link
	uniform []float64
	rhoUni  float64
	des     *consensus.WeightDesign
	tab     *plots.Table
}

// designCandidates draws the random geometric candidate graph, redrawing
// (deterministically) until it is connected.
func designCandidates(cfg plots.Config, p designParams) ([][2]float64, []consensus.Link, error) {
	for attempt := uint64(0); ; attempt++ {
		g, pts, err := gen.RandomGeometricPoints(p.n, p.radius, false, mc.Source(cfg.Seed, 4, attempt))
		if err != nil {
			return nil, nil, err
		}
		if !wgraph.IsConnected(g) {
			continue
		}
		pos := make([][2]float64, p.n)
		for i, q := range pts {
			pos[i] = [2]float64{q.X, q.Y}
		}
		var links []consensus.Link
		for _, e := range g.Edges() {
			d := math.Hypot(pos[e.U][0]-pos[e.V][0], pos[e.U][1]-pos[e.V][1])
			links = append(links, consensus.Link{U: e.U, V: e.V, Cost: 0.1 + d})
		}
		return pos, links, nil
	}
}

func designCompute(cfg plots.Config, p designParams) (*designData, error) {
	pos, links, err := designCandidates(cfg, p)
	if err != nil {
		return nil, err
	}
	des, err := consensus.DesignWeights(consensus.WeightProblem{Nodes: p.n, Links: links, Gamma: p.gamma, Budget: p.budget}, nil)
	if err != nil {
		return nil, fmt.Errorf("consensus-design: %w", err)
	}
	var cs float64
	for _, l := range links {
		cs += l.Cost
	}
	d := &designData{pos: pos, links: links, des: des, uniform: make([]float64, len(links)),
		tab: plots.NewTable("u", "v", "cost", "w_uniform", "w_optimal", "x_u", "y_u", "x_v", "y_v")}
	ug, err := wgraph.NewBuilder(p.n)
	if err != nil {
		return nil, err
	}
	for i, l := range links {
		d.uniform[i] = p.budget / cs
		if err := ug.SetEdge(l.U, l.V, d.uniform[i]); err != nil {
			return nil, err
		}
		d.tab.Add(l.U, l.V, l.Cost, d.uniform[i], des.Weights[i], pos[l.U][0], pos[l.U][1], pos[l.V][0], pos[l.V][1])
	}
	if d.rhoUni, err = consensus.Rho(&consensus.Throttler{Graph: ug.Build(), Gamma: p.gamma}, consensus.Case2, 1); err != nil {
		return nil, err
	}
	cfg.Logf("consensus-design: %d links, optimum %.6g (gap %.2g), uniform %.6g", len(links), des.Value, des.Gap, d.rhoUni)
	return d, nil
}

func designDraw(_ designParams, d *designData) *plots.Result {
	wmax := slices.Max(d.des.Weights)
	left := drawNetwork(fmt.Sprintf("uniform weights: ρ₂ = %.4g", d.rhoUni), d.pos, d.links, d.uniform, wmax)
	right := drawNetwork(fmt.Sprintf("Problem A optimum: ρ₂ = %.4g", d.des.Value), d.pos, d.links, d.des.Weights, wmax)
	// Weight key, on the scale shared by both panels.
	for _, f := range []float64{1, 0.5, 0.1, 0} {
		label := fmt.Sprintf("w = %.3g", f*wmax)
		if f == 0 {
			label = "w = 0 (unused)"
		}
		right.Legend.Add(label, &plotter.Line{LineStyle: linkStyle(f)})
	}
	rel := d.des.Gap / d.des.Value
	return &plots.Result{
		Plot: legendRight(left, right), Width: 26 * cm, Height: 11 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			plots.Within("ρ₂ optimal / uniform", d.des.Value/d.rhoUni, 0, 1, "≤ 1: uniform weights are feasible for Problem A"),
			plots.Within("certified relative gap of the optimum", rel, 0, 1e-4, "DesignWeights' duality certificate, default tolerance"),
		},
	}
}

// ---- consensus-per-server ----

type perServerParams struct {
	requests []float64 // sorted ascending, as the paper's Fig. 7
	limit    float64
}

type perServerData struct {
	alg1, alg2 []float64
	level      float64
	total      float64
	tab        *plots.Table
}

func perServerCompute(cfg plots.Config, p perServerParams) (*perServerData, error) {
	a1, err := consensus.UniformRatio(nil, p.requests, p.limit)
	if err != nil {
		return nil, err
	}
	a2, level, err := consensus.WaterFill(nil, p.requests, p.limit)
	if err != nil {
		return nil, err
	}
	d := &perServerData{alg1: a1, alg2: a2, level: level, tab: plots.NewTable("client", "request", "alg1_allowed", "alg2_allowed", "water_level")}
	for j, r := range p.requests {
		d.tab.Add(j+1, r, a1[j], a2[j], level)
		d.total += r
	}
	cfg.Logf("consensus-per-server: limit %v, level %v", p.limit, level)
	return d, nil
}

// perServerBars draws allowed and throttled requests of each client as
// stacked bars, named in the legend if legend is set.
func perServerBars(title, xlabel string, requests, allowed []float64, legend bool) *plot.Plot {
	p := plots.New(title, xlabel, "requests per step")
	thr := make(plotter.Values, len(requests))
	ok := make(plotter.Values, len(requests))
	names := make([]string, len(requests))
	for j := range requests {
		ok[j], thr[j] = allowed[j], requests[j]-allowed[j]
		names[j] = fmt.Sprint(j + 1) // client numbers as in the CSV
	}
	bw := vg.Points(16)
	b1, err := plotter.NewBarChart(ok, bw)
	if err != nil {
		panic(err) // finite values
	}
	b1.Color = plots.Color(0) // blue: allowed, as the paper's Fig. 7
	b1.LineStyle.Width = 0
	b2, err := plotter.NewBarChart(thr, bw)
	if err != nil {
		panic(err)
	}
	b2.Color = color.RGBA{R: 213, G: 94, A: 255}
	b2.LineStyle.Width = 0
	b2.StackOn(b1)
	p.Add(b1, b2)
	if legend {
		p.Legend.Add("allowed", b1)
		p.Legend.Add("throttled", b2)
	}
	plots.NominalX(p, names...)
	p.Y.Min = 0
	return p
}

func perServerDraw(p perServerParams, d *perServerData) *plots.Result {
	xlabel := fmt.Sprintf("client, sorted by request (server limit %g of %g)", p.limit, d.total)
	left := perServerBars(fmt.Sprintf("Algorithm 1: uniform ratio (%.0f%% throttled each)", 100*(1-p.limit/d.total)), xlabel, p.requests, d.alg1, true)
	right := perServerBars(fmt.Sprintf("Algorithm 2: water-filling, level t = %.3g", d.level), xlabel, p.requests, d.alg2, false)
	plots.AddHLine(right, 7, "water level t", d.level)
	var served float64
	for _, r := range p.requests {
		served += math.Min(r, d.level)
	}
	return &plots.Result{
		Plot: plots.NewStack(left, right), Width: 16 * cm, Height: 16 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			plots.Near("Σ_j min{r_j, t} at the water level t", served, p.limit, 1e-9*p.limit, "the server limit (spec §7, Algorithm 2)"),
		},
	}
}

// ---- consensus-throttler-graph ----

type throttlerGraphParams struct {
	clients []int // clients per server
}

type throttlerGraphData struct {
	edges     []wgraph.Edge
	pos       [][2]float64 // servers
	clientPos [][][2]float64
	lambda2   float64
	tab       *plots.Table
}

func throttlerGraphCompute(_ plots.Config, p throttlerGraphParams) (*throttlerGraphData, error) {
	g, s, err := sixServers()
	if err != nil {
		return nil, err
	}
	d := &throttlerGraphData{edges: g.Edges(), lambda2: s.Lambda2(), tab: plots.NewTable("kind", "server", "client", "peer", "weight", "x", "y")}
	for i, c := range p.clients {
		a := math.Pi/2 - 2*math.Pi*float64(i)/float64(len(p.clients))
		d.pos = append(d.pos, [2]float64{math.Cos(a), math.Sin(a)})
		d.tab.Add("server", i+1, 0, 0, math.NaN(), d.pos[i][0], d.pos[i][1])
		var cp [][2]float64
		for j := range c {
			b := a + 0.32*(float64(j)-float64(c-1)/2)
			cp = append(cp, [2]float64{1.55 * math.Cos(b), 1.55 * math.Sin(b)})
			d.tab.Add("client", i+1, j+1, 0, math.NaN(), cp[j][0], cp[j][1])
		}
		d.clientPos = append(d.clientPos, cp)
	}
	for _, e := range d.edges {
		d.tab.Add("link", e.U+1, 0, e.V+1, e.W, math.NaN(), math.NaN())
	}
	return d, nil
}

func throttlerGraphDraw(p throttlerGraphParams, d *throttlerGraphData) *plots.Result {
	pl := plots.New("A distributed system throttler with six servers", "", "")
	pl.HideAxes()
	pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = -1.8, 1.8, -1.8, 1.8
	for k, e := range d.edges {
		l := segment(d.pos[e.U], d.pos[e.V], draw.LineStyle{Color: plots.Color(0), Width: vg.Points(1 + 2.5*e.W)})
		pl.Add(l)
		if k == 0 {
			pl.Legend.Add("link, weight w_{ij} = 1", l)
		}
		if e.W != 1 {
			pl.Legend.Add(fmt.Sprintf("link, weight w_{ij} = %g", e.W), l)
		}
	}
	for i, cp := range d.clientPos {
		for j, c := range cp {
			l := segment(d.pos[i], c, draw.LineStyle{Color: color.Gray{Y: 150}, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(2), vg.Points(2)}})
			pl.Add(l)
			s := scatter([][2]float64{c}, draw.GlyphStyle{Color: plots.Color(1), Radius: vg.Points(3.5), Shape: draw.BoxGlyph{}})
			pl.Add(s)
			if i == 0 && j == 0 {
				pl.Legend.Add("client (sends requests r_{i}^{(j)})", s)
			}
		}
	}
	srv := scatter(d.pos, draw.GlyphStyle{Color: color.White, Radius: vg.Points(11), Shape: draw.CircleGlyph{}})
	ring := scatter(d.pos, draw.GlyphStyle{Color: plots.Color(0), Radius: vg.Points(11), Shape: draw.RingGlyph{}})
	pl.Add(srv, ring)
	key := scatter(d.pos[:1], draw.GlyphStyle{Color: plots.Color(0), Radius: vg.Points(5), Shape: draw.RingGlyph{}})
	pl.Legend.Add("server i (limit x_{i})", key)
	names := make([]string, len(d.pos))
	xys := make(plotter.XYs, len(d.pos))
	for i, q := range d.pos {
		names[i], xys[i] = fmt.Sprint(i+1), plotter.XY{X: q[0], Y: q[1]}
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: names})
	if err != nil {
		panic(err) // finite points
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Font.Size = plots.LabelSize
		labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	pl.Add(labels)
	clients := 0
	for _, c := range p.clients {
		clients += c
	}
	return &plots.Result{
		Plot: plots.LegendOutside(pl), Width: 18 * cm, Height: 12 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			plots.Within("λ₂ of the six-server network", d.lambda2, 1, 6, "connected (λ₂ > 0); between the cycle C_6 (1) and K_6 (6), as a supergraph of C_6 (spec §2)"),
		},
	}
}

// segment returns a line between two points.
func segment(a, b [2]float64, sty draw.LineStyle) *plotter.Line {
	l, err := plotter.NewLine(plotter.XYs{{X: a[0], Y: a[1]}, {X: b[0], Y: b[1]}})
	if err != nil {
		panic(err) // finite points
	}
	l.LineStyle = sty
	return l
}

// scatter returns markers at the points.
func scatter(pts [][2]float64, sty draw.GlyphStyle) *plotter.Scatter {
	xys := make(plotter.XYs, len(pts))
	for i, q := range pts {
		xys[i] = plotter.XY{X: q[0], Y: q[1]}
	}
	s, err := plotter.NewScatter(xys)
	if err != nil {
		panic(err) // finite points
	}
	s.GlyphStyle = sty
	return s
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
