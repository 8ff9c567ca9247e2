package competitive

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// pkg prefixes the package's error messages.
const pkg = "competitive"

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
	// peak is Σ_t max_s h_t(s), which with C·T bounds the cost of every
	// schedule and every sum the algorithms form.
	peak float64
}

// Slots returns the number of slots T.
func (in *Instance) Slots() int { return in.t }

// Servers returns the number of servers k.
func (in *Instance) Servers() int { return in.k }

// Setup returns the setup cost C.
func (in *Instance) Setup() float64 { return in.c }

// WithSetup returns an instance with the same hold costs (shared, not
// copied) and setup cost C, for sweeps over C. It returns an error
// wrapping loadlab.ErrInvalid if C is negative, NaN or infinite, or so
// large that schedule costs overflow (see NewInstanceFlat).
func (in *Instance) WithSetup(C float64) (*Instance, error) {
	if err := validateSetup(C); err != nil {
		return nil, err
	}
	if err := validateTotal(in.t, C, in.peak); err != nil {
		return nil, err
	}
	return &Instance{t: in.t, k: in.k, c: C, h: in.h, peak: in.peak}, nil
}

// NewInstance returns the instance with hold costs hold[t][s] and setup
// cost C. The rows are copied. Errors are as for NewInstanceFlat, plus
// rows of different lengths (ErrInvalid, naming the slot).
func NewInstance(hold [][]float64, C float64) (*Instance, error) {
	if len(hold) == 0 {
		return nil, loadlab.Invalid(pkg, "T = 0 slots, want ≥ 1")
	}
	k := len(hold[0])
	for t, row := range hold {
		if len(row) != k {
			return nil, loadlab.Invalid(pkg, "slot %d has %d hold costs, slot 0 has %d: rows must have equal length", t, len(row), k)
		}
	}
	// The rows may share storage, so T·k need not fit in memory.
	n, ok := size.Mul(len(hold), k)
	if !ok {
		return nil, loadlab.TooLarge(pkg, "T·k = %d·%d hold costs overflows int", len(hold), k)
	}
	if err := size.Check(pkg, "NewInstance: T·k hold costs", n, 8); err != nil {
		return nil, err
	}
	h := make([]float64, 0, n)
	for _, row := range hold {
		h = append(h, row...)
	}
	return NewInstanceFlat(len(hold), k, h, C)
}

// NewInstanceFlat returns the instance with T slots and k servers whose
// hold cost h_t(s) is hold[t*k+s]. The slice is used, not copied; the
// caller must not modify it afterwards.
//
// It returns an error wrapping loadlab.ErrTooLarge if T·k overflows int,
// and one wrapping loadlab.ErrInvalid, naming the value (and the slot and
// server of a hold cost), if T < 1 or k < 1, if len(hold) ≠ T·k, if a
// hold cost or C is negative, NaN or infinite, or if the costs are so
// large that the cost of a schedule overflows float64 (C·T + Σ_t max_s
// h_t(s) = +Inf).
func NewInstanceFlat(T, k int, hold []float64, C float64) (*Instance, error) {
	switch {
	case T < 1:
		return nil, loadlab.Invalid(pkg, "T = %d slots, want ≥ 1", T)
	case k < 1:
		return nil, loadlab.Invalid(pkg, "k = %d servers, want ≥ 1", k)
	}
	n, ok := size.Mul(T, k)
	switch {
	case !ok:
		return nil, loadlab.TooLarge(pkg, "T·k = %d·%d hold costs overflows int", T, k)
	case len(hold) != n:
		return nil, loadlab.Invalid(pkg, "%d hold costs for T = %d slots and k = %d servers, want %d", len(hold), T, k, n)
	}
	if err := validateSetup(C); err != nil {
		return nil, err
	}
	peak := 0.0
	for t := range T {
		row := hold[t*k : (t+1)*k]
		if err := validateRow(row, func(s int, x float64) error {
			return loadlab.Invalid(pkg, "hold cost h(slot %d, server %d) = %v, want finite and ≥ 0", t, s, x)
		}); err != nil {
			return nil, err
		}
		peak += maxOf(row)
	}
	if err := validateTotal(T, C, peak); err != nil {
		return nil, err
	}
	return &Instance{t: T, k: k, c: C, h: hold, peak: peak}, nil
}

