package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// throttlerCommand is "loadlab throttler": distributed rate limiters
// that reach consensus over a graph (spec throttlers.md).
func (a *app) throttlerCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "throttler",
		Short: "Consensus rate limiters: update cycle, H2 measures, design, simulation",
		Long: `A throttler is a set of servers on the nodes of a graph that exchange their
load every update cycle γ so that a global limit is shared by demand
(spec throttlers.md). "analyze" gives the H2-optimal cycle γ*_H2, the
stability limit 2/λ_n, the H2 measures ρ₁, ρ₂, ρ₂T and the worst
servers, and with --delay, --loss, --tick and --excess the throttler as
deployed; "design" adds links or sets link weights; "simulate" runs the
throttler (or, with --central, the centralized baseline) on a demand
trace or a random walk; "over" estimates the over-throttling of both;
"allocate" splits one server's limit among its clients, and "clients"
runs every server's split of its limit among its clients inside the loop.`,
	}
	c.AddCommand(a.throttlerAnalyzeCommand(), a.throttlerDesignCommand(), a.throttlerSimulateCommand(), a.throttlerAllocateCommand(), a.throttlerOverCommand(), a.throttlerClientsCommand())
	return c
}

// throttlerFlags are the model flags every throttler subcommand shares.
type throttlerFlags struct {
	in     graphInput
	gamma  float64
	sigma  float64
	margin float64 // analyze: the safety margin below the stability limit; 0 none
	delay  int     // simulate: a uniform delay τ, whose γ*_H2(τ) is the default cycle
}

func (f *throttlerFlags) register(c *cobra.Command) {
	f.in.register(c.Flags())
	c.Flags().Float64Var(&f.gamma, "gamma", 0, "update cycle γ (time units); 0 means γ*_H2, the H2-optimal cycle")
	c.Flags().Float64Var(&f.sigma, "sigma", 1, "noise intensity σ of the demand (spec §4.2)")
}

