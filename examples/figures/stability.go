package main

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	register(
		plots.Figure{
			Name:    "stability-phase-portrait",
			Caption: "Greedy law (24) on two nodes: direction field, trajectories and equilibria by type, for the paper's example (C_aa = 0.1, C_ba = 0.3) and a favourable C (C_aa = 0.8, C_bb = 0.7), both with A = (1, 1), T = (0.7, 0.7); the vertex (0, 1) is unstable in both: node a is pushed off its face (λ_a = T_a − C_ba = 0.4 > 0) while node b is exactly balanced (S_b = C_bb = T_b, λ_b = 0).",
			Make:    stabilityPhasePortrait,
		},
		plots.Figure{
			Name:    "stability-map",
			Caption: "Two-node stability map over the demand (A_a, A_b): controlled demand, demand with a stable uncontrollable overload, and demand where the greedy law from x = (0.5, 0.5) ends in one; the polytope Π_C (28) and the larger region Π′_C are drawn.",
			Make:    stabilityMap,
		},
		plots.Figure{
			Name:    "stability-greedy-vs-optimal",
			Caption: "Greedy heuristic (24) against the optimal dual algorithm (Algorithm 1, 20 warm-started steps per 5-minute period) over a day of synthetic diurnal demand with slowly varying noise: traffic sent to the second layer and total overload.",
			Make:    stabilityGreedyVsOptimal,
		},
	)
}

// randomCDN returns correlation matrix, capacities and base demand of a
// synthetic n-node CDN: self-correlation C_jj uniform in [0.05, 0.8], the
// rest of each row spread at random over the other nodes; capacities in
// [0.5, 1.5]; base demand 0.55–0.95 of capacity, so that the daily peak
// (1.6× the base) overloads some nodes.
func randomCDN(n int, rng *rand.Rand) (*mat.Dense, []float64, []float64, []float64) {
	c := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		row := c.RawRowView(j)
		var sum float64
		for i := range row {
			if i != j {
				row[i] = rng.ExpFloat64()
				sum += row[i]
			}
		}
		self := 0.05 + 0.75*rng.Float64()
		for i := range row {
			row[i] *= (1 - self) / sum
		}
		row[j] = self
	}
	t := make([]float64, n)
	base := make([]float64, n)
	phase := make([]float64, n)
	for i := range t {
		t[i] = 0.5 + rng.Float64()
		base[i] = t[i] * (0.55 + 0.4*rng.Float64())
		phase[i] = 3 * rng.Float64()
	}
	return c, t, base, phase
}

