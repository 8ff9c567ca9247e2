package competitive

import (
	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// MetricOptimum returns the optimal cost and an optimal schedule of the
// hold costs of in with the migration costs of m (spec §14.2); the setup
// cost of in is not used. With V_t(s) the least cost of serving slots
// 1..t and being on s in slot t,
//
//	V_1(s) = a(s) + h_1(s),
//	V_t(s) = h_t(s) + min_j ( V_{t−1}(j) + d(j, s) ),   OPT = min_s V_T(s),
//
// in O(k²T) time and O(kT) memory (one int32 back-pointer per slot and
// server). On a uniform metric (Metric.Uniform) it is Optimum, in O(kT)
// time and O(kT) bits, with the same cost and schedule; on a tree or line
// metric (TreeMetric, LineMetric) each slot is two O(k) passes over the
// tree, O(kT) time in all. The costs need
// no property beyond being valid: asymmetric costs and costs that break
// the triangle inequality are optimised exactly. Ties: the last slot
// takes the lowest-id minimiser, and backwards the schedule stays
// whenever staying is optimal, else comes from the lowest-id best
// server (spec §3's rule; on a tree metric, the lowest id among those the
// passes compare).
//
// It returns an error wrapping loadlab.ErrInvalid if the costs can
// overflow float64 (max a + (T − 1)·max d + Σ_t max_s h_t(s) = +Inf),
// and one wrapping loadlab.ErrTooLarge if the back-pointers do not fit
// in memory. It panics if in or m is nil or their numbers of servers
// differ.
func MetricOptimum(in *Instance, m *Metric) (float64, []int, error) {
	checkMetricArgs("MetricOptimum", in, m)
	if err := validateMetricTotal(in, m); err != nil {
		return 0, nil, err
	}
	if C, ok := m.Uniform(); ok {
		u, err := in.WithSetup(C)
		if err != nil {
			return 0, nil, err
		}
		return Optimum(u)
	}
	return metricDP(in, m, true)
}

// MetricOptimumCost is MetricOptimum without the schedule: O(k²T) time
// (O(kT) on a uniform, tree or line metric) and O(k) memory. Errors and panics are
// MetricOptimum's, without ErrTooLarge.
func MetricOptimumCost(in *Instance, m *Metric) (float64, error) {
	checkMetricArgs("MetricOptimumCost", in, m)
	if err := validateMetricTotal(in, m); err != nil {
		return 0, err
	}
	if C, ok := m.Uniform(); ok {
		u, err := in.WithSetup(C)
		if err != nil {
			return 0, err
		}
		return OptimumCost(u), nil
	}
	opt, _, err := metricDP(in, m, false)
	return opt, err
}

// metricDP runs the O(k²T) dynamic program of spec §14.2 on any valid
// costs (uniform ones included: the tests compare it with Optimum).
func metricDP(in *Instance, m *Metric, trace bool) (float64, []int, error) {
	T, k := in.t, in.k
	var back []int32
	if trace {
		n, ok := size.Mul(T, k)
		if !ok {
			return 0, nil, loadlab.TooLarge(pkg, "MetricOptimum: T·k = %d·%d back-pointers overflows int", T, k)
		}
		if err := size.Check(pkg, "MetricOptimum: T·k back-pointers and the schedule", n+T, 4); err != nil {
			return 0, nil, err
		}
		back = make([]int32, n)
	}
	v, next := make([]float64, k), make([]float64, k)
	for s, h := range in.Row(0) {
		v[s] = m.init[s] + h
	}
	var ws stepSpace
	for t := 1; t < T; t++ {
		var bt []int32
		if trace {
			bt = back[t*k : (t+1)*k]
		}
		m.step(next, v, in.Row(t), bt, &ws)
		v, next = next, v
	}
	last := argmin(v)
	if !trace {
		return v[last], nil, nil
	}
	sched := make([]int, T)
	s := last
	for t := T - 1; t >= 0; t-- {
		sched[t] = s
		if t > 0 {
			s = int(back[t*k+s])
		}
	}
	return v[last], sched, nil
}

// stepSpace is the workspace of the tree form of the min-plus step,
// allocated at its first use.
type stepSpace struct {
	up []float64
	at []int32
}

// step sets next(s) = h(s) + min_j (v(j) + d(j, s)) with back-pointers
// as minPlus, by the O(k) passes of a tree metric where m has one and
// the O(k²) product otherwise.
func (m *Metric) step(next, v, h []float64, back []int32, ws *stepSpace) {
	if m.tree == nil {
		minPlus(next, v, m.dt, h, back)
		return
	}
	if len(ws.up) != m.k {
		ws.up, ws.at = make([]float64, m.k), make([]int32, m.k)
	}
	m.tree.minPlus(next, v, h, back, ws.up, ws.at)
}

// minPlus sets next(s) = h(s) + min_j (v(j) + d(j, s)), dt holding the
// costs into each s contiguously, and records in back (if not nil) the
// j that attains it: s itself when staying is optimal (d(s, s) = 0), else
// the lowest id.
func minPlus(next, v, dt, h []float64, back []int32) {
	k := len(v)
	for s := range next {
		col := dt[s*k : (s+1)*k]
		best := minSum(v, col)
		next[s] = best + h[s]
		if back == nil {
			continue
		}
		// The minimum is one of the sums v(j) + d(j, s), computed alike
		// here: the first j that reaches it, after s itself.
		bj := s
		if v[s] != best {
			col = col[:len(v)]
			for j, x := range v {
				if x+col[j] == best {
					bj = j
					break
				}
			}
		}
		back[s] = int32(bj)
	}
}

// minSum returns min_j (v(j) + c(j)) for len(c) ≥ len(v) ≥ 1, in four
// independent running minima so that the additions overlap (min is
// exact, so the order does not change the result).
func minSum(v, c []float64) float64 {
	c = c[:len(v)]
	m0, m1, m2, m3 := v[0]+c[0], v[0]+c[0], v[0]+c[0], v[0]+c[0]
	j := 0
	for ; j+4 <= len(v); j += 4 {
		m0 = min(m0, v[j]+c[j])
		m1 = min(m1, v[j+1]+c[j+1])
		m2 = min(m2, v[j+2]+c[j+2])
		m3 = min(m3, v[j+3]+c[j+3])
	}
	for ; j < len(v); j++ {
		m0 = min(m0, v[j]+c[j])
	}
	return min(min(m0, m1), min(m2, m3))
}

// StaticBestMetric is StaticBest with first-placement costs: the server
// s minimising a(s) + Σ_t h_t(s), the cost of never migrating from s
// (spec §14.5), lowest id on ties. OPT ≤ StaticBestMetric. It costs
// O(kT) time. It panics if in or m is nil or their numbers of servers
// differ.
func StaticBestMetric(in *Instance, m *Metric) (cost float64, server int) {
	checkMetricArgs("StaticBestMetric", in, m)
	sums := make([]float64, in.k)
	copy(sums, m.init)
	for t := range in.t {
		for s, h := range in.Row(t) {
			sums[s] += h
		}
	}
	server = argmin(sums)
	return sums[server], server
}
