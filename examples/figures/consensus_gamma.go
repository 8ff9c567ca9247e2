package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/datasets"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	register(plots.Figure{
		Name:    "consensus-gamma-powergrid",
		Caption: "The H2-optimal update cycle γ*_H2 of the US power grid (4941 servers, σ = 1), where it lies only 0.2 % below the stability limit 2/λ_n. Left: ρ₂(γ) exact (line, sparse Cholesky) and estimated by EstimateH2 with its 95 % interval (error bars, hidden by the markers on the left at ±0.5 %) over the stable range. Right, the last 0.5 % before the limit: the estimate of EstimateGammaH2, γ̂ with its 95 % interval (horizontal bar) and ρ₂(γ̂) with its own (vertical bar), against the exact γ*_H2 of consensus.GammaH2 and the certified limit 2/λ_n (Lanczos bracket of λ_n). The exact γ*_H2 lies inside the estimate's interval, which is about 0.001 % wide (the estimator takes the top mode's weight off each probe, spec throttlers.md §12.15; 0.05 % without).",
		Make:    threeSteps(gammaGridPreset, gammaGridCompute, gammaGridDraw),
		Seconds: 20,
	})
}

// gammaGridParams are the points of consensus-gamma-powergrid.
type gammaGridParams struct {
	curve   int     // exact ρ₂(γ) evaluations per panel
	est     int     // EstimateH2 points per panel
	relAcc  float64 // relative half-width asked of every estimate
	lo      float64 // left panel from lo·(2/λ_n)
	zoom    float64 // right panel from (1 − zoom)·(2/λ_n)
	edgeOff float64 // the last point of each panel stops edgeOff·(2/λ_n) short of the limit
}

// gammaGridPreset: every point is a sparse Cholesky factorisation (tens of
// milliseconds) or an estimate of about a second, so both modes take
// seconds; quick mode draws fewer points at a looser accuracy.
func gammaGridPreset(quick bool) gammaGridParams {
	if quick {
		return gammaGridParams{curve: 30, est: 4, relAcc: 0.02, lo: 0.2, zoom: 0.005, edgeOff: 1e-4}
	}
	return gammaGridParams{curve: 120, est: 8, relAcc: 0.01, lo: 0.2, zoom: 0.005, edgeOff: 1e-4}
}

type gammaGridData struct {
	n             int
	lmax          spectral.Bracket
	limit         float64 // 2/λ_n⁺, the certified stability limit
	gamma, rho    float64 // exact γ*_H2 and ρ₂ there
	est           consensus.GammaH2Estimate
	curve         [2][][2]float64 // per panel: exact (γ, ρ₂)
	points        [2][]gammaPoint // per panel: estimated ρ₂(γ)
	covered, seen int             // exact ρ₂ inside the estimates' intervals
	tab           *plots.Table
}

type gammaPoint struct {
	gamma float64
	rho   loadlab.Estimate
	exact float64
}

