package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/cholesky"
	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// graphCommand is "loadlab graph": questions about a network itself.
func (a *app) graphCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "graph",
		Short: "Size, spectrum and effective resistances of a network",
		Long: `Questions about a network: its size and connectivity, its Laplacian
spectrum (λ₂, λ_n with their certificates), its Kirchhoff index and
effective resistances. Exact values are exact to working precision; a
stochastic estimate is marked as one and comes with its 95 % interval.`,
	}
	c.AddCommand(a.graphInfoCommand(), a.graphSpectrumCommand(), a.graphResistanceCommand())
	return c
}

// quantity is a table of named quantities with their interval or bracket
// and the method behind them.
func quantityTable(name string) *table {
	return &table{name: name, cols: []string{"quantity", "value", "lo", "hi", "unit", "method"}}
}

func (a *app) graphInfoCommand() *cobra.Command {
	var in graphInput
	var sf sparseFlags
	c := &cobra.Command{
		Use:   "info",
		Short: "Nodes, edges, components, degrees, λ₂, λ_n and the Kirchhoff index",
		Long: `Prints the size of the network, its components and degrees and, for a
connected network, λ₂ (algebraic connectivity) and λ_n of its Laplacian
and its Kirchhoff index K_f = n Σ 1/λ_k. λ₂ and λ_n are exact (dense
eigensolver) up to 2048 nodes and certified brackets above; K_f is exact
(dense up to 2048 nodes, by sparse Cholesky with selected inversion where
the graph's factor fits) and otherwise a stochastic estimate with its
95 % interval. --max-flops raises the sparse path's limit for a larger
mesh (the exact K_f of a 10⁷-node torus takes minutes and about 15 GB).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			set, err := sf.settings()
			if err != nil {
				return err
			}
			d, name, err := in.load()
			if err != nil {
				return err
			}
			ans, err := a.graphInfo(d, name, set)
			if ans != nil {
				if eerr := a.emit(ans); eerr != nil {
					return eerr
				}
			}
			return err
		},
	}
	in.register(c.Flags())
	sf.register(c.Flags())
	return c
}

// graphInfo computes the rows of "graph info", the exact sparse path
// within the limits set.
func (a *app) graphInfo(d *graphio.Data, name string, set *cholesky.Settings) (*answer, error) {
	g := d.Graph
	t := quantityTable("")
	t.add("nodes", g.Order(), nil, nil, "", name)
	t.add("edges", g.Size(), nil, nil, "", "")
	t.add("components", len(d.Components), nil, nil, "", componentSizes(d.Components))
	dmin, dmean, dmax, wsum := degreeStats(g)
	t.add("degree min", dmin, nil, nil, "", "")
	t.add("degree mean", dmean, nil, nil, "", "")
	t.add("degree max", dmax, nil, nil, "", "")
	t.add("total weight", wsum, nil, nil, "", "")
	ans := &answer{tables: []*table{t}, notes: readerNotes(d)}
	ans.draw = degreePicture(g)
	if len(d.Components) != 1 || g.Order() < 2 {
		ans.notes = append(ans.notes, "The network is not connected (or has one node): the spectral rows need a connected network (--largest keeps the largest component).")
		return ans, nil
	}
	p := a.startProgress(-1, "spectrum")
	defer p.done()
	if err := addSpectralRows(t, g); err != nil {
		return ans, err
	}
	if err := a.addKirchhoffRow(t, g, set); err != nil {
		return ans, err
	}
	return ans, nil
}

// degreePicture draws the number of nodes of each degree.
func degreePicture(g *wgraph.Graph) func() (plots.Drawer, vg.Length, vg.Length, error) {
	count := map[int]int{}
	for u := range g.Order() {
		count[g.Degree(u)]++
	}
	var xs, ys []float64
	for k := range g.Order() {
		if c := count[k]; c > 0 {
			xs, ys = append(xs, float64(k)), append(ys, float64(c))
		}
	}
	return pointsPicture("Degree distribution", "degree (links)", "nodes", true, series{name: "nodes of each degree", xs: xs, ys: ys})
}

// componentSizes describes the component sizes, largest first (the
// first ten).
func componentSizes(cs []int) string {
	if len(cs) <= 1 {
		return "connected"
	}
	var parts []string
	for i, s := range cs {
		if i == 10 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprint(s))
	}
	return "sizes " + strings.Join(parts, ", ")
}

// degreeStats returns the least, mean and largest degree and the total
// edge weight.
func degreeStats(g *wgraph.Graph) (dmin int, dmean float64, dmax int, wsum float64) {
	n := g.Order()
	if n == 0 {
		return 0, 0, 0, 0
	}
	dmin = math.MaxInt
	for u := range n {
		k := g.Degree(u)
		dmin, dmax = min(dmin, k), max(dmax, k)
	}
	return dmin, 2 * float64(g.Size()) / float64(n), dmax, totalWeight(g)
}

// addSpectralRows adds λ₂ and λ_n: exact from the dense spectrum up to
// DenseMaxNodes, certified brackets above (spec throttlers.md §12.8).
func addSpectralRows(t *table, g *wgraph.Graph) error {
	if g.Order() <= spectral.DenseMaxNodes {
		ev, err := spectral.Spectrum(g)
		if err != nil {
			return err
		}
		t.add("λ₂", ev[1], nil, nil, "1/time", "dense eigensolver (exact)")
		t.add("λ_n", ev[len(ev)-1], nil, nil, "1/time", "dense eigensolver (exact)")
		return nil
	}
	// the bracket alone: a multiple λ₂ (a symmetric torus) has a value
	// but no eigenvector to separate, which AlgebraicConnectivity needs
	b2, err := spectral.Lambda2Bracket(g, nil)
	if err != nil {
		return err
	}
	t.add("λ₂", b2.Est, b2.Lo, b2.Hi, "1/time", "certified ("+b2.Cert.String()+")")
	bn, err := spectral.LambdaMaxBracket(g, nil)
	if err != nil {
		return err
	}
	t.add("λ_n", bn.Est, bn.Lo, bn.Hi, "1/time", "certified bracket ("+bn.Cert.String()+")")
	return nil
}

// addKirchhoffRow adds K_f: exact where NewResistance runs (dense up to
// DenseMaxNodes, sparse Cholesky where the factor fits), else the
// stochastic estimate with its 95 % interval (spec throttlers.md §12.9).
func (a *app) addKirchhoffRow(t *table, g *wgraph.Graph, set *cholesky.Settings) error {
	r, err := spectral.NewResistanceWith(g, set)
	if err == nil {
		t.add("Kirchhoff index", r.Kirchhoff(), nil, nil, "1/weight", exactHow(r))
		return nil
	}
	if !errors.Is(err, loadlab.ErrTooLarge) {
		return err
	}
	e2, err := estimate.Kirchhoff(g, nil, rand.NewPCG(a.seed, 0))
	e := e2.Estimate
	t.add("Kirchhoff index", e.Mean, e.Lo, e.Hi, "1/weight", fmt.Sprintf("estimate, 95 %% interval (%v, %d probes)", e2.Estimator, e2.Probes))
	return err
}

// exactHow names the exact path r took.
func exactHow(r *spectral.Resistance) string {
	if r.Path() == spectral.Sparse {
		return fmt.Sprintf("exact (sparse Cholesky, %s ordering, fill %.2g)", r.Report().Ordering, r.Report().Fill())
	}
	return "dense (exact)"
}

func (a *app) graphSpectrumCommand() *cobra.Command {
	var in graphInput
	c := &cobra.Command{
		Use:   "spectrum",
		Short: "The Laplacian eigenvalues (all up to 2048 nodes; λ₂ and λ_n brackets above)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			d, _, err := in.load()
			if err != nil {
				return err
			}
			if err := wgraph.CheckConnected(d.Graph); err != nil {
				return err
			}
			ans, err := a.graphSpectrum(d.Graph)
			if err != nil {
				return err
			}
			return a.emit(ans)
		},
	}
	in.register(c.Flags())
	return c
}

// graphSpectrum returns the whole spectrum (dense) or the two certified
// brackets (above DenseMaxNodes).
func (a *app) graphSpectrum(g *wgraph.Graph) (*answer, error) {
	p := a.startProgress(-1, "spectrum")
	defer p.done()
	if g.Order() > spectral.DenseMaxNodes {
		t := quantityTable("")
		if err := addSpectralRows(t, g); err != nil {
			return nil, err
		}
		return &answer{tables: []*table{t}, notes: []string{fmt.Sprintf("Above %d nodes only λ₂ and λ_n are computed, each certified.", spectral.DenseMaxNodes)}}, nil
	}
	ev, err := spectral.Spectrum(g)
	if err != nil {
		return nil, err
	}
	t := &table{cols: []string{"k", "lambda"}}
	for k, v := range ev {
		t.add(k+1, v)
	}
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Laplacian spectrum", "index k", "eigenvalue λ_k (1/time)")
		xs := make([]float64, len(ev))
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		plots.AddPoints(p, 0, "λ_k", xs, ev)
		return p, 0, 0, nil
	}
	return &answer{tables: []*table{t}, value: map[string]any{"eigenvalues": ev}, draw: draw}, nil
}

func (a *app) graphResistanceCommand() *cobra.Command {
	var in graphInput
	var q resistanceQuery
	c := &cobra.Command{
		Use:   "resistance",
		Short: "Effective resistances: of given pairs, of every edge, or each node's",
		Long: `Effective resistance R_uv between the nodes of each --pair U,V (node
labels as in the file), exact to working precision at any size; the --top K
pairs of largest resistance, exact (spec throttlers.md §12.10); or, with
--edges, of every edge: exact (dense up to 2048 nodes, sparse Cholesky
with selected inversion where the graph's factor fits, in seconds on
networks of 10⁵ nodes), and where it does not an estimate within
1 ± --eps of each value with probability 95 % (random projections); or,
with --nodal, each node's L†_uu (its resistance to the network as a
whole: Σ_v R_uv = n L†_uu + tr L†, and its share of the throttlers' H2
measures), exact by the same paths and otherwise estimated with 95 %
intervals.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			if len(q.pairs) == 0 && !q.edges && q.top == 0 && !q.nodal {
				return usagef("give --pair U,V (repeatable), --top K, --edges or --nodal")
			}
			if q.top < 0 {
				return usagef("--top = %d: want ≥ 1", q.top)
			}
			if _, err := q.sparse.settings(); err != nil {
				return err
			}
			d, _, err := in.load()
			if err != nil {
				return err
			}
			ans, err := a.resistances(d, q)
			if err != nil {
				return err
			}
			return a.emit(ans)
		},
	}
	in.register(c.Flags())
	c.Flags().StringArrayVar(&q.pairs, "pair", nil, "a pair of node labels `U,V` (repeatable)")
	c.Flags().IntVar(&q.top, "top", 0, "the `K` pairs of largest resistance (exact, without an all-pairs scan above 2048 nodes)")
	c.Flags().BoolVar(&q.edges, "edges", false, "the resistance of every edge")
	c.Flags().BoolVar(&q.nodal, "nodal", false, "each node's L†_uu and resistance sum Σ_v R_uv")
	c.Flags().Float64Var(&q.eps, "eps", 0.1, "with --edges where the exact path does not fit: relative accuracy of each estimate, in (0, 1)")
	q.sparse.register(c.Flags())
	return c
}

