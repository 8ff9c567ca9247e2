package main

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
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

// The figures of the throttler as deployed (docs/specs/throttlers-deployed.md,
// "spec deployed"): delay, the centralized baseline, conservation under
// imperfect exchanges, clients inside the loop.
func init() {
	areas = append(areas, struct{ prefix, title string }{"deployed", "Distributed system throttlers as deployed"})
	register(
		plots.Figure{
			Name:    "deployed-rho-vs-gamma",
			Caption: "A 6×6 torus throttler whose measures arrive τ cycles late (spec deployed §2): top, ρ₂ (random-walk demand, σ = 1) against the update cycle γ for τ = 0, 1, 2, 4, the exact sums over Laplacian modes as lines over (0, a*(τ)/λₙ) with the stability limits dashed and γ*_H2(τ) circled, and simulations of the delayed network (EstimateRho with MonteCarlo.Network) as markers with 95 % intervals, each from runs of 4000 cycles until its half-width is ≤ 0.5 % (N per marker in the CSV; the intervals are narrower than the markers); bottom, the expected over-throttling E O under the same delays in the Gaussian stationary regime (Case 1, σ = 10, l_total = mean total demand), closed form (Spectral.OverDelay) as lines and EstimateOver on the delayed network as markers with 95 % intervals (runs of 2000 cycles until ±0.5 %).",
			Make:    threeSteps(rhoDelayPreset, rhoDelayCompute, rhoDelayDraw),
			Seconds: 5,
		},
		plots.Figure{
			Name:    "deployed-dst-vs-cst",
			Caption: "Over-throttling per cycle of the distributed throttler (6×6 torus at γ*_H2) against the centralized one as the CST's decision delay d grows, on the same Gaussian demand draws (Regime: heterogeneous means, σ = 10, l_total = mean total demand; common random numbers): the DST as a band (its 95 % interval) around its exact value (dashed), the CST with the proportional and the equal rule as markers with 95 % intervals (runs of 2000 cycles until ±0.5 %; N in the CSV), the equal rule's closed form and the proportional rule's first-order value dashed; the lower panel zooms on the DST and the proportional CST. With demand noise independent from cycle to cycle a decision of any past cycle is as stale as one of the last, so the proportional CST jumps from 0 at d = 0 to a level it keeps for every d ≥ 1 — here just below the DST at γ*_H2, so the two do not cross (for this demand the DST's over-throttling falls with smaller γ, spec deployed §4.3).",
			Make:    threeSteps(dstCstPreset, dstCstCompute, dstCstDraw),
			Seconds: 2,
		},
		plots.Figure{
			Name:    "deployed-conservation",
			Caption: "Largest change of the total limit over 2000 cycles under each imperfection of the exchanges, Joint protocol (a transfer applied by both ends or by neither) against Separate (each end applies its own estimate), one run each on the 10-server network of spec deployed §1.4's table (γ = 0.02, stationary demand σ = 20, sums formed exactly); log scale: exact zeros are drawn as stubs at 10⁻¹⁴ and marked 0 (a Joint bar just above is one unit in the last place of the total: the recorded limits drop their compensated low parts); one-way links keep both ways on a spanning tree and carry the other links one way.",
			Make:    threeSteps(fixed(conservationParams{cycles: 2000, floor: 1e-14}), conservationCompute, conservationDraw),
			Seconds: 1,
		},
		plots.Figure{
			Name:    "deployed-client-fairness",
			Caption: "One day (1440 one-minute cycles) of a throttler with clients inside the loop (SimulateClients, one run per algorithm): 400 servers on a random 4-regular graph at γ*_H2, about 10 clients each whose diurnal demand (peak-to-mean 1.6, three time zones, log-normal noise) is a ClientTrace, and l_total = 80 % of the day's peak; top, requested, limit and accepted totals; bottom, Jain's index of the active clients' accepted ratios over the network for Algorithm 1 (uniform ratio) and Algorithm 2 (water-filling).",
			Make:    threeSteps(fairnessPreset, fairnessCompute, fairnessDraw),
			Seconds: 2,
		},
	)
}

// deployedSeed derives the seed of part k of a deployed figure from the
// root seed, so every Monte Carlo study draws its own streams.
func deployedSeed(cfg plots.Config, k uint64) uint64 {
	return mc.Source(cfg.Seed, 28, k).Uint64()
}

// acceptPartial accepts an estimate that stopped at its run cap
// (ErrNotConverged carries the estimate over the runs made, with an honest
// interval) and logs it; other errors pass through.
func acceptPartial(cfg plots.Config, what string, err error) error {
	if errors.Is(err, loadlab.ErrNotConverged) {
		cfg.Logf("%s: run cap reached; the interval is that of the runs made", what)
		return nil
	}
	return err
}

// gaussPlus is G(μ, s) = E(μ + sZ)₊ = μΦ(μ/s) + sφ(μ/s), Z ~ N(0, 1)
// (spec deployed §4.2), G(μ, 0) = μ₊.
func gaussPlus(mu, s float64) float64 {
	if s == 0 {
		return math.Max(mu, 0)
	}
	z := mu / s
	return mu*0.5*math.Erfc(-z/math.Sqrt2) + s*math.Exp(-z*z/2)/math.Sqrt(2*math.Pi)
}

// estimateCovers counts the estimates whose interval holds their exact value.
func estimateCovers(est []loadlab.Estimate, exact []float64) int {
	n := 0
	for i, e := range est {
		if e.Contains(exact[i]) {
			n++
		}
	}
	return n
}

