package consensus

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// holdout guards the sketched designs against fitting their sketch
// (spec §13.12, "Held-out sketch"): every accepted iterate is scored
// again on an independent sketch, the iterate with the least held-out
// score is the one returned, and the optimisation stops after patience
// accepted steps without a held-out improvement.
type holdout struct {
	// score evaluates the held-out sketch at w; ok is false when w is
	// not admissible (disconnected or unstable).
	score    func(w []float64) (f float64, ok bool, err error)
	best     float64   // least held-out score so far
	bestF    float64   // the training objective at that iterate
	w        []float64 // that iterate
	moved    bool      // the last observed iterate is not the best
	stale    int       // accepted steps since the best
	patience int
}

// newHoldout returns a guard with the given scorer and patience.
func newHoldout(score func(w []float64) (float64, bool, error), patience, m int) *holdout {
	return &holdout{score: score, best: math.Inf(1), w: make([]float64, m), patience: patience}
}

// observe scores the iterate w whose training objective is f and
// reports whether the optimisation should stop.
func (h *holdout) observe(w []float64, f float64) (stop bool, err error) {
	v, ok, err := h.score(w)
	if err != nil {
		return true, err
	}
	if ok && v < h.best {
		h.best, h.bestF, h.moved, h.stale = v, f, false, 0
		copy(h.w, w)
		return false, nil
	}
	h.moved = true
	h.stale++
	return h.stale >= h.patience, nil
}

// restore writes the best iterate into w and returns its training
// objective (f when w is already the best).
func (h *holdout) restore(w []float64, f float64) float64 {
	if !h.moved {
		return f
	}
	copy(w, h.w)
	return h.bestF
}

// heldOutSeed derives the held-out sketch's seed from the design's.
func heldOutSeed(seed uint64) uint64 {
	return rand.New(loadlab.Stream(seed, 6)).Uint64()
}

// solveCounter is a trace oracle that also counts the held-out
// oracle's solves.
type solveCounter struct {
	traceOracle
	held traceOracle
}

func (c solveCounter) solves() int { return c.traceOracle.solves() + c.held.solves() }

// rho2Counter is a ρ₂ oracle that also counts the held-out oracle's
// solves.
type rho2Counter struct {
	rho2Oracle
	held rho2Oracle
}

func (c rho2Counter) solves() int { return c.rho2Oracle.solves() + c.held.solves() }
func (c rho2Counter) shiftedSolves() int {
	return c.rho2Oracle.shiftedSolves() + c.held.shiftedSolves()
}
