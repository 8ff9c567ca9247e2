package main

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func init() {
	register(
		plots.Figure{
			Name:    "dual-convergence",
			Caption: "Dual super-gradient algorithm (17) on a random CDN with quadratic costs: dual value D(μ(k)) and best gap P* − max D against k for the Theorem III.3 step α_ε = ε/G² (ε = 1% of P*) and 30× and 1000× larger steps, with the theorem's envelope R²/(2αk) + αG²/2 (wide pale lines).",
			Make:    threeSteps(convPreset, convCompute, convDraw),
			Seconds: 6,
		},
		plots.Figure{
			Name:    "dual-trajectories",
			Caption: "Algorithm 1 on the three-node network of spec §8 item 23 (α = 0.05): prices μ_i(k) approach μ* and the observed loads S_i^obs(k) settle above the capacities T_i at the optimal overload.",
			Make:    threeSteps(fixed(trajParams{iters: 400, step: 0.05}), trajCompute, trajDraw),
			Seconds: 1,
		},
		plots.Figure{
			Name:    "dual-fastcontrol",
			Caption: "FastControl (19)–(20) on spec item 23's network: steady-state gap P* − D and relative error of the measured β against the measurement window W (γ = 10), without and with 10% packet loss, means of 20 runs per point (6 in quick mode) with 95% Student-t bands; wide pale lines: the Poisson prediction of the β error.",
			Make:    threeSteps(fastPreset, fastCompute, fastDraw),
			Seconds: 10,
		},
	)
}

// dualNetwork draws an n-node CDN with a dense correlation matrix whose
// diagonal dominates a little, demand A ∈ [0, 3) and capacities at
// 40–160% of the largest load each proxy can see.
func dualNetwork(n int, rng *rand.Rand) (*anycast.Network, error) {
	c := mat.NewDense(n, n, nil)
	for j := 0; j < n; j++ {
		row := c.RawRowView(j)
		for i := range row {
			row[i] = 0.05 + rng.Float64()
			if i == j {
				row[i] += 2 * rng.Float64()
			}
		}
		floats.Scale(1/floats.Sum(row), row)
	}
	a := make([]float64, n)
	for i := range a {
		a[i] = 3 * rng.Float64()
	}
	t := make([]float64, n)
	var ml mat.VecDense
	ml.MulVec(c.T(), mat.NewVecDense(n, a))
	for i := range t {
		t[i] = math.Max(0.05, (0.4+1.2*rng.Float64())*ml.AtVec(i))
	}
	return anycast.NewNetwork(a, c, t)
}

func dualItem23() (*dual.Problem, error) {
	nw, err := anycast.NewNetwork(
		[]float64{2, 1.5, 1},
		mat.NewDense(3, 3, []float64{0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.1, 0.2, 0.7}),
		[]float64{0.8, 0.9, 0.7})
	if err != nil {
		return nil, err
	}
	return dual.Quadratic(nw, 1, 4)
}

// dualReference is P1's reference optimum; a figure that plots gaps to P*
// must not draw them against an uncertified value.
func dualReference(p *dual.Problem) (*dual.PrimalResult, error) {
	ref, err := dual.Primal(p, nil)
	if err != nil {
		return nil, err
	}
	if !ref.Status.Converged() {
		return nil, fmt.Errorf("reference optimum not certified: Value − Lower = %g", ref.Value-ref.Lower)
	}
	return ref, nil
}

// logTicks returns about m iteration counts spread evenly in log scale
// over [1, k], for thinning a long trajectory.
func logTicks(k, m int) []int {
	var out []int
	last := 0
	for i := 0; i <= m; i++ {
		v := int(math.Round(math.Pow(float64(k), float64(i)/float64(m))))
		if v > last {
			out = append(out, v)
			last = v
		}
	}
	return out
}

// ---- dual-convergence ----

type convParams struct {
	n, iters int
	factors  []float64 // step sizes as multiples of α_ε
	names    []string
}

func convPreset(quick bool) convParams {
	p := convParams{n: 60, iters: 50000, factors: []float64{1, 30, 1000}, names: []string{"α_{ε}", "30 α_{ε}", "1000 α_{ε}"}}
	if quick {
		p.n, p.iters = 30, 5000
	}
	return p
}

// convRun is one step size's run, thinned to about 120 points.
type convRun struct {
	alpha        float64
	ks, ds, env  []float64
	gk, gaps     []float64 // best gaps above rounding, for the log axis
	final, bound float64   // gap after all steps, and its Theorem III.3 bound
}

type convData struct {
	pstar, certified float64 // P* and its certified gap Value − Lower
	runs             []convRun
	tab              *plots.Table
}