// legendLine is a legend thumbnail: a line of series i (grey if i < 0),
// dashed if asked.
func legendLine(i int, dashed bool) *plotter.Line {
	sty := draw.LineStyle{Color: color.Gray{Y: 0x70}, Width: vg.Points(1.2)}
	if i >= 0 {
		sty.Color = plots.Color(i)
	}
	if dashed {
		sty.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return &plotter.Line{LineStyle: sty}
}

// ---- deployed-rho-vs-gamma ----

type rhoDelayParams struct {
	side                 int
	taus                 []int
	points               int     // curve points per τ
	steps, burn, pilot   int     // EstimateRho runs
	rel                  float64 // its precision
	sigmaO               float64 // noise of the over-throttling panel
	overSteps, overBurn  int
	overRel              float64
	overFracs            []float64 // γ of the over-throttling markers, fractions of 2/λ_n
	maxRuns, overMaxRuns int
}

func rhoDelayPreset(quick bool) rhoDelayParams {
	p := rhoDelayParams{side: 6, taus: []int{0, 1, 2, 4}, points: 300, steps: 4000, burn: 1000, pilot: 10, rel: 0.005,
		sigmaO: 10, overSteps: 2000, overBurn: 200, overRel: 0.005, overFracs: []float64{0.15, 0.35, 0.55, 0.75, 0.9},
		maxRuns: 400, overMaxRuns: 400}
	if quick {
		p.points, p.steps, p.burn, p.rel, p.overRel = 120, 1500, 600, 0.08, 0.05
		p.overFracs = []float64{0.2, 0.5, 0.85}
	}
	return p
}

// delayCurve is ρ₂ against γ for one delay τ, with its simulated markers.
type delayCurve struct {
	tau           int
	limit         float64 // a*(τ)/λ_n
	gamma, rho    []float64
	gStar, rStar  float64
	gridLo, gridH float64 // the grid neighbours of the grid's minimum
	mGamma, exact []float64
	est           []loadlab.Estimate
}

type rhoDelayData struct {
	curves []delayCurve
	gH2    float64 // Spectral.GammaH2 (τ = 0 reference)
	lamN   float64
	over   []overDelayCurve // one per τ
	tab    *plots.Table
}

// overDelayCurve is E O against γ for one delay τ, with its markers.
type overDelayCurve struct {
	tau            int
	gamma, exact   []float64
	mGamma, mExact []float64
	mEst           []loadlab.Estimate
}

// deployedTorus returns the side×side torus and its spectrum with
// eigenvectors.
func deployedTorus(side int) (*wgraph.Graph, *consensus.Spectral, error) {
	g, err := gen.Torus(side, side)
	if err != nil {
		return nil, nil, err
	}
	s, err := consensus.NewSpectral(g)
	return g, s, err
}

func rhoDelayCompute(cfg plots.Config, p rhoDelayParams) (*rhoDelayData, error) {
	g, s, err := deployedTorus(p.side)
	if err != nil {
		return nil, err
	}
	d := &rhoDelayData{lamN: s.LambdaMax(), tab: plots.NewTable("panel", "tau", "kind", "gamma", "value", "lo", "hi", "runs")}
	d.gH2, _, _ = s.GammaH2(1)
	for ti, tau := range p.taus {
		c, err := delayCurveOf(s, tau, p.points)
		if err != nil {
			return nil, err
		}
		for i := range c.gamma {
			d.tab.Add("rho2", tau, "exact", c.gamma[i], c.rho[i], math.NaN(), math.NaN(), 0)
		}
		d.tab.Add("rho2", tau, "gamma*_H2 (circle)", c.gStar, c.rStar, math.NaN(), math.NaN(), 0)
		d.tab.Add("rho2", tau, "stability limit a*(tau)/lambda_n", c.limit, math.NaN(), math.NaN(), math.NaN(), 0)
		c.mGamma = []float64{0.5 * c.gStar, c.gStar, (c.gStar + c.limit) / 2}
		for j, gm := range c.mGamma {
			mcs := consensus.MonteCarlo{Runs: p.pilot, Steps: p.steps, Burn: p.burn, Seed: deployedSeed(cfg, uint64(10*ti+j)),
				Network: &consensus.Network{Delay: tau}, Precision: loadlab.Precision{Rel: p.rel, MaxRuns: p.maxRuns}}
			e, err := consensus.EstimateRho(&consensus.Throttler{Graph: g, Gamma: gm}, consensus.Case2, 1, mcs)
			if err := acceptPartial(cfg, fmt.Sprintf("deployed-rho-vs-gamma τ=%d γ=%.4g", tau, gm), err); err != nil {
				return nil, err
			}
			x, err := s.RhoDelay(consensus.Case2, tau, gm, 1)
			if err != nil {
				return nil, err
			}
			c.est, c.exact = append(c.est, e), append(c.exact, x)
			d.tab.Add("rho2", tau, "simulation (EstimateRho)", gm, e.Mean, e.Lo, e.Hi, e.N)
			d.tab.Add("rho2", tau, "exact at marker", gm, x, math.NaN(), math.NaN(), 0)
		}
		cfg.Logf("deployed-rho-vs-gamma: τ = %d, γ*_H2 = %.6g, limit %.6g", tau, c.gStar, c.limit)
		d.curves = append(d.curves, c)
	}
	if err := overCurve(cfg, g, s, p, d); err != nil {
		return nil, err
	}
	return d, nil
}

// delayCurveOf samples ρ₂(γ) for delay τ on points γ of (0, a*(τ)/λ_n)
// and finds γ*_H2(τ).
func delayCurveOf(s *consensus.Spectral, tau, points int) (delayCurve, error) {
	c := delayCurve{tau: tau}
	var err error
	if c.limit, err = s.DelayStabilityBound(tau); err != nil {
		return c, err
	}
	if c.gStar, c.rStar, err = s.GammaH2Delay(tau, 1); err != nil {
		return c, err
	}
	for k := 1; k <= points; k++ {
		gm := c.limit * float64(k) / float64(points+1)
		r, err := s.RhoDelay(consensus.Case2, tau, gm, 1)
		if err != nil {
			return c, err
		}
		c.gamma, c.rho = append(c.gamma, gm), append(c.rho, r)
	}
	best := 0
	for i, r := range c.rho {
		if r < c.rho[best] {
			best = i
		}
	}
	c.gridLo, c.gridH = c.limit*float64(best)/float64(points+1), c.limit*float64(best+2)/float64(points+1)
	return c, nil
}

// overMeans are the mean demands of the over-throttling regimes: a smooth
// pattern around 100 requests per cycle, so that the servers differ.
func overMeans(n int) []float64 {
	m := make([]float64, n)
	for i := range m {
		m[i] = 100 + 40*math.Sin(2*math.Pi*float64(i)/float64(n)+0.5)
	}
	return m
}

// overCurve fills the over-throttling panel: for each delay τ,
// Spectral.OverDelay (Case 1, excess 0) against γ over (0, a*(τ)/λ_n) and
// EstimateOver markers on the delayed network (MonteCarlo.Network).
func overCurve(cfg plots.Config, g *wgraph.Graph, s *consensus.Spectral, p rhoDelayParams, d *rhoDelayData) error {
	mean := overMeans(g.Order())
	var lt float64
	for _, v := range mean {
		lt += v
	}
	reg := consensus.Regime{Mean: mean, Sigma: p.sigmaO, LTotal: lt}
	for i, c := range d.curves {
		oc := overDelayCurve{tau: c.tau}
		for k := 1; k <= p.points; k++ {
			gm := c.limit * float64(k) / float64(p.points+1)
			o, err := s.OverDelay(consensus.Case1, c.tau, gm, p.sigmaO, 0)
			if err != nil {
				return err
			}
			oc.gamma, oc.exact = append(oc.gamma, gm), append(oc.exact, o.Total)
			d.tab.Add("over", c.tau, "exact", gm, o.Total, math.NaN(), math.NaN(), 0)
		}
		for j, f := range p.overFracs {
			gm := f * c.limit
			mcs := consensus.MonteCarlo{Runs: p.pilot, Steps: p.overSteps, Burn: p.overBurn, Seed: deployedSeed(cfg, uint64(100+10*i+j)),
				Precision: loadlab.Precision{Rel: p.overRel, MaxRuns: p.overMaxRuns}, Network: &consensus.Network{Delay: c.tau}}
			e, err := consensus.EstimateOver(&consensus.Throttler{Graph: g, Gamma: gm}, reg, mcs)
			if err := acceptPartial(cfg, fmt.Sprintf("deployed-rho-vs-gamma over τ=%d γ=%.4g", c.tau, gm), err); err != nil {
				return err
			}
			o, err := s.OverDelay(consensus.Case1, c.tau, gm, p.sigmaO, 0)
			if err != nil {
				return err
			}
			oc.mGamma, oc.mExact, oc.mEst = append(oc.mGamma, gm), append(oc.mExact, o.Total), append(oc.mEst, e.Total)
			d.tab.Add("over", c.tau, "simulation (EstimateOver)", gm, e.Total.Mean, e.Total.Lo, e.Total.Hi, e.Total.N)
			d.tab.Add("over", c.tau, "exact at marker", gm, o.Total, math.NaN(), math.NaN(), 0)
		}
		d.over = append(d.over, oc)
	}
	return nil
}

func rhoDelayDraw(p rhoDelayParams, d *rhoDelayData) *plots.Result {
	n := p.side * p.side
	top := plots.New(fmt.Sprintf("ρ₂ under a uniform delay τ, %d×%d torus (n = %d, σ = 1)", p.side, p.side, n),
		"update cycle γ (time units)", "ρ₂ (requests² per step²)", plots.LogY(), plots.YTicks(plots.OneTwoFive))
	var heads []plots.Headline
	var est []loadlab.Estimate
	var exact []float64
	lowest := math.Inf(1)
	for i, c := range d.curves {
		plots.AddCurve(top, i, fmt.Sprintf("τ = %d", c.tau), c.gamma, c.rho)
		plots.AddVLine(top, i, "", c.limit)
		addMarker(top, i, c.gStar, c.rStar, draw.RingGlyph{})
		lo, hi, mean := make([]float64, len(c.est)), make([]float64, len(c.est)), make([]float64, len(c.est))
		for j, e := range c.est {
			lo[j], hi[j], mean[j] = e.Lo, e.Hi, e.Mean
		}
		plots.AddErrorBars(top, i, "", c.mGamma, mean, lo, hi)
		est, exact = append(est, c.est...), append(exact, c.exact...)
		lowest = math.Min(lowest, c.rStar)
		heads = append(heads, plots.Within(fmt.Sprintf("γ*_H2(τ=%d)", c.tau), c.gStar, c.gridLo, c.gridH,
			fmt.Sprintf("between the neighbours of the minimum of ρ₂ on the %d-point γ grid (ρ₂ convex, spec deployed §2.4)", p.points)))
	}
	top.Legend.Add("stability limit a*(τ)/λ_{n}", legendLine(-1, true))
	top.Legend.Add("γ*_{H2}(τ)", addMarker(top, -1, math.NaN(), math.NaN(), draw.RingGlyph{}))
	top.Legend.Add("closed form (lines)", legendLine(-1, false))
	top.Legend.Add("simulation, 95 % CI", addMarker(top, -1, math.NaN(), math.NaN(), draw.CircleGlyph{}))
	top.X.Min, top.X.Max = 0, 2/d.lamN
	// The ends of the y axis on 1-2-5 values, so that both are labelled.
	top.Y.Min, top.Y.Max = round125(0.8*lowest, false), round125(12*lowest, true)
	bot := plots.New(fmt.Sprintf("over-throttling under the same delays (Case 1, σ = %g, l_{total} = mean r_{total})", p.sigmaO),
		"update cycle γ (time units)", "E O (requests per cycle)")
	// Series i as τ of the top panel: its legend names them.
	var omEst []loadlab.Estimate
	var omExact []float64
	for i, oc := range d.over {
		plots.AddCurve(bot, i, "", oc.gamma, oc.exact)
		plots.AddVLine(bot, i, "", d.curves[i].limit)
		lo, hi, mean := make([]float64, len(oc.mEst)), make([]float64, len(oc.mEst)), make([]float64, len(oc.mEst))
		for j, e := range oc.mEst {
			lo[j], hi[j], mean[j] = e.Lo, e.Hi, e.Mean
		}
		plots.AddErrorBars(bot, i, "", oc.mGamma, mean, lo, hi)
		omEst, omExact = append(omEst, oc.mEst...), append(omExact, oc.mExact...)
	}
	bot.X.Min, bot.X.Max = 0, 2/d.lamN
	bot.Y.Min, bot.Y.Max = 0, round125(2*slices.Max(omExact), true)
	k := len(est)
	heads = append(heads,
		plots.Near("γ*_H2(τ=0) by GammaH2Delay − GammaH2", d.curves[0].gStar-d.gH2, 0, 1e-12*d.gH2, "0: τ = 0 is the delay-free cycle (spec deployed §2.4)"),
		plots.Within(fmt.Sprintf("ρ₂ markers whose 95 %% interval covers the exact sum (of %d)", k), float64(estimateCovers(est, exact)), float64(k-2), float64(k),
			"≥ k − 2: each covers with probability 0.95 (spec deployed §2.3, §2.6)"),
		plots.Within(fmt.Sprintf("E O markers whose 95 %% interval covers the closed form (of %d)", len(omEst)), float64(estimateCovers(omEst, omExact)),
			float64(len(omEst)-2), float64(len(omEst)), "≥ k − 2: each covers with probability 0.95 (spec deployed §4.2 with the delayed ρ_j)"))
	st := plots.NewStack(top, bot)
	st.Weights = []float64{1.6, 1}
	return &plots.Result{Plot: st, Width: 20 * cm, Height: 18 * cm, Data: d.tab, Headlines: heads}
}

// ---- deployed-dst-vs-cst ----

type dstCstParams struct {
	side               int
	sigma              float64
	dmax               int
	steps, burn, pilot int
	rel                float64
	maxRuns            int
}

func dstCstPreset(quick bool) dstCstParams {
	if quick {
		return dstCstParams{side: 6, sigma: 10, dmax: 8, steps: 800, burn: 200, pilot: 10, rel: 0.06, maxRuns: 200}
	}
	return dstCstParams{side: 6, sigma: 10, dmax: 8, steps: 2000, burn: 200, pilot: 10, rel: 0.005, maxRuns: 400}
}

// cstRules are the CST rules drawn, with their series numbers.
var cstRules = []consensus.Rule{consensus.Proportional, consensus.Equal}

type dstCstData struct {
	gamma      float64
	dst        loadlab.Estimate
	dstExact   float64
	cst        [][]loadlab.Estimate // per rule, per d
	equalExact float64
	propFirst  float64 // first-order E O of the proportional CST, d ≥ 1
	tab        *plots.Table
}

// proportionalFirstOrder is E O of the proportional CST with d ≥ 1 and
// l_total = Σ r̄ to first order in the noise: x_i = l r_i(k−d)/R(k−d) ≈
// r̄_i + v_i' − r̄_i V'/R̄ (v' the noise of cycle k − d, V' its sum), so
// r_i − x_i ≈ v_i − v_i' + r̄_i V'/R̄ is centred normal with variance
// σ²(2 − 2c_i + n c_i²), c_i = r̄_i/R̄, and E O = Σ_i G(0, s_i) − G(0, σ√n)
// (spec deployed §4.1, §4.2). The neglected terms are of order
// σ²n/R̄² relative (below 0.1 % here).
func proportionalFirstOrder(mean []float64, sigma float64) float64 {
	var rt float64
	for _, m := range mean {
		rt += m
	}
	n := float64(len(mean))
	var eo float64
	for _, m := range mean {
		c := m / rt
		eo += gaussPlus(0, sigma*math.Sqrt(2-2*c+n*c*c))
	}
	return eo - gaussPlus(0, sigma*math.Sqrt(n))
}

func dstCstCompute(cfg plots.Config, p dstCstParams) (*dstCstData, error) {
	g, s, err := deployedTorus(p.side)
	if err != nil {
		return nil, err
	}
	n := g.Order()
	mean := overMeans(n)
	var lt float64
	for _, v := range mean {
		lt += v
	}
	reg := consensus.Regime{Mean: mean, Sigma: p.sigma, LTotal: lt}
	d := &dstCstData{tab: plots.NewTable("throttler", "rule", "d", "over", "lo", "hi", "runs")}
	d.gamma, _, _ = s.GammaH2(1)
	th := &consensus.Throttler{Graph: g, Gamma: d.gamma}
	// One seed for every estimate: run i of each draws the same demand
	// (common random numbers, spec deployed §3.2).
	mcs := consensus.MonteCarlo{Runs: p.pilot, Steps: p.steps, Burn: p.burn, Seed: deployedSeed(cfg, 200),
		Precision: loadlab.Precision{Rel: p.rel, MaxRuns: p.maxRuns}}
	e, err := consensus.EstimateOver(th, reg, mcs)
	if err := acceptPartial(cfg, "deployed-dst-vs-cst DST", err); err != nil {
		return nil, err
	}
	d.dst = e.Total
	o, err := consensus.ExpectedOver(th, consensus.Case1, p.sigma, 0)
	if err != nil {
		return nil, err
	}
	d.dstExact = o.Total
	d.tab.Add("DST at gamma*_H2", "", math.NaN(), d.dst.Mean, d.dst.Lo, d.dst.Hi, d.dst.N)
	d.tab.Add("DST exact (ExpectedOver)", "", math.NaN(), d.dstExact, math.NaN(), math.NaN(), 0)
	for _, rule := range cstRules {
		var row []loadlab.Estimate
		for delay := 0; delay <= p.dmax; delay++ {
			m := mcs
			if rule == consensus.Proportional && delay == 0 {
				// Ideal (spec deployed §3.2): every run gives 0 to rounding,
				// so no precision can be met; the pilot runs show it.
				m.Precision = loadlab.Precision{}
			}
			e, err := consensus.EstimateCentralOver(&consensus.Central{Rule: rule, Delay: delay}, reg, m)
			if err := acceptPartial(cfg, fmt.Sprintf("deployed-dst-vs-cst %v d=%d", rule, delay), err); err != nil {
				return nil, err
			}
			row = append(row, e.Total)
			d.tab.Add("CST", rule.String(), delay, e.Total.Mean, e.Total.Lo, e.Total.Hi, e.Total.N)
		}
		d.cst = append(d.cst, row)
	}
	// The Equal rule's limits l/n are constant: r_i − x_i ~ N(r̄_i − l/n, σ²)
	// whatever d (spec deployed §3.2).
	for _, m := range mean {
		d.equalExact += gaussPlus(m-lt/float64(n), p.sigma)
	}
	d.equalExact -= gaussPlus(0, p.sigma*math.Sqrt(float64(n)))
	d.tab.Add("CST exact", consensus.Equal.String(), math.NaN(), d.equalExact, math.NaN(), math.NaN(), 0)
	d.propFirst = proportionalFirstOrder(mean, p.sigma)
	d.tab.Add("CST first order (d >= 1)", consensus.Proportional.String(), math.NaN(), d.propFirst, math.NaN(), math.NaN(), 0)
	cfg.Logf("deployed-dst-vs-cst: DST %.4g [%.4g, %.4g], exact %.4g", d.dst.Mean, d.dst.Lo, d.dst.Hi, d.dstExact)
	return d, nil
}

// crossing returns the least d at which the proportional CST's estimate
// exceeds the DST's, or dmax + 1 if none does.
func (d *dstCstData) crossing() float64 {
	for delay, e := range d.cst[0] {
		if e.Mean > d.dst.Mean {
			return float64(delay)
		}
	}
	return float64(len(d.cst[0]))
}

// crossingHead states the crossing d against what the closed forms
// predict: the first-order CST value, flat in d ≥ 1, either lies below the
// DST's exact value (no crossing: dmax + 1) or above it (crossing at d = 1).
func (d *dstCstData) crossingHead() plots.Headline {
	none := float64(len(d.cst[0]))
	name := fmt.Sprintf("crossing d: least d where the proportional CST over-throttles more than the DST (%g: none)", none)
	if d.propFirst < d.dstExact {
		return plots.Within(name, d.crossing(), none, none, fmt.Sprintf("%g = none: first-order CST %.4g < exact DST %.4g", none, d.propFirst, d.dstExact))
	}
	return plots.Within(name, d.crossing(), 1, 1, fmt.Sprintf("1: first-order CST %.4g > exact DST %.4g", d.propFirst, d.dstExact))
}

// addDSTBand draws the DST's 95 % interval as a band across x0..x1 and
// its exact value as a dashed line, with legend entries if named.
func addDSTBand(pl *plot.Plot, d *dstCstData, x0, x1 float64, named bool) {
	band, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: d.dst.Lo}, {X: x1, Y: d.dst.Lo}, {X: x1, Y: d.dst.Hi}, {X: x0, Y: d.dst.Hi}})
	if err != nil {
		panic(err) // finite points
	}
	band.Color = plots.Translucent(0, 0x48)
	band.LineStyle.Width = 0
	pl.Add(band)
	name := ""
	if named {
		pl.Legend.Add("DST, 95 % CI (EstimateOver)", band)
		name = "DST, exact (ExpectedOver)"
	}
	plots.AddHLine(pl, 0, name, d.dstExact)
}

