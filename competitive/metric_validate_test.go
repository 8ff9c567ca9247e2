package competitive

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
)

// metricCases probes the metric constructors, the metric optimum and
// the metric online algorithms (spec §14): negative, NaN and infinite
// costs, a non-zero diagonal, a matrix that is not square, first-placement
// costs of the wrong length, a disconnected network, properties that WFA
// needs and that fail (ErrNotMetric), and the documented panics.
func metricCases(in *Instance) []badarg.Case {
	var cs []badarg.Case
	add := func(c ...badarg.Case) { cs = append(cs, c...) }
	good := [][]float64{{0, 1}, {1, 0}}

	p := badarg.Probe{Func: "UniformMetric", Err: inv}
	add(p.Int("k", badarg.Positive, func(k int) error { _, err := UniformMetric(k, 1); return err })...)
	add(p.Scalar("C", badarg.NonNegative, func(C float64) error { _, err := UniformMetric(2, C); return err })...)
	add(badarg.Probe{Func: "UniformMetric", Err: tooLarge}.Fails("k = 2^40", "", func() error { _, err := UniformMetric(1<<40, 1); return err }))

	for _, fn := range []string{"NewMetric", "ShortestPathMetric"} {
		build := func(d [][]float64, init []float64) error {
			if fn == "NewMetric" {
				_, err := NewMetric(d, init)
				return err
			}
			_, err := ShortestPathMetric(d, init)
			return err
		}
		p := badarg.Probe{Func: fn, Err: inv, Text: "(1, 0) = %v"}
		bad := badarg.NonNegative.Floats()
		if fn == "ShortestPathMetric" {
			bad = []float64{math.NaN(), math.Inf(-1), -1} // +Inf is a missing link
		}
		for _, x := range bad {
			add(p.Fails("d(1, 0) bad", "(1, 0) = "+fmt.Sprint(x), func() error { return build([][]float64{{0, 1}, {x, 0}}, nil) }))
		}
		p.Text = ""
		add(p.Fails("non-zero diagonal", "(1, 1) = 2 on the diagonal, want 0", func() error { return build([][]float64{{0, 1}, {1, 2}}, nil) }))
		add(p.Fails("not square", "row 1 has 1", func() error { return build([][]float64{{0, 1}, {1}}, nil) }))
		add(p.Fails("dist = nil", "k = 0 servers", func() error { return build(nil, nil) }))
		add(p.Fails("rows of no server", "row 0 has 0", func() error { return build([][]float64{{}, {}}, nil) }))
		p.Text = "NewMetric: initial[1] = "
		add(p.Entries("initial", []float64{1, 2}, 1, badarg.NonNegative, func(a []float64) error { return build(good, a) })...)
		p.Text = "len(initial) = %v, want k = 2"
		add(p.Lengths("initial", []float64{1, 2}, func(a []float64) error {
			if a == nil { // nil is valid: free first placements
				a = []float64{}
			}
			return build(good, a)
		})...)
		add(badarg.Probe{Func: fn, Err: tooLarge}.Fails("k×k beyond memory", "", func() error {
			row := make([]float64, 1)
			rows := make([][]float64, 40_000) // 40,000² · 16 bytes > 16 GiB
			for i := range rows {
				rows[i] = row
			}
			return build(rows, nil)
		}))
	}
	inf := math.Inf(1)
	top := math.MaxFloat64
	add(badarg.Probe{Func: "ShortestPathMetric", Err: inv}.Fails("lengths overflow", "sum to +Inf", func() error {
		_, err := ShortestPathMetric([][]float64{{0, top, inf}, {top, 0, top}, {inf, top, 0}}, nil)
		return err
	}))
	add(badarg.Probe{Func: "ShortestPathMetric", Err: loadlab.ErrDisconnected}.Fails("no path", "no path from server 0 to server 2", func() error {
		_, err := ShortestPathMetric([][]float64{{0, 1, inf}, {1, 0, inf}, {inf, inf, 0}}, nil)
		return err
	}))

	u, _ := UniformMetric(in.Servers(), 1)
	triangle, _ := NewMetric([][]float64{{0, 1, 5}, {1, 0, 1}, {5, 1, 0}}, nil)
	asym, _ := NewMetric([][]float64{{0, 1}, {2, 0}}, nil)
	far, _ := NewMetric([][]float64{{0, 1}, {1, 0}}, []float64{0, 3})
	for _, c := range []struct {
		m    *Metric
		text string
	}{
		{triangle, "triangle inequality fails: d(0, 2) = 5 > d(0, 1) + d(1, 2) = 1 + 1"},
		{asym, "asymmetric migration costs: d(0, 1) = 1 ≠ d(1, 0) = 2"},
		{far, "a(0) = 0 and a(1) = 3 differ by more than d(0, 1) = 1"},
	} {
		add(badarg.Probe{Func: "Metric.Violation", Err: ErrNotMetric}.Fails(c.text, c.text, func() error { return c.m.Violation() }))
		add(badarg.Probe{Func: "MetricWFA.Reset", Err: ErrNotMetric}.Fails(c.text, c.text, func() error { return new(MetricWFA).Reset(c.m) }))
	}
	for _, ij := range [][2]int{{-1, 0}, {0, 2}, {2, 0}, {0, -1}} {
		add(badarg.Probe{Func: "Metric.Dist"}.Panics("index out of range", "Metric.Dist", func() { u.Dist(ij[0], ij[1]) }))
	}
	for _, s := range []int{-1, 2} {
		add(badarg.Probe{Func: "Metric.Initial"}.Panics("index out of range", "Metric.Initial", func() { u.Initial(s) }))
	}

	// Runs: shape mismatches and nil arguments are programmer errors.
	three, _ := UniformMetric(3, 1)
	big := math.MaxFloat64 / 4
	huge, _ := NewMetric([][]float64{{0, big}, {big, 0}}, nil)
	long, _ := NewInstanceFlat(10, 2, make([]float64, 20), 1)
	for name, f := range map[string]func(*Instance, *Metric) error{
		"MetricOptimum":     func(x *Instance, m *Metric) error { _, _, err := MetricOptimum(x, m); return err },
		"MetricOptimumCost": func(x *Instance, m *Metric) error { _, err := MetricOptimumCost(x, m); return err },
		"RunMetric":         func(x *Instance, m *Metric) error { _, err := RunMetric(&MetricWFA{}, x, m); return err },
		"RunMetricCost":     func(x *Instance, m *Metric) error { _, err := RunMetricCost(&MetricWFA{}, x, m); return err },
		"MetricCost":        func(x *Instance, m *Metric) error { MetricCost(x, m, make([]int, 5)); return nil },
		"StaticBestMetric":  func(x *Instance, m *Metric) error { StaticBestMetric(x, m); return nil },
	} {
		p := badarg.Probe{Func: name}
		add(p.Panics("in = nil", "nil instance", func() { _ = f(nil, u) }))
		add(p.Panics("m = nil", "nil metric", func() { _ = f(in, nil) }))
		add(p.Panics("k mismatch", "metric of 3 servers for an instance of 2", func() { _ = f(in, three) }))
		if name != "MetricCost" && name != "StaticBestMetric" {
			add(badarg.Probe{Func: name, Err: inv}.Fails("costs overflow", "overflows float64", func() error { return f(long, huge) }))
		}
	}
	add(badarg.Probe{Func: "MetricCost"}.Panics("len(sched) = 1", "schedule of length 1", func() { MetricCost(in, u, []int{0}) }))
	add(badarg.Probe{Func: "MetricCost"}.Panics("server 2 of 2", "uses server 2 of 2", func() { MetricCost(in, u, append(make([]int, in.Slots()-1), 2)) }))
	for name, f := range map[string]func(MetricOnline) error{
		"RunMetric":     func(a MetricOnline) error { _, err := RunMetric(a, in, u); return err },
		"RunMetricCost": func(a MetricOnline) error { _, err := RunMetricCost(a, in, u); return err },
	} {
		add(badarg.Probe{Func: name}.Panics("alg = nil", "nil MetricOnline", func() { _ = f(nil) }))
		add(badarg.Probe{Func: name, Err: inv}.Fails("a bad field", "MetricDTrack.Alpha = NaN", func() error { return f(&MetricDTrack{Alpha: nan}) }))
		add(badarg.Probe{Func: name, Err: ErrNotMetric}.Fails("not a metric", "asymmetric", func() error { _, err := RunMetric(&MetricWFA{}, in, asym); return err }))
		add(badarg.Probe{Func: name, Err: inv}.Fails("server out of range", "server 2 of 2", func() error { return f(metricWild{}) }))
	}

	// The online algorithms: Reset with a nil metric panics; Step checks
	// its row and panics before Reset; DTrack's α is validated.
	algs := map[string]func() MetricOnline{
		"MetricWFA":          func() MetricOnline { return &MetricWFA{} },
		"MetricDTrack":       func() MetricOnline { return NewMetricDTrack() },
		"MetricNeverMigrate": func() MetricOnline { return &MetricNeverMigrate{} },
	}
	euclid, _ := NewMetric([][]float64{{0, 3, 4}, {3, 0, 5}, {4, 5, 0}}, []float64{1, 2, 3})
	for _, name := range sortedKeys(algs) {
		mk := algs[name]
		add(badarg.Probe{Func: name + ".Reset"}.Panics("m = nil", "nil metric", func() { _ = mk().Reset(nil) }))
		for _, m := range []*Metric{three, euclid} {
			step := func(hold []float64) error {
				alg := mk()
				if err := alg.Reset(m); err != nil {
					return err
				}
				if _, err := alg.Step([]float64{1, 2, 3}); err != nil { // a first slot, then the probe
					return err
				}
				_, err := alg.Step(hold)
				return err
			}
			add(badarg.Probe{Func: name + ".Step", Err: inv}.Slice("hold", []float64{1, 2, 3}, 1, badarg.NonNegative, step)...)
		}
		add(badarg.Probe{Func: name + ".Step"}.Panics("Step before Reset", "competitive: "+name+".Step before Reset", func() { _, _ = mk().Step([]float64{1}) }))
	}
	for _, fn := range []string{"MetricDTrack.Validate", "MetricDTrack.Reset"} {
		add(badarg.Fields(badarg.Probe{Func: fn, Err: inv}, *NewMetricDTrack(), badarg.NonNegative, func(a *MetricDTrack) error {
			if fn == "MetricDTrack.Validate" {
				return a.Validate()
			}
			return a.Reset(u)
		}, "Alpha")...)
	}
	return cs
}

// metricWild is a MetricOnline that picks a server out of range.
type metricWild struct{}

func (metricWild) Reset(*Metric) error              { return nil }
func (metricWild) Step(hold []float64) (int, error) { return len(hold), nil }
