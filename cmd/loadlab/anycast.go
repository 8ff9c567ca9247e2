package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/plots"
	"github.com/loadlab/loadlab/stability"
)

// anycastCommand is "loadlab anycast": load management of an anycast
// CDN (spec anycast-cdn.md).
func (a *app) anycastCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "anycast",
		Short: "Anycast CDN: optimal DNS split with its certificate, the greedy law's fate, overload checks",
		Long: `An anycast CDN network (spec anycast-cdn.md §1): DNS demand A_j of each
region, capacities T_i of the proxies, and the correlation matrix C (row j:
where region j's anycast traffic lands). Give it as --network FILE.json
({"A": [...], "T": [...], "C": [[...]]} or "C_triplets") or as --nodes
FILE.csv (columns A, T) with --corr FILE.csv (the N × N matrix, or
triplets i, j, c).`,
	}
	c.AddCommand(a.anycastOptimizeCommand(), a.anycastGreedyCommand(), a.anycastControlCommand(), a.anycastDayCommand(), a.anycastStudyCommand(), a.anycastCheckCommand(), a.anycastBeaconCommand(), a.anycastRobustCommand())
	return c
}

// networkInput is the anycast network of a subcommand.
type networkInput struct {
	json, nodes, corr string
	normalize         bool
	rowSumTol         float64
	corrSkip          []string
	// read is what the reader did to C, for the answer's notes.
	read *dataio.NetworkData
}

func (in *networkInput) register(c *cobra.Command) {
	c.Flags().StringVar(&in.json, "network", "", "anycast network `FILE`.json")
	c.Flags().StringVar(&in.nodes, "nodes", "", "node table `FILE`.csv with columns A and T (with --corr)")
	c.Flags().StringVar(&in.corr, "corr", "", "correlation matrix `FILE`.csv: N × N, or triplets i, j, c (with --nodes)")
	c.Flags().BoolVar(&in.normalize, "normalize", false, "divide each row of C by its sum (a measured C whose rows sum to 1 only within measurement error)")
	c.Flags().Float64Var(&in.rowSumTol, "row-sum-tol", 0, "largest |row sum of C − 1| accepted as read; 0 means 1e-9, or no bound with --normalize")
	c.Flags().StringSliceVar(&in.corrSkip, "corr-skip", nil, "columns of --corr not to read (row labels), by header name or 1-based number")
}

// note says how far the rows of C were from summing to 1, and whether
// they were normalised.
func (in *networkInput) note() string {
	if in.read == nil {
		return ""
	}
	s := fmt.Sprintf("Rows of C as read: max |Σ_i C_ji − 1| = %.3g (row %d)", in.read.RowSumDev, in.read.RowSumDevRow)
	if in.read.Normalized {
		return s + "; every row was divided by its sum (--normalize)."
	}
	return s + "."
}

// load reads the network.
func (in *networkInput) load() (*anycast.Network, error) {
	opts := &dataio.NetworkOptions{Normalize: in.normalize, RowSumTol: in.rowSumTol, Corr: dataio.TableOptions{Skip: in.corrSkip}}
	var err error
	switch {
	case in.json != "" && (in.nodes != "" || in.corr != ""):
		return nil, usagef("--network excludes --nodes and --corr")
	case in.json != "" && len(in.corrSkip) > 0:
		return nil, usagef("--corr-skip applies to --corr, not to --network")
	case in.json != "":
		in.read, err = dataio.ReadNetworkJSONFile(in.json, opts)
	case in.nodes == "" || in.corr == "":
		return nil, usagef("no network: give --network FILE.json, or --nodes FILE.csv with --corr FILE.csv")
	default:
		in.read, err = dataio.ReadNetworkCSVFiles(in.nodes, in.corr, opts)
	}
	if err != nil {
		return nil, err
	}
	return in.read.Network, nil
}