// addCST draws the CST estimates of rule ri for the delays from first on,
// with a legend entry if named.
func addCST(pl *plot.Plot, d *dstCstData, ri, first int, named bool) {
	row := d.cst[ri][first:]
	xs, m, lo, hi := make([]float64, len(row)), make([]float64, len(row)), make([]float64, len(row)), make([]float64, len(row))
	for i, e := range row {
		xs[i], m[i], lo[i], hi[i] = float64(first+i), e.Mean, e.Lo, e.Hi
	}
	name := ""
	if named {
		name = fmt.Sprintf("CST %v, 95 %% CI", cstRules[ri])
	}
	plots.AddErrorBars(pl, ri+1, name, xs, m, lo, hi)
}

func dstCstDraw(p dstCstParams, d *dstCstData) *plots.Result {
	x0, x1 := -0.5, float64(p.dmax)+0.5
	const xlabel, ylabel = "CST decision delay d (cycles)", "E O (requests per cycle)"
	top := plots.New(fmt.Sprintf("DST (γ = γ*_{H2} = %.3g) against CST, %d×%d torus, σ = %g", d.gamma, p.side, p.side, p.sigma), xlabel, ylabel)
	addDSTBand(top, d, x0, x1, true)
	addCST(top, d, 0, 0, true)
	addCST(top, d, 1, 0, true)
	plots.AddHLine(top, 2, "CST equal, exact", d.equalExact)
	top.Legend.Add("CST proportional, first order (d ≥ 1)", legendLine(1, true))
	top.X.Min, top.X.Max = x0, x1
	top.Y.Min, top.Y.Max = 0, round125(1.05*d.equalExact, true)
	zoom := plots.New("zoom: the DST against the proportional CST with d ≥ 1", xlabel, ylabel)
	addDSTBand(zoom, d, x0, x1, false)
	addCST(zoom, d, 0, 1, false)
	plots.AddHLine(zoom, 1, "", d.propFirst)
	lo, hi := math.Min(d.dst.Lo, d.propFirst), math.Max(d.dst.Hi, d.propFirst)
	for _, e := range d.cst[0][1:] {
		lo, hi = math.Min(lo, e.Lo), math.Max(hi, e.Hi)
	}
	pad := 0.3 * (hi - lo)
	step := round125((hi-lo+2*pad)/4, true) // about the ticker's step: both ends labelled
	zoom.X.Min, zoom.X.Max = x0, x1
	zoom.Y.Min, zoom.Y.Max = step*math.Floor((lo-pad)/step), step*math.Ceil((hi+pad)/step)
	eq := d.cst[1]
	exact := make([]float64, len(eq))
	for i := range exact {
		exact[i] = d.equalExact
	}
	var l float64
	for _, v := range overMeans(p.side * p.side) {
		l += v
	}
	return &plots.Result{
		Plot: plots.NewStack(top, zoom), Width: 20 * cm, Height: 16 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			d.crossingHead(),
			plots.Near("proportional CST, mean E O over d = 1.."+fmt.Sprint(p.dmax), meanOver(d.cst[0][1:]), d.propFirst, 0.02*d.propFirst,
				"first-order closed form ± 2 % (proportionalFirstOrder)"),
			plots.Within("proportional CST, d = 0: E O", d.cst[0][0].Mean, -1e-9*l, 1e-9*l, "0 to rounding: a CST without delay is ideal (spec deployed §3.2 proposition)"),
			plots.Within("DST exact E O (ExpectedOver)", d.dstExact, d.dst.Lo, d.dst.Hi, "inside the DST's 95 % interval (spec deployed §4.2)"),
			plots.Within(fmt.Sprintf("Equal-rule CST estimates covering the closed form (of %d)", len(eq)), float64(estimateCovers(eq, exact)), float64(len(eq)-2), float64(len(eq)),
				"≥ k − 2 of k 95 % intervals (spec deployed §3.2 closed form for Equal)"),
		},
	}
}

