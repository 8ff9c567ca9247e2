package main

import (
	"fmt"
	"math"
	"strconv"
	"sync"

	"gonum.org/v1/plot"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/plots"
)

func init() {
	register(
		plots.Figure{
			Name:    "codedload-maxload-vs-n",
			Caption: "Maximum load against the number of servers n on the torus (K = 100 files, cache M = 2, uniform popularity): nearest replica grows like log n, two choices (b) like log log n (3 to 4), two choices (a) with the fixed radius r = 16 drifts up (its ball holds about 11 replicas, short of the log² n the analysis asks for), coded delivery with ℓ = ⌈ln n⌉ chunks stays flat (spec §1, §6.2, §7.3); means with 95% confidence bands.",
			Make:    codedloadMaxLoadVsN,
		},
		plots.Figure{
			Name:    "codedload-cost-vs-n",
			Caption: "Communication cost (hops per request) against n for the runs of codedload-maxload-vs-n: coded delivery is about 25% cheaper than nearest replica (spec §6.2), two choices (b) pays the network diameter.",
			Make:    codedloadCostVsN,
		},
		plots.Figure{
			Name:    "codedload-tradeoff",
			Caption: "Load–cost trade-off on the torus: maximum load against cost as the radius r of two choices (a), the stretch α of two choices (c) or the chunk count ℓ of coded delivery varies (K = 100, M = 2).",
			Make:    codedloadTradeoff,
		},
		plots.Figure{
			Name:    "codedload-params",
			Caption: "Maximum load and cost against the Zipf exponent γ, the cache size M and the chunk count ℓ on the torus (K = 100), with the exact cost of spec §6.3; the per-server cap chnk_max = 1 keeps coded load flat for γ > 1 (spec §8 J).",
			Make:    codedloadParams,
		},
		plots.Figure{
			Name:    "codedload-topologies",
			Caption: "The main figure (codedload-maxload-vs-n) on four topologies: maximum load against n on the torus, a random geometric graph (r_n = √(1.25 ln n/n)), a random 6-regular graph and the hypercube (K = 100, M = 2, γ = 0, one graph per n; means with 95% confidence bands, 3 runs at n ≥ 262144): nearest replica, two choices (a) with a ball of at least 545 nodes (r = 16 on the torus), two choices (b) (on the random graphs the far holder's distance comes from a bidirectional BFS), and coded with ℓ = ⌈ln n⌉ and with ℓ = 10. The torus and the hypercube have closed-form distances and reach n = 2²⁰ ≈ 10⁶; on the random graphs every search is a BFS and the panels stop at n = 2¹⁸ = 262144. The two-choice curves stop earlier where one run would take tens of seconds: (a), whose ball search visits ≥ 545 nodes per request, at 2¹⁸ on the hypercube, 2¹⁶ on the 6-regular graph and 2¹⁴ on the random geometric graph; (b) at 2¹⁴ on the random geometric graph, where the far holder lies about √(n/ln n) hops away and a run costs about n² work.",
			Make:    codedloadTopologies,
		},
	)
}

// clSizesCache shares the size sweep between the max-load and cost figures.
var clSizesCache struct {
	sync.Mutex
	key    [2]uint64
	curves []codedload.Curve
}

// clBase is the §7.3 setting: K = 100 files, M = 2, uniform popularity.
func clBase(s codedload.Strategy) codedload.Config {
	return codedload.Config{Files: 100, Cache: 2, Strategy: s}
}

// clMainVariants are the strategies of the main figure; radius gives the
// ball of two choices (a) on each topology.
func clMainVariants(radius func(codedload.Topology) int, fixedEll bool) []codedload.Variant {
	vs := []codedload.Variant{
		{Name: "nearest replica", Config: clBase(codedload.NearestReplica{})},
		{Name: "two choices (a)", Config: clBase(codedload.TwoChoice{}), Radius: radius},
		{Name: "two choices (b)", Config: clBase(codedload.TwoChoiceGlobal{})},
		{Name: "coded, ℓ = ceil(ln n)", Config: clBase(codedload.Coded{}), Ell: codedload.LogEll},
	}
	if fixedEll {
		vs = append(vs, codedload.Variant{Name: "coded, ℓ = 10", Config: clBase(codedload.Coded{}), Ell: func(int) int { return 10 }})
	}
	return vs
}