func gammaGridCompute(cfg plots.Config, p gammaGridParams) (*gammaGridData, error) {
	g := datasets.PowerGrid().Graph
	d := &gammaGridData{n: g.Order(), tab: plots.NewTable("panel", "kind", "gamma", "gamma_lo", "gamma_hi", "rho2", "rho2_lo", "rho2_hi", "rho2_exact")}
	var err error
	if d.lmax, err = spectral.LambdaMaxBracket(g, nil); err != nil {
		return nil, fmt.Errorf("consensus-gamma-powergrid: λ_n: %w", err)
	}
	d.limit = 2 / d.lmax.Hi
	if d.gamma, d.rho, err = consensus.GammaH2(g, 1); err != nil {
		return nil, fmt.Errorf("consensus-gamma-powergrid: exact γ*: %w", err)
	}
	set := &estimate.TraceSettings{RelAcc: p.relAcc}
	if d.est, err = consensus.EstimateGammaH2(g, 1, set, mc.Source(cfg.Seed, 31, 30)); err != nil {
		return nil, fmt.Errorf("consensus-gamma-powergrid: estimate of γ*: %w", err)
	}
	cfg.Logf("consensus-gamma-powergrid: λ_n ∈ [%.9g, %.9g]; γ* exact %.9g, estimate %.9g [%.9g, %.9g]", d.lmax.Lo, d.lmax.Hi, d.gamma, d.est.Gamma.Mean, d.est.Gamma.Lo, d.est.Gamma.Hi)
	e := d.est
	d.tab.Add("right", "gamma* exact (GammaH2)", d.gamma, nan, nan, d.rho, nan, nan, d.rho)
	d.tab.Add("right", "gamma* estimate (EstimateGammaH2)", e.Gamma.Mean, e.Gamma.Lo, e.Gamma.Hi, e.Rho2.Mean, e.Rho2.Lo, e.Rho2.Hi, nan)
	d.tab.Add("both", "stability limit 2/lambda_n+ (Lanczos bracket)", d.limit, 2/d.lmax.Hi, 2/d.lmax.Lo, nan, nan, nan, nan)
	ranges := [2][2]float64{{p.lo * d.limit, (1 - p.edgeOff) * d.limit}, {(1 - p.zoom) * d.limit, (1 - p.edgeOff) * d.limit}}
	for k, r := range ranges {
		panel := [2]string{"left", "right"}[k]
		for i := 0; i < p.curve; i++ {
			gm := r[0] + (r[1]-r[0])*float64(i)/float64(p.curve-1)
			rho, err := consensus.Rho(&consensus.Throttler{Graph: g, Gamma: gm}, consensus.Case2, 1)
			if err != nil {
				return nil, fmt.Errorf("consensus-gamma-powergrid: ρ₂(%g): %w", gm, err)
			}
			d.curve[k] = append(d.curve[k], [2]float64{gm, rho})
			d.tab.Add(panel, "rho2 exact (Rho)", gm, nan, nan, rho, nan, nan, rho)
		}
		if err := d.estimates(cfg, g, p, k, r, set); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// estimates adds p.est estimates of ρ₂(γ) evenly over the panel's range
// (the first half a step in, so that no point sits on the frame).
func (d *gammaGridData) estimates(cfg plots.Config, g *wgraph.Graph, p gammaGridParams, k int, r [2]float64, set *estimate.TraceSettings) error {
	panel := [2]string{"left", "right"}[k]
	for i := 0; i < p.est; i++ {
		gm := r[0] + (r[1]-r[0])*(float64(i)+0.5)/float64(p.est)
		th := &consensus.Throttler{Graph: g, Gamma: gm}
		h, err := consensus.EstimateH2(th, 1, set, mc.Source(cfg.Seed, 31, 31, uint64(k*100+i)))
		if err != nil {
			return fmt.Errorf("consensus-gamma-powergrid: estimate of ρ₂(%g): %w", gm, err)
		}
		exact, err := consensus.Rho(th, consensus.Case2, 1)
		if err != nil {
			return fmt.Errorf("consensus-gamma-powergrid: ρ₂(%g): %w", gm, err)
		}
		d.points[k] = append(d.points[k], gammaPoint{gamma: gm, rho: h.Rho2, exact: exact})
		d.seen++
		if h.Rho2.Lo <= exact && exact <= h.Rho2.Hi {
			d.covered++
		}
		d.tab.Add(panel, "rho2 estimate (EstimateH2)", gm, nan, nan, h.Rho2.Mean, h.Rho2.Lo, h.Rho2.Hi, exact)
		cfg.Logf("consensus-gamma-powergrid: ρ₂(%.6g) = %.6g [%.6g, %.6g], exact %.6g", gm, h.Rho2.Mean, h.Rho2.Lo, h.Rho2.Hi, exact)
	}
	return nil
}

func gammaGridDraw(p gammaGridParams, d *gammaGridData) *plots.Result {
	left := plots.New("ρ₂ over the stable range", "update cycle γ (time units)", "ρ₂(γ) (requests² per step²)", plots.LogY(), plots.LegendAt(false, true))
	right := plots.New(fmt.Sprintf("the last %.1f %% before the limit: γ*_{H2} λ_{n} = %.4f", 100*p.zoom, d.gamma*d.lmax.Est), "update cycle γ (10^{−3} time units)", "ρ₂(γ) (requests² per step²)")
	for k, pl := range []*plot.Plot{left, right} {
		name := func(s string) string {
			if k == 1 {
				return ""
			}
			return s
		}
		sx := [2]float64{1, 1e3}[k] // the right panel's γ in 10⁻³ time units
		xs, ys := make([]float64, len(d.curve[k])), make([]float64, len(d.curve[k]))
		for i, c := range d.curve[k] {
			xs[i], ys[i] = sx*c[0], c[1]
		}
		plots.AddCurve(pl, 7, name("ρ₂(γ) exact (sparse Cholesky)"), xs, ys)
		var gx, gy, glo, ghi []float64
		for _, pt := range d.points[k] {
			gx, gy, glo, ghi = append(gx, sx*pt.gamma), append(gy, pt.rho.Mean), append(glo, pt.rho.Lo), append(ghi, pt.rho.Hi)
		}
		plots.AddErrorBars(pl, 0, name("ρ₂(γ) estimated (EstimateH2), 95 % interval"), gx, gy, glo, ghi)
		plots.AddVLine(pl, 2, name(fmt.Sprintf("γ*_{H2} exact (GammaH2) = %.6f", d.gamma)), sx*d.gamma)
		plots.AddVLine(pl, -1, name(fmt.Sprintf("stability limit 2/λ_{n} = %.6f", d.limit)), sx*d.limit)
	}
	left.Legend.Add(fmt.Sprintf("estimated γ*_{H2} = %.6f, ρ₂ there (right)", d.est.Gamma.Mean), addGammaEstimate(right, d.est, 1e3))
	e := d.est
	heads := []plots.Headline{
		plots.Within("exact γ*_H2 (GammaH2) inside the estimate's 95 % interval (1 = yes)", b2f(e.Gamma.Lo <= d.gamma && d.gamma <= e.Gamma.Hi), 1, 1, "the interval covers γ* with probability 0.95"),
		plots.Within("relative half-width of the estimate of γ*_H2", e.Gamma.RelHalfWidth(), 0, p.relAcc, "requested RelAcc"),
		plots.Within("|ρ̂₂(γ̂) − ρ₂(γ*)| / 95 % half-width", math.Abs(e.Rho2.Mean-d.rho)/((e.Rho2.Hi-e.Rho2.Lo)/2), 0, 2, "≤ 2 half-widths (≈ 3.9 standard errors; ρ₂ is flat at its minimum)"),
		plots.Within(fmt.Sprintf("exact ρ₂(γ) inside the estimates' 95 %% intervals, of %d", d.seen), float64(d.covered), coverLow(d.seen), float64(d.seen), "binomial(N, 0.95), one-sided 99 % lower bound"),
		plots.Within("γ*_H2 λ_n⁺ (exact γ*, upper end of the λ_n bracket)", d.gamma*d.lmax.Hi, 1, 2, "γ*_H2 ∈ [1/λ_n, 2/λ_n) (spec §5.1 fact 2)"),
	}
	ps := plots.NewPanels(1, 2, left, right)
	return &plots.Result{Plot: ps, Width: 27 * cm, Height: 11 * cm, Data: d.tab, Headlines: heads}
}

// addGammaEstimate draws the estimate of γ*_H2 as a marker at (γ̂, ρ̂₂(γ̂))
// with γ̂'s interval as a horizontal bar and ρ̂₂'s as a vertical one, γ
// scaled by sx; it returns the marker for a legend entry.
func addGammaEstimate(pl *plot.Plot, e consensus.GammaH2Estimate, sx float64) plot.Thumbnailer {
	pts := plotter.XYs{{X: sx * e.Gamma.Mean, Y: e.Rho2.Mean}}
	xe, err := plotter.NewXErrorBars(struct {
		plotter.XYs
		plotter.XErrors
	}{pts, plotter.XErrors{{Low: sx * (e.Gamma.Mean - e.Gamma.Lo), High: sx * (e.Gamma.Hi - e.Gamma.Mean)}}})
	if err != nil {
		panic(err)
	}
	ye, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, plotter.YErrors{{Low: e.Rho2.Mean - e.Rho2.Lo, High: e.Rho2.Hi - e.Rho2.Mean}}})
	if err != nil {
		panic(err)
	}
	xe.LineStyle.Color, xe.LineStyle.Width, xe.CapWidth = plots.Color(1), vg.Points(1.5), vg.Points(8)
	ye.LineStyle.Color, ye.LineStyle.Width, ye.CapWidth = plots.Color(1), vg.Points(1.5), vg.Points(8)
	s, err := plotter.NewScatter(pts)
	if err != nil {
		panic(err)
	}
	s.GlyphStyle = draw.GlyphStyle{Color: plots.Color(1), Radius: vg.Points(3), Shape: draw.CircleGlyph{}}
	pl.Add(xe, ye, s)
	return s
}

// coverLow is the one-sided 99 % lower bound (normal approximation) on
// the number of N independent 95 % intervals that cover their value, as
// scaleHeadlines uses it.
func coverLow(n int) float64 {
	nc := float64(n)
	return math.Floor(0.95*nc - 2.33*math.Sqrt(0.0475*nc))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