// ---- deployed-conservation ----

type conservationParams struct {
	cycles int
	floor  float64 // where the exact zeros are drawn on the log axis
}

// imperfection is one network of the conservation figure: a label, the
// name of its row in spec deployed §1.4's table, and the table's Separate
// value (NaN where the table gives none).
type imperfection struct {
	label, row string
	separate   float64
}

var imperfections = []imperfection{
	{"delay τ = 3", "delay 3", 0},
	{"link delays", "link delays", 0},
	{"random delay", "random delay", 353},
	{"loss q = 0.3", "loss 0.3", 138},
	{"bursts", "bursts", 64},
	{"random ticks", "ticks", 286},
	{"periodic clocks", "periods", 261},
	{"cycles γ_{i}", "gammas", 31},
	{"one-way links", "one-way", math.NaN()},
}

type conservationData struct {
	joint, separate []float64 // per imperfection, in requests per cycle
	total           float64
	tab             *plots.Table
}

// tableNetworks rebuilds the setting of spec deployed §1.4's table,
// TestNetworkConservation's first graph (10 servers): the graph, mean
// demands, initial limits and the networks of each row, with their random
// streams, drawn in the test's order.
func tableNetworks() (*wgraph.Graph, []float64, []float64, map[string]*consensus.Network, error) {
	src := mc.Source(40, 0)
	rnd := rand.New(src)
	g, err := gen.RandomConnected(10, 0.4, 0.5, 2, src)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	n, m := g.Order(), g.Size()
	mean, x0 := make([]float64, n), make([]float64, n)
	for i := range n {
		mean[i] = 60 + 80*rnd.Float64()
		x0[i] = 60 + 80*rnd.Float64()
	}
	linkDelay := make([]int, m)
	for i := range linkDelay {
		linkDelay[i] = rnd.IntN(5)
	}
	gammas, tick, period, phase := make([]float64, n), make([]float64, n), make([]int, n), make([]int, n)
	for i := range n {
		gammas[i] = 0.01 + 0.02*rnd.Float64()
		tick[i] = 0.3 + 0.7*rnd.Float64()
		period[i] = 1 + rnd.IntN(4)
		phase[i] = rnd.IntN(period[i])
	}
	nets := map[string]*consensus.Network{
		"delay 3":      {Delay: 3},
		"link delays":  {LinkDelay: linkDelay},
		"random delay": {DelayLaw: []float64{0.5, 0.25, 0.125, 0.125}},
		"loss 0.3":     {Loss: 0.3},
		"bursts":       {Loss: 0.3, Burst: 6},
		"ticks":        {Tick: tick},
		"periods":      {Period: period, Phase: phase},
		"gammas":       {Gammas: gammas},
	}
	nets["one-way"] = &consensus.Network{Directed: treeBothWays(g)}
	return g, mean, x0, nets, nil
}

