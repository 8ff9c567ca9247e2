package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	register(plots.Figure{
		Name:    "consensus-rho2-at-scale",
		Caption: "ρ₂ at the H2-optimal update cycle γ*_H2 against the number of servers up to 10⁶ (σ = 1): torus closed forms (lines), stochastic estimates with their 95 % intervals (markers with error bars; the intervals, at most 1 % wide, hide inside the markers at this scale, and the CSV lists them) for random 6-regular graphs, random geometric graphs (unit torus, giant component, mean degree ≈ 10) and tori, dense exact values where cheap, and the US power grid (dense, exact; full mode only). Sizes at which the certified bracket of λ_n cannot show γ*_H2 < 2/λ_n are listed in the CSV, not drawn. Per server, ρ₂/(n − 1) ≥ 1 with equality only for the complete graph.",
		Make:    threeSteps(scalePreset, scaleCompute, scaleDraw),
		Seconds: 400, // the full mode on two cores: see scalePreset
	})
}

// scaleParams are the sizes of consensus-rho2-at-scale.
type scaleParams struct {
	lineSides []int   // torus sides of the closed-form lines (n = side²)
	estSides  []int   // torus sides of the stochastic estimates
	sizes     []int   // nodes of the random regular and geometric graphs
	denseMax  int     // largest graph also computed exactly (dense spectrum)
	degree    int     // of the random regular graphs
	meanDeg   float64 // target mean degree of the random geometric graphs
	powerGrid bool    // the US power grid (dense: minutes of CPU time)
	relAcc    float64 // relative half-width asked of the estimates
}

// scalePreset: quick mode takes seconds, the full mode minutes on two
// cores and under 3 GB, most of it in the random geometric graph of 10⁶
// nodes, the 1000² torus (above 2¹⁴ nodes each tr L† exactly by sparse
// Cholesky where the factor fits, else by Hutch++ once, and 10 probes)
// and the dense power grid; docs/benchmarks-log.md gives the time of
// each point.
func scalePreset(quick bool) scaleParams {
	p := scaleParams{degree: 6, meanDeg: 10, relAcc: 0.01}
	if quick {
		p.lineSides = []int{4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128}
		p.estSides, p.sizes, p.denseMax = []int{8, 16, 32}, []int{256, 1024, 4096}, 1024
		return p
	}
	p.lineSides = []int{4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 181, 256, 362, 512, 724, 1000}
	p.estSides, p.sizes, p.denseMax = []int{10, 32, 100, 316, 1000}, []int{300, 1000, 10000, 100000, 1000000}, 2000
	p.powerGrid = true
	return p
}

// scalePoint is one computed (n, γ*_H2, ρ₂) with intervals; exact
// values have Lo = Hi = Mean.
type scalePoint struct {
	n          int
	gamma, rho loadlab.Estimate
}

// scaleSeries is one family's points drawn alike.
type scaleSeries struct {
	name string
	pts  []scalePoint
}

type scaleData struct {
	torusLine         scaleSeries   // closed forms
	est, exact        []scaleSeries // per family: regular, geometric, torus
	grid              *scalePoint   // the power grid, nil in quick mode
	gridN             int
	tab               *plots.Table
	worstZ            float64 // max |estimate − exact| / half-width of its interval, ρ₂ and γ
	worstAt           string
	compared, covered int      // exact values compared with estimates, and inside their intervals
	skipped           []string // estimates the λ_n bracket could not certify
}

// compare checks an estimate against the exact value of the same graph
// (ρ₂ and γ*_H2).
func (d *scaleData) compare(at string, est, exact scalePoint) {
	for _, c := range [][2]loadlab.Estimate{{est.rho, exact.rho}, {est.gamma, exact.gamma}} {
		e, x := c[0], c[1].Mean
		d.compared++
		if e.Lo <= x && x <= e.Hi {
			d.covered++
		}
		if z := math.Abs(e.Mean-x) / ((e.Hi - e.Lo) / 2); z > d.worstZ || d.worstAt == "" {
			d.worstZ, d.worstAt = z, at
		}
	}
}

var nan = math.NaN()