func clSizes(cfg plots.Config) ([]codedload.Curve, error) {
	clSizesCache.Lock()
	defer clSizesCache.Unlock()
	key := [2]uint64{cfg.Seed, 0}
	if cfg.Quick {
		key[1] = 1
	}
	if clSizesCache.curves != nil && clSizesCache.key == key {
		return clSizesCache.curves, nil
	}
	ns := []int{100, 400, 1600, 6400}
	runs := func(int) int { return 6 }
	if !cfg.Quick {
		ns = []int{100, 400, 1600, 6400, 25600, 102400, 409600, 1000000}
		runs = func(n int) int {
			switch {
			case n >= 1000000:
				return 3
			case n >= 409600:
				return 3
			case n >= 25600:
				return 10
			}
			return 20
		}
	}
	cfg.Logf("codedload: size sweep on the torus, n up to %d", ns[len(ns)-1])
	r16 := func(codedload.Topology) int { return 16 }
	curves, err := codedload.CompareSizes(ns, codedload.TorusFamily, clMainVariants(r16, true), runs, cfg.Seed,
		&codedload.SweepSettings{Logf: cfg.Logf})
	if err != nil {
		return nil, err
	}
	curves[1].Name = "two choices (a), r = 16"
	clSizesCache.key, clSizesCache.curves = key, curves
	return curves, nil
}

// clTable records every point of a set of curves.
func clTable(tab *plots.Table, panel string, curves []codedload.Curve) {
	for _, c := range curves {
		for _, p := range c.Points {
			tab.Add(panel, c.Name, p.X, len(p.Runs), p.MaxLoad.Mean, p.MaxLoad.Lo, p.MaxLoad.Hi,
				p.Cost.Mean, p.Cost.Lo, p.Cost.Hi, p.Outage.Mean)
		}
	}
}

func clNewTable() *plots.Table {
	return plots.NewTable("panel", "strategy", "x", "runs", "maxload", "maxload_lo95", "maxload_hi95",
		"cost", "cost_lo95", "cost_hi95", "outage")
}

// clBands draws one band per curve of the metric chosen by get.
func clBands(p *plot.Plot, curves []codedload.Curve, get func(codedload.PointResult) loadlab.Estimate, legend bool) {
	for i, c := range curves {
		xs, lo, mean, hi := clSeries(c.Points, get)
		name := c.Name
		if !legend {
			name = ""
		}
		plots.AddBand(p, i, name, xs, lo, mean, hi)
	}
}

func clSeries(pts []codedload.PointResult, get func(codedload.PointResult) loadlab.Estimate) (xs, lo, mean, hi []float64) {
	for _, p := range pts {
		s := get(p)
		xs = append(xs, p.X)
		mean = append(mean, s.Mean)
		// A point with a single run has no interval: draw it flat.
		l, h := s.Lo, s.Hi
		if math.IsNaN(l) {
			l, h = s.Mean, s.Mean
		}
		lo, hi = append(lo, l), append(hi, h)
	}
	return xs, lo, mean, hi
}

func clMax(p codedload.PointResult) loadlab.Estimate  { return p.MaxLoad }
func clCost(p codedload.PointResult) loadlab.Estimate { return p.Cost }

// clPoissonRef draws E[max of n Po(1)], the load when every request is
// served where it arrives (spec §8 C).
func clPoissonRef(p *plot.Plot, ns []float64, legend bool) {
	ys := make([]float64, len(ns))
	for i, n := range ns {
		ys[i], _ = codedload.MaxPoissonMean(int(n)) // n ≥ 1: sizes of a sweep
	}
	name := "E max of n Po(1) (all local)"
	if !legend {
		name = ""
	}
	plots.AddCurve(p, 7, name, ns, ys)
}