func (a *app) anycastOptimizeCommand() *cobra.Command {
	var in networkInput
	var w, cc, tol float64
	var maxIter int
	c := &cobra.Command{
		Use:   "optimize",
		Short: "The optimal fraction x_i of each region's DNS demand served by anycast, with its certificate",
		Long: `Solves P1 (spec §3) with the smooth cost pair of spec §8 item 23,
f_i(x) = (w/2) A_i (1 − x)² and h_i(S) = (c/2) (S − T_i)₊², by the dual
super-gradient algorithm (spec §4). The answer is certified: the optimum
P* lies in [lower, upper], and the run stops when the gap is at most --tol
relative, or after --max-iter steps with the gap reached so far (exit
code 1).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			nw, err := in.load()
			if err != nil {
				return err
			}
			prob, err := dual.Quadratic(nw, w, cc)
			if err != nil {
				return err
			}
			p := a.startProgress(-1, "dual algorithm")
			if maxIter < 0 {
				return usagef("--max-iter = %d: want ≥ 0", maxIter)
			}
			res, err := dual.Solve(prob, &dual.Settings{Tol: tol, MaxIter: maxIter})
			p.done()
			if res == nil {
				return err
			}
			if eerr := a.emit(withNote(optimizeAnswer(nw, res), in.note())); eerr != nil {
				return eerr
			}
			return err
		},
	}
	in.register(c)
	c.Flags().Float64Var(&w, "w", 1, "weight w of the cost of demand sent to L2 DNS")
	c.Flags().Float64Var(&cc, "c", 1, "weight c of the cost of overload")
	c.Flags().Float64Var(&tol, "tol", 1e-6, "relative certified gap at which to stop")
	c.Flags().IntVar(&maxIter, "max-iter", 0, "dual steps at most; 0 means 100000")
	return c
}

// optimizeAnswer is the per-node solution and its certificate.
func optimizeAnswer(nw *anycast.Network, res *dual.Result) *answer {
	t := &table{name: "nodes", cols: []string{"node", "A", "T", "x", "load S", "S/T"}}
	xs := make([]float64, len(res.X))
	for i := range res.X {
		xs[i] = float64(i)
		t.add(i, nw.A[i], nw.T[i], res.X[i], res.S[i], res.S[i]/nw.T[i])
	}
	s := quantityTable("certificate")
	s.add("optimal cost P*", res.Upper, res.Best, res.Upper, "cost", "certified: P* in [lo, hi]")
	s.add("relative gap", res.Gap()/max(abs(res.Upper), abs(res.Best)), nil, nil, "", res.Status.String())
	s.add("dual steps", res.Iter, nil, nil, "", res.Rule.String())
	draw := func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New("Optimal anycast fraction per region", "region (node index)", "fraction x served by anycast")
		plots.AddPoints(p, 0, "x_i", xs, res.X)
		return p, 0, 0, nil
	}
	return &answer{tables: []*table{t, s}, value: res, draw: draw}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func (a *app) anycastGreedyCommand() *cobra.Command {
	var in networkInput
	var beta, t1 float64
	var starts int
	var normalized bool
	c := &cobra.Command{
		Use:   "greedy",
		Short: "Where the greedy (FastRoute) control law ends from many random starts",
		Long: `Integrates the greedy control law dx_i/dt = β x_i (1 − x_i)(T_i − S_i(x))
(spec §5.1 eq. (24)) from --starts random states for --t1 time units and
groups the equilibria reached (spec §5.4): each attractor with its class,
the number of starts that reached it, and its locally uncontrollable
overloads (nodes at x_i = 0 still overloaded, spec §5.3 (26)).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			nw, err := in.load()
			if err != nil {
				return err
			}
			law := &stability.Law{Net: nw, Sensitivity: beta, Normalized: normalized}
			if err := law.Validate(); err != nil {
				return err
			}
			if starts < 1 {
				return usagef("--starts = %d: want ≥ 1", starts)
			}
			p := a.startProgress(-1, "greedy law")
			found, unresolved, err := law.Attractors(starts, t1, a.seed, nil)
			p.done()
			if err != nil {
				return err
			}
			return a.emit(withNote(attractorsAnswer(found, unresolved, starts), in.note()))
		},
	}
	in.register(c)
	c.Flags().Float64Var(&beta, "beta", 1, "sensitivity β of the law (1/(time·load))")
	c.Flags().Float64Var(&t1, "t1", 1000, "integration time (time units)")
	c.Flags().IntVar(&starts, "starts", 20, "random starting states")
	c.Flags().BoolVar(&normalized, "normalized", false, "measure the overload relative to capacity, (T_i − S_i)/T_i")
	return c
}