// tableStream returns a fresh copy of the random stream of the network of
// a row of the table, as TestNetworkConservation seeds it: (41, 0, the
// row's position among its networks' sorted names, two of which combine
// imperfections); nil for a deterministic network.
func tableStream(row string) rand.Source {
	keys := []string{"all", "all, random delay", "bursts", "delay 3", "gammas", "link delays", "loss 0.3", "periods", "random delay", "ticks"}
	switch row {
	case "random delay", "loss 0.3", "bursts", "ticks":
		return mc.Source(41, 0, uint64(slices.Index(keys, row)))
	}
	return nil
}

// treeBothWays orients the links of g: those of a breadth-first spanning
// tree from node 0 stay two-way and the others run one way, from the lower
// node to the higher. The tree alone connects every pair both ways, so the
// orientation is strongly connected.
func treeBothWays(g *wgraph.Graph) []consensus.Direction {
	seen := make([]bool, g.Order())
	tree := map[[2]int]bool{}
	seen[0] = true
	queue := []int{0}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v32 := range g.Neighbors(u) {
			if v := int(v32); !seen[v] {
				seen[v] = true
				tree[[2]int{min(u, v), max(u, v)}] = true
				queue = append(queue, v)
			}
		}
	}
	dirs := make([]consensus.Direction, g.Size())
	for i, e := range g.Edges() {
		if !tree[[2]int{e.U, e.V}] {
			dirs[i] = consensus.Forward
		}
	}
	return dirs
}

