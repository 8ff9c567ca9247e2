package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot/vg"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/plots"
)

// clientsFlags are the flags of "throttler clients".
type clientsFlags struct {
	th        throttlerFlags
	steps     int
	file      string
	perServer int
	mean, cv  float64
	split     *choice
	demand    *choice
	limit     float64
	series    bool
	worst     int
}

func (a *app) throttlerClientsCommand() *cobra.Command {
	f := clientsFlags{th: throttlerFlags{sigma: 1}}
	c := &cobra.Command{
		Use:   "clients",
		Short: "Run the throttler with every server splitting its limit among its clients",
		Long: `Runs the throttler (spec throttlers.md §3.1) for --steps cycles at --gamma
(default γ*_H2) with clients inside the loop (spec throttlers-deployed.md
§5): every cycle each client asks, each server sums its clients' requests,
splits its limit among them by --split (uniform: Algorithm 1, every client
of a saturated server gets the same ratio; water-fill: Algorithm 2, max–min
fair) and the limits are updated from the summed demand. The limits start
equal, their total --limit (default the total mean demand).

The clients come from --clients FILE, a CSV with a header naming the
columns client, server, mean and optionally sigma (one row per client; the
server by its node label in the graph; every server needs a client), or
are --clients-per-server c clients on every server, each of mean --mean
and spread --cv × mean. Their demand (--demand) is stationary, a normal of
that mean and spread censored at zero, or a random walk from the mean with
that step, reflected at zero (spec deployed §5.1).

Prints Jain's fairness index (spec deployed §5.3) of the clients' ratios
granted/asked and of their grants, its mean and least value over the run,
the accepted total, the servers whose clients were treated least equally
(least per-server index) and the clients with the largest throttled share.
The per-cycle values are the table "cycles" (--csv --table cycles, or
--json); --series adds every client's requests and grants of every cycle
(table "series"). --plot draws Jain's indices over the run.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := a.checkOutputs(); err != nil {
				return err
			}
			ans, err := a.runClients(cmd, &f)
			if err != nil {
				return err
			}
			return a.emit(ans)
		},
	}
	f.register(c)
	return c
}

// register adds the flags of "throttler clients".
func (f *clientsFlags) register(c *cobra.Command) {
	fs := c.Flags()
	f.th.in.register(fs)
	f.split = newChoice("uniform", "uniform", "water-fill")
	f.demand = newChoice("stationary", "stationary", "walk")
	fs.Float64Var(&f.th.gamma, "gamma", 0, "update cycle γ (time units); 0 means γ*_H2, the H2-optimal cycle")
	fs.IntVar(&f.steps, "steps", 1000, "update cycles to run")
	fs.StringVar(&f.file, "clients", "", "clients `FILE` (CSV with the columns client, server, mean and optionally sigma)")
	fs.IntVar(&f.perServer, "clients-per-server", 0, "instead of --clients: this many clients on every server")
	fs.Float64Var(&f.mean, "mean", 0, "with --clients-per-server: every client's mean demand (requests per time unit)")
	fs.Float64Var(&f.cv, "cv", 0, "the demand's spread σ as a multiple of the client's mean (0: no noise)")
	fs.Var(f.split, "split", "how a server splits its limit among its clients: uniform (Algorithm 1) or water-fill (Algorithm 2, max–min fair)")
	fs.Var(f.demand, "demand", "client demand model: stationary (censored normal) or walk (reflected random walk)")
	fs.Float64Var(&f.limit, "limit", 0, "total limit shared by the servers; 0 means the total mean demand")
	fs.BoolVar(&f.series, "series", false, "add every client's requests and grants of every cycle (table \"series\")")
	fs.IntVar(&f.worst, "worst", 5, "number of servers and of clients to list")
}

// clientSet is the clients of a run: names, servers (graph nodes), and
// the mean and spread of their demand.
type clientSet struct {
	names       []string
	server      []int
	mean, sigma []float64
}

// runClients checks the flags, reads the input, runs SimulateClients
// and builds the answer; on any error nothing is returned to print.
func (a *app) runClients(cmd *cobra.Command, f *clientsFlags) (*answer, error) {
	if err := f.check(cmd); err != nil {
		return nil, err
	}
	d, _, err := f.th.in.load()
	if err != nil {
		return nil, err
	}
	if err := checkConnectedServers(d.Graph.Order(), f.th.gamma); err != nil {
		return nil, err
	}
	cs, err := f.clients(d.Labels)
	if err != nil {
		return nil, err
	}
	th, err := simulateThrottler(d.Graph, f.th)
	if err != nil {
		return nil, err
	}
	limit := f.limit
	if limit == 0 {
		limit = cs.meanTotal(f.demand.val)
	}
	n := d.Graph.Order()
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = limit / float64(n)
	}
	cl := &consensus.Clients{Server: cs.server, Split: consensus.UniformSplit}
	if f.split.val == "water-fill" {
		cl.Split = consensus.WaterFillSplit
	}
	p := a.startProgress(-1, "simulate clients")
	ct, err := consensus.SimulateClients(th, cl, cs.model(f.demand.val, a.seed), x0, f.steps, &consensus.ClientSettings{Series: f.series})
	p.done()
	if err != nil {
		return nil, err
	}
	run := &clientsRun{ct: ct, cs: cs, labels: d.Labels, gamma: th.Gamma, limit: limit, f: f}
	return run.answer(!a.json && !a.csv), nil
}

// checkConnectedServers refuses a graph of one server without --gamma:
// γ*_H2 is not defined there.
func checkConnectedServers(n int, gamma float64) error {
	if n < 2 && gamma == 0 {
		return usagef("the graph has %d server: γ*_H2 needs two; give --gamma", n)
	}
	return nil
}

// check validates the flags that need no input.
func (f *clientsFlags) check(cmd *cobra.Command) error {
	fs := cmd.Flags()
	switch {
	case f.file != "" && fs.Changed("clients-per-server"):
		return usagef("--clients and --clients-per-server exclude each other")
	case f.file == "" && !fs.Changed("clients-per-server"):
		return usagef("no clients: give --clients FILE or --clients-per-server c --mean m")
	case f.file != "" && fs.Changed("mean"):
		return usagef("--mean goes with --clients-per-server; --clients FILE gives each client's mean")
	case f.file == "" && !fs.Changed("mean"):
		return usagef("--clients-per-server needs --mean m, the mean demand of every client")
	case f.file == "" && f.perServer < 1:
		return usagef("--clients-per-server = %d: want ≥ 1", f.perServer)
	case !(f.mean >= 0) || math.IsInf(f.mean, 1):
		return usagef("--mean = %v: want a finite value ≥ 0", f.mean)
	case !(f.cv >= 0) || math.IsInf(f.cv, 1):
		return usagef("--cv = %v: want a finite value ≥ 0", f.cv)
	case !(f.limit >= 0) || math.IsInf(f.limit, 1):
		return usagef("--limit = %v: want a finite value > 0, or 0 for the total mean demand", f.limit)
	case f.th.gamma < 0 || math.IsNaN(f.th.gamma) || math.IsInf(f.th.gamma, 1):
		return usagef("--gamma = %v: want > 0, or 0 for γ*_H2", f.th.gamma)
	case f.steps < 1:
		return usagef("--steps = %d: want ≥ 1", f.steps)
	case f.worst < 0:
		return usagef("--worst = %d: want ≥ 0", f.worst)
	}
	return nil
}

// clients returns the clients of the flags on the servers labels.
func (f *clientsFlags) clients(labels []string) (*clientSet, error) {
	if f.file != "" {
		cs, err := readClients(f.file, labels)
		if err != nil {
			return nil, err
		}
		if f.cv != 0 {
			if cs.sigma != nil {
				return nil, usagef("--cv and the sigma column of %s exclude each other", f.file)
			}
			cs.sigma = scaled(cs.mean, f.cv)
		}
		return cs, nil
	}
	n := len(labels)
	c, ok := size.Mul(n, f.perServer)
	if !ok {
		return nil, loadlab.TooLarge("loadlab", "--clients-per-server = %d on %d servers: too many clients", f.perServer, n)
	}
	// Names, servers, means and spreads: about 80 bytes a client.
	if err := size.Check("loadlab", "clients (--clients-per-server × servers)", c, 80); err != nil {
		return nil, err
	}
	cs := &clientSet{names: make([]string, 0, c), server: make([]int, 0, c), mean: make([]float64, c)}
	for i, l := range labels {
		for k := range f.perServer {
			cs.names = append(cs.names, fmt.Sprintf("%s/%d", l, k+1))
			cs.server = append(cs.server, i)
		}
	}
	for j := range cs.mean {
		cs.mean[j] = f.mean
	}
	cs.sigma = scaled(cs.mean, f.cv)
	return cs, nil
}

// scaled returns v·s.
func scaled(v []float64, s float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * s
	}
	return out
}

// model is the clients' demand model: stationary or a walk, its noise
// drawn from the stream of --seed.
func (cs *clientSet) model(kind string, seed uint64) consensus.ClientDemand {
	src := rand.NewPCG(seed, 4)
	if kind == "walk" {
		return &consensus.ClientRandomWalk{Start: cs.mean, Sigma: cs.sigma, Src: src}
	}
	return &consensus.ClientStationary{Mean: cs.mean, Sigma: cs.sigma, Src: src}
}

// meanTotal is the total mean demand Σ_j E r⁽ʲ⁾: for the stationary model
// the means of the normals censored at zero, m Φ(m/σ) + σ φ(m/σ) (spec
// throttlers-deployed.md §5.1); for the walk its start Σ_j s_j.
func (cs *clientSet) meanTotal(kind string) float64 {
	var t float64
	for j, m := range cs.mean {
		s := 0.0
		if cs.sigma != nil {
			s = cs.sigma[j]
		}
		if kind == "walk" || s == 0 {
			t += m
			continue
		}
		z := m / s
		phi := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
		t += m*0.5*math.Erfc(-z/math.Sqrt2) + s*phi
	}
	return t
}

// readClients reads a clients file: a header naming the columns client,
// server, mean and optionally sigma (any order, case-insensitive), then
// one row per client, all through dataio (the names as text columns), so
// that errors name the file, line, column and value. A column of another
// name, a server named by no label of the graph, a repeated or empty
// client name, a negative mean or sigma and a server without clients are
// errors naming the file (and the line).
func readClients(path string, labels []string) (*clientSet, error) {
	opts := &dataio.TableOptions{Header: graphio.HeaderYes, Text: []string{"client", "server"}, Columns: []string{"mean"}}
	t, err := dataio.ReadTableFile(path, opts)
	var pe *graphio.ParseError
	if errors.As(err, &pe) && strings.HasPrefix(pe.Field, "TableOptions.") {
		// The options are the command's, not the user's: say what the
		// header must name.
		return nil, clientError(path, pe.Line, "", pe.Value, "want a header naming the columns client, server, mean and optionally sigma (%s)", pe.Msg)
	}
	if err != nil {
		return nil, err
	}
	if err := checkClientHeader(path, t.Header); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(t.Header, func(h string) bool { return strings.EqualFold(h, "sigma") }) {
		opts.Columns = []string{"mean", "sigma"}
		if t, err = dataio.ReadTableFile(path, opts); err != nil {
			return nil, err
		}
	}
	text := make([]clientRow, len(t.Rows))
	for r, cells := range t.Text {
		text[r] = clientRow{line: t.Lines[r], client: cells[0], server: cells[1]}
	}
	cs := &clientSet{names: make([]string, len(text)), server: make([]int, len(text)), mean: make([]float64, len(text))}
	if len(opts.Columns) == 2 {
		cs.sigma = make([]float64, len(text))
	}
	if err := cs.fill(path, labels, t, text); err != nil {
		return nil, err
	}
	return cs, cs.checkServers(path, labels)
}

// checkClientHeader refuses a column of a clients file other than
// client, server, mean and sigma: nothing is left unread without a word.
func checkClientHeader(path string, header []string) error {
	for c, name := range header {
		if !slices.Contains([]string{"client", "server", "mean", "sigma"}, strings.ToLower(name)) {
			return clientError(path, 1, fmt.Sprint(c+1), name, "want a header naming the columns client, server, mean and optionally sigma")
		}
	}
	return nil
}

// clientRow is the text of one client row: its line and its names.
type clientRow struct {
	line           int
	client, server string
}

// clientError is a ParseError of a clients file about the cell value of
// column (none when "") at line.
func clientError(path string, line int, column, value, format string, args ...any) error {
	pe := &graphio.ParseError{Pkg: "loadlab", File: path, Line: line, Value: value, Msg: fmt.Sprintf(format, args...), Err: loadlab.ErrInvalid}
	if column != "" {
		pe.Field = fmt.Sprintf("column %q", column)
	}
	return pe
}

// fill sets the clients from the numbers t and the names text.
func (cs *clientSet) fill(path string, labels []string, t *dataio.Table, text []clientRow) error {
	node := labelIndex(labels)
	seen := make(map[string]int, len(text))
	for r, row := range text {
		if row.client == "" {
			return clientError(path, row.line, "client", "", "a client needs a name")
		}
		if first, dup := seen[row.client]; dup {
			return clientError(path, row.line, "client", row.client, "repeats the client of line %d", first)
		}
		seen[row.client] = row.line
		i, ok := node[row.server]
		if !ok {
			return clientError(path, row.line, "server", row.server, "no server of the graph has this label (%s)", labelSample(labels))
		}
		cs.names[r], cs.server[r] = row.client, i
		for c, v := range t.Rows[r] {
			if v < 0 {
				return clientError(path, row.line, t.Columns[c], fmt.Sprint(v), "want ≥ 0")
			}
		}
		cs.mean[r] = t.Rows[r][0]
		if cs.sigma != nil {
			cs.sigma[r] = t.Rows[r][1]
		}
	}
	return nil
}

// labelSample names a few of the graph's labels for an error message.
func labelSample(labels []string) string {
	const k = 5
	q := make([]string, 0, k)
	for _, l := range labels[:min(k, len(labels))] {
		q = append(q, fmt.Sprintf("%q", l))
	}
	s := "the graph's labels are " + strings.Join(q, ", ")
	if len(labels) > k {
		s += fmt.Sprintf(", … (%d in all)", len(labels))
	}
	return s
}

// checkServers refuses a server without clients.
func (cs *clientSet) checkServers(path string, labels []string) error {
	count := make([]int, len(labels))
	for _, i := range cs.server {
		count[i]++
	}
	if i := slices.Index(count, 0); i >= 0 {
		return loadlab.Invalid("loadlab", "%s: server %q has no clients; every server of the graph needs at least one", path, labels[i])
	}
	return nil
}

// clientsRun is a finished run and what the answer needs to present it.
type clientsRun struct {
	ct     *consensus.ClientTrajectory
	cs     *clientSet
	labels []string
	gamma  float64
	limit  float64
	f      *clientsFlags
}

// answer builds the tables, the notes and the picture. For people (text)
// the per-cycle table is left out and named in a note.
func (r *clientsRun) answer(text bool) *answer {
	ts := []*table{r.summary(), r.worstServers(), r.mostThrottled()}
	cycles := r.cycles()
	ans := &answer{}
	if text {
		ans.notes = append(ans.notes, fmt.Sprintf("The %d cycles' values: --csv --table cycles, or --json.", r.ct.Servers.Steps))
	} else {
		ts = append(ts, cycles)
	}
	if r.f.series {
		ts = append(ts, r.series())
	}
	ans.tables = ts
	ans.draw = r.picture()
	return ans
}

// meanMin returns the mean and the least of xs (NaN, NaN when empty).
func meanMin(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	var s float64
	lo := math.Inf(1)
	for _, x := range xs {
		s += x
		lo = min(lo, x)
	}
	return s / float64(len(xs)), lo
}

// summary is the table of the run's settings and totals.
func (r *clientsRun) summary() *table {
	ct := r.ct
	t := quantityTable("summary")
	t.add("servers", len(r.labels), nil, nil, "", "")
	t.add("clients", len(r.cs.names), nil, nil, "", r.f.split.val+" split, "+r.f.demand.val+" demand")
	t.add("γ used", r.gamma, nil, nil, "time", "")
	t.add("total limit l_total", r.limit, nil, nil, "requests per time unit", "")
	t.add("cycles", ct.Servers.Steps, nil, nil, "", "")
	jqMean, jqMin := meanMin(ct.JainRatio)
	jaMean, jaMin := meanMin(ct.JainAmount)
	t.add("Jain's index of ratios J_q, mean", jqMean, nil, nil, "", "over the cycles")
	t.add("Jain's index of ratios J_q, least", jqMin, nil, nil, "", "over the cycles")
	t.add("Jain's index of amounts J_a, mean", jaMean, nil, nil, "", "over the cycles")
	t.add("Jain's index of amounts J_a, least", jaMin, nil, nil, "", "over the cycles")
	_, qmin := meanMin(ct.MinRatio)
	t.add("least ratio granted/asked of a client", qmin, nil, nil, "", "over the cycles")
	var asked, granted float64
	for j := range ct.Requested {
		asked += ct.Requested[j]
		granted += ct.Granted[j]
	}
	steps := float64(ct.Servers.Steps)
	t.add("requested, mean per cycle", asked/steps, nil, nil, "requests per time unit", "Σ_j r⁽ʲ⁾")
	t.add("accepted, mean per cycle", granted/steps, nil, nil, "requests per time unit", "Σ_j a⁽ʲ⁾ = Σ_i min{x_i, r_i}₊")
	t.add("throttled share of the run", throttledShare(asked, granted), nil, nil, "", "1 − accepted/requested")
	return t
}

// throttledShare is 1 − granted/asked, 0 when nothing was asked.
func throttledShare(asked, granted float64) float64 {
	if asked == 0 {
		return 0
	}
	return 1 - granted/asked
}

// worstServers lists the --worst servers of least per-server index
// J_i over the run (ties by mean index, then node order).
func (r *clientsRun) worstServers() *table {
	ct := r.ct
	count := make([]int, len(r.labels))
	for _, i := range r.cs.server {
		count[i]++
	}
	idx := make([]int, len(r.labels))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		if c := compareFloat(ct.ServerJainMin[i], ct.ServerJainMin[j]); c != 0 {
			return c
		}
		return compareFloat(ct.ServerJainMean[i], ct.ServerJainMean[j])
	})
	t := &table{name: "worst servers", cols: []string{"rank", "server", "clients", "least J_i", "mean J_i"}}
	for k, i := range idx[:min(r.f.worst, len(idx))] {
		t.add(k+1, r.labels[i], count[i], ct.ServerJainMin[i], ct.ServerJainMean[i])
	}
	return t
}

// compareFloat orders a before b when a < b.
func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mostThrottled lists the --worst clients of largest throttled share of
// the run (ties in client order).
func (r *clientsRun) mostThrottled() *table {
	ct := r.ct
	share := make([]float64, len(ct.Requested))
	for j := range share {
		share[j] = throttledShare(ct.Requested[j], ct.Granted[j])
	}
	t := &table{name: "most throttled clients", cols: []string{"rank", "client", "server", "requested", "granted", "throttled share"}}
	for k, j := range sortedDesc(share) {
		if k == r.f.worst {
			break
		}
		t.add(k+1, r.cs.names[j], r.labels[r.cs.server[j]], ct.Requested[j], ct.Granted[j], share[j])
	}
	return t
}

// cycles is the per-cycle table.
func (r *clientsRun) cycles() *table {
	ct, tr := r.ct, r.ct.Servers
	t := &table{name: "cycles", cols: []string{"cycle", "time", "demand", "limit", "accepted", "J_q ratios", "J_a amounts", "least ratio"}}
	for k := range tr.Steps {
		t.add(k, float64(k)*r.gamma, tr.RTotal[k], tr.LTotal[k], ct.Accepted[k], ct.JainRatio[k], ct.JainAmount[k], ct.MinRatio[k])
	}
	return t
}

// series is the per-client table of every cycle (--series).
func (r *clientsRun) series() *table {
	ct := r.ct
	t := &table{name: "series", cols: []string{"cycle", "client", "server", "requested", "granted", "throttled share"}}
	for k := range ct.R {
		for j, name := range r.cs.names {
			t.add(k, name, r.labels[r.cs.server[j]], ct.R[k][j], ct.A[k][j], ct.Share[k][j])
		}
	}
	return t
}

// picture draws Jain's indices over the run.
func (r *clientsRun) picture() func() (plots.Drawer, vg.Length, vg.Length, error) {
	ct := r.ct
	xs := make([]float64, ct.Servers.Steps)
	for k := range xs {
		xs[k] = float64(k) * r.gamma
	}
	return func() (plots.Drawer, vg.Length, vg.Length, error) {
		p := plots.New(fmt.Sprintf("Fairness among %d clients (%s split)", len(r.cs.names), r.f.split.val),
			"time kγ (time units)", "Jain's index (1 = equal, dimensionless)",
			plots.LegendAt(false, false), plots.YRange(0, 1.05))
		plots.AddCurve(p, 0, "J_{q}: of the clients' ratios granted/asked", xs, ct.JainRatio)
		plots.AddCurve(p, 1, "J_{a}: of the clients' grants", xs, ct.JainAmount)
		return p, 0, 0, nil
	}
}