// attractorsAnswer is the table of attractors.
func attractorsAnswer(found []stability.Attractor, unresolved, starts int) *answer {
	t := &table{name: "attractors", cols: []string{"attractor", "starts", "class", "mean x", "uncontrollable overloads", "overloaded nodes"}}
	for i, at := range found {
		mean := 0.0
		for _, x := range at.X {
			mean += x / float64(len(at.X))
		}
		t.add(i+1, at.Starts, at.Class.String(), mean, len(at.Overloaded), intList(at.Overloaded, 10))
	}
	notes := []string{fmt.Sprintf("%d of %d starts reached an equilibrium; %d did not settle within --t1.", starts-unresolved, starts, unresolved)}
	var ss []series
	for i, at := range found {
		ss = append(ss, series{name: fmt.Sprintf("attractor %d (%d starts)", i+1, at.Starts), xs: ranks(len(at.X)), ys: at.X})
	}
	draw := pointsPicture("Equilibria of the greedy law", "node (1-based)", "fraction x served by anycast", true, ss...)
	ans := &answer{tables: []*table{t}, value: map[string]any{"attractors": found, "unresolved": unresolved}, notes: notes}
	if len(ss) > 0 {
		ans.draw = draw
	}
	return ans
}

// intList prints up to k integers.
func intList(xs []int, k int) string {
	var b strings.Builder
	for i, x := range xs {
		if i == k {
			b.WriteString(" …")
			break
		}
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprint(&b, x)
	}
	return b.String()
}

func (a *app) anycastCheckCommand() *cobra.Command {
	var in networkInput
	c := &cobra.Command{
		Use:   "check",
		Short: "Which proxies can suffer an uncontrollable overload (the slack of Π_C)",
		Long: `The slack of the demand in each inequality of the stability polytope Π_C
(spec §5.3 eq. (28)): slack_i = T_i − Σ_{j≠i} C_ji A_j. A proxy with
negative slack can be overloaded by other regions' anycast traffic alone,
whatever its own region does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			nw, err := in.load()
			if err != nil {
				return err
			}
			slack, err := stability.PolytopeSlack(nw)
			if err != nil {
				return err
			}
			return a.emit(withNote(slackAnswer(nw, slack), in.note()))
		},
	}
	in.register(c)
	return c
}

// slackAnswer lists every node's slack, most negative first.
func slackAnswer(nw *anycast.Network, slack []float64) *answer {
	t := &table{name: "slack", cols: []string{"node", "T", "slack", "slack/T"}}
	neg := 0
	order := sortedDesc(negate(slack))
	for _, i := range order {
		t.add(i, nw.T[i], slack[i], slack[i]/nw.T[i])
		if slack[i] < 0 {
			neg++
		}
	}
	ys := make([]float64, len(slack))
	for i := range slack {
		ys[i] = slack[i] / nw.T[i]
	}
	slices.Sort(ys)
	draw := pointsPicture("Slack of the demand in the stability polytope", "proxy, by slack/T", "slack / capacity T", false,
		series{name: "slack/T of a proxy (negative: can be overloaded)", xs: ranks(len(ys)), ys: ys}, series{name: "zero", xs: []float64{1, float64(max(len(ys), 2))}, ys: []float64{0, 0}, line: true})
	note := fmt.Sprintf("%d of %d proxies have negative slack: the demand is %s Π_C.", neg, len(slack), map[bool]string{true: "inside", false: "outside"}[neg == 0])
	return &answer{tables: []*table{t}, value: map[string]any{"slack": slack, "negative": neg}, notes: []string{note}, draw: draw}
}

// negate returns −xs.
func negate(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = -x
	}
	return out
}

// withNote adds a note (if any) under an answer's tables.
func withNote(ans *answer, note string) *answer {
	if note != "" {
		ans.notes = append(ans.notes, note)
	}
	return ans
}
