package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// Config sets up Analyze. DefaultConfig gives the values of the report.
type Config struct {
	Sigma       float64 // noise level σ of the H2 measures (requests per step)
	CurvePoints int     // γ values on the ρ₂ curve
	Links       int     // links to add by the greedy method
	SimSteps    int     // steps of the simulated demand
	Demand      float64 // mean demand per server (requests per step)
	Tightness   float64 // global limit as a fraction of the total demand
	Seed        uint64
	Progress    io.Writer
}

// DefaultConfig returns the settings of the printed report.
func DefaultConfig() Config {
	return Config{Sigma: 1, CurvePoints: 80, Links: 10, SimSteps: 200, Demand: 10, Tightness: 0.9, Seed: 1}
}

// Report holds every number the program prints and draws.
type Report struct {
	Name             string
	N, M             int
	Lambda2, LambdaN spectral.Bracket
	Kirchhoff        float64      // Σ_{u<v} R_uv (spec §4.2)
	GammaConv, Conv  float64      // γ_conv and its contraction factor ς (spec §4.6)
	GammaH2, Rho2    float64      // γ*_H2 and ρ₂(γ*_H2) at σ (spec §5.1)
	Rho2Conv         float64      // ρ₂ at γ_conv, for comparison
	Curve            [2][]float64 // ρ₂ over the stable range
	Zoom             [2][]float64 // ρ₂ around γ*_H2
	Greedy           *consensus.Greedy
	Candidates       int
	Sim              SimReport
	Coded            CodedReport
}

// Analyze runs steps 1–6 of the package comment on g.
func Analyze(g *wgraph.Graph, cfg Config) (*Report, error) {
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, err
	}
	r := &Report{N: g.Order(), M: g.Size()}
	steps := []func(*wgraph.Graph, Config) error{r.spectrum, r.h2, r.links, r.simulate, r.coded}
	for _, step := range steps {
		t0 := time.Now()
		if err := step(g, cfg); err != nil {
			return nil, err
		}
		progress(cfg.Progress, "    %.1f s", time.Since(t0).Seconds())
	}
	return r, nil
}

// spectrum brackets λ₂ and λ_n (certified brackets, spectral).
func (r *Report) spectrum(g *wgraph.Graph, cfg Config) error {
	progress(cfg.Progress, "1/6 λ₂ and λ_n brackets (n = %d, %d links)", r.N, r.M)
	var err error
	if r.Lambda2, err = spectral.Lambda2Bracket(g, nil); err != nil {
		return err
	}
	r.LambdaN, err = spectral.LambdaMaxBracket(g, nil)
	return err
}

// h2 computes the dense spectrum once and reads every H2 quantity off it.
func (r *Report) h2(g *wgraph.Graph, cfg Config) error {
	progress(cfg.Progress, "2/6 dense spectrum (O(n³)), Kirchhoff index, γ_conv, γ*_H2, ρ₂ curve")
	sp, err := consensus.NewSpectral(g)
	if err != nil {
		return err
	}
	r.Kirchhoff = sp.Kirchhoff()
	r.GammaConv, r.Conv = sp.GammaConv()
	if r.GammaH2, r.Rho2, err = sp.GammaH2(cfg.Sigma); err != nil {
		return err
	}
	if r.Rho2Conv, err = sp.Rho(consensus.Case2, r.GammaConv, cfg.Sigma); err != nil {
		return err
	}
	if r.Curve[0], r.Curve[1], err = sp.Curve(consensus.Case2, cfg.Sigma, cfg.CurvePoints); err != nil {
		return err
	}
	return r.zoom(sp, cfg)
}

// zoom samples ρ₂ near its minimum, from 1/λ_n (the lower end of the
// bracket of γ*_H2, spec §5.1 fact 2) to 99.99 % of 2/λ_n, where the
// full-range curve cannot show it: on graphs with λ₂ ≪ λ_n the minimum
// sits within a fraction of a percent of the stability limit.
func (r *Report) zoom(sp *consensus.Spectral, cfg Config) error {
	hi := 0.9999 * sp.StabilityBound()
	lo := max(1/sp.LambdaMax(), r.GammaH2-4*(hi-r.GammaH2))
	for i := 0; i < cfg.CurvePoints; i++ {
		g := lo + (hi-lo)*float64(i)/float64(cfg.CurvePoints-1)
		v, err := sp.Rho(consensus.Case2, g, cfg.Sigma)
		if err != nil {
			return err
		}
		r.Zoom[0] = append(r.Zoom[0], g)
		r.Zoom[1] = append(r.Zoom[1], v)
	}
	return nil
}

// links adds cfg.Links links of unit weight between servers two hops
// apart, chosen greedily for the least ρ₂ at γ*_H2 (spec §5.2).
func (r *Report) links(g *wgraph.Graph, cfg Config) error {
	cand := twoHop(g)
	r.Candidates = len(cand)
	progress(cfg.Progress, "3/6 greedy link addition: %d links from %d two-hop candidates", cfg.Links, len(cand))
	var err error
	r.Greedy, err = consensus.GreedyLinks(&consensus.Throttler{Graph: g, Gamma: r.GammaH2}, cand, cfg.Links)
	return err
}