func clLast(c codedload.Curve) codedload.PointResult { return c.Points[len(c.Points)-1] }

func codedloadMaxLoadVsN(cfg plots.Config) (*plots.Result, error) {
	curves, err := clSizes(cfg)
	if err != nil {
		return nil, err
	}
	tab := clNewTable()
	clTable(tab, "torus", curves)
	p := plots.New("Maximum load on the torus (K = 100, M = 2, γ = 0)", "servers n (log scale)", "maximum load (files)", plots.LogX())
	p.X.Tick.Marker = clLogTicks{}
	clBands(p, curves, clMax, true)
	xs, _, _, _ := clSeries(curves[0].Points, clMax)
	clPoissonRef(p, xs, true)
	nr, coded := clLast(curves[0]), clLast(curves[3])
	poissonRef, err := codedload.MaxPoissonMean(int(nr.X))
	if err != nil {
		return nil, err
	}
	return &plots.Result{
		Plot: plots.LegendOutside(p), Width: plots.DefaultWidth * 1.45, Height: plots.DefaultHeight,
		Data: tab,
		Headlines: []plots.Headline{
			{Name: fmt.Sprintf("NR max load, n = %d", int(nr.X)), Value: nr.MaxLoad.Mean, Reference: fmt.Sprintf("Θ(log n); E max Po(1) = %.4g (spec §8 C); 7.85 at n = 10⁴ (§7.3)", poissonRef)},
			{Name: fmt.Sprintf("coded ℓ=ceil(ln n) max load, n = %d", int(coded.X)), Value: coded.MaxLoad.Mean, Reference: "O(1): in [2.2, 3.0] for n ≤ 22500 (spec §8 H)"},
		},
	}, nil
}

func codedloadCostVsN(cfg plots.Config) (*plots.Result, error) {
	curves, err := clSizes(cfg)
	if err != nil {
		return nil, err
	}
	tab := clNewTable()
	clTable(tab, "torus", curves)
	p := plots.New("Communication cost on the torus (K = 100, M = 2, γ = 0)", "servers n (log scale)", "cost (hops per request, log scale)", plots.LogX(), plots.LogY())
	clBands(p, curves, clCost, true)
	p.X.Tick.Marker, p.Y.Tick.Marker = clLogTicks{}, clLogTicks{}
	// The exact infinite-grid costs of spec §6.3 for ℓ = 1 and ℓ = 10.
	pz, _ := codedload.ZipfPMF(100, 0)
	c1, err := codedload.Cost(pz, 2, 1, nil)
	if err != nil {
		return nil, err
	}
	c10, err := codedload.Cost(pz, 2, 10, nil)
	if err != nil {
		return nil, err
	}
	plots.AddHLine(p, 0, fmt.Sprintf("exact §6.3, ℓ = 1: %.4g", c1), c1)
	plots.AddHLine(p, 4, fmt.Sprintf("exact §6.3, ℓ = 10: %.4g", c10), c10)
	nr, c10mc := clLast(curves[0]), clLast(curves[4])
	return &plots.Result{
		Plot: plots.LegendOutside(p), Width: plots.DefaultWidth * 1.45, Height: plots.DefaultHeight,
		Data: tab,
		Headlines: []plots.Headline{
			{Name: fmt.Sprintf("NR cost, n = %d", int(nr.X)), Value: nr.Cost.Mean, Reference: fmt.Sprintf("exact %.4f (spec §6.3, §8 E)", c1)},
			{Name: fmt.Sprintf("coded ℓ=10 / NR cost, n = %d", int(nr.X)), Value: c10mc.Cost.Mean / nr.Cost.Mean, Reference: fmt.Sprintf("[0.74, 0.85] (spec §8 H); exact infinite-grid ratio %.4f (§6.3)", c10/c1)},
		},
	}, nil
}