func stabilityGreedyVsOptimal(cfg plots.Config) (*plots.Result, error) {
	n, perHour := 100, 12
	if cfg.Quick {
		n = 40
	}
	c, t, base, phase := randomCDN(n, rand.New(mc.Source(cfg.Seed, 5, 0)))
	times := make([]float64, 24*perHour+1)
	for k := range times {
		times[k] = float64(k) / float64(perHour)
	}
	dem, err := stability.Diurnal(base, times, &stability.DiurnalSettings{Amplitude: 0.6, Noise: 0.05, Memory: 0.95, Phase: phase}, mc.Source(cfg.Seed, 5, 1))
	if err != nil {
		return nil, err
	}
	const sub = 4                             // samples per period
	nw, err := anycast.NewNetwork(base, c, t) // dem replaces nw.A period by period
	if err != nil {
		return nil, err
	}
	cmp, err := stability.Compare(nw, times, dem, &stability.CompareSettings{Sensitivity: 20, Sub: sub})
	if err != nil {
		return nil, err
	}
	fast, err := stability.Compare(nw, times, dem, &stability.CompareSettings{Sensitivity: 200, Sub: sub})
	if err != nil {
		return nil, err
	}
	cfg.Logf("stability-greedy-vs-optimal: N = %d, %d periods", n, len(times))
	g, gf, o := &cmp.Greedy, &fast.Greedy, &cmp.Optimal
	total := make([]float64, len(g.T))
	for k := range total {
		total[k] = floats.Sum(dem[k/sub])
	}
	top := plots.New(fmt.Sprintf("%d nodes, one day of diurnal demand", n), "", "traffic to L2 (load units)")
	bot := plots.New("", "time of day (hours)", "total overload Σ(S−T)+ (load units)")
	for _, p := range []*plot.Plot{top, bot} {
		p.X.Min, p.X.Max = 0, 24
	}
	plots.AddCurve(top, 0, "greedy (24), β = 20/h", g.T, g.Second)
	plots.AddCurve(top, 2, "greedy (24), β = 200/h", gf.T, gf.Second)
	plots.AddCurve(top, 1, "optimal (dual, Algorithm 1)", o.T, o.Second)
	plots.AddCurve(top, 7, "total DNS demand", g.T, total)
	plots.AddCurve(bot, 0, "greedy (24), β = 20/h", g.T, g.Excess)
	plots.AddCurve(bot, 2, "greedy (24), β = 200/h", gf.T, gf.Excess)
	plots.AddCurve(bot, 1, "optimal (dual, Algorithm 1)", o.T, o.Excess)
	tab := plots.NewTable("hour", "demand", "greedy20_L2", "greedy200_L2", "optimal_L2", "greedy20_overload", "greedy200_overload", "optimal_overload", "greedy20_overloaded_nodes", "greedy200_overloaded_nodes", "optimal_overloaded_nodes", "greedy20_cost", "greedy200_cost", "optimal_cost")
	for k := range g.T {
		tab.Add(g.T[k], total[k], g.Second[k], gf.Second[k], o.Second[k], g.Excess[k], gf.Excess[k], o.Excess[k], g.Overloaded[k], gf.Overloaded[k], o.Overloaded[k], g.Cost[k], gf.Cost[k], o.Cost[k])
	}
	var heads []plots.Headline
	for _, gp := range []struct {
		name string
		p    *stability.Policy
	}{{"greedy β=20/h", g}, {"greedy β=200/h", gf}} {
		heads = append(heads,
			plots.Headline{Name: gp.name + ": share of demand sent to L2", Value: gp.p.SecondTotal / cmp.DemandTotal, Reference: "optimal: " + fmt.Sprintf("%.4g", o.SecondTotal/cmp.DemandTotal)},
			plots.Headline{Name: gp.name + ": overload (load·hours)", Value: gp.p.ExcessTotal, Reference: "optimal: " + fmt.Sprintf("%.4g", o.ExcessTotal)},
			plots.Headline{Name: gp.name + ": node-hours overloaded > 1%", Value: gp.p.NodeOverloadHours, Reference: "optimal: " + fmt.Sprintf("%.4g", o.NodeOverloadHours)},
			plots.Headline{Name: gp.name + ": hours with a locally uncontrollable node (27)", Value: gp.p.UncontrolledHours, Reference: "optimal: " + fmt.Sprintf("%.4g", o.UncontrolledHours)},
			plots.Headline{Name: gp.name + ": P1 cost over the day / optimal", Value: gp.p.CostTotal / o.CostTotal, Reference: "≥ 1 (optimality)"},
		)
	}
	ps := plots.NewPanels(2, 1, plots.LegendOutside(top), plots.LegendOutside(bot))
	return &plots.Result{Plot: ps, Width: 22 * vg.Centimeter, Height: 15 * vg.Centimeter, Data: tab, Headlines: heads}, nil
}

// twoNodeNet builds a two-node network or panics (fixed, valid inputs).
func twoNodeNet(a []float64, c []float64, t []float64) *anycast.Network {
	nw, err := anycast.NewNetwork(a, mat.NewDense(2, 2, c), t)
	if err != nil {
		panic(err)
	}
	return nw
}

// directionField samples the unit direction of (24) on a grid.
type directionField struct {
	xs  []float64
	law *stability.Law
}

