package competitive

import (
	"fmt"
	"math"
)

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

	k     int
	c, h  float64
	s     int
	moves int
}

// NewCTrack returns CTrack with α = 1 and the skip rule.
func NewCTrack() *CTrack { return &CTrack{Alpha: 1} }

// Reset implements Online. It returns an error if Alpha is negative, NaN
// or infinite, k < 1, or C is negative, NaN or infinite.
func (c *CTrack) Reset(k int, C float64) error {
	if !(c.Alpha >= 0) || math.IsInf(c.Alpha, 1) {
		return fmt.Errorf("competitive: CTrack Alpha = %v: want finite and ≥ 0", c.Alpha)
	}
	if err := checkReset(k, C); err != nil {
		return err
	}
	c.k, c.c, c.s, c.h, c.moves = k, C, NoServer, 0, 0
	return nil
}

// Transitions returns the number of moves after the first assignment.
func (c *CTrack) Transitions() int { return c.moves }

// Step implements Online (spec §5). It panics if len(hold) ≠ k.
func (c *CTrack) Step(hold []float64) int {
	if len(hold) != c.k {
		panic(fmt.Sprintf("competitive: CTrack.Step with %d costs for k = %d", len(hold), c.k))
	}
	if c.s == NoServer {
		c.s = argmin(hold)
		c.h = hold[c.s]
		return c.s
	}
	thr := c.Alpha * c.c
	if c.h+hold[c.s] <= thr || c.k == 1 { // spec §5 lookahead test
		c.h += hold[c.s]
		return c.s
	}
	ns := cyc(c.s+1, c.k)
	if !c.Cyclic {
		ns = -1
		for i := 1; i < c.k; i++ {
			if j := cyc(c.s+i, c.k); hold[j] <= thr {
				ns = j
				break
			}
		}
		if ns < 0 {
			ns = argmin(hold)
		}
	}
	if ns != c.s {
		c.moves++
	}
	c.s, c.h = ns, hold[ns]
	return ns
}