// exactTotal is Σ v formed exactly (big.Float wide enough for any sum of
// float64 values), rounded once.
func exactTotal(v []float64) float64 {
	s := new(big.Float).SetPrec(2200)
	for _, x := range v {
		s.Add(s, new(big.Float).SetPrec(2200).SetFloat64(x))
	}
	f, _ := s.Float64()
	return f
}

// maxDrift runs th on nw and returns max_k |Σ x(k) − Σ x(0)|, sums exact.
func maxDrift(th *consensus.Throttler, mean, x0 []float64, cycles int, nw *consensus.Network) (float64, error) {
	dem := &consensus.StationaryDemand{Mean: mean, Sigma: 20, Src: mc.Source(42, 0)}
	tr, err := consensus.Simulate(th, dem, x0, cycles, &consensus.Settings{States: true, Network: nw})
	if err != nil {
		return 0, err
	}
	total := exactTotal(x0)
	worst := math.Abs(exactTotal(tr.Final) - total)
	for _, x := range tr.X {
		worst = max(worst, math.Abs(exactTotal(x)-total))
	}
	return worst, nil
}

func conservationCompute(cfg plots.Config, p conservationParams) (*conservationData, error) {
	g, mean, x0, nets, err := tableNetworks()
	if err != nil {
		return nil, err
	}
	th := &consensus.Throttler{Graph: g, Gamma: 0.02}
	d := &conservationData{total: exactTotal(x0), tab: plots.NewTable("imperfection", "protocol", "max_abs_total_change", "spec_table")}
	for _, im := range imperfections {
		for _, proto := range []consensus.Protocol{consensus.Joint, consensus.Separate} {
			nw := *nets[im.row]
			nw.Protocol, nw.Src = proto, tableStream(im.row)
			v, err := maxDrift(th, mean, x0, p.cycles, &nw)
			if err != nil {
				return nil, fmt.Errorf("deployed-conservation %s: %w", im.label, err)
			}
			ref := math.NaN()
			if proto == consensus.Joint {
				d.joint = append(d.joint, v)
				if im.row != "one-way" {
					ref = 0
				}
			} else {
				d.separate = append(d.separate, v)
				ref = im.separate
			}
			d.tab.Add(plots.PlainText(im.label), []string{"Joint", "Separate"}[proto], v, ref)
		}
	}
	cfg.Logf("deployed-conservation: total limit %.6g, %d networks", d.total, len(imperfections))
	return d, nil
}

