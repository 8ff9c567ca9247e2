package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/size"
)

// Rule is how a centralized throttler splits the total limit among the
// servers from their demands (spec deployed §3.1). Every rule reads a
// negative demand as none (r_i⁺ = max{r_i, 0}) and gives limits that sum
// to l_total.
type Rule int

const (
	// Proportional gives x_i = l_total r_i⁺/Σ_j r_j⁺ (the equal split when
	// no server has demand). With d = 0 and r ≥ 0 it attains the ideal
	// a_total = a_ideal every cycle.
	Proportional Rule = iota
	// Equal gives x_i = l_total/n whatever the demand.
	Equal
	// MaxMinFair water-fills the demands (WaterFill): x_i = min{r_i⁺, t}
	// with Σ_i min{r_i⁺, t} = l_total; when the demand fits, every
	// server gets r_i⁺ plus an equal share of the spare limit.
	MaxMinFair
	// ProportionalFloor gives x_i = f l_total/n + (1 − f) l_total r_i⁺/Σ r⁺,
	// f = Central.Floor: every server keeps at least the fraction f of
	// the equal share.
	ProportionalFloor
)

// String returns the rule's name.
func (r Rule) String() string {
	switch r {
	case Proportional:
		return "proportional"
	case Equal:
		return "equal"
	case MaxMinFair:
		return "max-min-fair"
	case ProportionalFloor:
		return "proportional-floor"
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// Central is a centralized system throttler (CST, spec deployed §3):
// every cycle a coordinator collects every server's demand r_i(k) and
// sets all the limits by its Rule; its decision takes effect Delay
// cycles later, so the limits in force at cycle k are computed from
// r(k − d). The zero value is the proportional rule without delay.
type Central struct {
	// Rule is the split rule; the zero value is Proportional.
	Rule Rule
	// Delay is d ≥ 0, the cycles between a demand report and the limits
	// computed from it.
	Delay int
	// Floor is the fraction f ∈ [0, 1] of ProportionalFloor; it must be
	// zero for the other rules.
	Floor float64
}

// Validate checks c: a known Rule, Delay ≥ 0, and Floor in [0, 1] for
// ProportionalFloor and zero otherwise. The errors wrap
// loadlab.ErrInvalid and name the field. It panics if c is nil.
func (c *Central) Validate() error {
	if c == nil {
		panic("consensus: Central is nil")
	}
	if c.Rule < Proportional || c.Rule > ProportionalFloor {
		return loadlab.Invalid("consensus", "Central.Rule = %d: unknown", int(c.Rule))
	}
	if c.Delay < 0 {
		return loadlab.Invalid("consensus", "Central.Delay = %d, want ≥ 0", c.Delay)
	}
	if c.Rule == ProportionalFloor {
		if !(c.Floor >= 0 && c.Floor <= 1) {
			return loadlab.Invalid("consensus", "Central.Floor = %v, want in [0, 1]", c.Floor)
		}
	} else if c.Floor != 0 {
		return loadlab.Invalid("consensus", "Central.Floor = %v with Rule = %v: a floor belongs to ProportionalFloor", c.Floor, c.Rule)
	}
	return nil
}

// Limits writes into dst (allocated if nil) the limits c's rule sets for
// demand r and total limit ltotal (spec deployed §3.1), and returns
// dst. The limits sum to ltotal up to the rounding of that sum: the
// rounding residual of the rule is put back on the largest limit. It
// returns an error for an invalid c, an empty r, a NaN or infinite
// r_i, and an ltotal that is negative or not finite; it panics if c is
// nil or dst is non-nil with a length other than len(r).
func (c *Central) Limits(dst, r []float64, ltotal float64) ([]float64, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if len(r) == 0 {
		return nil, loadlab.Invalid("consensus", "Central.Limits: no demand values")
	}
	if err := validateLTotal(ltotal); err != nil {
		return nil, err
	}
	if err := finiteDemand(r); err != nil {
		return nil, err
	}
	dst = allocDst(dst, len(r), "Central.Limits")
	c.limits(dst, r, ltotal)
	return dst, nil
}

// validateLTotal checks a total limit: finite and ≥ 0.
func validateLTotal(ltotal float64) error {
	if !(ltotal >= 0) || math.IsInf(ltotal, 1) {
		return loadlab.Invalid("consensus", "l_total = %v, want finite and ≥ 0", ltotal)
	}
	return nil
}

// finiteDemand returns an error naming the first NaN or infinite r_i.
func finiteDemand(r []float64) error {
	for i, ri := range r {
		if math.IsNaN(ri) || math.IsInf(ri, 0) {
			return loadlab.Invalid("consensus", "demand r[%d] = %v: want finite", i, ri)
		}
	}
	return nil
}

// limits is Limits after its checks: r finite, ltotal finite and ≥ 0.
func (c *Central) limits(dst, r []float64, ltotal float64) {
	n := float64(len(r))
	// Shares r_i⁺/m of the largest demand m, so that Σ r⁺/m ∈ [1, n]
	// cannot overflow when Σ r⁺ itself would.
	var m float64
	for _, ri := range r {
		m = max(m, ri)
	}
	var pos dense.CompensatedSum
	for i, ri := range r {
		dst[i] = 0
		if ri > 0 {
			dst[i] = ri / m
			pos.Add(dst[i])
		}
	}
	rpos := pos.Value() // Σ r⁺/m, or 0 without demand
	switch {
	case c.Rule == Equal || rpos == 0:
		for i := range dst {
			dst[i] = ltotal / n // spec deployed §3.1 (equal)
		}
	case c.Rule == Proportional || c.Rule == ProportionalFloor:
		f := c.Floor // 0 for Proportional
		share, base := (1-f)*ltotal/rpos, f*ltotal/n
		for i, s := range dst {
			dst[i] = base + s*share // spec deployed §3.1 (proportional, floor)
		}
	default: // MaxMinFair
		waterFillCentral(dst, r, ltotal, rpos*m)
	}
	conserve(dst, ltotal)
}

// waterFillCentral writes the max–min fair limits of MaxMinFair (spec
// deployed §3.1) into dst for demand r, total limit ltotal and positive
// demand total rpos (+Inf when it overflows).
func waterFillCentral(dst, r []float64, ltotal, rpos float64) {
	if rpos <= ltotal {
		spare := (ltotal - rpos) / float64(len(r))
		for i, ri := range r {
			dst[i] = max(ri, 0) + spare
		}
		return
	}
	req := make([]float64, len(r))
	for i, ri := range r {
		req[i] = max(ri, 0)
	}
	// The demands are finite and non-negative and ltotal is finite and
	// non-negative: WaterFill cannot fail (an overflowing Σ r⁺ only
	// makes it take the water-filling branch).
	if _, _, err := WaterFill(dst, req, ltotal); err != nil {
		panic(fmt.Sprintf("consensus: Central: water-filling failed: %v", err))
	}
}

// conserve puts the rounding residual l_total − Σ x (a compensated sum)
// on the largest limit, so that the limits sum to l_total up to about
// one rounding of the sum (spec deployed §3.2).
func conserve(x []float64, ltotal float64) {
	var s dense.CompensatedSum
	big := 0
	for i, xi := range x {
		s.Add(xi)
		if xi > x[big] {
			big = i
		}
	}
	x[big] += ltotal - s.Value()
}

// SimulateCentral runs the centralized throttler c for steps cycles
// under demand d from the limits x0 (spec deployed §3.2): at cycle k it
// draws r(k); the limits in force are x0 for k < d and otherwise those
// the rule computed from r(k − d) with l_total = Σ x0. It records in a
// Trajectory the same metrics as Simulate, with the measure of Amount
// (p = r − x, Starved): the totals, a_ideal, the over-throttling and
// the dispersion, and with Settings.States the vectors. Final holds the
// last decision, computed from r(steps − 1), which takes effect at cycle
// steps − 1 + d (x0 when steps = 0); LambdaMax is zero. The result does
// not depend on Settings.Workers: the work, O(n) per cycle (O(n log n)
// for MaxMinFair) and n(d + 1) numbers of memory, runs on the caller's
// goroutine.
//
// It returns an error for an invalid c, an empty or non-finite x0, a
// negative l_total, steps < 0, invalid settings, or d and steps whose
// memory exceeds the budget (ErrTooLarge); a failure at cycle k (a
// demand error, a NaN or infinite r_i, an overflowing r_total) returns
// the trajectory up to cycle k with the error. It panics if c or d is
// nil.
func SimulateCentral(c *Central, d Demand, x0 []float64, steps int, s *Settings) (*Trajectory, error) {
	ltotal, err := validateCentralRun(c, d, x0, steps, s)
	if err != nil {
		return nil, err
	}
	return c.run(d, x0, ltotal, steps, s != nil && s.States, nil)
}

// run is the loop of SimulateCentral (see there) after its checks, with
// l_total = Σ x0; visit, if not nil, sees the demand and the limits in
// force of every cycle after its totals are recorded.
func (c *Central) run(d Demand, x0 []float64, ltotal float64, steps int, states bool, visit func(r, x []float64)) (*Trajectory, error) {
	n := len(x0)
	tr := newTrajectory(steps)
	// ring[k mod (d+1)] holds the decision computed from r(k), in force
	// at cycle k + d.
	ring := make([][]float64, c.Delay+1)
	for j := range ring {
		ring[j] = make([]float64, n)
	}
	r := make([]float64, n)
	p := make([]float64, n)
	zero := &Throttler{} // Amount, Starved: the recorded measure
	for k := 0; k < steps; k++ {
		if err := d.Next(k, r); err != nil {
			return tr, fmt.Errorf("consensus: step %d: %w", k, err)
		}
		cur := ring[k%len(ring)]
		if err := finiteDemand(r); err != nil {
			return tr, fmt.Errorf("consensus: step %d: %w", k, err)
		}
		c.limits(cur, r, ltotal) // the decision from r(k)
		x := x0
		if k >= c.Delay {
			x = ring[(k-c.Delay)%len(ring)]
		}
		for i, ri := range r {
			p[i] = ri - x[i] // Table I row I
		}
		rt, lt, at, psum := sumTotals(r, x, p)
		if err := tr.record(r, p, rt, lt, at, psum); err != nil {
			return tr, fmt.Errorf("consensus: step %d: %w", k, err)
		}
		if states {
			tr.keep(zero, r, x, p)
		}
		if visit != nil {
			visit(r, x)
		}
		tr.Steps++
	}
	tr.Final = append([]float64(nil), x0...)
	if steps > 0 {
		copy(tr.Final, ring[(steps-1)%len(ring)])
	}
	return tr, nil
}

// validateCentralRun validates the arguments of SimulateCentral (see
// there) and returns l_total = Σ x0.
func validateCentralRun(c *Central, d Demand, x0 []float64, steps int, s *Settings) (float64, error) {
	if err := c.Validate(); err != nil {
		return 0, err
	}
	if d == nil {
		panic("consensus: SimulateCentral: demand d is nil")
	}
	if len(x0) == 0 {
		return 0, loadlab.Invalid("consensus", "SimulateCentral: len(x0) = 0, want the servers' limits")
	}
	var lt dense.CompensatedSum
	for i, x := range x0 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, loadlab.Invalid("consensus", "SimulateCentral: x0[%d] = %v, want finite", i, x)
		}
		lt.Add(x)
	}
	ltotal := lt.Value()
	if !(ltotal >= 0) || math.IsInf(ltotal, 1) {
		return 0, loadlab.Invalid("consensus", "SimulateCentral: l_total = Σ x0 = %v, want finite and ≥ 0", ltotal)
	}
	if steps < 0 {
		return 0, loadlab.Invalid("consensus", "SimulateCentral: steps = %d, want ≥ 0", steps)
	}
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if err := c.validateRecord(len(x0)); err != nil {
		return 0, err
	}
	return ltotal, validateTrajectorySize(len(x0), steps, s != nil && s.States)
}

// validateRecord refuses, before anything is allocated, a delay whose
// record of d + 1 decisions of n limits exceeds the memory budget.
func (c *Central) validateRecord(n int) error {
	if c.Delay == math.MaxInt {
		return loadlab.TooLarge("consensus", "Central.Delay = %d overflows the decision record", c.Delay)
	}
	per, ok := size.Product(n, 8)
	if !ok {
		return loadlab.TooLarge("consensus", "Central: %d servers overflow the decision record", n)
	}
	return size.Check("consensus", "Central.Delay + 1 decisions", c.Delay+1, per)
}
