package competitive

import (
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// Marking is a randomised algorithm for the uniform metrical task system
// (spec §2.5), the phase-and-counter scheme of Borodin, Linial and Saks:
// a phase keeps for every server the hold cost c(x) it accumulated since
// the phase began, and a server is saturated once c(x) > C. With the
// current slot's costs added (single-slot lookahead, spec §2.2), the
// session stays while its server is unsaturated, and otherwise moves to
// a server drawn uniformly from the unsaturated ones. When all are
// saturated a new phase begins with counters c(x) = h_t(x), and if even
// then every server is saturated it takes the cheapest (lowest id).
//
// Against an oblivious adversary (an input fixed in advance) each phase
// costs OPT at least C, while the algorithm visits each server at most
// once per phase, paying at most C of hold per stay, and makes on
// average at most H_k = 1 + 1/2 + ... + 1/k stays per phase (its server
// is uniform among the unsaturated ones whenever one saturates), so
// E[cost] ≤ 2H_k·OPT. An adaptive adversary (Cruel) sees the draws, and
// against it randomisation does not help.
//
// Each slot costs O(k) and allocates nothing.
type Marking struct {
	// Src is the source of the random choices; Reset (and Validate)
	// refuse a nil one.
	Src rand.Source

	rng  *rand.Rand
	k    int
	c    float64
	cnt  []float64
	free []int
	s    int
}

// Validate returns an error wrapping loadlab.ErrInvalid if Src is nil
// (a required field, docs/conventions.md §2).
func (a *Marking) Validate() error {
	if a.Src == nil {
		return loadlab.Invalid(pkg, "Marking.Src is nil, want a rand.Source")
	}
	return nil
}

// Reset implements Online. It returns an error wrapping
// loadlab.ErrInvalid if Src is nil, k < 1, or C is negative, NaN or
// infinite.
func (a *Marking) Reset(k int, C float64) error {
	if err := a.Validate(); err != nil {
		return err
	}
	if err := validateReset(k, C); err != nil {
		return err
	}
	a.rng = rand.New(a.Src)
	a.k, a.c, a.s = k, C, NoServer
	if cap(a.cnt) < k {
		a.cnt, a.free = make([]float64, k), make([]int, 0, k)
	}
	a.cnt = a.cnt[:k]
	clear(a.cnt)
	return nil
}

// Step implements Online.
func (a *Marking) Step(hold []float64) (int, error) {
	if err := validateStep("Marking.Step", hold, a.k); err != nil {
		return NoServer, err
	}
	for x, h := range hold {
		a.cnt[x] += h
	}
	if a.s != NoServer && a.cnt[a.s] <= a.c {
		return a.s, nil
	}
	return a.draw(hold), nil
}

// draw picks the next server once the current one is saturated.
func (a *Marking) draw(hold []float64) int {
	a.free = a.free[:0]
	for x, c := range a.cnt {
		if c <= a.c {
			a.free = append(a.free, x)
		}
	}
	if len(a.free) == 0 { // new phase, the current slot included
		copy(a.cnt, hold)
		for x, c := range a.cnt {
			if c <= a.c {
				a.free = append(a.free, x)
			}
		}
	}
	if len(a.free) == 0 {
		a.s = argmin(hold)
		return a.s
	}
	a.s = a.free[a.rng.IntN(len(a.free))]
	return a.s
}
