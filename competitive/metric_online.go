package competitive

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
)

// MetricOnline is an online algorithm for migration costs given by a
// Metric (spec §14): the information pattern of Online (spec §2.2), with
// Reset taking the metric instead of k and C.
type MetricOnline interface {
	// Reset prepares the algorithm for a new input on metric m. It
	// returns an error if the algorithm's parameters are invalid or m
	// lacks a property the algorithm needs (wrapping ErrNotMetric). It
	// panics if m is nil.
	Reset(m *Metric) error
	// Step is Online.Step: given the k hold costs of the next slot it
	// returns the server of that slot, or an error (len(hold) ≠ k, a
	// cost negative, NaN or infinite) leaving the state unchanged. It
	// panics before a successful Reset.
	Step(hold []float64) (int, error)
}

// RunMetric resets alg on m and feeds it the slots of in, returning its
// schedule (price it with MetricCost). It returns alg's Reset or Step
// error, an error wrapping loadlab.ErrInvalid if alg picks a server out
// of range or the costs can overflow float64. It panics if alg, in or m
// is nil or the numbers of servers differ.
func RunMetric(alg MetricOnline, in *Instance, m *Metric) ([]int, error) {
	if alg == nil {
		panic("competitive: RunMetric: nil MetricOnline algorithm")
	}
	checkMetricArgs("RunMetric", in, m)
	if err := validateMetricTotal(in, m); err != nil {
		return nil, err
	}
	if err := alg.Reset(m); err != nil {
		return nil, err
	}
	sched := make([]int, in.Slots())
	for t := range sched {
		s, err := alg.Step(in.Row(t))
		if err != nil {
			return nil, fmt.Errorf("competitive: slot %d: %w", t, err)
		}
		if s < 0 || s >= in.k {
			return nil, loadlab.Invalid(pkg, "online algorithm chose server %d of %d at slot %d", s, in.k, t)
		}
		sched[t] = s
	}
	return sched, nil
}

// RunMetricCost is RunMetric returning the cost of the schedule
// (MetricCost). Errors and panics are RunMetric's.
func RunMetricCost(alg MetricOnline, in *Instance, m *Metric) (float64, error) {
	if alg == nil {
		panic("competitive: RunMetricCost: nil MetricOnline algorithm")
	}
	checkMetricArgs("RunMetricCost", in, m)
	sched, err := RunMetric(alg, in, m)
	if err != nil {
		return 0, err
	}
	return MetricCost(in, m, sched), nil
}

// firstServer is the first choice of the metric algorithms: the
// lowest-id minimiser of a(s) + h_1(s), which is argmin h_1 (the choice
// of the uniform algorithms) when every a(s) is equal.
func firstServer(m *Metric, hold []float64) int {
	if m.initEqual {
		return argmin(hold)
	}
	j := 0
	for s, h := range hold {
		if m.init[s]+h < m.init[j]+hold[j] {
			j = s
		}
	}
	return j
}

// MetricWFA is the work function algorithm of the metrical task system
// with migration costs d and first-placement costs a (spec §14.4;
// Borodin, Linial and Saks). With V_t the dynamic program of
// MetricOptimum, from its previous server p it moves to
//
//	σ_t = argmin_y ( V_t(y) + d(y, p) )   (p on ties, else the lowest id),
//
// a minimiser of w_t(y) + d(p, y) at which the work function w_t(y) =
// min_x (V_t(x) + d(x, y)) is supported; the first slot takes the
// minimiser of V_1(y) + a(y). On a metric it pays at most
//
//	(2k − 1)·OPT + 2(k − 1)·(D − min_s a(s)),   D = max d,
//
// (spec §14.4), and on a uniform metric (D = a = C) it is WFA,
// (2k − 1)-competitive without additive constant. Each slot costs
// O(k²) (O(k) on a uniform, tree or line metric). Reset refuses costs
// that are asymmetric, break the triangle inequality or have |a(i) −
// a(j)| > d(i, j), with the error of Metric.Violation (wrapping
// ErrNotMetric). Its zero value is ready for Reset.
type MetricWFA struct {
	m       *Metric
	uni     WFA
	k, s    int
	v, next []float64 // V_t − min_s V_t, and the next row's buffer
	ws      stepSpace
}

// Reset implements MetricOnline. It panics if m is nil.
func (w *MetricWFA) Reset(m *Metric) error {
	if m == nil {
		panic("competitive: MetricWFA.Reset: nil metric")
	}
	if err := m.Violation(); err != nil {
		return err
	}
	w.m, w.k, w.s = m, m.k, NoServer
	if C, ok := m.Uniform(); ok {
		return w.uni.Reset(m.k, C)
	}
	if cap(w.v) < m.k || cap(w.next) < m.k {
		w.v, w.next = make([]float64, m.k), make([]float64, m.k)
	}
	w.v, w.next = w.v[:m.k], w.next[:m.k]
	return nil
}

// Step implements MetricOnline.
func (w *MetricWFA) Step(hold []float64) (int, error) {
	if err := validateStep("MetricWFA.Step", hold, w.k); err != nil {
		return NoServer, err
	}
	if _, ok := w.m.Uniform(); ok {
		return w.uni.Step(hold)
	}
	m, k := w.m, w.k
	if w.s == NoServer {
		for s, h := range hold {
			w.v[s] = m.init[s] + h
		}
		w.s = firstServer(m, w.v)
	} else {
		m.step(w.next, w.v, hold, nil, &w.ws)
		w.v, w.next = w.next, w.v
		p := w.s
		dp := m.d[p*k : (p+1)*k] // d(p, y) = d(y, p): the costs are symmetric
		best := w.v[p]
		for y, x := range w.v {
			if x+dp[y] < best {
				best, w.s = x+dp[y], y
			}
		}
	}
	// Keep the row relative to its minimum, so that it stays in
	// [0, D + max h] however long the input.
	lo := w.v[argmin(w.v)]
	for s := range w.v {
		w.v[s] -= lo
	}
	return w.s, nil
}

