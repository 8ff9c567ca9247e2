package competitive

import (
	"fmt"
	"math"
	"sync"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// ErrNotMetric is wrapped by the error of an algorithm that needs a
// property of the migration costs that they lack: symmetry, the triangle
// inequality, or first-placement costs consistent with the distances
// (spec §14.1). It wraps loadlab.ErrInvalid, so errors.Is(err,
// loadlab.ErrInvalid) holds as well.
var ErrNotMetric = fmt.Errorf("migration costs are not a metric: %w", loadlab.ErrInvalid)

// metricTol is the relative slack of the triangle inequality and of the
// consistency of first-placement costs: d(i,j) ≤ (d(i,l) + d(l,j))·(1 +
// metricTol). Shortest paths summed in floating point can break the exact
// inequality by a few units in the last place of their longest sums.
const metricTol = 1e-12

// Metric holds the migration costs of the metrical task system of spec
// §14.1: d(i, j) ≥ 0 is the cost of moving the session from server i to
// server j (d(i, i) = 0), and a(s) ≥ 0 is the cost of the first
// placement on server s (the distance from a virtual origin). It is
// immutable once built.
//
// The properties the algorithms need are checked on first demand
// (Violation): the offline optimum needs none; WFA needs symmetry, the triangle
// inequality and |a(i) − a(j)| ≤ d(i, j) (Violation); MetricDTrack and
// MetricNeverMigrate need none, though DTrack's bound degrades with the
// ratio Δ = max d / min d over distinct servers.
type Metric struct {
	k    int
	d    []float64 // d[i*k+j] = d(i, j)
	dt   []float64 // dt[j*k+i] = d(i, j): the costs into j, contiguous
	init []float64 // a(s)

	uniform   bool    // every d(i, j), i ≠ j, and every a(s) equal c
	c         float64 // the common value when uniform
	initEqual bool    // every a(s) equal
	once      sync.Once
	violation error // nil, or the first property of a metric that fails (found once, on demand)

	tree *treeShape // set by TreeMetric and LineMetric: the O(k) min-plus step

	diam, minOff float64 // max and min of d(i, j) over i ≠ j (0, +Inf for k = 1)
	initMin      float64
	initMax      float64
}

// UniformMetric returns the metric of the model of spec §2 (§2.5): every
// migration and the first placement cost C. On it the metric functions
// give the results of the uniform ones (MetricOptimum those of Optimum,
// MetricWFA those of WFA, MetricDTrack those of DTrack-RR). It returns
// an error wrapping loadlab.ErrInvalid if k < 1 or C is negative, NaN or
// infinite, and one wrapping loadlab.ErrTooLarge if k×k costs do not
// fit in memory.
func UniformMetric(k int, C float64) (*Metric, error) {
	if err := validateReset(k, C); err != nil {
		return nil, err
	}
	if err := checkSquare(k); err != nil {
		return nil, err
	}
	d := make([]float64, k*k)
	for i := range k {
		for j := range k {
			if i != j {
				d[i*k+j] = C
			}
		}
	}
	init := make([]float64, k)
	for s := range init {
		init[s] = C
	}
	return newMetric(k, d, init), nil
}

// checkSquare returns an error unless two k×k matrices fit in memory.
func checkSquare(k int) error {
	n, ok := size.Mul(k, k)
	if !ok {
		return loadlab.TooLarge(pkg, "k×k = %d×%d migration costs overflows int", k, k)
	}
	return size.Check(pkg, "Metric: two k×k migration cost matrices", n, 16)
}

// NewMetric returns the metric with migration costs dist[i][j] (from
// server i to server j) and first-placement costs initial[s]; a nil
// initial means every first placement is free. The values are copied.
//
// It returns an error wrapping loadlab.ErrInvalid, naming the entry and
// its value, if dist is empty or not square (a row of another length),
// if len(initial) ≠ k, if a cost is negative, NaN or infinite, or if a
// diagonal entry is not 0; and one wrapping loadlab.ErrTooLarge if the
// k×k costs do not fit in memory. Asymmetric costs and costs that break
// the triangle inequality are accepted: the algorithms that need those
// properties refuse them (Violation).
func NewMetric(dist [][]float64, initial []float64) (*Metric, error) {
	k := len(dist)
	if k == 0 {
		return nil, loadlab.Invalid(pkg, "NewMetric: k = 0 servers, want ≥ 1")
	}
	if err := checkSquare(k); err != nil {
		return nil, err
	}
	for i, row := range dist {
		if len(row) != k {
			return nil, loadlab.Invalid(pkg, "NewMetric: row %d has %d migration costs, want k = %d (a square matrix)", i, len(row), k)
		}
	}
	if initial != nil && len(initial) != k {
		return nil, loadlab.Invalid(pkg, "NewMetric: len(initial) = %d, want k = %d", len(initial), k)
	}
	d := make([]float64, k*k)
	for i, row := range dist {
		for j, x := range row {
			switch {
			case !finiteNonNeg(x):
				return nil, loadlab.Invalid(pkg, "NewMetric: migration cost d(%d, %d) = %v, want finite and ≥ 0", i, j, x)
			case i == j && x != 0:
				return nil, loadlab.Invalid(pkg, "NewMetric: migration cost d(%d, %d) = %v on the diagonal, want 0", i, j, x)
			}
			d[i*k+j] = x
		}
	}
	init := make([]float64, k)
	for s := range initial {
		if !finiteNonNeg(initial[s]) {
			return nil, loadlab.Invalid(pkg, "NewMetric: initial[%d] = %v, want finite and ≥ 0", s, initial[s])
		}
		init[s] = initial[s]
	}
	return newMetric(k, d, init), nil
}

// ShortestPathMetric returns the metric of shortest-path distances on a
// network of k servers (spec §14.1): length[i][j] is the length of the
// link from i to j (a hop count of 1, or a delay), +Inf where there is
// no link, and 0 on the diagonal; the migration cost d(i, j) is the
// length of a shortest path from i to j (Floyd–Warshall, O(k³) time).
// A symmetric length matrix gives a metric. initial is as for NewMetric.
//
// It returns an error wrapping loadlab.ErrInvalid, naming the entry, if
// length is empty or not square, if a link length is negative, NaN or
// −Inf, if a diagonal entry is not 0, if the finite lengths sum to
// +Inf (a path length could overflow), or if len(initial) ≠ k or an
// initial cost is bad; one wrapping loadlab.ErrDisconnected, naming a
// pair, if some server cannot reach another; and one wrapping
// loadlab.ErrTooLarge if the k×k costs do not fit in memory.
func ShortestPathMetric(length [][]float64, initial []float64) (*Metric, error) {
	k := len(length)
	if k == 0 {
		return nil, loadlab.Invalid(pkg, "ShortestPathMetric: k = 0 servers, want ≥ 1")
	}
	if err := checkSquare(k); err != nil {
		return nil, err
	}
	d := make([][]float64, k)
	total := 0.0 // Σ of the finite link lengths: a bound on every shortest path
	for i, row := range length {
		if len(row) != k {
			return nil, loadlab.Invalid(pkg, "ShortestPathMetric: row %d has %d link lengths, want k = %d (a square matrix)", i, len(row), k)
		}
		for j, x := range row {
			switch {
			case !(x >= 0): // NaN, −Inf and negative lengths
				return nil, loadlab.Invalid(pkg, "ShortestPathMetric: link length(%d, %d) = %v, want ≥ 0 or +Inf (no link)", i, j, x)
			case i == j && x != 0:
				return nil, loadlab.Invalid(pkg, "ShortestPathMetric: link length(%d, %d) = %v on the diagonal, want 0", i, j, x)
			case !math.IsInf(x, 1):
				total += x
			}
		}
		d[i] = append([]float64(nil), row...)
	}
	if math.IsInf(total, 1) {
		return nil, loadlab.Invalid(pkg, "ShortestPathMetric: the finite link lengths sum to +Inf: a path length could overflow float64")
	}
	floydWarshall(d)
	for i, row := range d {
		for j, x := range row {
			if math.IsInf(x, 1) {
				return nil, loadlab.Wrap(loadlab.ErrDisconnected, pkg, "ShortestPathMetric: no path from server %d to server %d", i, j)
			}
		}
	}
	return NewMetric(d, initial)
}

// floydWarshall replaces d by its shortest-path distances in place.
func floydWarshall(d [][]float64) {
	for l, rl := range d {
		for _, ri := range d {
			dil := ri[l]
			if math.IsInf(dil, 1) {
				continue
			}
			for j, x := range rl {
				ri[j] = min(ri[j], dil+x)
			}
		}
	}
}

// newMetric builds a metric from validated costs (used, not copied) and
// finds its properties.
func newMetric(k int, d, init []float64) *Metric {
	m := &Metric{k: k, d: d, init: init, diam: 0, minOff: math.Inf(1)}
	m.dt = make([]float64, k*k)
	for i := range k {
		for j := range k {
			m.dt[j*k+i] = d[i*k+j]
			if i != j {
				m.diam = max(m.diam, d[i*k+j])
				m.minOff = min(m.minOff, d[i*k+j])
			}
		}
	}
	m.initMin, m.initMax = init[0], init[0]
	for _, a := range init {
		m.initMin, m.initMax = min(m.initMin, a), max(m.initMax, a)
	}
	m.initEqual = m.initMin == m.initMax
	m.c = m.initMin
	m.uniform = m.initEqual && (k == 1 || m.minOff == m.diam && m.diam == m.c)
	return m
}

// findViolation returns an error wrapping ErrNotMetric naming the first
// failure of symmetry, of the triangle inequality or of the consistency
// of the first-placement costs, and nil if there is none. It costs O(k³).
func (m *Metric) findViolation() error {
	k, d := m.k, m.d
	for i := range k {
		for j := i + 1; j < k; j++ {
			if d[i*k+j] != d[j*k+i] {
				return loadlab.Wrap(ErrNotMetric, pkg, "asymmetric migration costs: d(%d, %d) = %v ≠ d(%d, %d) = %v", i, j, d[i*k+j], j, i, d[j*k+i])
			}
			if gap := math.Abs(m.init[i] - m.init[j]); gap > d[i*k+j]*(1+metricTol) {
				return loadlab.Wrap(ErrNotMetric, pkg, "first-placement costs a(%d) = %v and a(%d) = %v differ by more than d(%d, %d) = %v", i, m.init[i], j, m.init[j], i, j, d[i*k+j])
			}
		}
	}
	for l := range k {
		rl := d[l*k : (l+1)*k]
		for i := range k {
			dil := d[i*k+l]
			ri := d[i*k : (i+1)*k]
			for j, x := range rl {
				if ri[j] > (dil+x)*(1+metricTol) {
					return loadlab.Wrap(ErrNotMetric, pkg, "triangle inequality fails: d(%d, %d) = %v > d(%d, %d) + d(%d, %d) = %v + %v", i, j, ri[j], i, l, l, j, dil, x)
				}
			}
		}
	}
	return nil
}

// Servers returns the number of servers k.
func (m *Metric) Servers() int { return m.k }

// Dist returns d(i, j), the cost of migrating from server i to server j.
// It panics if i or j is out of range.
func (m *Metric) Dist(i, j int) float64 {
	if uint(i) >= uint(m.k) || uint(j) >= uint(m.k) {
		panic(fmt.Sprintf("competitive: Metric.Dist(%d, %d) of %d servers", i, j, m.k))
	}
	return m.d[i*m.k+j]
}

// Initial returns a(s), the cost of the first placement on server s. It
// panics if s is out of range.
func (m *Metric) Initial(s int) float64 {
	if uint(s) >= uint(m.k) {
		panic(fmt.Sprintf("competitive: Metric.Initial(%d) of %d servers", s, m.k))
	}
	return m.init[s]
}

// Uniform reports whether every migration and every first placement
// cost the same C, the model of spec §2 on which the uniform algorithms
// run (O(k) per slot instead of O(k²)).
func (m *Metric) Uniform() (C float64, ok bool) { return m.c, m.uniform }

// Diameter returns D = max d(i, j) and MinDistance returns min d(i, j)
// over distinct servers (0 and +Inf for k = 1).
func (m *Metric) Diameter() float64 { return m.diam }

// MinDistance: see Diameter.
func (m *Metric) MinDistance() float64 { return m.minOff }

// Violation returns nil if the costs are symmetric, satisfy the triangle
// inequality and |a(i) − a(j)| ≤ d(i, j) (each with relative slack
// 10⁻¹²), as WFA needs (spec §14.4), and otherwise an error wrapping
// ErrNotMetric that names the first pair (or triple) that fails. The
// check costs O(k³) on the first call; the answer is kept.
func (m *Metric) Violation() error {
	m.once.Do(func() { m.violation = m.findViolation() })
	return m.violation
}

// MetricCost returns the cost of schedule sched on the hold costs of in
// with migration costs m (spec §14.1):
//
//	cost(σ) = a(σ_1) + Σ_{t≥2} d(σ_{t−1}, σ_t) + Σ_t h_t(σ_t).
//
// The setup cost of in is not used. It panics if m's and in's numbers of
// servers differ, if len(sched) ≠ T or a server id is out of range
// (programmer errors), or if in or m is nil.
func MetricCost(in *Instance, m *Metric, sched []int) float64 {
	checkMetricArgs("MetricCost", in, m)
	if len(sched) != in.t {
		panic(fmt.Sprintf("competitive: MetricCost: schedule of length %d for T = %d slots", len(sched), in.t))
	}
	cost, prev := 0.0, NoServer
	for t, s := range sched {
		if s < 0 || s >= in.k {
			panic(fmt.Sprintf("competitive: MetricCost: schedule slot %d uses server %d of %d", t, s, in.k))
		}
		cost += m.move(prev, s) + in.h[t*in.k+s]
		prev = s
	}
	return cost
}

// move returns the cost of going from prev (NoServer: the origin) to s.
func (m *Metric) move(prev, s int) float64 {
	if prev == NoServer {
		return m.init[s]
	}
	return m.d[prev*m.k+s]
}

// checkMetricArgs panics on a nil instance or metric, or on a metric of
// another number of servers than the instance (programmer errors).
func checkMetricArgs(fn string, in *Instance, m *Metric) {
	switch {
	case in == nil:
		panic("competitive: " + fn + ": nil instance")
	case m == nil:
		panic("competitive: " + fn + ": nil metric")
	case m.k != in.k:
		panic(fmt.Sprintf("competitive: %s: metric of %d servers for an instance of %d", fn, m.k, in.k))
	}
}

// validateMetricTotal returns an error if a schedule's cost on in with
// m can overflow float64: max a + (T − 1)·D + Σ_t max_s h_t(s) = +Inf.
func validateMetricTotal(in *Instance, m *Metric) error {
	if total := m.initMax + float64(in.t-1)*m.diam + in.peak; total > math.MaxFloat64 {
		return loadlab.Invalid(pkg, "costs too large: max a + (T − 1)·max d + Σ_t max_s h_t(s) = %v + %d·%v + %v overflows float64", m.initMax, in.t-1, m.diam, in.peak)
	}
	return nil
}