func convCompute(cfg plots.Config, p convParams) (*convData, error) {
	nw, err := dualNetwork(p.n, rand.New(mc.Source(cfg.Seed, 41)))
	if err != nil {
		return nil, err
	}
	prob, err := dual.Quadratic(nw, 1, 4)
	if err != nil {
		return nil, err
	}
	ref, err := dualReference(prob)
	if err != nil {
		return nil, err
	}
	d := &convData{pstar: ref.Value, certified: ref.Value - ref.Lower, tab: plots.NewTable("alpha", "k", "D", "best_gap", "envelope")}
	g, err := prob.GBound()
	if err != nil {
		return nil, err
	}
	r := floats.Norm(ref.Mu, 2) // ‖μ(0) − μ*‖ with μ(0) = 0
	a0, err := dual.Step(0.01*d.pstar, g)
	if err != nil {
		return nil, err
	}
	cfg.Logf("dual-convergence: N = %d, P* = %.6g, G = %.4g, ‖μ*‖ = %.4g, α_ε = %.3g", p.n, d.pstar, g, r, a0)
	ticks := logTicks(p.iters, 120)
	for _, f := range p.factors {
		a := f * a0
		res, err := dual.Solve(prob, &dual.Settings{Step: a, MaxIter: p.iters, Fixed: true, RecordDual: true})
		if err != nil {
			return nil, err
		}
		run := convRun{alpha: a, final: d.pstar - res.Best, bound: mustBound(r, a, g, p.iters)}
		best, ti := math.Inf(-1), 0
		for k, dk := range res.Dual {
			best = math.Max(best, dk)
			if ti == len(ticks) || k+1 != ticks[ti] {
				continue
			}
			ti++
			gap, e := d.pstar-best, mustBound(r, a, g, k+1)
			run.ks, run.ds, run.env = append(run.ks, float64(k+1)), append(run.ds, dk), append(run.env, e)
			if gap > 1e-12*d.pstar { // below rounding of D the log axis has nothing to show
				run.gaps, run.gk = append(run.gaps, gap), append(run.gk, float64(k+1))
			}
			d.tab.Add(a, k+1, dk, gap, e)
		}
		d.runs = append(d.runs, run)
		cfg.Logf("  α = %.3g: gap %.3g after %d steps", a, run.final, p.iters)
	}
	return d, nil
}

func convDraw(p convParams, d *convData) *plots.Result {
	left := plots.New(fmt.Sprintf("Dual value (N = %d proxies)", p.n), "iteration k", "D(μ(k))", plots.LogX())
	right := plots.New("Gap and Theorem III.3 envelope", "iteration k", "P* − max_{j<k} D(μ(j))", plots.LogX(), plots.LogY())
	var heads []plots.Headline
	for s, run := range d.runs {
		plots.AddCurve(left, s, fmt.Sprintf("α = %s = %.3g", p.names[s], run.alpha), run.ks, run.ds)
		if len(run.gk) > 0 {
			plots.AddCurve(right, s, "", run.gk, run.gaps) // named in the top legend
		}
		if err := addEnvelope(right, s, run.ks, run.env); err != nil {
			panic(err) // finite bounds
		}
		gap := belowRounding(run.final, d.pstar) // D may exceed P* by rounding
		heads = append(heads, plots.Within(fmt.Sprintf("gap after %d steps, α = %s", p.iters, plots.PlainText(p.names[s])), gap, 0, run.bound,
			"[0, Theorem III.3 bound R²/(2αk) + αG²/2]; |gap| < 1e-12·P* (rounding) shown as 0"))
	}
	plots.AddHLine(left, -1, "P*", d.pstar)
	envelopeKey(right, "bound (wide pale line)")
	heads = append(heads, plots.Within(fmt.Sprintf("P* − certified lower bound (N = %d)", p.n), belowRounding(d.certified, d.pstar), 0, 1e-9*d.pstar, "reference primal solver's certificate, 1e-9 relative; |gap| < 1e-12·P* (rounding) shown as 0"))
	return &plots.Result{Plot: plots.NewStack(left, right), Width: 18 * cm, Height: 20 * cm, Data: d.tab, Headlines: heads}
}

// mustBound is dual.Bound for arguments that are valid by construction
// (finite positive radius, step and bound, k ≥ 1).
func mustBound(r, alpha, g float64, k int) float64 {
	b, err := dual.Bound(r, alpha, g, k)
	if err != nil {
		panic(err)
	}
	return b
}

// ---- dual-trajectories ----

type trajParams struct {
	iters int
	step  float64
}

