package stability

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/anycast/beacon"
	"github.com/loadlab/loadlab/dual"
	"github.com/loadlab/loadlab/internal/mc"
)

// RobustSettings tunes the studies of a decision taken on a wrong C
// (Robustness). A nil *RobustSettings or a zero field means the default
// stated on the field; a field outside its domain is an error wrapping
// loadlab.ErrInvalid naming it.
type RobustSettings struct {
	// W and Penalty are the costs of P1, those of dual.Quadratic:
	// f_i = (W/2) A_i (1 − x_i)² and h_i = (Penalty/2) (S_i − T_i)₊²
	// (defaults 1 and 1000, as in CompareSettings).
	W, Penalty float64
	// Runs is the number of beacon campaigns per budget in BeaconStudy
	// (default 20; at least 2, for an interval).
	Runs int
	// Dual is passed to dual.Solve for every optimum (nil: its defaults,
	// a certified relative gap of 10⁻⁶).
	Dual *dual.Settings
	// Beacons holds the settings of beacon.EstimateC (nil: defaults).
	Beacons *beacon.Settings
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field, for a negative, NaN or infinite W or Penalty, Runs = 1 or < 0,
// and the errors of the nested settings. A nil *RobustSettings is valid.
func (s *RobustSettings) Validate() error {
	if s == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"W", s.W}, {"Penalty", s.Penalty}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return loadlab.Invalid("stability", "RobustSettings.%s = %v, want a finite value > 0 (0 for the default)", f.name, f.v)
		}
	}
	if s.Runs < 0 || s.Runs == 1 {
		return loadlab.Invalid("stability", "RobustSettings.Runs = %d, want ≥ 2 (0 for the default 20)", s.Runs)
	}
	if err := s.Dual.Validate(); err != nil {
		return err
	}
	return s.Beacons.Validate()
}

// Robustness holds a true network and its optimum, against which
// decisions taken on a wrong C are scored (spec §15.5). Build it with
// NewRobustness; the fields are for reading, and every method validates
// Net again (a changed network is an error, not a wrong score).
type Robustness struct {
	Net    *anycast.Network // the truth: A, T and the true C (sparse)
	Opt    *dual.Result     // the optimum of P1 on the true C
	Excess float64          // Σ_i (S_i − T_i)₊ of the optimum on the true C
	set    RobustSettings
}

// Decision is one decision taken on a wrong C and applied to the true one.
type Decision struct {
	X []float64 // the decision: the optimal x of P1 on the wrong C
	// Loss is the loss of optimality on the true C, P(X) − Best with Best
	// ≤ P* the optimum's certified lower bound (so Loss ≥ 0; it exceeds
	// the true loss by at most the optimum's certified gap).
	Loss float64
	// Excess is the overload Σ_i (S_i(X) − T_i)₊ on the true C.
	Excess float64
	// Robust says whether A ∈ Π_C for every C of the wrong C's confidence
	// set (RobustSlack; beacon decisions only), and Covered whether that
	// set holds the true C.
	Robust, Covered bool
}

// NewRobustness solves P1 on the true network nw (dual.Quadratic with
// W and Penalty, dual.Solve with Settings.Dual). It returns the errors
// of Validate, of nw and of the solver, and panics if nw is nil.
func NewRobustness(nw *anycast.Network, s *RobustSettings) (*Robustness, error) {
	if err := validNetwork("NewRobustness", nw); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var set RobustSettings
	if s != nil {
		set = *s
	}
	set.W = cmpZero(set.W, 1)
	set.Penalty = cmpZero(set.Penalty, 1000)
	if set.Runs == 0 {
		set.Runs = 20
	}
	sp, err := nw.AsSparse()
	if err != nil {
		return nil, err
	}
	r := &Robustness{Net: sp, set: set}
	if r.Opt, err = r.solve(sp.Sparse); err != nil {
		return nil, err
	}
	r.Excess = excess(sp, r.Opt.X)
	return r, nil
}