func codedloadTradeoff(cfg plots.Config) (*plots.Result, error) {
	n, runs := 10000, 10
	rs := []int{1, 2, 3, 4, 6, 8, 11, 16, 23, 32}
	ells := []int{1, 2, 3, 4, 6, 8, 10, 14, 20, 30}
	alphas := []float64{0, 0.5, 1, 2, 4, 8, 16}
	if cfg.Quick {
		n, runs = 1024, 4
		rs = []int{1, 2, 4, 8, 16}
		ells = []int{1, 2, 4, 7, 14}
		alphas = []float64{0, 1, 4, 16}
	}
	tor, err := codedload.NewTorus(n)
	if err != nil {
		return nil, err
	}
	type group struct {
		name  string
		param string
		pts   []codedload.Point
	}
	var groups []group
	g := group{name: "two choices (a), r = " + fmt.Sprint(rs[0]) + "…" + fmt.Sprint(rs[len(rs)-1]), param: "r"}
	for _, r := range rs {
		c := clBase(codedload.TwoChoice{Radius: r})
		c.Topology = tor
		g.pts = append(g.pts, codedload.Point{X: float64(r), Config: c})
	}
	groups = append(groups, g)
	g = group{name: fmt.Sprintf("two choices (c), α = %g…%g", alphas[0], alphas[len(alphas)-1]), param: "alpha"}
	for _, a := range alphas {
		c := clBase(codedload.TwoChoiceStretch{Alpha: a})
		c.Topology = tor
		g.pts = append(g.pts, codedload.Point{X: a, Config: c})
	}
	groups = append(groups, g)
	g = group{name: fmt.Sprintf("coded, ℓ = %d…%d", ells[0], ells[len(ells)-1]), param: "ell"}
	for _, l := range ells {
		c := clBase(codedload.Coded{Ell: l})
		c.Topology = tor
		g.pts = append(g.pts, codedload.Point{X: float64(l), Config: c})
	}
	groups = append(groups, g)
	cb := clBase(codedload.TwoChoiceGlobal{})
	cb.Topology = tor
	groups = append(groups, group{name: "two choices (b)", param: "-", pts: []codedload.Point{{X: 0, Config: cb}}})

	var all []codedload.Point
	for _, g := range groups {
		all = append(all, g.pts...)
	}
	cfg.Logf("codedload: trade-off sweep on the %d-node torus", n)
	res, err := codedload.Sweep(all, runs, cfg.Seed, &codedload.SweepSettings{Logf: cfg.Logf})
	if err != nil {
		return nil, err
	}
	tab := plots.NewTable("strategy", "parameter", "value", "runs", "cost", "cost_lo95", "cost_hi95", "maxload", "maxload_lo95", "maxload_hi95", "fallback_rate")
	p := plots.New(fmt.Sprintf("Load–cost trade-off, torus n = %d (K = 100, M = 2)", n), "cost (hops per request, log scale)", "maximum load (files)", plots.LogX())
	p.X.Tick.Marker = clLogTicks{}
	at := 0
	for i, g := range groups {
		var xs, ys, lo, hi []float64
		for _, pt := range res[at : at+len(g.pts)] {
			var fb float64
			for _, r := range pt.Runs {
				fb += float64(r.Fallbacks) / float64(r.Requests) / float64(len(pt.Runs))
			}
			tab.Add(g.name, g.param, pt.X, len(pt.Runs), pt.Cost.Mean, pt.Cost.Lo, pt.Cost.Hi, pt.MaxLoad.Mean, pt.MaxLoad.Lo, pt.MaxLoad.Hi, fb)
			xs, ys = append(xs, pt.Cost.Mean), append(ys, pt.MaxLoad.Mean)
			lo, hi = append(lo, pt.MaxLoad.Lo), append(hi, pt.MaxLoad.Hi)
		}
		at += len(g.pts)
		if len(xs) == 1 {
			plots.AddPoints(p, i, g.name, xs, ys)
		} else {
			plots.AddLine(p, i, g.name, xs, ys)
		}
		plots.AddErrorBars(p, i, "", xs, ys, lo, hi)
	}
	// Pad the cost range so the outermost markers are not cut in half.
	p.X.Min, p.X.Max = p.X.Min/1.05, p.X.Max*1.08
	coded := res[len(rs)+len(alphas) : len(rs)+len(alphas)+len(ells)]
	return &plots.Result{
		Plot: plots.LegendOutside(p), Width: plots.DefaultWidth * 1.45, Height: plots.DefaultHeight,
		Data: tab,
		Headlines: []plots.Headline{
			{Name: fmt.Sprintf("coded ℓ=%d max load, n = %d", ells[len(ells)-1], n), Value: coded[len(coded)-1].MaxLoad.Mean, Reference: fmt.Sprintf("ℓ = 1 (nearest replica) here: %.3g; O(1) for ℓ = Θ(log n) (spec §1)", coded[0].MaxLoad.Mean)},
			{Name: fmt.Sprintf("coded ℓ=%d cost / NR cost", ells[len(ells)-1]), Value: coded[len(coded)-1].Cost.Mean / coded[0].Cost.Mean, Reference: "→ 4/(3√π) = 0.752 as ℓ → ∞ (spec §6.2)"},
		},
	}, nil
}