// resistanceQuery holds the flags of "graph resistance".
type resistanceQuery struct {
	pairs        []string
	top          int
	edges, nodal bool
	eps          float64
	sparse       sparseFlags // the exact path's limits (--edges, --nodal)
}

// resistances answers "graph resistance".
func (a *app) resistances(d *graphio.Data, q resistanceQuery) (*answer, error) {
	pairs, top, edges, eps := q.pairs, q.top, q.edges, q.eps
	set, err := q.sparse.settings()
	if err != nil {
		return nil, err
	}
	g := d.Graph
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, err
	}
	index := labelIndex(d.Labels)
	ans := &answer{}
	if len(pairs) > 0 {
		t := &table{name: "pairs", cols: []string{"u", "v", "resistance"}}
		for _, p := range pairs {
			u, v, err := parsePair(p, index)
			if err != nil {
				return nil, err
			}
			r, err := spectral.EffectiveResistance(g, u, v)
			if err != nil {
				return nil, err
			}
			t.add(d.Labels[u], d.Labels[v], r)
		}
		ans.tables = append(ans.tables, t)
	}
	if top > 0 {
		p := a.startProgress(-1, "largest resistances")
		tp, err := spectral.TopResistances(g, top)
		p.done()
		if err != nil {
			return nil, err
		}
		t := &table{name: "top", cols: []string{"rank", "u", "v", "resistance"}}
		rs := make([]float64, len(tp))
		for i, pr := range tp {
			t.add(i+1, d.Labels[pr.U], d.Labels[pr.V], pr.R)
			rs[i] = pr.R
		}
		ans.tables = append(ans.tables, t)
		ans.draw = pointsPicture("Largest effective resistances", "rank", "effective resistance (1/weight)", true, series{name: "R_uv", xs: ranks(len(rs)), ys: rs})
	}
	if q.nodal {
		t, note, err := a.nodalResistances(d, set)
		if err != nil {
			return nil, err
		}
		ans.tables = append(ans.tables, t)
		ans.notes = append(ans.notes, note)
		if ans.draw == nil {
			ans.draw = nodalPicture(t)
		}
	}
	if edges {
		t, note, err := a.edgeResistances(d, eps, set)
		if err != nil {
			return nil, err
		}
		ans.tables = append(ans.tables, t)
		ans.notes = append(ans.notes, note)
		if ans.draw == nil {
			ans.draw = edgePicture(t)
		}
	}
	return ans, nil
}