// cmpZero returns v, or d when v is zero.
func cmpZero(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

// solve returns the optimum of P1 on the truth's A and T with C = c.
func (r *Robustness) solve(c *anycast.SparseC) (*dual.Result, error) {
	nw, err := anycast.NewNetwork(r.Net.A, c, r.Net.T)
	if err != nil {
		return nil, err
	}
	p, err := dual.Quadratic(nw, r.set.W, r.set.Penalty)
	if err != nil {
		return nil, err
	}
	return dual.Solve(p, r.set.Dual)
}

// check validates the truth before a method uses it: Net valid with a
// sparse C (as NewRobustness stores it) and Opt of its size.
func (r *Robustness) check(fn string) error {
	if r.Net == nil || r.Net.Sparse == nil || r.Opt == nil {
		return loadlab.Invalid("stability", "Robustness.%s: Net (with a sparse C) and Opt must be set, as NewRobustness does", fn)
	}
	if err := r.Net.Validate(); err != nil {
		return err
	}
	if len(r.Opt.X) != r.Net.N() {
		return loadlab.Invalid("stability", "Robustness.%s: len(Opt.X) = %d, want N = %d", fn, len(r.Opt.X), r.Net.N())
	}
	return nil
}

// excess returns Σ_i (S_i(x) − T_i)₊ on nw.
func excess(nw *anycast.Network, x []float64) float64 {
	var e float64
	for i, s := range nw.Loads(nil, x) {
		e += math.Max(0, s-nw.T[i])
	}
	return e
}

// Decide returns the outcome of the optimal decision for C = c applied
// to the true network (spec §15.5): c is Ĉ from beacons, or a stale C.
// Robust and Covered are false. It returns an error wrapping
// loadlab.ErrInvalid if c is not N × N, and the solver's errors. It
// panics if c is nil.
func (r *Robustness) Decide(c *anycast.SparseC) (*Decision, error) {
	if c == nil {
		panic("stability: Robustness.Decide: c is nil")
	}
	if err := r.check("Decide"); err != nil {
		return nil, err
	}
	if n, _ := c.Dims(); n != r.Net.N() {
		return nil, loadlab.Invalid("stability", "Robustness.Decide: C is %d × %d, want N = %d", n, n, r.Net.N())
	}
	res, err := r.solve(c)
	if err != nil {
		return nil, err
	}
	p, err := dual.Quadratic(r.Net, r.set.W, r.set.Penalty)
	if err != nil {
		return nil, err
	}
	v, err := p.Reduced(res.X)
	if err != nil {
		return nil, err
	}
	return &Decision{X: res.X, Loss: math.Max(0, v-r.Opt.Best), Excess: excess(r.Net, res.X)}, nil
}

// Beacon is one run of BeaconStudy: a campaign of beacons per region on
// the true C drawn from src (beacon.Draw), Ĉ and its set estimated
// (beacon.EstimateC), the optimum on Ĉ applied to the true C (Decide),
// with the robust Π_C verdict on the set and whether the set covers the
// true C. It returns an error wrapping loadlab.ErrInvalid for beacons <
// 1, and the errors of the steps. It panics if src is nil.
func (r *Robustness) Beacon(beacons int64, src rand.Source) (*Decision, error) {
	if src == nil {
		panic("stability: Robustness.Beacon: src is nil")
	}
	if beacons < 1 {
		return nil, loadlab.Invalid("stability", "Robustness.Beacon: beacons = %d, want ≥ 1 per region", beacons)
	}
	if err := r.check("Beacon"); err != nil {
		return nil, err
	}
	b := make([]int64, r.Net.N())
	for j := range b {
		b[j] = beacons
	}
	cnt, err := beacon.Draw(r.Net.Sparse, b, src)
	if err != nil {
		return nil, err
	}
	h, err := beacon.EstimateC(cnt, r.set.Beacons)
	if err != nil {
		return nil, err
	}
	chat, err := h.Matrix()
	if err != nil {
		return nil, err
	}
	out, err := r.Decide(chat)
	if err != nil {
		return nil, err
	}
	if out.Robust, err = InRobustPolytope(r.Net, h.Set); err != nil {
		return nil, err
	}
	out.Covered = h.Set.Contains(r.Net.Sparse, 0)
	return out, nil
}

// BeaconPoint is BeaconStudy's summary at one beacon budget: the loss
// of optimality and the overload on the true C of the decision taken on
// Ĉ, with 95 % intervals over the campaigns, the share of campaigns
// whose robust Π_C check passed and whose set covered the true C.
type BeaconPoint struct {
	Beacons         int64
	Loss, Excess    loadlab.Estimate
	Robust, Covered float64
}

// BeaconStudy runs Settings.Runs campaigns at each budget (beacons per
// region): run r of budget k is Beacon on loadlab.Stream(seed, k, r), the
// runs split over the cores with results independent of their number
// (spec §15.5). It returns an error wrapping loadlab.ErrInvalid for a
// budget < 1 or no budgets, and the first error of a run.
func (r *Robustness) BeaconStudy(budgets []int64, seed uint64) ([]BeaconPoint, error) {
	if len(budgets) == 0 {
		return nil, loadlab.Invalid("stability", "BeaconStudy: no budgets")
	}
	if err := r.check("BeaconStudy"); err != nil {
		return nil, err
	}
	for k, b := range budgets {
		if b < 1 {
			return nil, loadlab.Invalid("stability", "BeaconStudy: budgets[%d] = %d, want ≥ 1 beacon per region", k, b)
		}
	}
	runs := r.set.Runs
	outs := make([]*Decision, len(budgets)*runs)
	errs := make([]error, len(outs))
	mc.For(len(outs), 0, func(q int) {
		k, run := q/runs, q%runs
		outs[q], errs[q] = r.Beacon(budgets[k], loadlab.Stream(seed, uint64(k), uint64(run)))
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	pts := make([]BeaconPoint, len(budgets))
	for k, b := range budgets {
		loss, exc := make([]float64, runs), make([]float64, runs)
		pt := BeaconPoint{Beacons: b}
		var robust, covered int
		for run, o := range outs[k*runs : (k+1)*runs] {
			loss[run], exc[run] = o.Loss, o.Excess
			robust += b2i(o.Robust)
			covered += b2i(o.Covered)
		}
		pt.Robust, pt.Covered = float64(robust)/float64(runs), float64(covered)/float64(runs)
		pt.Loss, pt.Excess = mc.Estimate(loss), mc.Estimate(exc)
		pts[k] = pt
	}
	return pts, nil
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// DriftPoint is DriftStudy's outcome after Days days: the decision
// optimal on the stale C₀ applied to the drifted C_d, and the smallest
// Π_C slack on the stale and on the drifted matrix (a stale verdict
// "A ∈ Π_C" is wrong when Slack0 ≥ 0 > Slack).
type DriftPoint struct {
	Days          int
	Loss, Excess  float64
	Slack0, Slack float64
}

// DriftStudy scores a stale C under the drift model of spec §15.5: the
// truth's C is C₀ at day 0 and C_d = (1 − ε)^d C₀ + (1 − (1 − ε)^d) C′
// (beacon.Drift) at day d; the decision is the optimum on C₀ and the
// truth at day d is the network with C_d, whose own optimum is the
// reference. It returns the errors of beacon.Drift (ε outside [0, 1],
// negative days, sizes), one wrapping loadlab.ErrInvalid for no days,
// and the solver's. It panics if c1 is nil.
func (r *Robustness) DriftStudy(c1 *anycast.SparseC, eps float64, days []int) ([]DriftPoint, error) {
	if c1 == nil {
		panic("stability: Robustness.DriftStudy: c1 is nil")
	}
	if len(days) == 0 {
		return nil, loadlab.Invalid("stability", "DriftStudy: no days")
	}
	if err := r.check("DriftStudy"); err != nil {
		return nil, err
	}
	s0, err := PolytopeSlack(r.Net)
	if err != nil {
		return nil, err
	}
	pts := make([]DriftPoint, len(days))
	for k, d := range days {
		cd, err := beacon.Drift(r.Net.Sparse, c1, eps, d)
		if err != nil {
			return nil, err
		}
		nd, err := anycast.NewNetwork(r.Net.A, cd, r.Net.T)
		if err != nil {
			return nil, err
		}
		truth, err := NewRobustness(nd, &r.set)
		if err != nil {
			return nil, err
		}
		out, err := truth.Decide(r.Net.Sparse)
		if err != nil {
			return nil, err
		}
		sd, err := PolytopeSlack(nd)
		if err != nil {
			return nil, err
		}
		pts[k] = DriftPoint{Days: d, Loss: out.Loss, Excess: out.Excess, Slack0: minOf(s0), Slack: minOf(sd)}
	}
	return pts, nil
}

// minOf returns the smallest entry of v.
func minOf(v []float64) float64 {
	m := math.Inf(1)
	for _, x := range v {
		m = math.Min(m, x)
	}
	return m
}