func (f directionField) Dims() (c, r int) { return len(f.xs), len(f.xs) }
func (f directionField) X(c int) float64  { return f.xs[c] }
func (f directionField) Y(r int) float64  { return f.xs[r] }
func (f directionField) Vector(c, r int) plotter.XY {
	v := f.law.Rate(nil, []float64{f.xs[c], f.xs[r]})
	n := math.Hypot(v[0], v[1])
	if n == 0 {
		return plotter.XY{}
	}
	return plotter.XY{X: v[0] / n, Y: v[1] / n}
}

// arrow draws a unit arrow along (1, 0) centred on the origin, with a head
// large enough to read at the figure's size.
func arrow(c vg.Canvas, sty draw.LineStyle, _ plotter.XY) {
	c.SetColor(sty.Color)
	c.SetLineWidth(sty.Width)
	c.SetLineDash(nil, 0)
	var pa vg.Path
	pa.Move(vg.Point{X: -0.45, Y: 0})
	pa.Line(vg.Point{X: 0.45, Y: 0})
	pa.Move(vg.Point{X: 0.15, Y: 0.2})
	pa.Line(vg.Point{X: 0.45, Y: 0})
	pa.Line(vg.Point{X: 0.15, Y: -0.2})
	c.Stroke(pa)
}

var classSeries = map[stability.Class]int{stability.Stable: 0, stability.Saddle: 1, stability.Unstable: 2, stability.NonHyperbolic: 3}

func stabilityPhasePortrait(cfg plots.Config) (*plots.Result, error) {
	cases := []struct {
		title string
		nw    *anycast.Network
	}{
		{"paper's example: C_aa = 0.1, C_ba = 0.3", twoNodeNet([]float64{1, 1}, []float64{0.1, 0.9, 0.3, 0.7}, []float64{0.7, 0.7})},
		{"favourable: C_aa = 0.8, C_bb = 0.7", twoNodeNet([]float64{1, 1}, []float64{0.8, 0.2, 0.3, 0.7}, []float64{0.7, 0.7})},
	}
	starts := 6
	if cfg.Quick {
		starts = 4
	}
	tab := plots.NewTable("panel", "kind", "id", "x_a", "x_b", "class")
	var cells []*plot.Plot
	var heads []plots.Headline
	for pi, cs := range cases {
		law, err := stability.NewLaw(cs.nw, 1)
		if err != nil {
			return nil, err
		}
		p := plots.New(cs.title, "x_a (probability node a answers with L1)", "x_b", plots.XRange(-0.04, 1.04), plots.YRange(-0.04, 1.04))
		grid := floats.Span(make([]float64, 15), 0.03, 0.97)
		fld := plotter.NewField(directionField{grid, law})
		fld.LineStyle = draw.LineStyle{Color: color.Gray{Y: 0xA0}, Width: vg.Points(0.8)}
		fld.DrawGlyph = arrow
		p.Add(fld)
		// Trajectories from starts on a grid inside the square.
		times := floats.Span(make([]float64, 301), 0, 30)
		traj := 0
		for _, xa := range floats.Span(make([]float64, starts), 0.05, 0.95) {
			for _, xb := range floats.Span(make([]float64, starts), 0.05, 0.95) {
				tr, err := law.Integrate([]float64{xa, xb}, 30, &stability.Settings{Times: times})
				if err != nil {
					return nil, err
				}
				pts := make(plotter.XYs, tr.Len())
				for k := range pts {
					pts[k] = plotter.XY{X: tr.X[k][0], Y: tr.X[k][1]}
					if k%10 == 0 {
						tab.Add(pi, "trajectory", traj, tr.X[k][0], tr.X[k][1], "")
					}
				}
				ln, err := plotter.NewLine(pts)
				if err != nil {
					return nil, err
				}
				ln.LineStyle = draw.LineStyle{Color: plots.Translucent(4, 200), Width: vg.Points(1)}
				p.Add(ln)
				if traj == 0 {
					p.Legend.Add("trajectory", ln)
				}
				traj++
			}
		}
		eqs, err := law.Equilibria()
		if err != nil {
			return nil, err
		}
		byClass := map[stability.Class][2][]float64{}
		for _, e := range eqs {
			v := byClass[e.Class]
			v[0], v[1] = append(v[0], e.X[0]), append(v[1], e.X[1])
			byClass[e.Class] = v
			tab.Add(pi, "equilibrium", 0, e.X[0], e.X[1], e.Class.String())
			if e.Class == stability.Stable {
				s := cs.nw.Loads(nil, e.X)
				ov := math.Max(s[0]-cs.nw.T[0], 0) + math.Max(s[1]-cs.nw.T[1], 0)
				heads = append(heads, plots.Headline{
					Name:      fmt.Sprintf("%s: stable x* = (%.3g, %.3g), overload", cs.title, e.X[0], e.X[1]),
					Value:     ov,
					Reference: map[bool]string{true: "spec §2: (1, 0), overload 0.2", false: "spec §5.5: y* = (0.56, 0.84), overload 0"}[pi == 0],
				})
			}
		}
		for _, cl := range []stability.Class{stability.Stable, stability.Saddle, stability.Unstable, stability.NonHyperbolic} {
			if v, ok := byClass[cl]; ok {
				s, err := plotter.NewScatter(xyOf(v[0], v[1]))
				if err != nil {
					return nil, err
				}
				s.GlyphStyle = plots.Glyph(classSeries[cl])
				s.GlyphStyle.Radius = vg.Points(4.5)
				p.Add(s)
				p.Legend.Add(cl.String()+" equilibrium", s)
			}
		}
		cells = append(cells, p)
		cfg.Logf("stability-phase-portrait: panel %d: %d trajectories, %d equilibria", pi, traj, len(eqs))
	}
	return &plots.Result{Plot: legendRight(cells[0], cells[1], 1.55), Width: 30 * vg.Centimeter, Height: 12 * vg.Centimeter, Data: tab, Headlines: heads}, nil
}

