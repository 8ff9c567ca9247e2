package main

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

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
			Caption: "Greedy law (24) on two nodes: direction field, trajectories and equilibria by type, for C_aa = 0.1, C_ba = 0.3 (our reading of the paper's two-node example: the spec marks C_ba unknown) and a favourable C (C_aa = 0.8, C_bb = 0.7), both with A = (1, 1), T = (0.7, 0.7); the vertex (0, 1) is unstable in both: node a is pushed off its face (λ_a = T_a − C_ba = 0.4 > 0) while node b is exactly balanced (S_b = C_bb = T_b, λ_b = 0).",
			Make:    threeSteps(phasePreset, phaseCompute, phaseDraw),
			Seconds: 2,
		},
		plots.Figure{
			Name:    "stability-map",
			Caption: "Two-node stability map over the demand (A_a, A_b): controlled demand, demand with a stable uncontrollable overload, and demand where the greedy law from x = (0.5, 0.5) ends in one; the polytope Π_C (28) and the larger region Π′_C are drawn.",
			Make:    threeSteps(mapPreset, mapCompute, mapDraw),
			Seconds: 5,
		},
		plots.Figure{
			Name:    "stability-greedy-vs-optimal",
			Caption: "Greedy heuristic (24) against the optimal dual algorithm (Algorithm 1, 20 warm-started steps per 5-minute period) over a day of synthetic diurnal demand with slowly varying noise: traffic sent to the second layer and total overload.",
			Make:    threeSteps(greedyPreset, greedyCompute, greedyDraw),
			Seconds: 8,
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

// ---- stability-greedy-vs-optimal ----

type greedyParams struct {
	n, perHour, sub int
	betas           [2]float64 // sensitivities of the two greedy runs (1/h)
}

func greedyPreset(quick bool) greedyParams {
	p := greedyParams{n: 100, perHour: 12, sub: 4, betas: [2]float64{20, 200}}
	if quick {
		p.n = 40
	}
	return p
}

type greedyData struct {
	demandTotal []float64 // total DNS demand per sample
	greedy      [2]*stability.Policy
	optimal     *stability.Policy
	tab         *plots.Table
}

func greedyCompute(cfg plots.Config, p greedyParams) (*greedyData, error) {
	c, t, base, phase := randomCDN(p.n, rand.New(mc.Source(cfg.Seed, 5, 0)))
	times := make([]float64, 24*p.perHour+1)
	for k := range times {
		times[k] = float64(k) / float64(p.perHour)
	}
	dem, err := stability.Diurnal(base, times, &stability.DiurnalSettings{Amplitude: 0.6, Noise: 0.05, Memory: 0.95, Phase: phase}, mc.Source(cfg.Seed, 5, 1))
	if err != nil {
		return nil, err
	}
	nw, err := anycast.NewNetwork(base, c, t) // dem replaces nw.A period by period
	if err != nil {
		return nil, err
	}
	d := &greedyData{}
	for i, b := range p.betas {
		cmp, err := stability.Compare(nw, times, dem, &stability.CompareSettings{Sensitivity: b, Sub: p.sub})
		if err != nil {
			return nil, err
		}
		d.greedy[i] = &cmp.Greedy
		d.optimal = &cmp.Optimal // the same in both comparisons
	}
	g, gf, o := d.greedy[0], d.greedy[1], d.optimal
	d.demandTotal = make([]float64, len(g.T))
	d.tab = plots.NewTable("hour", "demand", "greedy20_L2", "greedy200_L2", "optimal_L2", "greedy20_overload", "greedy200_overload", "optimal_overload", "greedy20_overloaded_nodes", "greedy200_overloaded_nodes", "optimal_overloaded_nodes", "greedy20_cost", "greedy200_cost", "optimal_cost")
	for k := range g.T {
		d.demandTotal[k] = floats.Sum(dem[k/p.sub])
		d.tab.Add(g.T[k], d.demandTotal[k], g.Second[k], gf.Second[k], o.Second[k], g.Excess[k], gf.Excess[k], o.Excess[k], g.Overloaded[k], gf.Overloaded[k], o.Overloaded[k], g.Cost[k], gf.Cost[k], o.Cost[k])
	}
	cfg.Logf("stability-greedy-vs-optimal: N = %d, %d periods", p.n, len(times))
	return d, nil
}

func greedyDraw(p greedyParams, d *greedyData) *plots.Result {
	top := plots.New(fmt.Sprintf("%d nodes, one day of diurnal demand", p.n), "time of day (hours)", "traffic to L2 (load units)")
	bot := plots.New("Total overload", "time of day (hours)", "Σ(S−T)_{+} (load units)")
	o := d.optimal
	var heads []plots.Headline
	for i, g := range d.greedy {
		name := fmt.Sprintf("greedy (24), β = %g/h", p.betas[i])
		plots.AddCurve(top, 2*i, name, g.T, g.Second) // one legend, on the top panel
		plots.AddCurve(bot, 2*i, "", g.T, g.Excess)
		heads = append(heads, plots.Within(fmt.Sprintf("greedy β=%g/h: P1 cost over the day / optimal", p.betas[i]), g.CostTotal/o.CostTotal, 1-1e-9, math.Inf(1), "≥ 1: Algorithm 1 minimises the P1 cost (spec §4)"))
	}
	plots.AddCurve(top, 1, "optimal (dual, Algorithm 1)", o.T, o.Second)
	plots.AddCurve(top, 7, "total DNS demand", o.T, d.demandTotal)
	plots.AddCurve(bot, 1, "", o.T, o.Excess)
	for _, pl := range []*plot.Plot{top, bot} {
		dayAxis(pl)
	}
	return &plots.Result{Plot: plots.NewStack(top, bot), Width: 20 * cm, Height: 16 * cm, Data: d.tab, Headlines: heads}
}

// ---- stability-phase-portrait ----

// phaseCase is one panel: a two-node network and the spec's stable point.
type phaseCase struct {
	title    string
	nw       *anycast.Network
	stable   [2]float64 // the spec's stable equilibrium
	overload float64    // its overload
	ref      string
}

type phaseParams struct {
	cases  []phaseCase
	starts int // trajectories start on a starts × starts grid
}

func phasePreset(quick bool) phaseParams {
	p := phaseParams{starts: 6, cases: []phaseCase{
		{"C_{aa} = 0.1, C_{ba} = 0.3 (our reading of the paper's example)", twoNodeNet([]float64{1, 1}, []float64{0.1, 0.9, 0.3, 0.7}, []float64{0.7, 0.7}), [2]float64{1, 0}, 0.2, "spec §2: x* = (1, 0), overload 0.2"},
		{"favourable: C_{aa} = 0.8, C_{bb} = 0.7", twoNodeNet([]float64{1, 1}, []float64{0.8, 0.2, 0.3, 0.7}, []float64{0.7, 0.7}), [2]float64{0.56, 0.84}, 0, "spec §5.5: y* = (0.56, 0.84), overload 0"},
	}}
	if quick {
		p.starts = 4
	}
	return p
}

// phasePanel is what one panel draws.
type phasePanel struct {
	law   *stability.Law
	trajs []plotter.XYs
	eqs   []*stability.Equilibrium
}

type phaseData struct {
	panels []phasePanel
	tab    *plots.Table
}

func phaseCompute(cfg plots.Config, p phaseParams) (*phaseData, error) {
	d := &phaseData{tab: plots.NewTable("panel", "kind", "id", "x_a", "x_b", "class")}
	for pi, cs := range p.cases {
		law, err := stability.NewLaw(cs.nw, 1)
		if err != nil {
			return nil, err
		}
		pp := phasePanel{law: law}
		times := floats.Span(make([]float64, 301), 0, 30)
		for _, xa := range floats.Span(make([]float64, p.starts), 0.05, 0.95) {
			for _, xb := range floats.Span(make([]float64, p.starts), 0.05, 0.95) {
				tr, err := law.Integrate([]float64{xa, xb}, 30, &stability.Settings{Times: times})
				if err != nil {
					return nil, err
				}
				pts := make(plotter.XYs, tr.Len())
				for k := range pts {
					pts[k] = plotter.XY{X: tr.X[k][0], Y: tr.X[k][1]}
					if k%10 == 0 {
						d.tab.Add(pi, "trajectory", len(pp.trajs), pts[k].X, pts[k].Y, "")
					}
				}
				pp.trajs = append(pp.trajs, pts)
			}
		}
		eqs, err := law.Equilibria()
		if err != nil {
			return nil, err
		}
		for _, e := range eqs {
			pp.eqs = append(pp.eqs, e)
			d.tab.Add(pi, "equilibrium", 0, e.X[0], e.X[1], e.Class.String())
		}
		d.panels = append(d.panels, pp)
		cfg.Logf("stability-phase-portrait: panel %d: %d trajectories, %d equilibria", pi, len(pp.trajs), len(eqs))
	}
	return d, nil
}

// phasePlot draws one panel: field, trajectories, equilibria by class.
func phasePlot(title string, pp phasePanel) *plot.Plot {
	p := plots.New(title, "x_{a} (probability node a answers with L1)", "x_{b}", plots.XRange(-0.04, 1.04), plots.YRange(-0.04, 1.04))
	fld := plotter.NewField(directionField{floats.Span(make([]float64, 15), 0.03, 0.97), pp.law})
	fld.LineStyle = draw.LineStyle{Color: color.Gray{Y: 0xA0}, Width: vg.Points(0.8)}
	fld.DrawGlyph = arrow
	p.Add(fld)
	for i, pts := range pp.trajs {
		ln, err := plotter.NewLine(pts)
		if err != nil {
			panic(err) // integrated states are finite
		}
		ln.LineStyle = draw.LineStyle{Color: plots.Translucent(4, 200), Width: vg.Points(1)}
		p.Add(ln)
		if i == 0 {
			p.Legend.Add("trajectory", ln)
		}
	}
	for _, cl := range []stability.Class{stability.Stable, stability.Saddle, stability.Unstable, stability.NonHyperbolic} {
		var xs, ys []float64
		for _, e := range pp.eqs {
			if e.Class == cl {
				xs, ys = append(xs, e.X[0]), append(ys, e.X[1])
			}
		}
		if len(xs) == 0 {
			continue
		}
		s, err := plotter.NewScatter(xyOf(xs, ys))
		if err != nil {
			panic(err)
		}
		s.GlyphStyle = plots.Glyph(classSeries[cl])
		s.GlyphStyle.Radius = vg.Points(4.5)
		p.Add(s)
		p.Legend.Add(cl.String()+" equilibrium", s)
	}
	return p
}

func phaseDraw(p phaseParams, d *phaseData) *plots.Result {
	var heads []plots.Headline
	var cells []*plot.Plot
	for pi, cs := range p.cases {
		pp := d.panels[pi]
		cells = append(cells, phasePlot(cs.title, pp))
		for _, e := range pp.eqs {
			if e.Class != stability.Stable {
				continue
			}
			s := cs.nw.Loads(nil, e.X)
			ov := math.Max(s[0]-cs.nw.T[0], 0) + math.Max(s[1]-cs.nw.T[1], 0)
			dist := math.Hypot(e.X[0]-cs.stable[0], e.X[1]-cs.stable[1])
			name, _, _ := strings.Cut(plots.PlainText(cs.title), " (")
			heads = append(heads,
				plots.Within(fmt.Sprintf("%s: |stable x* − spec's point|", name), dist, 0, 0.006, cs.ref+" (two decimals)"),
				plots.Near(fmt.Sprintf("%s: overload at the stable x*", name), ov, cs.overload, 0.006, cs.ref))
		}
	}
	return &plots.Result{Plot: legendRight(cells[0], cells[1]), Width: 26 * cm, Height: 11 * cm, Data: d.tab, Headlines: heads}
}

// legendRight lays out two panels side by side and their common legend
// (the entries of both panels are the same) in a third column.
func legendRight(left, right *plot.Plot) plots.Drawer {
	la, _ := plots.SplitLegend(left)
	ra, legend := plots.SplitLegend(right)
	ps := plots.NewPanels(1, 3, la, ra, legend)
	ps.ColWeights = []float64{1, 1, 0.62}
	return ps
}

// ---- stability-map ----

type mapParams struct {
	n      int     // grid cells per axis
	lo, hi float64 // the outer edges of the grid's cells
	cbas   []float64
	t      []float64
}

func mapPreset(quick bool) mapParams {
	p := mapParams{n: 60, lo: 0.1, hi: 10, cbas: []float64{0.3, 0.59}, t: []float64{0.7, 0.7}}
	if quick {
		p.n = 28
	}
	return p
}

type mapPanel struct {
	cat                  [][]int // cat[row][col]: 0 controlled, 1 possible, 2 reached
	inconsistent, inside int
}

// mapCells returns the centres of n cells whose edges are spaced evenly
// in log from lo to hi, so that the cells fill [lo, hi] exactly on the
// log axes of the map.
func mapCells(n int, lo, hi float64) []float64 {
	edges := floats.LogSpan(make([]float64, n+1), lo, hi)
	cs := make([]float64, n)
	for i := range cs {
		cs[i] = math.Sqrt(edges[i] * edges[i+1])
	}
	return cs
}

type mapData struct {
	panels []mapPanel
	tab    *plots.Table
}

func mapCompute(cfg plots.Config, p mapParams) (*mapData, error) {
	grid := mapCells(p.n, p.lo, p.hi)
	at := map[float64]int{}
	for i, v := range grid {
		at[v] = i
	}
	d := &mapData{tab: plots.NewTable("C_ba", "A_a", "A_b", "in_Pi_C", "in_Pi_C_ext", "uncontrollable_possible", "uncontrollable_reached", "x_a", "x_b", "overload", "Pi_C_A_a_max", "Pi_C_A_b_max", "Pi_C_ext_A_a_max", "Pi_C_ext_A_b_max")}
	for pi, cba := range p.cbas {
		nw, err := anycast.NewNetwork([]float64{1, 1}, mat.NewDense(2, 2, []float64{0.1, 0.9, cba, 1 - cba}), p.t)
		if err != nil {
			return nil, err
		}
		out, err := stability.TwoNodeMap(nw, grid, grid, nil) // the grid replaces nw.A
		if err != nil {
			return nil, err
		}
		mp := mapPanel{cat: make([][]int, p.n)}
		for i := range mp.cat {
			mp.cat[i] = make([]int, p.n)
		}
		for _, o := range out {
			k := 0
			switch {
			case o.Reached:
				k = 2
			case o.Possible:
				k = 1
			}
			if o.Reached && !o.Possible {
				mp.inconsistent++
			}
			if o.InExtended && (o.Reached || o.Possible) {
				mp.inside++
			}
			mp.cat[at[o.A[1]]][at[o.A[0]]] = k
			bx := mapBoxes(p.t, cba)
			d.tab.Add(cba, o.A[0], o.A[1], b2i(o.InPolytope), b2i(o.InExtended), b2i(o.Possible), b2i(o.Reached), o.Final[0], o.Final[1], o.Excess, bx[0], bx[1], bx[2], bx[3])
		}
		d.panels = append(d.panels, mp)
		cfg.Logf("stability-map: panel %d done (%d cells)", pi, len(out))
	}
	return d, nil
}

// mapPlot draws one panel: cells by category and the two regions.
func mapPlot(p mapParams, cba float64, mp mapPanel) *plot.Plot {
	lo, hi, t := p.lo, p.hi, p.t
	pl := plots.New(fmt.Sprintf("C_{aa} = 0.1, C_{ba} = %g, T = (0.7, 0.7)", cba), "A_{a} (DNS demand at node a)", "A_{b} (DNS demand at node b)", plots.LogX(), plots.LogY(), plots.XRange(lo, hi), plots.YRange(lo, hi))
	names := []string{"controlled", "stable uncontrollable state exists,\nnot reached from x = (0.5, 0.5)", "greedy from x = (0.5, 0.5)\nends uncontrolled"}
	colours := []color.Color{plots.Color(2), plots.Color(1), plots.Color(5)}
	// One raster image, px×px pixels per cell: cells drawn one by one
	// leave antialiased hairline seams between neighbours, and the
	// image's scaling to the page blurs only a pixel at each cell edge.
	const px = 16
	img := image.NewRGBA(image.Rect(0, 0, px*p.n, px*p.n))
	seen := [3]bool{}
	for r, row := range mp.cat {
		for c, k := range row {
			seen[k] = true
			for i := range px * px {
				img.Set(px*c+i%px, px*(p.n-1-r)+i/px, colours[k])
			}
		}
	}
	pl.Add(cellRaster{img: img, x0: lo, x1: hi, y0: lo, y1: hi})
	for k, name := range names {
		if seen[k] {
			sw, _ := plotter.NewPolygon(plotter.XYs{{}, {}, {}})
			sw.Color, sw.LineStyle.Width = colours[k], 0
			pl.Legend.Add(name, sw)
		}
	}
	bx := mapBoxes(t, cba)
	addBox(pl, color.Black, []vg.Length{vg.Points(6), vg.Points(3)}, "Π_{C} (28)", bx[0], bx[1], lo, hi)
	addBox(pl, plots.Color(3), []vg.Length{vg.Points(2), vg.Points(2)}, "Π′_{C} (§5.5)", bx[2], bx[3], lo, hi)
	return pl
}

// mapBoxes returns the corners (A_a max, A_b max) of the two regions
// drawn on a map panel (+Inf for an unbounded side), with C_aa = 0.1 and
// C_ab = 0.9: Π_C (28), C_ab A_a ≤ T_b and C_ba A_b ≤ T_a; and Π′_C
// (§5.5), C_ab min(A_a, T_a/C_aa) ≤ T_b and C_ba min(A_b, T_b/C_bb) ≤ T_a.
func mapBoxes(t []float64, cba float64) [4]float64 {
	bx := [4]float64{t[1] / 0.9, math.Inf(1), math.Inf(1), math.Inf(1)}
	if cba > 0 {
		bx[1] = t[0] / cba
	}
	if 0.9*t[0]/0.1 > t[1] {
		bx[2] = t[1] / 0.9
	}
	if cba*t[1]/(1-cba) > t[0] {
		bx[3] = t[0] / cba
	}
	return bx
}

func mapDraw(p mapParams, d *mapData) *plots.Result {
	var cells []*plot.Plot
	var heads []plots.Headline
	for pi, cba := range p.cbas {
		mp := d.panels[pi]
		cells = append(cells, mapPlot(p, cba, mp))
		heads = append(heads,
			plots.Within(fmt.Sprintf("C_ba=%g: cells ending uncontrolled without a stable uncontrollable equilibrium", cba), float64(mp.inconsistent), 0, 0, "0 (linearisation, §5.4)"),
			plots.Within(fmt.Sprintf("C_ba=%g: cells in Π′_C with uncontrollable overload", cba), float64(mp.inside), 0, 0, "0 (§5.3, §5.5)"),
		)
	}
	return &plots.Result{Plot: legendRight(cells[0], cells[1]), Width: 26 * cm, Height: 11 * cm, Data: d.tab, Headlines: heads}
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

func xyOf(xs, ys []float64) plotter.XYs {
	pts := make(plotter.XYs, len(xs))
	for i := range xs {
		pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	return pts
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

// cellRaster draws an image over the data rectangle [x0, x1]×[y0, y1]
// without resampling per axis scale: each pixel is one cell of a grid
// evenly spaced on the plot's axes (log-spaced cells on log axes).
type cellRaster struct {
	img            image.Image
	x0, x1, y0, y1 float64
}

// Plot implements plot.Plotter.
func (r cellRaster) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	c.DrawImage(vg.Rectangle{Min: vg.Point{X: trX(r.x0), Y: trY(r.y0)}, Max: vg.Point{X: trX(r.x1), Y: trY(r.y1)}}, r.img)
}

// DataRange implements plot.DataRanger.
func (r cellRaster) DataRange() (xmin, xmax, ymin, ymax float64) { return r.x0, r.x1, r.y0, r.y1 }

// dayAxis shows one day on p's x axis, labelled every 6 hours.
func dayAxis(p *plot.Plot) {
	p.X.Min, p.X.Max = 0, 24
	var ts []plot.Tick
	for h := 0; h <= 24; h += 2 {
		t := plot.Tick{Value: float64(h)}
		if h%6 == 0 {
			t.Label = strconv.Itoa(h)
		}
		ts = append(ts, t)
	}
	p.X.Tick.Marker = plot.ConstantTicks(ts)
}