func codedloadParams(cfg plots.Config) (*plots.Result, error) {
	runs := 10
	nG, nM, nL := 1024, 2025, 10000
	gammas := []float64{0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2}
	ms := []int{1, 2, 5, 10, 20, 50, 100}
	ells := []int{1, 2, 3, 5, 7, 10, 14, 20, 30, 50}
	if cfg.Quick {
		runs, nM, nL = 3, 1024, 1024
		gammas = []float64{0, 0.5, 1, 1.5, 2}
		ms = []int{1, 5, 20, 100}
		ells = []int{1, 2, 5, 10, 20}
	}
	torus := func(n int) *codedload.Torus {
		t, err := codedload.NewTorus(n)
		if err != nil {
			panic(err) // fixed perfect squares
		}
		return t
	}
	tG, tM, tL := torus(nG), torus(nM), torus(nL)
	type series struct {
		panel, name string
		pts         []codedload.Point
	}
	strategies := []struct {
		name string
		mod  func(*codedload.Config)
	}{
		{"nearest replica", func(c *codedload.Config) {}},
		{"coded, ℓ = 10", func(c *codedload.Config) { c.Strategy = codedload.Coded{Ell: 10} }},
		{"coded, ℓ = 10, chnk_max = 1", func(c *codedload.Config) { c.Strategy = codedload.Coded{Ell: 10, ChunkCap: 1} }},
	}
	var ss []series
	for _, st := range strategies {
		s := series{panel: "gamma", name: st.name}
		for _, g := range gammas {
			c := codedload.Config{Topology: tG, Files: 100, Cache: 2, Gamma: g}
			st.mod(&c)
			s.pts = append(s.pts, codedload.Point{X: g, Config: c})
		}
		ss = append(ss, s)
	}
	for _, st := range strategies {
		s := series{panel: "cache", name: st.name}
		for _, m := range ms {
			c := codedload.Config{Topology: tM, Files: 100, Cache: m}
			st.mod(&c)
			s.pts = append(s.pts, codedload.Point{X: float64(m), Config: c})
		}
		ss = append(ss, s)
	}
	for _, cp := range []int{0, 1} {
		name := "coded, no cap"
		if cp == 1 {
			name = "coded, chnk_max = 1"
		}
		s := series{panel: "ell", name: name}
		for _, l := range ells {
			c := codedload.Config{Topology: tL, Files: 100, Cache: 2, Strategy: codedload.Coded{Ell: l, ChunkCap: cp}}
			s.pts = append(s.pts, codedload.Point{X: float64(l), Config: c})
		}
		ss = append(ss, s)
	}
	var all []codedload.Point
	for _, s := range ss {
		all = append(all, s.pts...)
	}
	cfg.Logf("codedload: parameter sweeps (γ, M, ℓ), %d runs per point", runs)
	res, err := codedload.Sweep(all, runs, cfg.Seed, &codedload.SweepSettings{Logf: cfg.Logf})
	if err != nil {
		return nil, err
	}
	tab := clNewTable()
	panels := map[string][2]*plot.Plot{
		"gamma": {
			plots.New(fmt.Sprintf("Max load vs γ (n = %d, M = 2)", nG), "Zipf exponent γ", "maximum load (files)"),
			plots.New(fmt.Sprintf("Cost vs γ (n = %d, M = 2)", nG), "Zipf exponent γ", "cost (hops per request)"),
		},
		"cache": {
			plots.New(fmt.Sprintf("Max load vs M (n = %d, γ = 0)", nM), "cache size M (files, log scale)", "maximum load (files)", plots.LogX()),
			plots.New(fmt.Sprintf("Cost vs M (n = %d, γ = 0)", nM), "cache size M (files, log scale)", "cost (hops per request)", plots.LogX()),
		},
		"ell": {
			plots.New(fmt.Sprintf("Max load vs ℓ (n = %d, M = 2, γ = 0)", nL), "chunks per file ℓ (log scale)", "maximum load (files)", plots.LogX()),
			plots.New(fmt.Sprintf("Cost vs ℓ (n = %d, M = 2, γ = 0)", nL), "chunks per file ℓ (log scale)", "cost (hops per request)", plots.LogX()),
		},
	}
	for _, k := range []string{"cache", "ell"} {
		for _, q := range panels[k] {
			q.X.Tick.Marker = clLogTicks{}
		}
	}
	at := 0
	idx := map[string]int{}
	for _, s := range ss {
		pr := res[at : at+len(s.pts)]
		at += len(s.pts)
		c := codedload.Curve{Name: s.name, Points: pr}
		clTable(tab, s.panel, []codedload.Curve{c})
		i := idx[s.panel]
		if s.panel == "ell" {
			i++ // keep colours: series 0 is nearest replica elsewhere
		}
		idx[s.panel]++
		pp := panels[s.panel]
		xs, lo, mean, hi := clSeries(pr, clMax)
		plots.AddBand(pp[0], i, "", xs, lo, mean, hi)
		xs, lo, mean, hi = clSeries(pr, clCost)
		plots.AddBand(pp[1], i, s.name, xs, lo, mean, hi)
	}
	// Exact cost against ℓ (spec §6.3, finite torus, no cap) and the
	// nearest replica cost (ℓ = 1).
	pz, _ := codedload.ZipfPMF(100, 0)
	var exs, eys []float64
	for l := ells[0]; l <= ells[len(ells)-1]; l++ {
		exs = append(exs, float64(l))
		c, err := codedload.Cost(pz, 2, l, tL.Balls())
		if err != nil {
			return nil, err
		}
		eys = append(eys, c)
	}
	plots.AddCurve(panels["ell"][1], 7, "exact cost, spec §6.3", exs, eys)
	var gxs, gys []float64
	for _, g := range gammas {
		p, _ := codedload.ZipfPMF(100, g)
		c, err := codedload.Cost(p, 2, 1, tG.Balls())
		if err != nil {
			return nil, err
		}
		gxs, gys = append(gxs, g), append(gys, c)
	}
	plots.AddCurve(panels["gamma"][1], 7, "exact NR cost, spec §6.3", gxs, gys)
	w, h := plots.PanelSize(3, 2)
	grid := plots.NewPanels(3, 2,
		panels["gamma"][0], plots.LegendOutside(panels["gamma"][1]),
		panels["cache"][0], plots.LegendOutside(panels["cache"][1]),
		panels["ell"][0], plots.LegendOutside(panels["ell"][1]))
	grid.ColWeights = []float64{1, 1.6}
	// Headline: the multiplicity effect at γ = 2 (spec §8 J).
	free, capped := res[len(gammas)*2-1], res[len(gammas)*3-1]
	return &plots.Result{
		Plot: grid, Width: w * 1.35, Height: h,
		Data: tab,
		Headlines: []plots.Headline{
			{Name: fmt.Sprintf("coded ℓ=10 max load γ=2, n=%d, no cap", nG), Value: free.MaxLoad.Mean, Reference: "5.25 (spec §8 J)"},
			{Name: fmt.Sprintf("coded ℓ=10 max load γ=2, n=%d, chnk_max=1", nG), Value: capped.MaxLoad.Mean, Reference: "2.17 (spec §8 J)"},
		},
	}, nil
}