func scaleCompute(cfg plots.Config, p scaleParams) (*scaleData, error) {
	d := &scaleData{tab: plots.NewTable("family", "n", "method", "gamma_H2", "gamma_lo", "gamma_hi", "rho2", "rho2_lo", "rho2_hi", "probes", "solves")}
	d.torusLine.name = "torus, closed form"
	for _, side := range p.lineSides {
		pt, err := torusClosed(side)
		if err != nil {
			return nil, err
		}
		d.torusLine.pts = append(d.torusLine.pts, pt)
		d.tab.Add("torus", pt.n, "closed form", pt.gamma.Mean, nan, nan, pt.rho.Mean, nan, nan, 0, 0) // exact: no interval
	}
	cfg.Logf("consensus-rho2-at-scale: torus closed forms up to n = %d", d.torusLine.pts[len(d.torusLine.pts)-1].n)
	fams := []struct {
		name  string
		sizes []int
		graph func(n int, seed uint64) (*wgraph.Graph, error)
	}{
		{fmt.Sprintf("random %d-regular", p.degree), p.sizes, func(n int, s uint64) (*wgraph.Graph, error) {
			return gen.RandomRegular(n, p.degree, mc.Source(cfg.Seed, 12, 1, s))
		}},
		{"random geometric", p.sizes, func(n int, s uint64) (*wgraph.Graph, error) {
			return geometricGiant(n, p.meanDeg, mc.Source(cfg.Seed, 12, 2, s))
		}},
		{"torus", squares(p.estSides), func(n int, _ uint64) (*wgraph.Graph, error) {
			side := int(math.Round(math.Sqrt(float64(n))))
			return gen.Torus(side, side)
		}},
	}
	for fi, f := range fams {
		est, exact := scaleSeries{name: f.name + ", estimate"}, scaleSeries{name: f.name + ", dense exact"}
		for si, n := range f.sizes {
			g, err := f.graph(n, uint64(si))
			if err != nil {
				return nil, err
			}
			if err := d.measure(cfg, p, f.name, g, uint64(fi*100+si), &est, &exact); err != nil {
				return nil, err
			}
		}
		d.est, d.exact = append(d.est, est), append(d.exact, exact)
	}
	for _, pt := range d.est[2].pts {
		cf, err := torusClosed(int(math.Round(math.Sqrt(float64(pt.n)))))
		if err != nil {
			return nil, err
		}
		d.compare(fmt.Sprintf("torus n=%d, closed form", pt.n), pt, cf)
	}
	if p.powerGrid {
		return d, d.measureGrid(cfg)
	}
	return d, nil
}