// addLogBars draws series i of two as bars from the axis floor base up to
// each value (values below floor drawn up to floor), side by side in each
// category.
func addLogBars(p *plot.Plot, i int, name string, values []float64, base, floor float64) {
	const w = 0.38
	for k, v := range values {
		x0 := float64(k) - w + float64(i)*w
		top := math.Max(v, floor)
		bar, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: base}, {X: x0 + w, Y: base}, {X: x0 + w, Y: top}, {X: x0, Y: top}})
		if err != nil {
			panic(err) // finite points
		}
		bar.Color = plots.Color(i)
		bar.LineStyle.Width = 0
		p.Add(bar)
		if k == 0 {
			p.Legend.Add(name, bar)
		}
	}
}

func conservationDraw(p conservationParams, d *conservationData) *plots.Result {
	base := p.floor / 10
	pl := plots.New(fmt.Sprintf("conservation of the total limit (%.4g requests per cycle), %d cycles, 10 servers", d.total, p.cycles),
		"imperfection of the exchanges", "max_{k} |l_{total}(k) − l_{total}(0)| (requests)", plots.LogY(), plots.LegendAt(true, true))
	addLogBars(pl, 0, "Joint (both ends or neither)", d.joint, base, p.floor)
	addLogBars(pl, 1, "Separate (each end its own)", d.separate, base, p.floor)
	var zx []plotter.XY
	for k := range d.joint {
		for i, v := range [2]float64{d.joint[k], d.separate[k]} {
			if v == 0 {
				zx = append(zx, plotter.XY{X: float64(k) - 0.19 + 0.38*float64(i), Y: p.floor})
			}
		}
	}
	zeros := make([]string, len(zx))
	for i := range zeros {
		zeros[i] = "0"
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: zx, Labels: zeros})
	if err != nil {
		panic(err) // finite points
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Font.Size = plots.LabelSize
		labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YBottom
	}
	pl.Add(labels)
	names := make([]string, len(imperfections))
	for i, im := range imperfections {
		names[i] = im.label
	}
	plots.NominalX(pl, names...)
	pl.Y.Min, pl.Y.Max = base, 1e3
	return &plots.Result{Plot: pl, Width: 22 * cm, Height: 11 * cm, Data: d.tab, Headlines: conservationHeads(d)}
}

// conservationHeads checks the Joint zeros (Theorem 1) and the Separate
// drifts against spec deployed §1.4's table.
func conservationHeads(d *conservationData) []plots.Headline {
	last := len(imperfections) - 1
	heads := []plots.Headline{
		plots.Within("Joint: largest change over the conserving imperfections", slices.Max(d.joint[:last]), 0, 4*ulpOf(d.total),
			"≤ 4 ulps of the total, 0 but for the dropped low parts of the limits (Theorem 1, spec deployed §1.4)"),
		plots.Within("one-way links, Joint: largest change", d.joint[last], 1e-3, math.Inf(1),
			"> 0: the orientation is not weight-balanced (D1, spec deployed §1.4)"),
	}
	for i, im := range imperfections[:last] {
		name := "Separate, " + plots.PlainText(im.label)
		if tableStream(im.row) != nil {
			// A random walk: its size depends on the realisation.
			heads = append(heads, plots.Within(name, d.separate[i], 1, math.Inf(1),
				fmt.Sprintf("> 1: not conserved (D2, spec deployed §1.4; the table's %g is another realisation)", im.separate)))
			continue
		}
		heads = append(heads, plots.Near(name, d.separate[i], im.separate, 0.5, "spec deployed §1.4 table (rounded to 1)"))
	}
	return heads
}

// ---- deployed-client-fairness ----

type fairnessParams struct {
	servers, degree int
	cycles          int       // one-minute cycles of the day
	zones           []float64 // phase φ of each time zone, in minutes
	swing, noise    float64   // diurnal amplitude, log-normal σ of the noise
	load            float64   // l_total over the day's peak of r_total
}

func fairnessPreset(quick bool) fairnessParams {
	p := fairnessParams{servers: 400, degree: 4, cycles: 1440, zones: []float64{0, 360, 480}, swing: 0.6, noise: 0.25, load: 0.8}
	if quick {
		p.servers = 100
	}
	return p
}

type fairnessData struct {
	clients int
	gamma   float64
	ltotal  float64
	runs    [2]*consensus.ClientTrajectory // Algorithm 1, Algorithm 2
	tab     *plots.Table
}

// diurnalClients places about ten clients on each server (5 to 15) and
// draws each one's day: mean_j (1 + swing sin(2π(t − φ_j)/T)) times
// log-normal noise of mean 1, φ_j the zone of its server.
func diurnalClients(p fairnessParams, src rand.Source) ([]int, consensus.ClientTrace) {
	rnd := rand.New(src)
	var server []int
	var trace consensus.ClientTrace
	for i := range p.servers {
		phi := p.zones[i%len(p.zones)]
		for range 5 + rnd.IntN(11) {
			mean := 10 * math.Exp(0.5*rnd.NormFloat64()-0.125) // log-normal sizes, mean 10
			row := make([]float64, p.cycles)
			for t := range row {
				day := 1 + p.swing*math.Sin(2*math.Pi*(float64(t)-phi)/float64(p.cycles))
				row[t] = mean * day * math.Exp(p.noise*rnd.NormFloat64()-p.noise*p.noise/2)
			}
			server, trace = append(server, i), append(trace, row)
		}
	}
	return server, trace
}

