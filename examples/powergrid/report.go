package main

import (
	"fmt"
	"io"
	"path/filepath"

	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/plots"
)

// Print writes the report. labels names the nodes.
func (r *Report) Print(w io.Writer, labels []string) error {
	p := &printer{w: w}
	p.f("Throttler analysis of %s\n", r.Name)
	p.f("  servers n = %d, links m = %d, connected\n\n", r.N, r.M)
	p.f("Spectrum (spectral, certified brackets)\n")
	p.f("  λ₂  = %s\n  λ_n = %s\n", bracket(r.Lambda2), bracket(r.LambdaN))
	p.f("  Kirchhoff index Σ R_uv = %.6g (mean resistance %.4g between two servers)\n\n", r.Kirchhoff, r.Kirchhoff/float64(r.N*(r.N-1)/2))
	p.f("Update cycle (consensus, spec §4.6, §5.1; σ = 1)\n")
	p.f("  γ_conv = %.6g: contraction factor ς = %.6g per step (1 − ς = %.3g)\n", r.GammaConv, r.Conv, 1-r.Conv)
	p.f("  γ*_H2  = %.6g: ρ₂ = %.6g, against ρ₂(γ_conv) = %.6g\n", r.GammaH2, r.Rho2, r.Rho2Conv)
	p.f("  stable range 0 < γ < 2/λ_n = %.6g\n\n", 2/r.LambdaN.Est)
	r.printLinks(p, labels)
	r.printSim(p, labels)
	r.printCoded(p)
	return p.err
}

func (r *Report) printLinks(p *printer, labels []string) {
	g := r.Greedy
	p.f("Best %d links to add (greedy, spec §5.2; unit weight, %d two-hop candidates, γ = γ*_H2)\n", len(g.Added), r.Candidates)
	for i, e := range g.Added {
		p.f("  %2d. %s – %s   ρ₂ %.6g → %.6g\n", i+1, labels[e.U], labels[e.V], g.Rho[i], g.Rho[i+1])
	}
	if len(g.Added) > 0 {
		p.f("  ρ₂ falls by %.2f %% with %d links (%.2f %% more links)\n\n", 100*(1-g.Rho[len(g.Added)]/g.Rho[0]), len(g.Added), 100*float64(len(g.Added))/float64(r.M))
	}
}

func (r *Report) printSim(p *printer, labels []string) {
	s := r.Sim
	if s.Gamma == r.GammaH2 {
		p.f("Per-server limits (simulation, %d steps of random-walk demand at γ*_H2)\n", s.Steps)
	} else {
		p.f("Per-server limits (simulation, %d steps of random-walk demand at γ = %.6g)\n", s.Steps, s.Gamma)
		p.f("  γ*_H2 lies within the simulation's certified λ_n bracket of 2/λ_n on this graph,\n")
		p.f("  so Simulate would refuse it (ErrIllConditioned); 98 %% of the certified bound runs instead\n")
	}
	p.f("  total demand %.6g, total limit %.6g (conserved), over-throttling O = %.4g (%.2f %% of demand)\n", s.RTotal, s.LTotal, s.Over, 100*s.Over/s.RTotal)
	for _, sv := range s.Top {
		p.f("  server %-6s demand %7.3f  limit %7.3f\n", labels[sv.Node], sv.Demand, sv.Limit)
	}
	p.f("  its clients ask %s; the max–min fair split (Algorithm 2, spec §7) gives %s", fmtList(s.Clients), fmtList(s.Fair))
	if s.Level < 1e300 {
		p.f(" (level %.4g)\n\n", s.Level)
	} else {
		p.f(" (all served in full)\n\n")
	}
}

func (r *Report) printCoded(p *printer) {
	c := r.Coded
	p.f("Coded load balancing on the same graph (codedload, K = %d files, cache M = %d, n requests)\n", c.Files, c.Cache)
	p.f("  nearest replica: max load %.4g files, cost %.4g hops per request, outage %.3g\n", c.Nearest.MaxLoad, c.Nearest.Cost, c.Nearest.Outage)
	p.f("  coded, ℓ = %d:    max load %.4g files, cost %.4g hops per request, outage %.3g\n", c.Ell, c.Coded.MaxLoad, c.Coded.Cost, c.Coded.Outage)
}

func fmtList(xs []float64) string {
	s := "["
	for i, x := range xs {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.3g", x)
	}
	return s + "]"
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// WriteFigures draws the ρ₂ curve (full range and a zoom on the
// minimum) and the greedy gains into dir, as PNG, SVG and the CSV of
// everything drawn.
func (r *Report) WriteFigures(dir string) error {
	// The units of ρ₂ and γ are those of examples/figures (σ = 1).
	const ylabel = "ρ_{2} (requests² per step², σ = 1)"
	full := plots.New("ρ_{2} over the stable range 0 < γ < 2/λ_{n}", "update cycle γ (time units)", ylabel, plots.LogY())
	plots.AddCurve(full, 0, "ρ_{2}(γ)", r.Curve[0], r.Curve[1])
	plots.AddVLine(full, 1, fmt.Sprintf("γ*_{H2} = %.5g", r.GammaH2), r.GammaH2)
	plots.AddVLine(full, 2, fmt.Sprintf("γ_{conv} = %.5g", r.GammaConv), r.GammaConv)
	// The zoom shows how close the minimum lies to the stability limit.
	zoom := plots.New("near the minimum", "update cycle γ (time units)", ylabel)
	plots.AddCurve(zoom, 0, "ρ_{2}(γ)", r.Zoom[0], r.Zoom[1])
	plots.AddVLine(zoom, 1, fmt.Sprintf("γ*_{H2} = %.5g", r.GammaH2), r.GammaH2)
	plots.AddVLine(zoom, 3, fmt.Sprintf("stability limit 2/λ_{n} = %.5g", 2/r.LambdaN.Est), 2/r.LambdaN.Est)
	tab := plots.NewTable("panel", "gamma", "rho2", "gamma_h2", "gamma_conv")
	for k, c := range [][2][]float64{r.Curve, r.Zoom} {
		for i := range c[0] {
			tab.Add([]string{"full", "zoom"}[k], c[0][i], c[1][i], r.GammaH2, r.GammaConv)
		}
	}
	if err := write(dir, "powergrid-rho2", plots.NewStack(full, zoom), 2, tab); err != nil {
		return err
	}
	gr := plots.New("ρ_{2} as greedy links are added (γ = γ*_{H2})", "links added", ylabel)
	xs := make([]float64, len(r.Greedy.Rho))
	for i := range xs {
		xs[i] = float64(i)
	}
	plots.AddPoints(gr, 0, "ρ_{2} after k links", xs, r.Greedy.Rho)
	tg := plots.NewTable("links_added", "rho2")
	for i := range xs {
		tg.Add(i, r.Greedy.Rho[i])
	}
	return write(dir, "powergrid-greedy", gr, 1, tg)
}

// write saves p (panels stacked vertically) as PNG and SVG, and tab as CSV.
func write(dir, name string, p plots.Drawer, panels int, tab *plots.Table) error {
	h := plots.DefaultHeight * vg.Length(panels) * 0.8
	for _, ext := range []string{".png", ".svg"} {
		if err := plots.Save(p, plots.DefaultWidth, h, filepath.Join(dir, name+ext)); err != nil {
			return err
		}
	}
	return writeCSV(filepath.Join(dir, name+".csv"), tab)
}