// edgeResistances is the table of every edge's resistance.
func (a *app) edgeResistances(d *graphio.Data, eps float64, set *cholesky.Settings) (*table, string, error) {
	g := d.Graph
	t := &table{name: "edges", cols: []string{"u", "v", "weight", "resistance"}}
	if !(eps > 0 && eps < 1) {
		return nil, "", usagef("--eps = %v: want a value in (0, 1)", eps)
	}
	p := a.startProgress(-1, "edge resistances")
	defer p.done()
	r, err := spectral.NewResistanceWith(g, set)
	if err == nil {
		rs := r.EdgeResistances(nil)
		for i, e := range g.Edges() {
			t.add(d.Labels[e.U], d.Labels[e.V], e.W, rs[i])
		}
		return t, fmt.Sprintf("Edge resistances %s; Foster: Σ w_e R_e = n − 1.", exactHow(r)), nil
	}
	if !errors.Is(err, loadlab.ErrTooLarge) {
		return nil, "", err
	}
	er, err := estimate.EdgeResistances(g, &estimate.SketchSettings{Eps: eps}, rand.NewPCG(a.seed, 0))
	if err != nil {
		return nil, "", err
	}
	for i, e := range er.Edges {
		t.add(d.Labels[e.U], d.Labels[e.V], e.W, er.R[i])
	}
	note := fmt.Sprintf("Edge resistances ESTIMATED by %d random projections: each within 1 ± %g with probability 95 %%; Foster's sum %.6g (exact: %d).", er.K, eps, er.Foster, g.Order()-1)
	return t, note, nil
}

