package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

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
			Make:    dualConvergence,
		},
		plots.Figure{
			Name:    "dual-trajectories",
			Caption: "Algorithm 1 on the three-node network of spec §8 item 23 (α = 0.05): prices μ_i(k) approach μ* and the observed loads S_i^obs(k) settle above the capacities T_i at the optimal overload.",
			Make:    dualTrajectories,
		},
		plots.Figure{
			Name:    "dual-fastcontrol",
			Caption: "FastControl (19)–(20) on spec item 23's network: steady-state gap P* − D and relative error of the measured β against the measurement window W (γ = 10), without and with 10% packet loss; wide pale lines: the Poisson prediction of the β error.",
			Make:    dualFastControl,
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

func dualConvergence(cfg plots.Config) (*plots.Result, error) {
	n, iters := 60, 50000
	if cfg.Quick {
		n, iters = 30, 5000
	}
	nw, err := dualNetwork(n, rand.New(mc.Source(cfg.Seed, 41)))
	if err != nil {
		return nil, err
	}
	p, err := dual.Quadratic(nw, 1, 4)
	if err != nil {
		return nil, err
	}
	ref, err := dualReference(p)
	if err != nil {
		return nil, err
	}
	pstar := ref.Value
	g := p.GBound()
	r := floats.Norm(ref.Mu, 2) // ‖μ(0) − μ*‖ with μ(0) = 0
	eps := 0.01 * pstar
	a0, err := dual.Step(eps, g)
	if err != nil {
		return nil, err
	}
	steps := []float64{a0, 30 * a0, 1000 * a0}
	names := []string{"α_ε", "30 α_ε", "1000 α_ε"}
	cfg.Logf("dual-convergence: N = %d, P* = %.6g, G = %.4g, ‖μ*‖ = %.4g, α_ε = %.3g", n, pstar, g, r, a0)

	left := plots.New("Dual value", "iteration k", "D(μ(k))", plots.LogX())
	right := plots.New("Gap and Theorem III.3 envelope", "iteration k", "P* − max_{j<k} D(μ(j))", plots.LogX(), plots.LogY())
	tab := plots.NewTable("alpha", "k", "D", "best_gap", "envelope")
	ticks := logTicks(iters, 120)
	var heads []plots.Headline
	var lo = math.Inf(1)
	for s, a := range steps {
		res, err := dual.Solve(p, &dual.Settings{Step: a, MaxIter: iters, Fixed: true, RecordDual: true})
		if err != nil {
			return nil, err
		}
		var ks, ds, gaps, env, gk []float64
		best := math.Inf(-1)
		ti := 0
		for k, d := range res.Dual {
			best = math.Max(best, d)
			if ti < len(ticks) && k+1 == ticks[ti] {
				ti++
				gap := pstar - best
				e, err := dual.Bound(r, a, g, k+1)
				if err != nil {
					return nil, err
				}
				ks = append(ks, float64(k+1))
				ds = append(ds, d)
				env = append(env, e)
				if gap > 1e-12*pstar { // below rounding of D the log axis has nothing to show
					gaps = append(gaps, gap)
					gk = append(gk, float64(k+1))
				}
				tab.Add(a, k+1, d, gap, e)
				lo = math.Min(lo, d)
			}
		}
		plots.AddCurve(left, s, fmt.Sprintf("α = %s = %.3g", names[s], a), ks, ds)
		if len(gk) > 0 {
			plots.AddCurve(right, s, fmt.Sprintf("α = %s", names[s]), gk, gaps)
		}
		if err := addEnvelope(right, s, ks, env); err != nil {
			return nil, err
		}
		bk, err := dual.Bound(r, a, g, iters)
		if err != nil {
			return nil, err
		}
		heads = append(heads, plots.Headline{
			Name:      fmt.Sprintf("gap after %d steps, α = %s", iters, names[s]),
			Value:     pstar - res.Best,
			Reference: fmt.Sprintf("Theorem III.3 bound %.3g", bk),
		})
		cfg.Logf("  α = %.3g: gap %.3g after %d steps", a, pstar-res.Best, iters)
	}
	plots.AddHLine(left, -1, "P*", pstar)
	right.Y.Tick.Marker = dualDecades{}
	right.Legend.Add("wide pale: bound")
	heads = append(heads, plots.Headline{Name: fmt.Sprintf("P* (N = %d, reference primal solver)", n), Value: pstar, Reference: fmt.Sprintf("certified gap %.1g", ref.Value-ref.Lower)})
	w, h := plots.PanelSize(1, 2)
	return &plots.Result{
		Plot:      plots.NewPanels(1, 2, plots.LegendOutside(left), plots.LegendOutside(right)),
		Width:     w * 1.15,
		Height:    h * 1.3,
		Data:      tab,
		Headlines: heads,
	}, nil
}

func dualTrajectories(cfg plots.Config) (*plots.Result, error) {
	p, err := dualItem23()
	if err != nil {
		return nil, err
	}
	const iters = 400
	res, err := dual.Solve(p, &dual.Settings{Step: 0.05, MaxIter: iters, Fixed: true, Record: 1})
	if err != nil {
		return nil, err
	}
	ref, err := dualReference(p)
	if err != nil {
		return nil, err
	}
	n := p.N()
	left := plots.New("Prices", "iteration k", "μ_i(k)")
	right := plots.New("Loads", "iteration k", "observed load S_i(k) (requests per unit time)")
	tab := plots.NewTable("k", "node", "mu", "S_obs", "S_star", "T")
	for i := 0; i < n; i++ {
		ks := make([]float64, len(res.Trace))
		mu := make([]float64, len(res.Trace))
		so := make([]float64, len(res.Trace))
		for k, s := range res.Trace {
			ks[k], mu[k], so[k] = float64(s.Iter), s.Mu[i], s.SObs[i]
			tab.Add(s.Iter, i, s.Mu[i], s.SObs[i], s.S[i], p.Net.T[i])
		}
		plots.AddCurve(left, i, fmt.Sprintf("node %d", i+1), ks, mu)
		last := ks[len(ks)-1]
		if err := addEnvelope(left, i, []float64{0, last}, []float64{ref.Mu[i], ref.Mu[i]}); err != nil {
			return nil, err
		}
		plots.AddCurve(right, i, fmt.Sprintf("node %d", i+1), ks, so)
		if err := addEnvelope(right, i, []float64{0, last}, []float64{p.Net.T[i], p.Net.T[i]}); err != nil {
			return nil, err
		}
	}
	cfg.Logf("dual-trajectories: best D = %.9f, P* = %.9f", res.Best, ref.Value)
	left.Legend.Add("wide pale: μ*")
	right.Legend.Add("wide pale: T_i")
	w, h := plots.PanelSize(1, 2)
	return &plots.Result{
		Plot:   plots.NewPanels(1, 2, plots.LegendOutside(left), plots.LegendOutside(right)),
		Width:  w * 1.15,
		Height: h * 1.3,
		Data:   tab,
		Headlines: []plots.Headline{
			{Name: "P* of spec §8 item 23 (primal)", Value: ref.Value, Reference: "spec 0.4319010"},
			{Name: fmt.Sprintf("P* − best D after %d steps, α = 0.05", iters), Value: ref.Value - res.Best, Reference: "spec: 1e-9 within 20000 steps"},
		},
	}, nil
}

func dualFastControl(cfg plots.Config) (*plots.Result, error) {
	p, err := dualItem23()
	if err != nil {
		return nil, err
	}
	iters, runs := 4000, 20
	windows := []float64{0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300}
	if cfg.Quick {
		iters, runs = 1000, 6
		windows = []float64{0.01, 0.1, 1, 10, 100}
	}
	losses := []float64{0, 0.1}
	fc := dual.FastControl{Gamma: 10}
	pts, err := dual.Sweep(p, fc, windows, losses, &dual.Settings{Step: 0.05, MaxIter: iters}, runs, cfg.Seed)
	if err != nil {
		return nil, err
	}
	// Poisson prediction of the relative β error at μ*: β̂_i has mean
	// (1−ℓ)β_i and variance (1−ℓ)β_i/(γW), so
	// E‖β̂ − β‖²/‖β‖² = [(1−ℓ) Σβ_i/(γW) + ℓ² ‖β‖²]/‖β‖².
	ref, err := dualReference(p)
	if err != nil {
		return nil, err
	}
	beta := dual.Coupling(nil, p.Net, ref.Mu)
	sb, nb2 := floats.Sum(beta), floats.Dot(beta, beta)

	left := plots.New("Steady-state gap", "measurement window W (time units)", "P* − D(μ(k)), last quarter", plots.LogX(), plots.LogY())
	right := plots.New("Error of the measured β", "measurement window W (time units)", "‖β̂ − β‖₂ / ‖β‖₂", plots.LogX(), plots.LogY())
	left.Y.Tick.Marker = dualDecades{}
	right.Y.Tick.Marker = dualDecades{}
	tab := plots.NewTable("window", "gamma", "loss", "packets_per_step", "beta_err", "beta_err_poisson", "gap", "gap_lo", "gap_hi")
	var heads []plots.Headline
	for li, loss := range losses {
		var ws, gap, glo, ghi, be, pred []float64
		for _, pt := range pts {
			if pt.Loss != loss {
				continue
			}
			pr := math.Sqrt(((1-loss)*sb/(fc.Gamma*pt.Window) + loss*loss*nb2) / nb2)
			ws = append(ws, pt.Window)
			gap = append(gap, pt.Gap.Mean)
			glo = append(glo, math.Max(pt.Gap.Lo, pt.Gap.Mean*1e-3)) // a log axis cannot show a negative lower end
			ghi = append(ghi, pt.Gap.Hi)
			be = append(be, pt.BetaErr)
			pred = append(pred, pr)
			tab.Add(pt.Window, pt.Gamma, pt.Loss, pt.Packets, pt.BetaErr, pr, pt.Gap.Mean, pt.Gap.Lo, pt.Gap.Hi)
		}
		name := fmt.Sprintf("loss %.0f%%", 100*loss)
		plots.AddBand(left, li, name, ws, glo, gap, ghi)
		plots.AddLine(left, li, "", ws, gap)
		plots.AddLine(right, li, name, ws, be)
		if err := addEnvelope(right, li, ws, pred); err != nil {
			return nil, err
		}
		heads = append(heads, plots.Headline{
			Name:      fmt.Sprintf("FastControl gap at W = %g, %s", ws[len(ws)-1], name),
			Value:     gap[len(gap)-1],
			Reference: "exact β: 0 (spec item 23)",
		})
	}
	right.Legend.Add("wide pale: Poisson prediction")
	cfg.Logf("dual-fastcontrol: %d windows × %d loss rates × %d runs of %d steps", len(windows), len(losses), runs, iters)
	w, h := plots.PanelSize(1, 2)
	return &plots.Result{
		Plot:      plots.NewPanels(1, 2, plots.LegendOutside(left), plots.LegendOutside(right)),
		Width:     w * 1.15,
		Height:    h * 1.3,
		Data:      tab,
		Headlines: heads,
	}, nil
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

// dualDecades labels a log axis at powers of ten only, every step-th
// decade when the axis spans many, printed as 1e-06 rather than gonum's
// rounding-prone 9.99…e-07.
type dualDecades struct{}

func (dualDecades) Ticks(min, max float64) []plot.Tick {
	lo, hi := math.Floor(math.Log10(min)), math.Ceil(math.Log10(max))
	step := math.Max(1, math.Ceil((hi-lo)/7))
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Pow(10, e)
		if v < min*(1-1e-9) || v > max*(1+1e-9) {
			continue
		}
		label := ""
		if math.Mod(e-lo, step) == 0 {
			label = strconv.FormatFloat(v, 'g', -1, 64)
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}