// MetricDTrack is DTrack-RR (spec §4) with a threshold per destination
// (spec §14.3): on server s it keeps the deficits D(j) = max(0, D(j) +
// h_t(s) − h_t(j)) and moves when some D(j) > α·d(s, j) (rent or buy per
// destination), to the first server j after s in cyclic order with
// h_t(j) − min_i h_t(i) ≤ α·d(s, j), restarting the deficits with the
// slot included, each capped at its new threshold α·d(s_new, j); the
// first slot takes the minimiser of a(s) + h_1(s).
// On a uniform metric it is DTrack-RR with the same α, bit for bit. Its
// bound (spec §14.3, with Δ = max d / min d over distinct servers) is
//
//	cost ≤ max{ 1 + Δ(k − 1 + k/α), Δ((k − 1)α + k) }·OPT + additive terms
//
// for the first placement; at α = 1 that is (1 + Δ(2k − 1))·OPT. It
// needs no property of the costs beyond validity. Each slot costs O(k).
type MetricDTrack struct {
	// Alpha ≥ 0 scales the thresholds α·d(s, j); NewMetricDTrack sets 1.
	Alpha float64

	alpha float64
	m     *Metric
	k, s  int
	d     []float64
	moves int
}

// NewMetricDTrack returns MetricDTrack with α = 1.
func NewMetricDTrack() *MetricDTrack { return &MetricDTrack{Alpha: 1} }

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field, if Alpha is negative, NaN or infinite.
func (a *MetricDTrack) Validate() error {
	if !finiteNonNeg(a.Alpha) {
		return loadlab.Invalid(pkg, "MetricDTrack.Alpha = %v, want finite and ≥ 0", a.Alpha)
	}
	return nil
}

// Reset implements MetricOnline: Validate's errors. It panics if m is
// nil.
func (a *MetricDTrack) Reset(m *Metric) error {
	if m == nil {
		panic("competitive: MetricDTrack.Reset: nil metric")
	}
	if err := a.Validate(); err != nil {
		return err
	}
	a.alpha, a.m, a.k, a.s, a.moves = a.Alpha, m, m.k, NoServer, 0
	if cap(a.d) < m.k {
		a.d = make([]float64, m.k)
	}
	a.d = a.d[:m.k]
	clear(a.d)
	return nil
}

// Transitions returns the number of moves after the first placement.
func (a *MetricDTrack) Transitions() int { return a.moves }

// Step implements MetricOnline.
func (a *MetricDTrack) Step(hold []float64) (int, error) {
	if err := validateStep("MetricDTrack.Step", hold, a.k); err != nil {
		return NoServer, err
	}
	if a.s == NoServer {
		a.s = firstServer(a.m, hold)
		return a.s, nil
	}
	s, k := a.s, a.k
	row := a.m.d[s*k : (s+1)*k]
	hs, fire, lo := hold[s], false, math.Inf(1)
	for j, h := range hold { // j = s keeps D(s) = 0 against threshold 0
		x := max(a.d[j]+hs-h, 0)
		a.d[j] = x
		fire = fire || x > a.alpha*row[j]
		lo = min(lo, h)
	}
	if !fire {
		return s, nil
	}
	ns := -1
	for i := 1; i < k && ns < 0; i++ {
		if j := cyc(s+i, k); hold[j]-lo <= a.alpha*row[j] {
			ns = j
		}
	}
	if ns < 0 { // unreachable: the cheapest server is admissible and is not s
		ns = cyc(s+1, k)
	}
	// Restart with the slot included, each deficit capped at its new
	// threshold α·d(ns, j) (spec §14.3; never binding on a uniform
	// metric, where admissibility keeps it below αC).
	hn, rn := hold[ns], a.m.d[ns*k:(ns+1)*k]
	for j, h := range hold {
		a.d[j] = min(max(0, hn-h), a.alpha*rn[j])
	}
	a.d[ns] = 0
	a.s = ns
	a.moves++
	return ns, nil
}

// MetricNeverMigrate is NeverMigrate for a Metric (spec §14.5): the
// first slot takes the minimiser of a(s) + h_1(s) (argmin h_1 when
// every first placement costs the same) and the session stays there. It
// is not competitive. Its zero value is ready for Reset.
type MetricNeverMigrate struct {
	m    *Metric
	k, s int
}

// Reset implements MetricOnline; it never fails. It panics if m is nil.
func (a *MetricNeverMigrate) Reset(m *Metric) error {
	if m == nil {
		panic("competitive: MetricNeverMigrate.Reset: nil metric")
	}
	a.m, a.k, a.s = m, m.k, NoServer
	return nil
}

// Step implements MetricOnline.
func (a *MetricNeverMigrate) Step(hold []float64) (int, error) {
	if err := validateStep("MetricNeverMigrate.Step", hold, a.k); err != nil {
		return NoServer, err
	}
	if a.s == NoServer {
		a.s = firstServer(a.m, hold)
	}
	return a.s, nil
}
