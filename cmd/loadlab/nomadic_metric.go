package main

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/dataio"
	"github.com/loadlab/loadlab/graphio"
)

// migrationFlags are the ways "nomadic compare" takes migration costs
// that depend on source and destination.
type migrationFlags struct {
	costs, graph string
	delays       bool
}

// metric reads the migration costs the flags give, or returns nil for
// the uniform model; costs is the hold-cost file, read with tab.
func (f *migrationFlags) metric(costs string, tab *tableInput, setup float64) (*competitive.Metric, string, error) {
	switch {
	case f.costs != "" && f.graph != "":
		return nil, "", usagef("--migration-costs and --migration-graph exclude each other")
	case f.delays && f.graph == "":
		return nil, "", usagef("--migration-delays needs --migration-graph")
	case f.costs != "":
		m, err := dataio.ReadMetricFile(f.costs, setup, nil)
		return m, f.costs, err
	case f.graph != "":
		t, err := dataio.ReadTableFile(costs, tab.options())
		if err != nil {
			return nil, "", err
		}
		m, err := migrationGraphMetric("--migration-graph", "the hold-cost table", f.graph, f.delays, t.Columns, setup)
		return m, f.graph, err
	}
	return nil, "", nil
}

// nomadicCompareMetric runs the offline optimum and the online
// algorithms of spec nomadic §14 on the hold costs of in with the
// migration costs of m (read from the file named from).
func (a *app) nomadicCompareMetric(in *competitive.Instance, m *competitive.Metric, from string) (*answer, error) {
	if m.Servers() != in.Servers() {
		return nil, usagef("--migration-costs %s has %d servers, --costs has %d", from, m.Servers(), in.Servers())
	}
	opt, sched, err := competitive.MetricOptimum(in, m)
	if err != nil {
		return nil, err
	}
	t := &table{cols: []string{"algorithm", "cost", "ratio to optimum", "setups"}}
	t.add("offline optimum", opt, 1.0, competitive.Setups(sched))
	static, _ := competitive.StaticBestMetric(in, m)
	names, ratios := []string{"OPT"}, []float64{1}
	addRow := func(name, short string, cost float64, setups int) error {
		r, err := competitive.PerformanceRatio(cost, opt)
		if err != nil {
			return err
		}
		t.add(name, cost, r, setups)
		names, ratios = append(names, short), append(ratios, r)
		return nil
	}
	if err := addRow("static best server (offline)", "static", static, 1); err != nil {
		return nil, err
	}
	var notes []string
	algs := []struct {
		name, short string
		alg         competitive.MetricOnline
	}{
		{"WFA (metric)", "WFA", &competitive.MetricWFA{}},
		{"DTrack (metric, α = 1)", "DTrack", competitive.NewMetricDTrack()},
		{"never migrate", "never", &competitive.MetricNeverMigrate{}},
	}
	for _, al := range algs {
		if _, ok := al.alg.(*competitive.MetricWFA); ok && m.Violation() != nil {
			notes = append(notes, fmt.Sprintf("WFA left out, since it needs a metric (spec nomadic §14.4): %v", m.Violation()))
			continue
		}
		s, err := competitive.RunMetric(al.alg, in, m)
		if err != nil {
			return nil, err
		}
		if err := addRow(al.name, al.short, competitive.MetricCost(in, m, s), competitive.Setups(s)); err != nil {
			return nil, err
		}
	}
	notes = append(notes, fmt.Sprintf("Migration costs from %s: %d servers, from %.6g to %.6g between distinct servers; every first placement costs --setup %.6g (spec nomadic §14.1).",
		from, m.Servers(), m.MinDistance(), m.Diameter(), m.Initial(0)))
	return &answer{tables: []*table{t}, notes: notes, draw: barsPicture("Online algorithms against the offline optimum, metric migration costs", "cost / optimal cost", names, ratios)}, nil
}

// migrationGraphMetric is the metric of shortest paths on the network
// of the graph file path (spec nomadic §14.1): hop counts, or with
// delays the edge weights as link delays. The servers are the hold-cost
// table's columns, matched to the graph's nodes by name (names: the
// table's header); every first placement costs setup.
// flag and what name the flag and the table of servers in messages.
func migrationGraphMetric(flag, what, path string, delays bool, names []string, setup float64) (*competitive.Metric, error) {
	d, err := graphio.ReadFile(path, nil)
	if err != nil {
		return nil, err
	}
	if names == nil {
		return nil, usagef("%s: %s has no header; name its columns by the node labels of %s", flag, what, path)
	}
	g, k := d.Graph, len(names)
	if g.Order() != k {
		return nil, usagef("%s %s has %d nodes, %s %d servers", flag, path, g.Order(), what, k)
	}
	node := make(map[string]int, k)
	for u, l := range d.Labels {
		node[l] = u
	}
	server := make([]int, k) // server[u]: the column of node u
	for s, name := range names {
		u, ok := node[name]
		if !ok {
			return nil, usagef("%s: server %q of %s is no node of %s", flag, name, what, path)
		}
		server[u] = s
	}
	length := make([][]float64, k)
	for s := range length {
		length[s] = make([]float64, k)
		for t := range length[s] {
			if t != s {
				length[s][t] = math.Inf(1)
			}
		}
	}
	for u := range k {
		ws := g.Weights(u)
		for i, v := range g.Neighbors(u) {
			w := 1.0
			if delays {
				w = ws[i]
			}
			s, t := server[u], server[v]
			length[s][t] = min(length[s][t], w)
		}
	}
	initial := make([]float64, k)
	for s := range initial {
		initial[s] = setup
	}
	m, err := competitive.ShortestPathMetric(length, initial)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return m, nil
}
