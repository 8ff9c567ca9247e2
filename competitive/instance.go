package competitive

import (
	"fmt"
	"math"
)

// NoServer is the state before the first assignment: moving from it to
// any server costs the setup cost C (spec §2.3: the first assignment is
// charged).
const NoServer = -1

// Instance is an input of the nomadic service assignment problem (spec
// §2.1): hold costs h_t(s) ≥ 0 for T slots and k servers, and a setup
// cost C ≥ 0. It is immutable once built. Slots and servers are numbered
// from 0 in code; the spec numbers slots from 1.
//
// The hold costs are stored row-major in one slice of length T·k, so
// that the slot loops of the algorithms walk memory in order.
type Instance struct {
	t, k int
	c    float64
	h    []float64
}

// Slots returns the number of slots T.
func (in *Instance) Slots() int { return in.t }

// Servers returns the number of servers k.
func (in *Instance) Servers() int { return in.k }

// Setup returns the setup cost C.
func (in *Instance) Setup() float64 { return in.c }

// WithSetup returns an instance with the same hold costs (shared, not
// copied) and setup cost C, for sweeps over C. It returns an error if C
// is negative, NaN or infinite.
func (in *Instance) WithSetup(C float64) (*Instance, error) {
	if err := checkSetup(C); err != nil {
		return nil, err
	}
	return &Instance{t: in.t, k: in.k, c: C, h: in.h}, nil
}

// NewInstance returns the instance with hold costs hold[t][s] and setup
// cost C. The rows are copied. It returns an error naming the offending
// slot, server and value if there are no slots or no servers, if the rows
// have different lengths, if a hold cost is negative, NaN or infinite, or
// if C is negative, NaN or infinite.
func NewInstance(hold [][]float64, C float64) (*Instance, error) {
	if len(hold) == 0 {
		return nil, fmt.Errorf("competitive: T = 0 slots: want ≥ 1")
	}
	k := len(hold[0])
	h := make([]float64, 0, len(hold)*k)
	for t, row := range hold {
		if len(row) != k {
			return nil, fmt.Errorf("competitive: slot %d has %d hold costs, slot 0 has %d: rows must have equal length", t, len(row), k)
		}
		h = append(h, row...)
	}
	return NewInstanceFlat(len(hold), k, h, C)
}

// NewInstanceFlat returns the instance with T slots and k servers whose
// hold cost h_t(s) is hold[t*k+s]. The slice is used, not copied; the
// caller must not modify it afterwards. Errors are as for NewInstance,
// plus a length mismatch between hold and T·k.
func NewInstanceFlat(T, k int, hold []float64, C float64) (*Instance, error) {
	switch {
	case T < 1:
		return nil, fmt.Errorf("competitive: T = %d slots: want ≥ 1", T)
	case k < 1:
		return nil, fmt.Errorf("competitive: k = %d servers: want ≥ 1", k)
	case len(hold) != T*k:
		return nil, fmt.Errorf("competitive: %d hold costs for T = %d slots and k = %d servers: want %d", len(hold), T, k, T*k)
	}
	if err := checkSetup(C); err != nil {
		return nil, err
	}
	for i, x := range hold {
		if !(x >= 0) || math.IsInf(x, 1) {
			return nil, fmt.Errorf("competitive: hold cost h(slot %d, server %d) = %v: want finite and ≥ 0", i/k, i%k, x)
		}
	}
	return &Instance{t: T, k: k, c: C, h: hold}, nil
}

// Hold returns h_t(s).
func (in *Instance) Hold(t, s int) float64 { return in.h[t*in.k+s] }

// Row returns the hold costs of slot t. The slice shares the instance's
// storage and must not be modified.
func (in *Instance) Row(t int) []float64 { return in.h[t*in.k : (t+1)*in.k : (t+1)*in.k] }

// MaxHold returns the largest hold cost of the instance.
func (in *Instance) MaxHold() float64 {
	m := 0.0
	for _, x := range in.h {
		m = math.Max(m, x)
	}
	return m
}

// Cost returns cost(σ, I) = C·N(σ) + Σ_t h_t(σ_t), the setup plus hold
// cost of schedule sched (spec §2.3). It panics if len(sched) ≠ T or a
// server id is out of range (programmer errors).
func (in *Instance) Cost(sched []int) float64 {
	if len(sched) != in.t {
		panic(fmt.Sprintf("competitive: schedule of length %d for T = %d slots", len(sched), in.t))
	}
	hold := 0.0
	for t, s := range sched {
		if s < 0 || s >= in.k {
			panic(fmt.Sprintf("competitive: schedule slot %d uses server %d of %d", t, s, in.k))
		}
		hold += in.h[t*in.k+s]
	}
	return in.c*float64(Setups(sched)) + hold
}

// Setups returns N(σ) = 1 + #{t ≥ 2 : σ_t ≠ σ_{t−1}}, the number of
// (re)assignments of a schedule, and 0 for the empty schedule (spec
// §2.3).
func Setups(sched []int) int {
	if len(sched) == 0 {
		return 0
	}
	n := 1
	for t := 1; t < len(sched); t++ {
		if sched[t] != sched[t-1] {
			n++
		}
	}
	return n
}

// checkSetup returns an error unless the setup cost C is finite and
// ≥ 0 (spec §2.1).
func checkSetup(C float64) error {
	if !(C >= 0) || math.IsInf(C, 1) {
		return fmt.Errorf("competitive: setup cost C = %v: want finite and ≥ 0", C)
	}
	return nil
}

// checkReset returns an error unless k ≥ 1 and C is a valid setup cost:
// the checks every Online.Reset makes.
func checkReset(k int, C float64) error {
	if k < 1 {
		return fmt.Errorf("competitive: k = %d servers: want ≥ 1", k)
	}
	return checkSetup(C)
}

// argmin returns the lowest index of a minimum of x (spec §4.3 tie rule).
func argmin(x []float64) int {
	j := 0
	for i, v := range x {
		if v < x[j] {
			j = i
		}
	}
	return j
}
