package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// maxAllPairsCandidates bounds the graph order for which "design --add"
// takes every missing link as a candidate (n²/2 candidates, each scored
// in O(n) per round).
const maxAllPairsCandidates = 400

// designOpts are the flags of "throttler design".
type designOpts struct {
	f              throttlerFlags
	add, hops      int
	gammaEvery     int
	objective      string
	candidates     string
	linkWeight     float64
	weights        bool
	reweight       int
	budget, excess float64
	sf             scaleDesignFlags
}

func (a *app) throttlerDesignCommand() *cobra.Command {
	o := &designOpts{}
	c := &cobra.Command{
		Use:   "design",
		Short: "Add k links greedily, or design every link weight with a certificate",
		Long: `--add K: add K links one by one, each the candidate that lowers ρ₂ most
(spec §5.2, Problem C), from the --candidates edge list, or the missing
links between servers at most --hops H apart (every missing link on
graphs of at most 400 servers when neither is given), each with weight
--link-weight. With --objective kirchhoff (the default above 2048
servers) the links lower the Kirchhoff index K_f = n tr L† instead, at
any size (exact up to 1000 servers, sketches and solves above, spec
§13.13): each step's gain and K_f with 95 % intervals, a certified lower
bound on the best K_f of any K candidates and the gap to it; with
--gamma, whether each chosen link alone keeps the throttler stable.
With --objective rho2-star the links lower ρ₂ at the best update cycle
γ*, recomputed every --gamma-every links, with a certified lower bound
(exact up to 1000 servers, spec §13.15; above, sketches and solves with
γ* estimated and 95 % intervals, spec §13.17); with rho2 up to 1000 servers the
certified lower bound on the best ρ₂ at --gamma is printed too, and
above 1000 servers --objective rho2 runs at any size (sketches and
solves, spec §13.16) at --gamma (default the estimate of γ*_H2): each
step's gain and ρ₂ with 95 % intervals, the links refused because they
could make the throttler unstable, and a certified lower bound on the
best ρ₂ of any K candidates with the gap to it.
--weights: choose the weight of every existing link under a total weight
--budget (default: the current total) to minimise ρ₂ (spec §5.2,
Problem A), with a certified lower bound on the optimum; with
--excess E, to minimise instead the expected over-throttling at the mean
excess demand E (spec throttlers-deployed.md §4.4: a local minimum
started from the ρ₂ design, with its stationarity gap).
--reweight K: change the weights of at most K links under the same
budget (spec §13.11), with the exact ρ₂ after each link and the certified
distance to the best reweighting of all links.
Both at the update cycle --gamma (default γ*_H2 of the input graph).
--weights --resistance (taken above 2048 servers): minimise tr L(w)†, ρ₂'s
resistance term, at any size within --min-weight/--max-weight, with a
certified gap (spec §13.12; above 1000 servers at the printed probability).
--weights --objective rho2: minimise ρ₂ itself at any size, at --gamma
(default γ*_H2 up to 2048 servers) or, with --gamma-opt, jointly over
the update cycle, within the same bounds, keeping γλ_n < 2 certified,
with a certified gap (spec §13.14).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(a, cmd) },
	}
	o.f.register(c)
	c.Flags().IntVar(&o.add, "add", 0, "number of links to add greedily")
	c.Flags().IntVar(&o.hops, "hops", 0, "with --add: the candidates are the missing links between servers at most `H` hops apart")
	c.Flags().StringVar(&o.objective, "objective", "", "with --add: rho2 (at --gamma; sketches and solves above 1000 servers), rho2-star (ρ₂ at γ*, re-tuned as links are added; sketches and solves above 1000 servers) or kirchhoff (the Kirchhoff index K_f, scalable, with a certified gap); default rho2 up to 2048 servers, kirchhoff above; with --weights: rho2 takes the scalable ρ₂ design (spec §13.14)")
	c.Flags().IntVar(&o.gammaEvery, "gamma-every", 1, "with --objective rho2-star: recompute γ* every `N` links")
	c.Flags().StringVar(&o.candidates, "candidates", "", "edge list `FILE` of candidate links (labels of the graph's nodes)")
	c.Flags().Float64Var(&o.linkWeight, "link-weight", 1, "weight of an added link (without a weight column in --candidates)")
	c.Flags().BoolVar(&o.weights, "weights", false, "design every link weight under --budget")
	c.Flags().IntVar(&o.reweight, "reweight", 0, "change the weights of at most `K` links under --budget")
	c.Flags().Float64Var(&o.budget, "budget", 0, "total link weight for --weights; 0 means the graph's current total")
	c.Flags().Float64Var(&o.excess, "excess", 0, "with --weights: minimise the expected over-throttling at this mean excess demand r_total − l_total (load) instead of ρ₂")
	o.sf.register(c)
	return c
}

// run answers "throttler design".
func (o *designOpts) run(a *app, cmd *cobra.Command) error {
	if err := a.checkOutputs(); err != nil {
		return err
	}
	if err := designMode(o.add, o.reweight, o.weights, cmd.Flags().Changed("excess")); err != nil {
		return err
	}
	d, _, err := o.f.in.load()
	if err != nil {
		return err
	}
	o.sf.objective, o.sf.th = o.objective, o.f
	if done, err := a.designAtScale(d, o.budget, o.weights, cmd.Flags().Changed("excess"), o.sf); done {
		return err
	}
	obj, err := linkObjective(o.objective, d.Graph.Order())
	if err != nil {
		return err
	}
	var ans *answer
	switch {
	case o.add > 0 && obj == "kirchhoff":
		ans, err = a.designAddKirchhoff(d, o.f.gamma, o.add, o.hops, o.candidates, o.linkWeight)
	case o.add > 0 && obj == "rho2" && d.Graph.Order() > consensus.LinkDenseMaxNodes:
		ans, err = a.designAddRho2Scale(d, o.f.gamma, o.add, o.hops, o.candidates, o.linkWeight)
	case o.add > 0 && obj == "rho2-star":
		ans, err = a.designAddStar(d, o.add, o.hops, o.candidates, o.linkWeight, o.gammaEvery)
	default:
		th, terr := designThrottler(d.Graph, o.f)
		if terr != nil {
			return terr
		}
		switch {
		case o.add > 0:
			ans, err = a.designAdd(d, th, o.add, o.candidates, o.linkWeight, o.hops)
		case o.reweight > 0:
			ans, err = a.designReweight(d, th, o.reweight, o.budget)
		default:
			var over *float64
			if cmd.Flags().Changed("excess") {
				over = &o.excess
			}
			ans, err = a.designWeights(d, th, o.budget, over, o.f.sigma)
		}
	}
	if ans != nil {
		if eerr := a.emit(ans); eerr != nil {
			return eerr
		}
	}
	return err
}

// designMode checks that the flags ask for one design: --add K,
// --reweight K or --weights (with --excess only there).
func designMode(add, reweight int, weights, excess bool) error {
	modes := 0
	for _, on := range []bool{add > 0, weights, reweight > 0} {
		if on {
			modes++
		}
	}
	switch {
	case modes != 1 || add < 0 || reweight < 0:
		return usagef("give one of --add K, --reweight K or --weights")
	case excess && !weights:
		return usagef("--excess goes with --weights")
	}
	return nil
}

// designThrottler is the throttler of the design commands: the input
// graph at --gamma, or at its γ*_H2.
func designThrottler(g *wgraph.Graph, f throttlerFlags) (*consensus.Throttler, error) {
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, err
	}
	if g.Order() > spectral.DenseMaxNodes {
		return nil, usagef("design works on the dense spectrum: at most %d servers, the graph has %d", spectral.DenseMaxNodes, g.Order())
	}
	gamma := f.gamma
	if gamma == 0 {
		sp, err := consensus.NewSpectral(g)
		if err != nil {
			return nil, err
		}
		if f.delay > 0 {
			gamma, _, err = sp.GammaH2Delay(f.delay, f.sigma)
		} else {
			gamma, _, err = sp.GammaH2(f.sigma)
		}
		if err != nil {
			return nil, err
		}
	}
	return &consensus.Throttler{Graph: g, Gamma: gamma}, nil
}

// designAdd answers "design --add".
func (a *app) designAdd(d *graphio.Data, th *consensus.Throttler, k int, path string, w float64, hops int) (*answer, error) {
	cands, err := candidateLinks(d, path, w, hops)
	if err != nil {
		return nil, err
	}
	p := a.startProgress(-1, "greedy links")
	gr, err := consensus.GreedyLinks(th, cands, k)
	p.done()
	if err != nil {
		return nil, err
	}
	t := &table{name: "added links", cols: []string{"step", "u", "v", "weight", "ρ₂ after"}}
	for i, e := range gr.Added {
		t.add(i+1, d.Labels[e.U], d.Labels[e.V], e.W, gr.Rho[i+1])
	}
	notes := []string{fmt.Sprintf("ρ₂ before: %.6g at γ = %.6g (σ = 1). ρ₂ can rise when a link is added (spec §5.1): stop where the column is least.", gr.Rho[0], th.Gamma)}
	draw := pointsPicture("ρ₂ as links are added", "links added", "ρ₂ (load²)", true, series{name: "ρ₂", xs: steps(len(gr.Rho)), ys: gr.Rho, line: true})
	tables := []*table{t}
	if d.Graph.Order() <= consensus.LinkDenseMaxNodes {
		q, note := rho2Certificate(d.Graph, cands, k, th.Gamma, w)
		if q != nil {
			tables = append(tables, q)
		}
		notes = append(notes, note)
	}
	return &answer{tables: tables, value: gr, notes: notes, draw: draw}, nil
}

// candidateLinks reads the candidate links, lists the missing links
// within hops hops (hops > 0), or lists every missing link of a small
// graph.
func candidateLinks(d *graphio.Data, path string, w float64, hops int) ([]wgraph.Edge, error) {
	g := d.Graph
	switch {
	case hops < 0:
		return nil, usagef("--hops %d: want ≥ 1", hops)
	case hops > 0 && path != "":
		return nil, usagef("give --hops H or --candidates FILE, not both")
	case hops > 0:
		cs, err := consensus.Candidates(g, hops)
		for i := range cs {
			cs[i].W = w
		}
		return cs, err
	}
	if path == "" {
		if g.Order() > maxAllPairsCandidates {
			return nil, usagef("the graph has %d servers: give the candidate links with --candidates FILE or --hops H (every missing link is tried only up to %d servers)", g.Order(), maxAllPairsCandidates)
		}
		var cs []wgraph.Edge
		for u := range g.Order() {
			for v := u + 1; v < g.Order(); v++ {
				if !g.HasEdge(u, v) {
					cs = append(cs, wgraph.Edge{U: u, V: v, W: w})
				}
			}
		}
		return cs, nil
	}
	cd, err := graphio.ReadFile(path, &graphio.Options{})
	if err != nil {
		return nil, err
	}
	index := labelIndex(d.Labels)
	var cs []wgraph.Edge
	for _, e := range cd.Graph.Edges() {
		lu, lv := cd.Labels[e.U], cd.Labels[e.V]
		u, ok1 := index[lu]
		v, ok2 := index[lv]
		if !ok1 || !ok2 {
			return nil, usagef("--candidates %s: link {%s, %s} names a node the graph does not have", path, lu, lv)
		}
		cs = append(cs, wgraph.Edge{U: u, V: v, W: e.W})
	}
	return cs, nil
}

// designWeights answers "design --weights".
func (a *app) designWeights(d *graphio.Data, th *consensus.Throttler, budget float64, excess *float64, sigma float64) (*answer, error) {
	g := th.Graph
	edges := g.Edges()
	links := make([]consensus.Link, len(edges))
	total := 0.0
	for i, e := range edges {
		links[i] = consensus.Link{U: e.U, V: e.V, Cost: 1}
		total += e.W
	}
	if budget == 0 {
		budget = total
	}
	p := a.startProgress(-1, "weight design")
	prob := consensus.WeightProblem{Nodes: g.Order(), Links: links, Gamma: th.Gamma, Budget: budget}
	var wd *consensus.WeightDesign
	var err error
	if excess != nil {
		wd, err = consensus.DesignOverWeights(prob, sigma, *excess, nil)
	} else {
		wd, err = consensus.DesignWeights(prob, nil)
	}
	p.done()
	if wd == nil {
		return nil, err
	}
	t := weightsTable(d.Labels, edges, wd.Weights)
	s := quantityTable("certificate")
	if excess != nil {
		s.add("E O at the design", wd.Value, nil, nil, "load per cycle", "local minimum (the objective is not convex): no bound")
		s.add("stationarity gap", wd.Gap, nil, nil, "load per cycle", wd.Status.String())
	} else {
		s.add("ρ₂ at the design", wd.Value, wd.Lower, wd.Value, "load²", "certified: optimum ≥ lo")
		s.add("duality gap", wd.Gap, nil, nil, "load²", wd.Status.String())
	}
	s.add("budget", budget, nil, nil, "weight", "")
	before := make([]float64, len(edges))
	for i, e := range edges {
		before[i] = e.W
	}
	draw := pointsPicture("Link weights before and after the design", "weight before", "weight after", false, series{name: "links", xs: before, ys: wd.Weights})
	return &answer{tables: []*table{t, s}, value: wd, draw: draw}, err
}

// designReweight answers "design --reweight".
func (a *app) designReweight(d *graphio.Data, th *consensus.Throttler, k int, budget float64) (*answer, error) {
	if budget == 0 {
		budget = totalWeight(th.Graph)
	}
	p := a.startProgress(-1, "reweighting")
	rw, err := consensus.ReweightLinks(th, k, budget, nil)
	p.done()
	if rw == nil {
		return nil, err
	}
	t := &table{name: "changed links", cols: []string{"step", "u", "v", "weight before", "weight after", "ρ₂ after"}}
	for i, e := range rw.Changed {
		t.add(i+1, d.Labels[e.U], d.Labels[e.V], th.Graph.Weight(e.U, e.V), e.W, rw.Rho2[min(i+1, len(rw.Rho2)-1)])
	}
	s := quantityTable("certificate")
	s.add("ρ₂ before", rw.Rho2[0], nil, nil, "load²", "exact")
	s.add("ρ₂ after", rw.Rho2[len(rw.Rho2)-1], nil, nil, "load²", "exact")
	s.add("best ρ₂ of any reweighting", rw.Lower, rw.Lower, nil, "load²", "certified lower bound (all links free)")
	s.add("gap to it", rw.Gap, nil, nil, "load²", rw.Status.String())
	draw := pointsPicture("ρ₂ as links are reweighted", "links changed", "ρ₂ (load²)", true,
		series{name: "ρ₂", xs: steps(len(rw.Rho2)), ys: rw.Rho2, line: true},
		series{name: "certified bound for all links", xs: []float64{0, float64(max(len(rw.Rho2)-1, 1))}, ys: []float64{rw.Lower, rw.Lower}, line: true})
	return &answer{tables: []*table{t, s}, value: rw, draw: draw}, err
}

// totalWeight is Σ_e w_e summed over g.Edges() in order, as the design
// functions sum it, so that a budget of exactly the current total is
// accepted to the last bit.
func totalWeight(g *wgraph.Graph) float64 {
	var total float64
	for _, e := range g.Edges() {
		total += e.W
	}
	return total
}

// steps returns 0, 1, …, n−1 as floats.
func steps(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(i)
	}
	return xs
}

// weightsTable lists every link with its weight before and after a
// design.
func weightsTable(labels []string, edges []wgraph.Edge, after []float64) *table {
	t := &table{name: "weights", cols: []string{"u", "v", "weight before", "weight after"}}
	for i, e := range edges {
		t.add(labels[e.U], labels[e.V], e.W, after[i])
	}
	return t
}