type trajData struct {
	prob  *dual.Problem
	res   *dual.Result
	ref   *dual.PrimalResult
	bound float64 // Theorem III.3 bound on the gap after iters steps
	tab   *plots.Table
}

func trajCompute(cfg plots.Config, p trajParams) (*trajData, error) {
	prob, err := dualItem23()
	if err != nil {
		return nil, err
	}
	res, err := dual.Solve(prob, &dual.Settings{Step: p.step, MaxIter: p.iters, Fixed: true, Record: 1})
	if err != nil {
		return nil, err
	}
	ref, err := dualReference(prob)
	if err != nil {
		return nil, err
	}
	d := &trajData{prob: prob, res: res, ref: ref, tab: plots.NewTable("k", "node", "mu", "S_obs", "S_star", "T", "mu_star")}
	g, err := prob.GBound()
	if err != nil {
		return nil, err
	}
	d.bound = mustBound(floats.Norm(ref.Mu, 2), p.step, g, p.iters)
	for _, s := range res.Trace {
		for i := 0; i < prob.N(); i++ {
			// Nodes are numbered from 1, as in the figure's legend.
			d.tab.Add(s.Iter, i+1, s.Mu[i], s.SObs[i], s.S[i], prob.Net.T[i], ref.Mu[i])
		}
	}
	cfg.Logf("dual-trajectories: best D = %.9f, P* = %.9f", res.Best, ref.Value)
	return d, nil
}

func trajDraw(p trajParams, d *trajData) *plots.Result {
	left := plots.New("Prices", "iteration k", "μ_{i}(k)")
	right := plots.New("Loads", "iteration k", "observed load S_{i}(k) (requests per unit time)")
	for i := 0; i < d.prob.N(); i++ {
		n := len(d.res.Trace)
		ks, mu, so := make([]float64, n), make([]float64, n), make([]float64, n)
		for k, s := range d.res.Trace {
			ks[k], mu[k], so[k] = float64(s.Iter), s.Mu[i], s.SObs[i]
		}
		last := ks[n-1]
		plots.AddCurve(left, i, fmt.Sprintf("node %d", i+1), ks, mu)
		plots.AddCurve(right, i, "", ks, so) // named in the top legend
		if addEnvelope(left, i, []float64{0, last}, []float64{d.ref.Mu[i], d.ref.Mu[i]}) != nil ||
			addEnvelope(right, i, []float64{0, last}, []float64{d.prob.Net.T[i], d.prob.Net.T[i]}) != nil {
			panic("figures: non-finite reference level") // finite by construction
		}
	}
	envelopeKey(left, "μ*_{i} (wide pale line)")
	envelopeKey(right, "T_{i} (wide pale line)")
	gap := belowRounding(d.ref.Value-d.res.Best, d.ref.Value) // D above P* by rounding
	return &plots.Result{
		Plot: plots.NewStack(left, right), Width: 16 * cm, Height: 18 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			plots.Near("P* of spec §8 item 23 (primal)", d.ref.Value, 0.4319010, 5e-8, "spec: 0.4319010"),
			plots.Within(fmt.Sprintf("P* − best D after %d steps, α = %g", p.iters, p.step), gap, 0, d.bound, "[0, Theorem III.3 bound]; |gap| < 1e-12·P* (rounding) shown as 0"),
		},
	}
}

// ---- dual-fastcontrol ----

type fastParams struct {
	iters, runs     int
	windows, losses []float64
	gamma, step     float64
}

func fastPreset(quick bool) fastParams {
	p := fastParams{iters: 4000, runs: 20, windows: []float64{0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300},
		losses: []float64{0, 0.1}, gamma: 10, step: 0.05}
	if quick {
		p.iters, p.runs, p.windows = 1000, 6, []float64{0.01, 0.1, 1, 10, 100}
	}
	return p
}

type fastData struct {
	pts     []dual.SweepPoint
	sb, nb2 float64 // Σβ_i and ‖β‖² at μ*
	tab     *plots.Table
}

// fastPredict is the Poisson prediction of the relative β error at μ*:
// β̂_i has mean (1−ℓ)β_i and variance (1−ℓ)β_i/(γW), so
// E‖β̂ − β‖²/‖β‖² = [(1−ℓ) Σβ_i/(γW) + ℓ² ‖β‖²]/‖β‖².
func (d *fastData) predict(loss, gamma, window float64) float64 {
	return math.Sqrt(((1-loss)*d.sb/(gamma*window) + loss*loss*d.nb2) / d.nb2)
}