// measure adds the stochastic estimate on g and, up to p.denseMax nodes
// (random graphs), the dense exact values, and compares the two.
func (d *scaleData) measure(cfg plots.Config, p scaleParams, name string, g *wgraph.Graph, seed uint64, est, exact *scaleSeries) error {
	n := g.Order()
	start := time.Now()
	set := &estimate.TraceSettings{RelAcc: p.relAcc}
	r, err := consensus.EstimateGammaH2(g, 1, set, mc.Source(cfg.Seed, 12, 3, seed))
	secs := time.Since(start).Seconds()
	if errors.Is(err, loadlab.ErrIllConditioned) {
		// The certified bracket of λ_n is too wide to decide stability
		// near γ*_H2: listed, not drawn.
		d.tab.Add(name, n, "skipped: "+err.Error(), nan, nan, nan, nan, nan, nan, r.Probes, r.Solves)
		d.skipped = append(d.skipped, fmt.Sprintf("%s n=%d", name, n))
		cfg.Logf("consensus-rho2-at-scale: %s n = %d skipped after %.1f s: %v", name, n, secs, err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s, n = %d: %w", name, n, err)
	}
	pt := scalePoint{n: n, gamma: r.Gamma, rho: r.Rho2}
	est.pts = append(est.pts, pt)
	d.tab.Add(name, n, "stochastic", r.Gamma.Mean, r.Gamma.Lo, r.Gamma.Hi, r.Rho2.Mean, r.Rho2.Lo, r.Rho2.Hi, r.Probes, r.Solves)
	cfg.Logf("consensus-rho2-at-scale: %s n = %d: ρ₂ = %.6g [%.6g, %.6g], %d probes, %d solves, %.1f s", name, n, r.Rho2.Mean, r.Rho2.Lo, r.Rho2.Hi, r.Probes, r.Solves, secs)
	if n > p.denseMax || name == "torus" { // the torus has its closed form
		return nil
	}
	start = time.Now()
	x, err := denseGammaH2(g)
	if err != nil {
		return fmt.Errorf("%s, n = %d, dense: %w", name, n, err)
	}
	exact.pts = append(exact.pts, x)
	// Times go to the progress log, never to the committed data.
	cfg.Logf("consensus-rho2-at-scale: %s n = %d: dense, %.1f s", name, n, time.Since(start).Seconds())
	d.tab.Add(name, n, "dense", x.gamma.Mean, nan, nan, x.rho.Mean, nan, nan, 0, 0) // exact: no interval
	d.compare(fmt.Sprintf("%s n=%d, dense", name, n), pt, x)
	return nil
}

// measureGrid adds the power grid's exact values (dense spectrum: its
// γ*_H2 lies within 0.2 % of the stability limit 2/λ_n, closer than the
// stochastic path's certified bracket of λ_n can resolve).
func (d *scaleData) measureGrid(cfg plots.Config) error {
	g := datasets.PowerGrid().Graph
	cfg.Logf("consensus-rho2-at-scale: US power grid, n = %d, dense spectrum (several CPU-minutes)", g.Order())
	start := time.Now()
	x, err := denseGammaH2(g)
	if err != nil {
		return fmt.Errorf("power grid: %w", err)
	}
	d.grid, d.gridN = &x, g.Order()
	cfg.Logf("consensus-rho2-at-scale: US power grid: dense, %.1f s", time.Since(start).Seconds())
	d.tab.Add("US power grid", g.Order(), "dense", x.gamma.Mean, nan, nan, x.rho.Mean, nan, nan, 0, 0) // exact: no interval
	return nil
}

// denseGammaH2 returns γ*_H2 and ρ₂ there (σ = 1) from g's dense
// spectrum, exact to rounding (Lo = Hi = Mean).
func denseGammaH2(g *wgraph.Graph) (scalePoint, error) {
	s, err := consensus.NewSpectral(g)
	if err != nil {
		return scalePoint{}, err
	}
	gam, rho, err := s.GammaH2(1)
	exact := func(x float64) loadlab.Estimate { return loadlab.Estimate{Mean: x, Lo: x, Hi: x} }
	return scalePoint{n: g.Order(), gamma: exact(gam), rho: exact(rho)}, err
}

// torusClosed returns γ*_H2 and ρ₂ there of the side × side torus from
// its closed-form spectrum (spec §2, §5.1).
func torusClosed(side int) (scalePoint, error) {
	ev, err := spectral.TorusSpectrum(side, side)
	if err != nil {
		return scalePoint{}, err
	}
	s, err := consensus.SpectralFrom(ev)
	if err != nil {
		return scalePoint{}, err
	}
	g, r, err := s.GammaH2(1)
	if err != nil {
		return scalePoint{}, err
	}
	return scalePoint{n: side * side, gamma: exactEstimate(g), rho: exactEstimate(r)}, nil
}

func exactEstimate(x float64) loadlab.Estimate { return loadlab.Estimate{Mean: x, Lo: x, Hi: x} }

func squares(sides []int) []int {
	out := make([]int, len(sides))
	for i, s := range sides {
		out[i] = s * s
	}
	return out
}

// geometricGiant returns the largest connected component of a random
// geometric graph of n points on the unit torus with radius r set for
// mean degree k: (n − 1)πr² = k.
func geometricGiant(n int, k float64, src rand.Source) (*wgraph.Graph, error) {
	r := math.Sqrt(k / (math.Pi * float64(n-1)))
	g, err := gen.RandomGeometric(n, r, true, src)
	if err != nil {
		return nil, err
	}
	count, comp := wgraph.Components(g)
	if count == 1 {
		return g, nil
	}
	sizes := make([]int, count)
	for _, c := range comp {
		sizes[c]++
	}
	big := int32(0)
	for c, s := range sizes {
		if s > sizes[big] {
			big = int32(c)
		}
	}
	id := make([]int, n)
	m := 0
	for u, c := range comp {
		if c == big {
			id[u] = m
			m++
		}
	}
	var edges []wgraph.Edge
	for _, e := range g.Edges() {
		if comp[e.U] == big {
			edges = append(edges, wgraph.Edge{U: id[e.U], V: id[e.V], W: e.W})
		}
	}
	return wgraph.FromEdges(m, edges)
}

// scaleY maps a point to the value drawn on a panel: ρ₂, ρ₂/(n − 1) or
// γ*_H2, with its interval.
type scaleY func(pt scalePoint) (y, lo, hi float64)

func scaleDraw(p scaleParams, d *scaleData) *plots.Result {
	panels := []struct {
		title, ylabel string
		opts          []plots.Option
		y             scaleY
	}{
		{"ρ₂ at γ*_{H2}", "ρ₂(γ*_{H2}) (requests² per step²)", []plots.Option{plots.LogX(), plots.LogY()},
			func(pt scalePoint) (float64, float64, float64) { return pt.rho.Mean, pt.rho.Lo, pt.rho.Hi }},
		{"per server: ρ₂/(n − 1), 1 for the complete graph", "ρ₂(γ*_{H2}) / (n − 1) (requests² per step²)", []plots.Option{plots.LogX(), plots.LogY()},
			func(pt scalePoint) (float64, float64, float64) {
				f := float64(pt.n - 1)
				return pt.rho.Mean / f, pt.rho.Lo / f, pt.rho.Hi / f
			}},
		{"the H2-optimal update cycle", "update cycle γ*_{H2} (time units)", []plots.Option{plots.LogX()},
			func(pt scalePoint) (float64, float64, float64) { return pt.gamma.Mean, pt.gamma.Lo, pt.gamma.Hi }},
	}
	// One legend: the first panel names every series; the second adds
	// only its bound.
	var pls []*plot.Plot
	for k, pan := range panels {
		pl := plots.New(pan.title, "servers n", pan.ylabel, pan.opts...)
		name := func(s string) string {
			if k > 0 {
				return ""
			}
			return s
		}
		if k == 1 {
			plots.AddHLine(pl, 7, "complete graph (the lower bound)", 1)
		}
		xs, ys, _, _ := scaleXY(d.torusLine.pts, pan.y)
		plots.AddCurve(pl, 2, name(d.torusLine.name), xs, ys)
		for i := range d.est {
			if len(d.est[i].pts) > 0 { // none when every size was skipped
				xs, ys, lo, hi := scaleXY(d.est[i].pts, pan.y)
				plots.AddErrorBars(pl, i, name(d.est[i].name), xs, ys, lo, hi)
			}
			if len(d.exact[i].pts) > 0 {
				xs, ys, _, _ := scaleXY(d.exact[i].pts, pan.y)
				addExact(pl, i, name(d.exact[i].name), xs, ys)
			}
		}
		if d.grid != nil { // exact: a marker, no interval
			xs, ys, _, _ := scaleXY([]scalePoint{*d.grid}, pan.y)
			plots.AddPoints(pl, 3, name(fmt.Sprintf("US power grid (n = %d), dense exact", d.gridN)), xs, ys)
		}
		pls = append(pls, pl)
	}
	return &plots.Result{
		Plot: plots.NewStack(pls...), Width: 18 * cm, Height: 27 * cm, Data: d.tab,
		Headlines: scaleHeadlines(p, d),
	}
}

// scaleHeadlines checks the estimates against exact values of the same
// graphs (the dense spectrum where it is cheap, the closed form for the
// torus): each within twice its 95 % half-width (about 3.9 standard
// errors, exceeded with probability ~10⁻⁴), and the number inside the
// intervals no lower than a one-sided 99 % binomial bound at rate 0.95.
func scaleHeadlines(p scaleParams, d *scaleData) []plots.Headline {
	nc := float64(d.compared)
	lo := math.Floor(0.95*nc - 2.33*math.Sqrt(0.0475*nc))
	h := []plots.Headline{
		plots.Within(fmt.Sprintf("max |estimate − exact| / 95%% half-width, ρ₂ and γ*_H2 (at %s)", d.worstAt), d.worstZ, 0, 2, "≤ 2 half-widths (≈ 3.9 standard errors)"),
		plots.Within(fmt.Sprintf("exact values inside the estimate's 95%% interval, of %d", d.compared), float64(d.covered), lo, nc, "binomial(N, 0.95), one-sided 99 % lower bound"),
	}
	for i := range d.est {
		if len(d.est[i].pts) == 0 {
			continue
		}
		last := d.est[i].pts[len(d.est[i].pts)-1]
		h = append(h, plots.Within(fmt.Sprintf("%s n=%d: relative half-width of ρ₂", d.est[i].name, last.n), last.rho.RelHalfWidth(), 0, p.relAcc, "requested RelAcc"))
	}
	return h
}

func scaleXY(pts []scalePoint, f scaleY) (xs, ys, lo, hi []float64) {
	for _, pt := range pts {
		y, l, u := f(pt)
		xs, ys, lo, hi = append(xs, float64(pt.n)), append(ys, y), append(lo, l), append(hi, u)
	}
	return xs, ys, lo, hi
}

// addExact draws exact values of family i as large crosses in the
// family's colour, over its estimates, with a legend entry if name is
// not empty.
func addExact(pl *plot.Plot, i int, name string, xs, ys []float64) {
	pts := make(plotter.XYs, len(xs))
	for k := range xs {
		pts[k].X, pts[k].Y = xs[k], ys[k]
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		panic(err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: plots.Color(i), Radius: vg.Points(5), Shape: draw.CrossGlyph{}}
	pl.Add(s)
	if name != "" {
		pl.Legend.Add(name, s)
	}
}