func codedloadTopologies(cfg plots.Config) (*plots.Result, error) {
	// Sizes are powers of 4: perfect squares for the torus, powers of 2
	// for the hypercube.
	ns := []int{256, 1024}
	runs := func(int) int { return 4 }
	if !cfg.Quick {
		ns = []int{256, 1024, 4096, 16384, 65536, 262144, 1048576}
		runs = func(n int) int {
			switch {
			case n >= 262144:
				return 3
			case n >= 65536:
				return 4
			case n >= 16384:
				return 6
			}
			return 10
		}
	}
	ball := func(t codedload.Topology) int { return codedload.BallRadius(t, 545) }
	// The torus and the hypercube have closed-form distances and reach
	// n ≈ 10⁶; on the random graphs every search visits nodes by BFS, each
	// visit a cache miss, and one run of the cheapest curves costs 1–6 s at
	// n = 262144, so they stop there. The searches of two choices stop
	// earlier: (a) explores a ball of at least 545 nodes per request (one run
	// ≈ 6 s at n = 262144 on the hypercube, 2 s at 65536 and 33 s at 262144
	// on the 6-regular graph, 11 s at 65536 on the RGG), and (b)'s far holder
	// on the RGG, whose diameter grows like √(n/ln n), costs about n² work
	// (2 s per run at n = 16384, 57 s at 65536). One worker, measured on the
	// loaded 2-core machine.
	fams := []struct {
		title      string
		fam        codedload.Family
		maxN       int // largest size of the panel
		maxA, maxB int // largest size for two choices (a) and (b); 0 = maxN
	}{
		{title: "torus", fam: codedload.TorusFamily, maxN: 1048576},
		{title: "random geometric graph", fam: codedload.RGGFamily, maxN: 262144, maxA: 16384, maxB: 16384},
		{title: "random 6-regular graph", fam: codedload.RegularFamily(6), maxN: 262144, maxA: 65536},
		{title: "hypercube", fam: codedload.HypercubeFamily, maxN: 1048576, maxA: 262144},
	}
	tab := clNewTable()
	var cells []*plot.Plot
	var legend plots.Drawer
	var heads []plots.Headline
	for i, f := range fams {
		var fns []int
		for _, n := range ns {
			if n <= f.maxN {
				fns = append(fns, n)
			}
		}
		vs := clMainVariants(ball, true)
		vs[1].MaxN, vs[2].MaxN = f.maxA, f.maxB
		cfg.Logf("codedload: topology %s, n up to %d", f.title, fns[len(fns)-1])
		curves, err := codedload.CompareSizes(fns, f.fam, vs, runs, cfg.Seed+uint64(i),
			&codedload.SweepSettings{Logf: cfg.Logf})
		if err != nil {
			return nil, err
		}
		clTable(tab, f.title, curves)
		p := plots.New(f.title, "servers n (log scale)", "maximum load (files)", plots.LogX())
		p.X.Tick.Marker = clLogTicks{}
		clBands(p, curves, clMax, false)
		xs, _, _, _ := clSeries(curves[0].Points, clMax)
		clPoissonRef(p, xs, false)
		cells = append(cells, p)
		if i == 0 {
			names := make([]string, len(curves))
			for j, c := range curves {
				names[j] = c.Name
			}
			names[1] = "two choices (a), |B_r| ≥ 545"
			legend = clLegendCell(names, "E max of n Po(1) (all local)")
		}
		nr, co := clLast(curves[0]), clLast(curves[3])
		heads = append(heads, plots.Headline{
			Name: fmt.Sprintf("%s n=%d: NR / coded max load", f.title, int(nr.X)), Value: nr.MaxLoad.Mean / co.MaxLoad.Mean,
			Reference: "> 1, growing with n (spec §1: Θ(log n) vs O(1))",
		})
	}
	// Shared axes, so that the panels compare at a glance and show where
	// the shorter curves stop.
	for _, p := range cells[1:] {
		cells[0].X.Min, cells[0].X.Max = min(cells[0].X.Min, p.X.Min), max(cells[0].X.Max, p.X.Max)
		cells[0].Y.Min, cells[0].Y.Max = min(cells[0].Y.Min, p.Y.Min), max(cells[0].Y.Max, p.Y.Max)
	}
	// Whole loads on the vertical axis: labels every 2, ticks every 1.
	cells[0].Y.Min, cells[0].Y.Max = math.Floor(cells[0].Y.Min), math.Ceil(cells[0].Y.Max)
	var yt []plot.Tick
	for v := cells[0].Y.Min; v <= cells[0].Y.Max; v++ {
		t := plot.Tick{Value: v}
		if int(v)%2 == 0 {
			t.Label = strconv.Itoa(int(v))
		}
		yt = append(yt, t)
	}
	for _, p := range cells {
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = cells[0].X.Min, cells[0].X.Max, cells[0].Y.Min, cells[0].Y.Max
		p.Y.Tick.Marker = plot.ConstantTicks(yt)
	}
	w, h := plots.PanelSize(2, 2)
	grid := plots.NewPanels(2, 3, cells[0], cells[1], legend, cells[2], cells[3], nil)
	grid.ColWeights = []float64{1, 1, 0.5}
	return &plots.Result{Plot: grid, Width: w * 1.4, Height: h * 1.1, Data: tab, Headlines: heads}, nil
}