// labelIndex maps each label to its node.
func labelIndex(labels []string) map[string]int {
	m := make(map[string]int, len(labels))
	for i, l := range labels {
		m[l] = i
	}
	return m
}

// parsePair reads "U,V" as two node labels.
func parsePair(s string, index map[string]int) (int, int, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 {
		return 0, 0, usagef("--pair %q: want two node labels U,V", s)
	}
	var uv [2]int
	for i, l := range parts {
		k, ok := index[strings.TrimSpace(l)]
		if !ok {
			return 0, 0, loadlab.Invalid("loadlab", "--pair %q: no node labelled %q", s, l)
		}
		uv[i] = k
	}
	return uv[0], uv[1], nil
}

// sortedDesc returns the indices of xs by decreasing value.
func sortedDesc(xs []float64) []int {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		switch {
		case xs[i] > xs[j]:
			return -1
		case xs[i] < xs[j]:
			return 1
		}
		return 0
	})
	return idx
}

// edgePicture draws the edges' resistances in decreasing order.
func edgePicture(t *table) func() (plots.Drawer, vg.Length, vg.Length, error) {
	rs := make([]float64, len(t.rows))
	for i, r := range t.rows {
		rs[i] = r[3].(float64)
	}
	order := sortedDesc(rs)
	ys := make([]float64, len(rs))
	for i, j := range order {
		ys[i] = rs[j]
	}
	return pointsPicture("Edge resistances, largest first", "rank", "effective resistance (1/weight)", true, series{name: "R_e", xs: ranks(len(ys)), ys: ys, line: true})
}

