package competitive

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
)

// Policy is a transition policy of DTrack (spec §4.4).
type Policy int

const (
	// RoundRobin scans s+1, s+2, ... (mod k) from the current server s
	// and takes the first admissible server (DTrack-RR).
	RoundRobin Policy = iota
	// Forward takes the cheapest server of the current slot other than
	// the current one, lowest id on ties (DTrack-F).
	Forward
	// Backward scans in cyclic order the servers whose tentative deficit
	// exceeds β·C and takes the first admissible one (DTrack-B).
	Backward
)

func (p Policy) String() string {
	switch p {
	case RoundRobin:
		return "RR"
	case Forward:
		return "F"
	case Backward:
		return "B"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// DTrack is the deficit tracker of spec §4. For each server s' other than
// the current server s it keeps the deficit
//
//	D_t(s') = max(0, D_{t−1}(s') + h_t(s) − h_t(s'))   (spec §4.2)
//
// the largest saving any suffix of the current stay would have had on
// s'. After seeing slot t it computes the tentative deficits D' and
// transitions when max D' > α·C (strict trigger) or, with Reach,
// max D' ≥ α·C and max D' > 0 (spec §4.3). The new server is chosen by
// Policy among the admissible servers, those with a-priori deficit
// h_t(j) − min_i h_t(i) ≤ α·C (spec §4.4), and the deficits restart with
// slot t included: D_t(j) = max(0, h_t(s_new) − h_t(j)). The first
// slot takes the lowest-id minimiser of h_1.
//
// Each slot costs O(k) and allocates nothing. Decisions compare float64
// values exactly; with integer-valued costs every sum is exact, so traces
// are reproducible bit for bit.
type DTrack struct {
	Policy Policy
	// Alpha ≥ 0 scales the transition threshold α·C. The paper uses 1
	// (NewDTrack's default); 0 is valid and moves at any positive deficit.
	Alpha float64
	// Beta, with Beta ≤ Alpha, sets DTrack-B's eligibility threshold
	// β·C; −∞ makes every server eligible (DTrack-B = DTrack-RR).
	// Ignored by the other policies.
	Beta float64
	// Reach selects the non-strict trigger of spec §4.3 (open question
	// 1); the slide example of §4.7 needs it. The default is strict.
	Reach bool

	// The parameters as validated by the last Reset: changing the
	// exported fields takes effect at the next Reset.
	alpha, beta float64
	policy      Policy
	reach       bool

	k     int
	c     float64
	s     int
	d     []float64
	next  []float64 // the buffer the next slot's deficits are computed into
	moves int
}

// NewDTrack returns DTrack with the given policy and the paper's
// parameters α = 1, β = 0, strict trigger.
func NewDTrack(p Policy) *DTrack { return &DTrack{Policy: p, Alpha: 1} }

// Reset implements Online. It returns an error wrapping
// loadlab.ErrInvalid if Alpha is negative, NaN or infinite, if Beta is
// NaN, +∞ or above Alpha, if the policy is unknown, if k < 1, or if C is
// negative, NaN or infinite.
func (d *DTrack) Reset(k int, C float64) error {
	if err := d.Validate(); err != nil {
		return err
	}
	if err := validateReset(k, C); err != nil {
		return err
	}
	d.alpha, d.beta, d.policy, d.reach = d.Alpha, d.Beta, d.Policy, d.Reach
	d.k, d.c, d.s, d.moves = k, C, NoServer, 0
	if cap(d.d) < k || cap(d.next) < k {
		d.d, d.next = make([]float64, k), make([]float64, k)
	}
	d.d, d.next = d.d[:k], d.next[:k]
	clear(d.d)
	return nil
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the
// field and its value, if Alpha is negative, NaN or infinite, if Beta is
// NaN, +∞ or above Alpha, or if the policy is unknown.
func (d *DTrack) Validate() error {
	switch {
	case !finiteNonNeg(d.Alpha):
		return loadlab.Invalid(pkg, "DTrack.Alpha = %v, want finite and ≥ 0", d.Alpha)
	case math.IsNaN(d.Beta) || d.Beta > d.Alpha:
		return loadlab.Invalid(pkg, "DTrack.Beta = %v, want −∞ ≤ Beta ≤ Alpha = %v", d.Beta, d.Alpha)
	case d.Policy < RoundRobin || d.Policy > Backward:
		return loadlab.Invalid(pkg, "DTrack.Policy = %d, want RoundRobin, Forward or Backward", int(d.Policy))
	}
	return nil
}

// Server returns the current server, or NoServer before the first slot.
func (d *DTrack) Server() int { return d.s }

// Deficits returns the deficits D(s') after the last slot (0 for the
// current server). The slice is DTrack's state: do not modify it.
func (d *DTrack) Deficits() []float64 { return d.d }

// Transitions returns the number of moves after the first assignment.
func (d *DTrack) Transitions() int { return d.moves }

// Step implements Online (spec §4.5).
func (d *DTrack) Step(hold []float64) (int, error) {
	if d.s == NoServer || len(hold) != d.k || d.k == 0 {
		if err := validateStep("DTrack.Step", hold, d.k); err != nil {
			return NoServer, err
		}
		return d.step(hold), nil
	}
	// The row is validated by the deficit update, which computes into
	// d.next and so can be dropped (the bit-pattern test of rowMax).
	top, lo, bits := d.tentative(hold)
	if bits >= 0x7ff0000000000000 {
		if err := validateStep("DTrack.Step", hold, d.k); err != nil {
			return NoServer, err
		}
	}
	return d.decide(hold, top, lo), nil
}

// step is Step for a validated row.
func (d *DTrack) step(hold []float64) int {
	if d.s == NoServer { // spec §4.3: initial slot
		d.s = argmin(hold)
		clear(d.d)
		return d.s
	}
	top, lo, _ := d.tentative(hold)
	return d.decide(hold, top, lo)
}

// tentative computes the tentative deficits of spec §4.3 into d.next,
// and returns their maximum, the row minimum and the largest bit pattern
// of the row's values.
func (d *DTrack) tentative(hold []float64) (top, lo float64, bits uint64) {
	hs := hold[d.s]
	dd, next := d.d[:len(hold)], d.next[:len(hold)]
	lo = math.Inf(1)
	for j, h := range hold { // j = s gives 0
		// Branch-free, as in Optimal.Push; the row minimum (for the
		// admissibility test) comes along for free.
		bits = max(bits, math.Float64bits(h))
		x := max(dd[j]+hs-h, 0)
		next[j] = x
		top = max(top, x)
		lo = min(lo, h)
	}
	return top, lo, bits
}

// decide makes the tentative deficits the current ones and applies the
// trigger of spec §4.3, moving by the policy if it fires.
func (d *DTrack) decide(hold []float64, top, lo float64) int {
	d.d, d.next = d.next, d.d
	thr := d.alpha * d.c
	if !(top > thr || d.reach && top >= thr && top > 0) {
		return d.s
	}
	ns := d.choose(hold, thr, top, lo)
	d.restart(hold, ns)
	return ns
}

// restart moves to server ns in the slot with costs hold and restarts
// the deficits with that slot included (spec §4.3).
func (d *DTrack) restart(hold []float64, ns int) {
	hn := hold[ns]
	for j, h := range hold {
		d.d[j] = max(0, hn-h)
	}
	d.d[ns] = 0
	d.s = ns
	d.moves++
}

// track updates the deficits for a slot in which an outside controller
// (Lookahead) put the session on server s, without deciding anything.
func (d *DTrack) track(hold []float64, s int) {
	switch {
	case d.s == NoServer:
		d.s = s
		for j, h := range hold {
			d.d[j] = max(0, hold[s]-h)
		}
		d.d[s] = 0
	case s != d.s:
		d.restart(hold, s)
	default:
		hs := hold[s]
		for j, h := range hold {
			d.d[j] = max(0, d.d[j]+hs-h)
		}
	}
}

// choose applies the transition policy in a triggered slot (spec §4.4).
// d.d holds the tentative deficits, top their maximum, lo = min h_t.
func (d *DTrack) choose(hold []float64, thr, top, lo float64) int {
	s, k := d.s, len(hold)
	admissible := func(j int) bool { return hold[j]-lo <= thr }
	switch d.policy {
	case Forward:
		j := -1
		for i, h := range hold {
			if i != s && (j < 0 || h < hold[j]) {
				j = i
			}
		}
		return j
	case Backward:
		betaC := math.Inf(-1)
		if !math.IsInf(d.beta, -1) {
			betaC = d.beta * d.c
		}
		eligible := false
		for i := 1; i < k; i++ {
			j := cyc(s+i, k)
			if d.d[j] > betaC {
				eligible = true
				if admissible(j) {
					return j
				}
			}
		}
		if !eligible { // spec §4.4 fallback: E = leaders
			for i := 1; i < k; i++ {
				if j := cyc(s+i, k); d.d[j] == top && admissible(j) {
					return j
				}
			}
		}
	}
	for i := 1; i < k; i++ { // DTrack-RR, and DTrack-B's last fallback
		if j := cyc(s+i, k); admissible(j) {
			return j
		}
	}
	// Unreachable for k ≥ 2 (spec §4.4: an admissible server other than
	// s exists at every trigger); kept so that rounding cannot return s.
	j := cyc(s+1, k)
	for i := 1; i < k; i++ {
		if c := cyc(s+i, k); hold[c] < hold[j] {
			j = c
		}
	}
	return j
}

func cyc(j, k int) int {
	if j >= k {
		j -= k
	}
	return j
}
