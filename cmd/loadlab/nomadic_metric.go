package main

import (
	"fmt"

	"github.com/loadlab/loadlab/competitive"
)

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