// nodalResistances is the table of each node's L†_uu and resistance sum
// Σ_v R_uv = n L†_uu + tr L† (spec throttlers.md §2): exact where
// NewResistance runs, else estimated (estimate.PinvDiag, 95 % intervals;
// the sum is then not given).
func (a *app) nodalResistances(d *graphio.Data, set *cholesky.Settings) (*table, string, error) {
	g := d.Graph
	if err := wgraph.CheckConnected(g); err != nil {
		return nil, "", err
	}
	t := &table{name: "nodes", cols: []string{"node", "pinv_diag", "lo", "hi", "resistance_sum"}}
	p := a.startProgress(-1, "nodal resistances")
	defer p.done()
	r, err := spectral.NewResistanceWith(g, set)
	if err == nil {
		diag := r.PseudoInverseDiag(nil)
		n, tr := float64(g.Order()), floats.Sum(diag)
		for u, x := range diag {
			t.add(d.Labels[u], x, nil, nil, n*x+tr)
		}
		return t, fmt.Sprintf("L†_uu %s; Σ_u L†_uu = K_f/n.", exactHow(r)), nil
	}
	if !errors.Is(err, loadlab.ErrTooLarge) {
		return nil, "", err
	}
	e, err := estimate.PinvDiag(g, nil, rand.NewPCG(a.seed, 0))
	if err != nil && !errors.Is(err, loadlab.ErrNotConverged) {
		return nil, "", err
	}
	for u, x := range e.Diag {
		t.add(d.Labels[u], x.Mean, x.Lo, x.Hi, nil)
	}
	return t, fmt.Sprintf("L†_uu ESTIMATED with 95 %% intervals (%d probes; largest relative half-width %.3g); the resistance sums need the exact path.", e.Probes, e.MaxRelHW), err
}

// nodalPicture draws the nodes' L†_uu in decreasing order.
func nodalPicture(t *table) func() (plots.Drawer, vg.Length, vg.Length, error) {
	xs := make([]float64, len(t.rows))
	for i, r := range t.rows {
		xs[i] = r[1].(float64)
	}
	ys := make([]float64, len(xs))
	for i, j := range sortedDesc(xs) {
		ys[i] = xs[j]
	}
	return pointsPicture("Nodal resistances", "rank", "L†_uu (1/weight)", true, series{name: "L†_uu", xs: ranks(len(ys)), ys: ys})
}
