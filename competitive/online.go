package competitive

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
)

// Online is a deterministic or randomised online algorithm with the
// information pattern of spec §2.2: it picks the server for slot t after
// seeing the hold costs of slots 1..t and nothing later. Because the
// costs arrive one slot at a time, an adaptive adversary can build the
// next slot from the algorithm's previous choices (Cruel).
type Online interface {
	// Reset prepares the algorithm for a new input with k servers and
	// setup cost C, forgetting all state. It returns an error if the
	// algorithm's parameters are invalid, k < 1, or C is negative, NaN
	// or infinite.
	Reset(k int, C float64) error
	// Step is given the k hold costs of the next slot and returns the
	// server the session occupies during that slot. The slice may be
	// reused by the caller after Step returns. Step returns an error,
	// and leaves the state unchanged, if len(hold) ≠ k or a hold cost is
	// negative, NaN or infinite (the error names its index and value).
	// The algorithms of this package panic if Step is called before a
	// successful Reset (misuse of the zero value).
	Step(hold []float64) (int, error)
}

// Run resets alg and feeds it the slots of in, returning its schedule.
// It returns alg's Reset or Step error, or an error wrapping
// loadlab.ErrInvalid if alg picks a server out of range. It panics if
// alg or in is nil.
func Run(alg Online, in *Instance) ([]int, error) {
	checkRunArgs("Run", alg, in)
	if err := alg.Reset(in.Servers(), in.Setup()); err != nil {
		return nil, err
	}
	sched := make([]int, in.Slots())
	for t := range sched {
		s, err := step(alg, in.Row(t), t)
		if err != nil {
			return nil, err
		}
		sched[t] = s
	}
	return sched, nil
}

// step feeds slot t to alg and checks the server it picks.
func step(alg Online, row []float64, t int) (int, error) {
	s, err := alg.Step(row)
	if err != nil {
		return 0, fmt.Errorf("competitive: slot %d: %w", t, err)
	}
	if s < 0 || s >= len(row) {
		return 0, loadlab.Invalid(pkg, "online algorithm chose server %d of %d at slot %d", s, len(row), t)
	}
	return s, nil
}

// checkRunArgs panics on a nil algorithm or instance (programmer errors).
func checkRunArgs(fn string, alg Online, in *Instance) {
	if alg == nil {
		panic("competitive: " + fn + ": nil Online algorithm")
	}
	if in == nil {
		panic("competitive: " + fn + ": nil instance")
	}
}

// RunCost is Run returning only the cost of the schedule; it allocates
// nothing besides what alg allocates. It panics if alg or in is nil.
func RunCost(alg Online, in *Instance) (float64, error) {
	checkRunArgs("RunCost", alg, in)
	if err := alg.Reset(in.Servers(), in.Setup()); err != nil {
		return 0, err
	}
	cost, prev := 0.0, NoServer
	for t := 0; t < in.Slots(); t++ {
		row := in.Row(t)
		s, err := step(alg, row, t)
		if err != nil {
			return 0, err
		}
		if s != prev {
			cost += in.Setup()
			prev = s
		}
		cost += row[s]
	}
	return cost, nil
}

// Ratio returns the performance ratio cost(σ_ALG)/OPT of alg on in, the
// quantity whose supremum over inputs is the competitive ratio (spec
// §2.4). When OPT = 0 (possible only with C = 0) it returns 1 if alg also
// pays 0 and +Inf otherwise. Errors are RunCost's.
func Ratio(alg Online, in *Instance) (float64, error) {
	cost, err := RunCost(alg, in)
	if err != nil {
		return 0, err
	}
	return ratio(cost, OptimumCost(in)), nil
}

// PerformanceRatio returns cost/opt, the performance ratio of a schedule
// of cost cost on an instance whose optimum is opt, with the conventions
// of Ratio for opt = 0: 1 if cost = 0 too, +Inf otherwise. It returns an
// error wrapping loadlab.ErrInvalid if either is negative, NaN or
// infinite.
func PerformanceRatio(cost, opt float64) (float64, error) {
	if !finiteNonNeg(cost) || !finiteNonNeg(opt) {
		return 0, loadlab.Invalid(pkg, "PerformanceRatio: cost = %v, opt = %v, want finite and ≥ 0", cost, opt)
	}
	return ratio(cost, opt), nil
}

func ratio(cost, opt float64) float64 {
	if opt == 0 {
		if cost == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return cost / opt
}