// clLegendCell returns a panel holding only a legend: one band entry per
// name (in series order) and the black reference curve. The series are
// drawn outside the fixed unit ranges, so only their legend entries show.
func clLegendCell(names []string, ref string) plots.Drawer {
	p := plot.New()
	p.Legend = plots.New("", "", "").Legend // house legend style
	off := []float64{-2, -1}
	for i, n := range names {
		plots.AddBand(p, i, n, off, off, off, off)
	}
	plots.AddCurve(p, 7, ref, off, off)
	// Adding data widened the ranges: reset them so the data fall outside.
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	p.HideAxes()
	p.Legend.Top, p.Legend.Left = true, true
	return p
}

// clLogTicks labels a log axis at 1, 2, 3 and 5 times powers of ten, with
// unlabelled minor ticks at the other integers (powers of ten only over
// more than two decades): gonum's LogTicks labels powers of ten only,
// too sparse over one decade.
type clLogTicks struct{}

func (clLogTicks) Ticks(min, max float64) []plot.Tick {
	// Over more than two decades, label the powers of ten only.
	wide := math.Log10(max/min) > 2
	// Within about one decade, label every integer multiple.
	narrow := math.Log10(max/min) < 1.1
	var ts []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		base := math.Pow(10, e)
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || narrow || (!wide && (m == 2 || m == 3 || m == 5)) {
				t.Label = strconv.FormatFloat(v, 'f', -1, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
