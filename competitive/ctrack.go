package competitive

import "github.com/loadlab/loadlab"

// CTrack is the cost tracker of spec §5. It keeps only the hold cost H
// accumulated on the current server since arrival (the arrival slot
// included) and moves when H + h_t(s) > α·C, to the next server in
// cyclic order. By default that scan skips servers with h_t(j) > α·C
// (the analogue of DTrack-RR's admissibility) and falls back to the
// cheapest server if none qualifies; Cyclic turns the skip off.
//
// A slot in which the session stays costs O(1); a transition costs one
// step per skipped server (O(k) for the fallback), and the first slot
// O(k) for its argmin.
type CTrack struct {
	// Alpha ≥ 0 scales the threshold α·C; the paper uses 1
	// (NewCTrack's default).
	Alpha float64
	// Cyclic moves to s+1 (mod k) without skipping ("pure cyclic"
	// variant of spec §5).
	Cyclic bool

	alpha  float64 // Alpha and Cyclic as validated by the last Reset
	cyclic bool

	k     int
	c, h  float64
	s     int
	moves int
}

// NewCTrack returns CTrack with α = 1 and the skip rule.
func NewCTrack() *CTrack { return &CTrack{Alpha: 1} }

// Reset implements Online. It returns an error wrapping
// loadlab.ErrInvalid if Alpha is negative, NaN or infinite, k < 1, or C
// is negative, NaN or infinite.
func (c *CTrack) Reset(k int, C float64) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := validateReset(k, C); err != nil {
		return err
	}
	c.alpha, c.cyclic = c.Alpha, c.Cyclic
	c.k, c.c, c.s, c.h, c.moves = k, C, NoServer, 0, 0
	return nil
}

// Validate returns an error wrapping loadlab.ErrInvalid if Alpha is
// negative, NaN or infinite.
func (c *CTrack) Validate() error {
	if !finiteNonNeg(c.Alpha) {
		return loadlab.Invalid(pkg, "CTrack.Alpha = %v, want finite and ≥ 0", c.Alpha)
	}
	return nil
}

// Transitions returns the number of moves after the first assignment.
func (c *CTrack) Transitions() int { return c.moves }

// Step implements Online (spec §5). So that a stay slot stays O(1),
// CTrack validates only the hold costs it reads: the current server's in
// a stay slot, the servers it scans in a move, and the whole row in the
// first slot and in the cheapest-server fallback. A bad value it does
// not read cannot change its choice; one it reads is an error, and the
// state is then unchanged.
func (c *CTrack) Step(hold []float64) (int, error) {
	if c.k == 0 {
		panic("competitive: CTrack.Step before Reset")
	}
	if len(hold) != c.k {
		return NoServer, loadlab.Invalid(pkg, "CTrack.Step: len(hold) = %d, want k = %d", len(hold), c.k)
	}
	if c.s == NoServer {
		if err := validateStep("CTrack.Step", hold, c.k); err != nil {
			return NoServer, err
		}
		c.s = argmin(hold)
		c.h = hold[c.s]
		return c.s, nil
	}
	if err := validateAt(hold, c.s); err != nil {
		return NoServer, err
	}
	thr := c.alpha * c.c
	if c.h+hold[c.s] <= thr || c.k == 1 { // spec §5 lookahead test
		c.h += hold[c.s]
		return c.s, nil
	}
	return c.move(hold, thr)
}

// validateAt returns an error unless hold[j] is finite and ≥ 0.
func validateAt(hold []float64, j int) error {
	if !finiteNonNeg(hold[j]) {
		return loadlab.Invalid(pkg, "CTrack.Step: hold[%d] = %v, want finite and ≥ 0", j, hold[j])
	}
	return nil
}

// move picks the next server in a triggered slot (spec §5).
func (c *CTrack) move(hold []float64, thr float64) (int, error) {
	ns := cyc(c.s+1, c.k)
	if !c.cyclic {
		ns = -1
		for i := 1; i < c.k; i++ {
			j := cyc(c.s+i, c.k)
			if err := validateAt(hold, j); err != nil {
				return NoServer, err
			}
			if hold[j] <= thr {
				ns = j
				break
			}
		}
		if ns < 0 {
			ns = argmin(hold) // every value was validated by the scan
		}
	}
	if err := validateAt(hold, ns); err != nil {
		return NoServer, err
	}
	if ns != c.s {
		c.moves++
	}
	c.s, c.h = ns, hold[ns]
	return ns, nil
}