func fastCompute(cfg plots.Config, p fastParams) (*fastData, error) {
	prob, err := dualItem23()
	if err != nil {
		return nil, err
	}
	fc := dual.FastControl{Gamma: p.gamma}
	pts, err := dual.Sweep(prob, fc, p.windows, p.losses, &dual.Settings{Step: p.step, MaxIter: p.iters}, p.runs, cfg.Seed)
	if err != nil {
		return nil, err
	}
	ref, err := dualReference(prob)
	if err != nil {
		return nil, err
	}
	beta, err := dual.Coupling(nil, prob.Net, ref.Mu)
	if err != nil {
		return nil, err
	}
	d := &fastData{pts: pts, sb: floats.Sum(beta), nb2: floats.Dot(beta, beta),
		tab: plots.NewTable("window", "gamma", "loss", "packets_per_step", "beta_err", "beta_err_poisson", "gap", "gap_lo", "gap_hi", "runs")}
	for _, pt := range pts {
		d.tab.Add(pt.Window, pt.Gamma, pt.Loss, pt.Packets, pt.BetaErr, d.predict(pt.Loss, pt.Gamma, pt.Window), pt.Gap.Mean, pt.Gap.Lo, pt.Gap.Hi, p.runs)
	}
	cfg.Logf("dual-fastcontrol: %d windows × %d loss rates × %d runs of %d steps", len(p.windows), len(p.losses), p.runs, p.iters)
	return d, nil
}

func fastDraw(p fastParams, d *fastData) *plots.Result {
	left := plots.New(fmt.Sprintf("Steady-state gap (mean of %d runs, 95%% band)", p.runs), "measurement window W (time units)", "P* − D(μ(k)), last quarter", plots.LogX(), plots.LogY())
	right := plots.New("Error of the measured β", "measurement window W (time units)", "‖β̂ − β‖₂ / ‖β‖₂", plots.LogX(), plots.LogY())
	var heads []plots.Headline
	for li, loss := range p.losses {
		var ws, gap, glo, ghi, be, pred []float64
		for _, pt := range d.pts {
			if pt.Loss != loss {
				continue
			}
			ws, gap, be = append(ws, pt.Window), append(gap, pt.Gap.Mean), append(be, pt.BetaErr)
			glo = append(glo, math.Max(pt.Gap.Lo, pt.Gap.Mean*1e-3)) // a log axis cannot show a negative lower end
			ghi = append(ghi, pt.Gap.Hi)
			pred = append(pred, d.predict(loss, p.gamma, pt.Window))
		}
		name := fmt.Sprintf("loss %.0f%%", 100*loss)
		plots.AddBand(left, li, name, ws, glo, gap, ghi)
		plots.AddLine(right, li, "", ws, be) // named in the top legend
		if err := addEnvelope(right, li, ws, pred); err != nil {
			panic(err) // finite predictions
		}
		last := len(ws) - 1
		heads = append(heads, plots.Within(fmt.Sprintf("β error / Poisson prediction at W = %g, %s", ws[last], name), be[last]/pred[last], 0.8, 1.25,
			"≈ 1: the Poisson model of the measurement (spec item 23); ±25% for the runs' spread"))
		if loss == 0 {
			heads = append(heads, plots.Within(fmt.Sprintf("gap at W = %g / gap at W = %g, loss 0", ws[last], ws[0]), gap[last]/gap[0], 0, 1e-3,
				"exact β gives gap 0 (spec item 23): the gap falls ≥ 1000-fold as W grows"))
		}
	}
	envelopeKey(right, "Poisson prediction (wide pale line)")
	return &plots.Result{Plot: plots.NewStack(left, right), Width: 16 * cm, Height: 18 * cm, Data: d.tab, Headlines: heads}
}

// addEnvelope draws ys against xs as a wide pale line in the colour of
// series i, without a legend entry: a bound or a prediction next to the
// measured series i, distinct from every series' own dash pattern.
func addEnvelope(p *plot.Plot, i int, xs, ys []float64) error {
	xy := make(plotter.XYs, len(xs))
	for k := range xs {
		xy[k].X, xy[k].Y = xs[k], ys[k]
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.LineStyle.Color = plots.Translucent(i, 90)
	l.LineStyle.Width = vg.Points(5)
	p.Add(l)
	return nil
}

// envelopeKey adds the legend entry of addEnvelope's lines: a wide pale
// grey swatch, as the lines are drawn in each series' colour.
func envelopeKey(p *plot.Plot, name string) {
	l, err := plotter.NewLine(plotter.XYs{{}, {X: 1}})
	if err != nil {
		panic(err) // two finite points
	}
	l.LineStyle.Color = color.Gray{Y: 0xb0}
	l.LineStyle.Width = vg.Points(5)
	p.Legend.Add(name, l)
}