func fairnessCompute(cfg plots.Config, p fairnessParams) (*fairnessData, error) {
	var g *wgraph.Graph
	for attempt := uint64(0); g == nil || !wgraph.IsConnected(g); attempt++ {
		var err error
		if g, err = gen.RandomRegular(p.servers, p.degree, mc.Source(cfg.Seed, 28, 300, attempt)); err != nil {
			return nil, err
		}
	}
	s, err := consensus.NewSpectral(g)
	if err != nil {
		return nil, err
	}
	server, trace := diurnalClients(p, mc.Source(cfg.Seed, 28, 301))
	d := &fairnessData{clients: len(server), tab: plots.NewTable("minute", "r_total", "l_total", "accepted", "jain_ratio_alg1", "jain_ratio_alg2", "jain_amount_alg1", "jain_amount_alg2")}
	d.gamma, _, _ = s.GammaH2(1)
	rsum := make([]float64, p.cycles)
	r0 := make([]float64, p.servers)
	for j, row := range trace {
		for t, v := range row {
			rsum[t] += v
		}
		r0[server[j]] += row[0]
	}
	d.ltotal = p.load * slices.Max(rsum)
	x0 := make([]float64, p.servers)
	for i := range x0 {
		x0[i] = d.ltotal * r0[i] / rsum[0] // the split of the first minute's demand
	}
	th := &consensus.Throttler{Graph: g, Gamma: d.gamma}
	for k, split := range []consensus.Split{consensus.UniformSplit, consensus.WaterFillSplit} {
		if d.runs[k], err = consensus.SimulateClients(th, &consensus.Clients{Server: server, Split: split}, trace, x0, p.cycles, nil); err != nil {
			return nil, err
		}
	}
	a, b := d.runs[0], d.runs[1]
	for t := range p.cycles {
		d.tab.Add(t, a.Servers.RTotal[t], a.Servers.LTotal[t], a.Accepted[t], a.JainRatio[t], b.JainRatio[t], a.JainAmount[t], b.JainAmount[t])
	}
	cfg.Logf("deployed-client-fairness: %d servers, %d clients, γ = %.4g, l_total = %.6g", p.servers, d.clients, d.gamma, d.ltotal)
	return d, nil
}

func fairnessDraw(p fairnessParams, d *fairnessData) *plots.Result {
	hours := make([]float64, p.cycles)
	for t := range hours {
		hours[t] = float64(t) / 60
	}
	a, b := d.runs[0], d.runs[1]
	top := plots.New(fmt.Sprintf("one day, %d servers, %d clients, γ = γ*_{H2} = %.3g", p.servers, d.clients, d.gamma),
		"time of day (h)", "requests per minute", plots.XRange(0, 24))
	plots.AddCurve(top, 0, "r_{total} (requested)", hours, a.Servers.RTotal)
	plots.AddCurve(top, 1, "l_{total} (limit)", hours, a.Servers.LTotal)
	plots.AddCurve(top, 2, "accepted Σ_{j} a^{(j)}", hours, a.Accepted)
	top.X.Min, top.X.Max, top.Y.Min, top.Y.Max = 0, 24, 0, 1e4*math.Ceil(slices.Max(a.Servers.RTotal)/1e4)
	top.X.Tick.Marker = hourTicks
	bot := plots.New("fairness among the active clients", "time of day (h)", "Jain's index of a^{(j)}/r^{(j)}", plots.XRange(0, 24))
	plots.AddCurve(bot, 3, "Algorithm 1 (uniform ratio)", hours, a.JainRatio)
	plots.AddCurve(bot, 4, "Algorithm 2 (water-filling)", hours, b.JainRatio)
	bot.X.Min, bot.X.Max, bot.Y.Max = 0, 24, 1
	bot.Y.Min = math.Floor(100*min(slices.Min(a.JainRatio), slices.Min(b.JainRatio))) / 100
	bot.X.Tick.Marker = hourTicks
	var drift, diff, jmin float64
	jmin = 1
	for t := range p.cycles {
		drift = max(drift, math.Abs(a.Servers.LTotal[t]-a.Servers.LTotal[0]))
		diff = max(diff, math.Abs(a.Accepted[t]-b.Accepted[t]))
	}
	for _, j := range a.ServerJainMin {
		jmin = min(jmin, j)
	}
	peak := slices.Max(a.Servers.RTotal)
	return &plots.Result{
		Plot: plots.NewStack(top, bot), Width: 20 * cm, Height: 16 * cm, Data: d.tab,
		Headlines: []plots.Headline{
			plots.Within("max_k |l_total(k) − l_total(0)|", drift, 0, 1e-9*d.ltotal, "Lemma 1 (throttlers §3.3): conserved, to rounding (1e-9 relative)"),
			plots.Within("least per-server Jain index under Algorithm 1", jmin, 1-1e-12, 1, "1 to rounding: a server's clients share one ratio (spec deployed §5.3)"),
			plots.Within("max_k |accepted, Alg. 1 − accepted, Alg. 2|", diff, 0, 1e-9*peak, "0 to rounding: both grant Σ_i min{x_i, r_i}₊ (spec deployed §5.1–§5.2)"),
			plots.Within("mean over the day of Jain's ratio index, Alg. 2 − Alg. 1", mean(b.JainRatio)-mean(a.JainRatio), -1, 0,
				"≤ 0: water-filling cuts large clients harder than small ones on the same server (spec deployed §5.3)"),
		},
	}
}

// hourTicks marks the time of day every six hours.
var hourTicks = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 6, Label: "6"}, {Value: 12, Label: "12"}, {Value: 18, Label: "18"}, {Value: 24, Label: "24"}}

// mean is the arithmetic mean of v.
func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// meanOver is the mean of the estimates' means.
func meanOver(est []loadlab.Estimate) float64 {
	v := make([]float64, len(est))
	for i, e := range est {
		v[i] = e.Mean
	}
	return mean(v)
}

// ulpOf is the spacing of float64 numbers at |x|.
func ulpOf(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

// round125 rounds x > 0 down (up = false) or up to a value 1, 2 or 5 × 10ᵏ.
func round125(x float64, up bool) float64 {
	e := math.Pow(10, math.Floor(math.Log10(x)))
	steps := []float64{1, 2, 5, 10}
	if up {
		for _, m := range steps {
			if m*e >= x*(1-1e-12) {
				return m * e
			}
		}
	}
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i]*e <= x*(1+1e-12) {
			return steps[i] * e
		}
	}
	return e
}