// legendRight lays out two panels side by side, the left without its
// legend and the right with the legend in a column beside it (the entries
// of both panels are the same), widened so the two data areas match.
func legendRight(left, right *plot.Plot, weight float64) plots.Drawer {
	left.Legend = plot.NewLegend()
	ps := plots.NewPanels(1, 2, left, plots.LegendOutside(right))
	ps.ColWeights = []float64{1, weight}
	return ps
}

func xyOf(xs, ys []float64) plotter.XYs {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	return pts
}

func stabilityMap(cfg plots.Config) (*plots.Result, error) {
	n := 60
	if cfg.Quick {
		n = 28
	}
	const lo, hi = 0.1, 10.0
	grid := floats.LogSpan(make([]float64, n), lo, hi)
	t := []float64{0.7, 0.7}
	tab := plots.NewTable("C_ba", "A_a", "A_b", "in_Pi_C", "in_Pi_C_ext", "uncontrollable_possible", "uncontrollable_reached", "x_a", "x_b", "overload")
	var cells []*plot.Plot
	var heads []plots.Headline
	for pi, cba := range []float64{0.3, 0.59} {
		nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, cba, 1 - cba}), t)
		if err != nil {
			return nil, err
		}
		out, err := stability.TwoNodeMap(nw, grid, grid, nil) // the grid replaces nw.A
		if err != nil {
			return nil, err
		}
		var cat [3][2][]float64
		inconsistent, inside := 0, 0
		for _, o := range out {
			k := 0
			switch {
			case o.Reached:
				k = 2
			case o.Possible:
				k = 1
			}
			if o.Reached && !o.Possible {
				inconsistent++
			}
			if o.InExtended && (o.Reached || o.Possible) {
				inside++
			}
			cat[k][0] = append(cat[k][0], o.A[0])
			cat[k][1] = append(cat[k][1], o.A[1])
			tab.Add(cba, o.A[0], o.A[1], b2i(o.InPolytope), b2i(o.InExtended), b2i(o.Possible), b2i(o.Reached), o.Final[0], o.Final[1], o.Excess)
		}
		p := plots.New(fmt.Sprintf("C_aa = 0.1, C_ba = %g, T = (0.7, 0.7)", cba), "A_a (DNS demand at node a)", "A_b (DNS demand at node b)", plots.LogX(), plots.LogY(), plots.XRange(0.9*lo, 1.1*hi), plots.YRange(0.9*lo, 1.1*hi))
		names := []string{"controlled", "stable uncontrollable state exists,\nnot reached from x = (0.5, 0.5)", "greedy from x = (0.5, 0.5)\nends uncontrolled"}
		for k := range cat {
			if len(cat[k][0]) == 0 {
				continue
			}
			s, err := plotter.NewScatter(xyOf(cat[k][0], cat[k][1]))
			if err != nil {
				return nil, err
			}
			s.GlyphStyle = draw.GlyphStyle{Color: []color.Color{plots.Color(2), plots.Color(1), plots.Color(5)}[k], Radius: vg.Points(140 / float64(n)), Shape: draw.BoxGlyph{}}
			p.Add(s)
			p.Legend.Add(names[k], s)
		}
		// Π_C (28) for two nodes: C_ab A_a ≤ T_b and C_ba A_b ≤ T_a.
		aMax, bMax := t[1]/0.9, math.Inf(1)
		if cba > 0 {
			bMax = t[0] / cba
		}
		addBox(p, color.Black, []vg.Length{vg.Points(6), vg.Points(3)}, "Π_C (28)", aMax, bMax, lo, hi)
		// Π′_C (§5.5): C_ab min(A_a, T_a/C_aa) ≤ T_b, C_ba min(A_b, T_b/C_bb) ≤ T_a.
		aExt, bExt := math.Inf(1), math.Inf(1)
		if 0.9*t[0]/0.1 > t[1] {
			aExt = t[1] / 0.9
		}
		if cba*t[1]/(1-cba) > t[0] {
			bExt = t[0] / cba
		}
		addBox(p, plots.Color(3), []vg.Length{vg.Points(2), vg.Points(2)}, "Π′_C (§5.5)", aExt, bExt, lo, hi)
		cells = append(cells, p)
		heads = append(heads,
			plots.Headline{Name: fmt.Sprintf("C_ba=%g: cells ending uncontrolled without a stable uncontrollable equilibrium", cba), Value: float64(inconsistent), Reference: "0 (linearisation, §5.4)"},
			plots.Headline{Name: fmt.Sprintf("C_ba=%g: cells in Π′_C with uncontrollable overload", cba), Value: float64(inside), Reference: "0 (§5.3, §5.5)"},
		)
		cfg.Logf("stability-map: panel %d done (%d cells)", pi, len(out))
	}
	return &plots.Result{Plot: legendRight(cells[0], cells[1], 1.4), Width: 30 * vg.Centimeter, Height: 12 * vg.Centimeter, Data: tab, Headlines: heads}, nil
}

// addBox draws the boundary of the box [0, a] × [0, b] (infinite sides
// omitted) clipped to [lo, hi]².
func addBox(p *plot.Plot, c color.Color, dashes []vg.Length, name string, a, b, lo, hi float64) {
	var lines []plotter.XYs
	switch {
	case !math.IsInf(a, 1) && !math.IsInf(b, 1):
		lines = append(lines, plotter.XYs{{X: lo, Y: b}, {X: a, Y: b}, {X: a, Y: lo}})
	case !math.IsInf(a, 1):
		lines = append(lines, plotter.XYs{{X: a, Y: lo}, {X: a, Y: hi}})
	case !math.IsInf(b, 1):
		lines = append(lines, plotter.XYs{{X: lo, Y: b}, {X: hi, Y: b}})
	}
	for k, pts := range lines {
		for j := range pts {
			pts[j].X = math.Min(math.Max(pts[j].X, lo), hi)
			pts[j].Y = math.Min(math.Max(pts[j].Y, lo), hi)
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			panic(err)
		}
		l.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(2.4), Dashes: dashes}
		p.Add(l)
		if k == 0 {
			p.Legend.Add(name, l)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