func (a *app) throttlerAnalyzeCommand() *cobra.Command {
	var f throttlerFlags
	var df deployedFlags
	var worst int
	c := &cobra.Command{
		Use:   "analyze",
		Short: "γ*_H2, the stability limit, ρ₁ ρ₂ ρ₂T and the worst servers",
		Long: `For a throttler graph: the stability limit 2/λ_n, the H2-optimal update
cycle γ*_H2 (spec §5.1), the fastest-converging cycle and its rate, and at
the chosen γ (--gamma, default γ*_H2) the H2 measures ρ₁, ρ₂, ρ₂T (spec
§4.3–4.4) and the --worst servers by nodal ρ₂, and the γ that minimises
the worst server's ρ₂ (spec §13.11). With --margin m, the best cycle that
stays (1 − m) below the certified stability limit and its H2 price
ρ₂(γ)/ρ₂(γ*_H2) − 1 (spec §13.11). Exact (dense) up to 2048 servers; above,
exact by sparse Cholesky factorisations where the graph's factor fits
(road-like, grid-like and hub-heavy networks), else stochastic estimates
with 95 % intervals.

The network as deployed (spec throttlers-deployed.md): --delay τ gives the
stability limit a*(τ)/λ_n when every exchange arrives τ cycles late, the
H2-optimal cycle γ*_H2(τ) and ρ₁ ρ₂ ρ₂T under that delay at the γ used;
--loss q and --tick π add the expected ρ₂ when exchanges are lost and
servers update at random (at most 256 servers); --excess E gives the
expected over-throttling E O for a mean excess demand E = r̄_total − l_total
and the cycle that minimises it (at most 2048 servers).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			d, _, err := f.in.load()
			if err != nil {
				return err
			}
			if err := wgraph.CheckConnected(d.Graph); err != nil {
				return err
			}
			if err := df.read(cmd, d.Graph.Order()); err != nil {
				return err
			}
			var ans *answer
			if d.Graph.Order() <= spectral.DenseMaxNodes {
				ans, err = a.analyzeDense(d, f, df, worst)
			} else {
				ans, err = a.analyzeLarge(d, f, df, worst)
			}
			if ans != nil {
				if eerr := a.emit(ans); eerr != nil {
					return eerr
				}
			}
			return err
		},
	}
	f.register(c)
	df.register(c)
	c.Flags().IntVar(&worst, "worst", 5, "number of worst servers (by nodal ρ₂) to list")
	c.Flags().Float64Var(&f.margin, "margin", 0, "safety margin m in (0, 1): also give the best γ at most (1 − m) times the certified stability limit, and its H2 price")
	return c
}

// analyzeDense answers "throttler analyze" from the dense spectrum.
func (a *app) analyzeDense(d *graphio.Data, f throttlerFlags, df deployedFlags, worst int) (*answer, error) {
	if worst < 0 {
		return nil, usagef("--worst = %d: want ≥ 0", worst)
	}
	p := a.startProgress(-1, "spectrum")
	sp, err := consensus.NewSpectral(d.Graph)
	p.done()
	if err != nil {
		return nil, err
	}
	gstar, _, err := sp.GammaH2(f.sigma)
	if err != nil {
		return nil, err
	}
	gamma := f.gamma
	if gamma == 0 {
		gamma = gstar
	}
	t := quantityTable("summary")
	t.add("stability limit 2/λ_n", sp.StabilityBound(), nil, nil, "time", "exact")
	t.add("γ*_H2", gstar, nil, nil, "time", "exact")
	if err := addDecisionRows(t, sp, f, d.Labels); err != nil {
		return nil, err
	}
	gc, fc := sp.GammaConv()
	t.add("fastest-converging γ", gc, nil, nil, "time", "exact")
	t.add("its contraction factor", fc, nil, nil, "per cycle", "exact")
	t.add("γ used", gamma, nil, nil, "time", "")
	t.add("contraction factor at γ", sp.Factor(gamma), nil, nil, "per cycle", "exact")
	for _, tr := range []consensus.Traffic{consensus.Case1, consensus.Case2, consensus.Case2T} {
		rho, err := sp.Rho(tr, gamma, f.sigma)
		if err != nil {
			return nil, err
		}
		t.add(rhoName(tr), rho, nil, nil, "load²", "exact")
	}
	ws, err := worstServers(sp, d.Labels, gamma, f.sigma, worst)
	if err != nil {
		return nil, err
	}
	tables := []*table{t, ws}
	if df.delay > 0 || df.lossy {
		dt, err := delayTableDense(sp, d.Graph, f.gamma, f.sigma, df)
		if err != nil {
			return nil, err
		}
		tables = append(tables, dt)
	}
	if df.over {
		ot, err := overTable(sp, gamma, f.sigma, df.excess, df.delay)
		if err != nil {
			return nil, err
		}
		tables = append(tables, ot)
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) { return rhoCurve(sp, gamma, gstar, f.sigma) }
	return &answer{tables: tables, draw: draw}, nil
}

// addDecisionRows adds the cycle that minimises the worst server's ρ₂
// and, with --margin, the best cycle with that safety margin and its H2
// price (spec throttlers.md §13.11).
func addDecisionRows(t *table, sp *consensus.Spectral, f throttlerFlags, labels []string) error {
	ws, err := sp.GammaWorstServer(f.sigma)
	if err != nil {
		return err
	}
	worst := make([]string, len(ws.Worst))
	for i, j := range ws.Worst {
		worst[i] = labels[j]
	}
	t.add("γ minimising the worst server's ρ₂", ws.Gamma, ws.Lo, ws.Hi, "time",
		fmt.Sprintf("exact: worst %s at ρ₂,j = %.6g (at γ*_H2: %s at %.6g)", strings.Join(worst, ", "), ws.WorstRho, labels[ws.WorstH2], ws.WorstRhoH2))
	if f.margin == 0 {
		return nil
	}
	mc, err := sp.GammaMargin(f.margin, f.sigma)
	if err != nil {
		return err
	}
	how := "exact: (1 − m)·certified limit"
	if mc.H2Optimal {
		how = "exact: γ*_H2 already keeps the margin"
	}
	t.add(fmt.Sprintf("γ with margin %g", f.margin), mc.Gamma, nil, nil, "time", how)
	t.add("margin kept below 2/λ_n", mc.AchievedLo, mc.AchievedLo, mc.AchievedHi, "", "certified")
	t.add("H2 price of the margin", mc.Price, nil, nil, "ρ₂/ρ₂(γ*_H2) − 1", "exact")
	return nil
}

// rhoName names the H2 measure of a traffic case.
func rhoName(t consensus.Traffic) string {
	return map[consensus.Traffic]string{consensus.Case1: "ρ₁", consensus.Case2: "ρ₂", consensus.Case2T: "ρ₂T"}[t]
}

// worstServers is the table of the k servers of largest nodal ρ₂.
func worstServers(sp *consensus.Spectral, labels []string, gamma, sigma float64, k int) (*table, error) {
	nodal, err := sp.NodalRho(nil, consensus.Case2, gamma, sigma)
	if err != nil {
		return nil, err
	}
	t := &table{name: "worst servers", cols: []string{"rank", "server", "nodal ρ₂"}}
	for i, j := range sortedDesc(nodal) {
		if i == k {
			break
		}
		t.add(i+1, labels[j], nodal[j])
	}
	return t, nil
}

// rhoCurve draws ρ₂(γ) near its minimum, with γ*_H2, the γ used and the
// stability limit.
func rhoCurve(sp *consensus.Spectral, gamma, gstar, sigma float64) (plots.Drawer, vg.Length, vg.Length, error) {
	gs, rs, err := sp.Curve(consensus.Case2, sigma, 400)
	if err != nil {
		return nil, 0, 0, err
	}
	// ρ₂ grows without bound at both ends of the stable range: keep the
	// part within 3× the minimum, where the choice of γ is made.
	rmin := math.Inf(1)
	for _, r := range rs {
		rmin = min(rmin, r)
	}
	var xs, ys []float64
	for i := range gs {
		if rs[i] <= 3*rmin {
			xs, ys = append(xs, gs[i]), append(ys, rs[i])
		}
	}
	p := plots.New("H2 measure against the update cycle", "update cycle γ (time units)", "ρ₂ (load²)")
	plots.AddCurve(p, 0, "ρ₂(γ)", xs, ys)
	plots.AddVLine(p, 1, fmt.Sprintf("γ* (H2-optimal) = %.4g", gstar), gstar)
	plots.AddVLine(p, 3, fmt.Sprintf("stability limit 2/λn = %.4g", sp.StabilityBound()), sp.StabilityBound())
	if gamma != gstar {
		plots.AddVLine(p, 2, fmt.Sprintf("γ used = %.4g", gamma), gamma)
	}
	return p, 0, 0, nil
}

// analyzeLarge answers "throttler analyze" above the dense size: exactly
// by the sparse Cholesky path where the graph's factor fits (spec
// sparse-cholesky.md §5), else with the stochastic estimators (spec
// throttlers.md §12.9).
func (a *app) analyzeLarge(d *graphio.Data, f throttlerFlags, df deployedFlags, worst int) (*answer, error) {
	if worst < 0 {
		return nil, usagef("--worst = %d: want ≥ 0", worst)
	}
	g := d.Graph
	t := quantityTable("summary")
	ans := &answer{tables: []*table{t}}
	p := a.startProgress(-1, "γ*_H2")
	defer p.done()
	sl, serr := spectral.NewShiftedLaplacian(g, nil)
	exact := serr == nil && sl.Path() == spectral.Sparse
	if exact {
		ans.notes = append(ans.notes, fmt.Sprintf("Above %d servers the H2 values are exact from sparse Cholesky factorisations (%s ordering); λ_n is a certified bracket.", spectral.DenseMaxNodes, sl.Report().Ordering))
	} else {
		ans.notes = append(ans.notes, fmt.Sprintf("Above %d servers, where the sparse factor does not fit, the H2 values are stochastic estimates with 95 %% intervals; nodal values are not computed.", spectral.DenseMaxNodes))
	}
	gamma, err := a.largeGamma(t, g, f, exact)
	if err != nil {
		return ans, err
	}
	if err := a.largeMargin(t, g, f); err != nil {
		return nil, err
	}
	th := &consensus.Throttler{Graph: g, Gamma: gamma}
	t.add("γ used", gamma, nil, nil, "time", "")
	if exact {
		err = addExactRho(ans, th, f.sigma, d.Labels, worst)
	} else {
		err = a.addEstimatedRho(t, th, f.sigma)
	}
	if err != nil {
		return ans, err
	}
	if df.any() {
		dt, derr := a.delayTableLarge(g, gamma, f.sigma, df)
		if dt == nil {
			return ans, derr
		}
		ans.tables = append(ans.tables, dt)
		err = errors.Join(err, derr)
	}
	return ans, err
}

// largeGamma adds λ_n and γ*_H2 (exact or estimated) unless --gamma is
// given, and returns the γ to use.
func (a *app) largeGamma(t *table, g *wgraph.Graph, f throttlerFlags, exact bool) (float64, error) {
	if f.gamma != 0 {
		return f.gamma, nil
	}
	if exact {
		br, err := spectral.LambdaMaxBracket(g, nil)
		if err != nil {
			return 0, err
		}
		t.add("λ_n", br.Est, br.Lo, br.Hi, "1/time", "certified bracket ("+br.Cert.String()+")")
		gstar, _, err := consensus.GammaH2(g, f.sigma)
		if err != nil {
			return 0, err
		}
		t.add("γ*_H2", gstar, nil, nil, "time", "exact (sparse Cholesky; about 8 digits: ρ₂ is flat at its minimum)")
		return gstar, nil
	}
	ge, err := consensus.EstimateGammaH2(g, f.sigma, nil, rand.NewPCG(a.seed, 1))
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return 0, err
	}
	t.add("λ_n", ge.LambdaMax.Est, ge.LambdaMax.Lo, ge.LambdaMax.Hi, "1/time", "certified bracket ("+ge.LambdaMax.Cert.String()+")")
	t.add("γ*_H2", ge.Gamma.Mean, ge.Gamma.Lo, ge.Gamma.Hi, "time", "estimate, 95 % interval")
	return ge.Gamma.Mean, err
}

// largeMargin adds the --margin rows above the dense size.
func (a *app) largeMargin(t *table, g *wgraph.Graph, f throttlerFlags) error {
	if f.margin == 0 {
		return nil
	}
	me, err := consensus.EstimateGammaMargin(g, f.margin, f.sigma, nil, rand.NewPCG(a.seed, 1))
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return err
	}
	t.add(fmt.Sprintf("γ with margin %g", f.margin), me.Gamma, nil, nil, "time", "keeps the margin whatever the estimate's error")
	t.add("margin kept below 2/λ_n", me.AchievedLo, me.AchievedLo, me.AchievedHi, "", "certified")
	t.add("H2 price of the margin", me.Price.Mean, me.Price.Lo, me.Price.Hi, "ρ₂/ρ₂(γ*_H2) − 1", "estimate, 95 % interval")
	return nil
}

// addExactRho adds ρ₁, ρ₂, ρ₂T and the worst servers by nodal ρ₂ from
// the sparse exact path.
func addExactRho(ans *answer, th *consensus.Throttler, sigma float64, labels []string, worst int) error {
	t := ans.tables[0]
	var nodal2 []float64
	for _, tr := range []consensus.Traffic{consensus.Case1, consensus.Case2, consensus.Case2T} {
		nodal, err := consensus.NodalRho(nil, th, tr, sigma)
		if err != nil {
			return err
		}
		if tr == consensus.Case2 {
			nodal2 = nodal
		}
		t.add(rhoName(tr), floats.Sum(nodal), nil, nil, "load²", "exact (sparse Cholesky)")
	}
	if worst > 0 {
		wt := &table{name: "worst servers", cols: []string{"rank", "server", "nodal ρ₂"}}
		for i, j := range sortedDesc(nodal2) {
			if i == worst {
				break
			}
			wt.add(i+1, labels[j], nodal2[j])
		}
		ans.tables = append(ans.tables, wt)
	}
	return nil
}

// addEstimatedRho adds the estimates of ρ₁, ρ₂, ρ₂T with their intervals.
func (a *app) addEstimatedRho(t *table, th *consensus.Throttler, sigma float64) error {
	h, err := consensus.EstimateH2(th, sigma, nil, rand.NewPCG(a.seed, 2))
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return err
	}
	for _, tr := range []consensus.Traffic{consensus.Case1, consensus.Case2, consensus.Case2T} {
		e := h.Of(tr)
		t.add(rhoName(tr), e.Mean, e.Lo, e.Hi, "load²", "estimate, 95 % interval")
	}
	return err
}