// Hold returns h_t(s). It panics if t or s is out of range.
func (in *Instance) Hold(t, s int) float64 {
	if uint(t) >= uint(in.t) || uint(s) >= uint(in.k) {
		panic(fmt.Sprintf("competitive: Instance.Hold(%d, %d) of %d slots and %d servers", t, s, in.t, in.k))
	}
	return in.h[t*in.k+s]
}

// Row returns the hold costs of slot t. The slice shares the instance's
// storage and must not be modified. It panics if t is out of range.
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
// §2.3). It panics if a server id is negative, a malformed schedule
// (programmer error, as for Instance.Cost; Setups does not know k, so
// Instance.Cost checks the upper end).
func Setups(sched []int) int {
	if len(sched) == 0 {
		return 0
	}
	if sched[0] < 0 {
		panic(fmt.Sprintf("competitive: Setups: schedule slot 0 uses server %d", sched[0]))
	}
	n := 1
	for t := 1; t < len(sched); t++ {
		if sched[t] < 0 {
			panic(fmt.Sprintf("competitive: Setups: schedule slot %d uses server %d", t, sched[t]))
		}
		if sched[t] != sched[t-1] {
			n++
		}
	}
	return n
}

// finiteNonNeg reports whether x is finite and ≥ 0 (false for NaN).
func finiteNonNeg(x float64) bool { return x >= 0 && x <= math.MaxFloat64 }

// validateSetup returns an error unless the setup cost C is finite and
// ≥ 0 (spec §2.1).
func validateSetup(C float64) error {
	if !finiteNonNeg(C) {
		return loadlab.Invalid(pkg, "setup cost C = %v, want finite and ≥ 0", C)
	}
	return nil
}

// validateTotal returns an error if C·T + peak, a bound on the cost of
// every schedule of T slots, overflows float64.
func validateTotal(T int, C, peak float64) error {
	if total := C*float64(T) + peak; total > math.MaxFloat64 {
		return loadlab.Invalid(pkg, "costs too large: C·T + Σ_t max_s h_t(s) = %v·%d + %v overflows float64", C, T, peak)
	}
	return nil
}

// validateReset returns an error unless k ≥ 1 and C is a valid setup
// cost: the checks every Online.Reset makes. k·8 bytes must fit in
// memory too, since every algorithm keeps a row of k values.
func validateReset(k int, C float64) error {
	if k < 1 {
		return loadlab.Invalid(pkg, "k = %d servers, want ≥ 1", k)
	}
	if err := size.Check(pkg, "k servers", k, 16); err != nil {
		return err
	}
	return validateSetup(C)
}

// validateRow returns bad(s, h_s) for the first hold cost of row that is
// negative, NaN or infinite, and nil if there is none.
func validateRow(row []float64, bad func(s int, x float64) error) error {
	for s, x := range row {
		if !finiteNonNeg(x) {
			return bad(s, x)
		}
	}
	return nil
}

// validateStep returns an error unless hold is a valid row of k hold
// costs: the checks every Online.Step makes before it changes any state.
// k = 0 means Reset has not succeeded: it panics (misuse of the zero
// value).
func validateStep(who string, hold []float64, k int) error {
	if k == 0 {
		panic("competitive: " + who + " before Reset")
	}
	if len(hold) != k {
		return loadlab.Invalid(pkg, "%s: len(hold) = %d, want k = %d", who, len(hold), k)
	}
	if _, s := rowMax(hold); s >= 0 {
		return loadlab.Invalid(pkg, "%s: hold[%d] = %v, want finite and ≥ 0", who, s, hold[s])
	}
	return nil
}

// rowMax returns the largest hold cost of row and the index of its first
// value that is negative, NaN or infinite (−1 if there is none). The
// fast path is one pass of integer maxima over the bit patterns: for
// non-negative floats their order is the numbers' order, and every
// negative value, +Inf and NaN has a pattern at or above that of +Inf.
// Only a row with such a pattern (or a −0, which is valid) takes the
// exact second pass.
func rowMax(row []float64) (top float64, bad int) {
	const inf = 0x7ff0000000000000 // bits of +Inf
	var m uint64
	for _, x := range row {
		m = max(m, math.Float64bits(x))
	}
	if m < inf {
		return math.Float64frombits(m), -1
	}
	for s, x := range row {
		if !finiteNonNeg(x) {
			return 0, s
		}
		if x > top {
			top = x
		}
	}
	return top, -1
}

// maxOf returns the largest element of a non-empty slice.
func maxOf(x []float64) float64 {
	m := x[0]
	for _, v := range x {
		m = max(m, v)
	}
	return m
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