// twoHop returns the unit-weight non-edges {u, v}, u < v, at hop distance 2.
func twoHop(g *wgraph.Graph) []wgraph.Edge {
	var out []wgraph.Edge
	mark := make([]int, g.Order())
	for u := range mark {
		mark[u] = -1
	}
	for u := 0; u < g.Order(); u++ {
		mark[u] = u
		for _, v := range g.Neighbors(u) {
			mark[v] = u
		}
		for _, v := range g.Neighbors(u) {
			for _, w := range g.Neighbors(int(v)) {
				if int(w) > u && mark[w] != u {
					mark[w] = u
					out = append(out, wgraph.Edge{U: u, V: int(w), W: 1})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].U != out[j].U {
			return out[i].U < out[j].U
		}
		return out[i].V < out[j].V
	})
	return out
}

// SimReport is step 5: a simulated run of the throttler at γ*_H2.
type SimReport struct {
	Gamma          float64 // the update cycle simulated (see simGamma)
	Steps          int
	RTotal, LTotal float64 // demand and limit totals at the last step
	Over           float64 // over-throttling O at the last step (spec §3.2)
	Top            []Server
	Clients        []float64 // the busiest server's client requests
	Fair           []float64 // their max–min fair limits (Algorithm 2, spec §7)
	Level          float64   // the water level t
}

// Server is one server's demand and limit at the last step.
type Server struct {
	Node          int
	Demand, Limit float64
}

// simGamma is the update cycle of the simulation: γ*_H2 when the
// simulation's own stability certificate can place it (λ₂ ≪ λ_n puts it
// near the limit: on the power grid 2/γ*_H2 is 0.2 % above λ_n, and the
// Lanczos bracket of λ_n, relative width 1e-3 or less, places it), else
// 98 % of the certified bound 2/Hi(λ_n), where Simulate would refuse
// γ*_H2 rather than risk an unstable answer.
func (r *Report) simGamma(g *wgraph.Graph) float64 {
	b, err := spectral.LambdaMaxBracket(g, &spectral.EigenSettings{Threshold: 2 / r.GammaH2})
	if err == nil && b.Hi < 2/r.GammaH2 {
		return r.GammaH2
	}
	return 0.98 * 2 / b.Hi
}

func (r *Report) simulate(g *wgraph.Graph, cfg Config) error {
	gamma := r.simGamma(g)
	progress(cfg.Progress, "4/6 simulating %d steps of random-walk demand at γ = %.6g", cfg.SimSteps, gamma)
	n := g.Order()
	start := make([]float64, n)
	x0 := make([]float64, n)
	for i := range start {
		start[i] = cfg.Demand
		x0[i] = cfg.Tightness * cfg.Demand
	}
	th := &consensus.Throttler{Graph: g, Gamma: gamma}
	d := &consensus.RandomWalkDemand{Start: start, Sigma: cfg.Sigma, Src: mc.Source(cfg.Seed, 5)}
	tr, err := consensus.Simulate(th, d, x0, cfg.SimSteps, &consensus.Settings{States: true})
	if err != nil {
		return err
	}
	k := tr.Steps - 1
	s := SimReport{Gamma: gamma, Steps: tr.Steps, RTotal: tr.RTotal[k], LTotal: tr.LTotal[k], Over: tr.Over[k]}
	s.Top = topServers(tr.R[k], tr.X[k], 5)
	s.Clients = clients(s.Top[0].Demand, rand.New(mc.Source(cfg.Seed, 6)))
	s.Fair, s.Level, err = consensus.WaterFill(nil, s.Clients, s.Top[0].Limit)
	r.Sim = s
	return err
}

// topServers returns the m servers with the largest limits.
func topServers(demand, limit []float64, m int) []Server {
	all := make([]Server, len(limit))
	for i := range limit {
		all[i] = Server{Node: i, Demand: demand[i], Limit: limit[i]}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Limit > all[j].Limit })
	return all[:min(m, len(all))]
}

// clients splits a server's demand over six clients with random shares.
func clients(total float64, rnd *rand.Rand) []float64 {
	w := make([]float64, 6)
	s := 0.0
	for i := range w {
		w[i] = rnd.ExpFloat64()
		s += w[i]
	}
	for i := range w {
		w[i] *= total / s
	}
	return w
}

// String formats a bracket for the report.
func bracket(b spectral.Bracket) string {
	cert := b.Cert.String()
	if b.Delta > 0 {
		cert += fmt.Sprintf(", δ = %.0e", b.Delta)
	}
	return fmt.Sprintf("%.6g (certified in [%.7g, %.7g], %s)", b.Est, b.Lo, b.Hi, cert)
}
