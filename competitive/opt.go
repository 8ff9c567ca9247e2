package competitive

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Optimal computes the offline optimum of spec §3 by dynamic
// programming, fed one slot at a time. Its zero value is ready for Reset;
// the workspace is kept between runs, so a long-lived Optimal allocates
// only when an input is larger than any seen before.
//
// With V_t(s) the least cost of serving slots 1..t with the session on s
// during slot t, and M_t = min_s V_t(s) (spec §3):
//
//	V_1(s) = C + h_1(s)          (start = NoServer)
//	V_1(s) = h_1(s) + C·[s ≠ s0] (warm start on s0)
//	V_t(s) = h_t(s) + min(V_{t−1}(s), M_{t−1} + C)
//	OPT    = M_T
//
// Each slot costs O(k). When the schedule is wanted, the solver keeps one
// bit per (slot, server), set when V_{t−1}(s) > M_{t−1} + C (the optimum
// into s switched from the previous row's minimiser rather than
// staying), and the lowest-id minimiser of every row: O(kT) bits plus
// O(T) int32. Without the schedule the memory is O(k).
type Optimal struct {
	k, words int
	c, m     float64
	t        int
	trace    bool
	v, next  []float64 // V_t, and the buffer the next row is computed into
	bits     []uint64  // bit s of row t (t ≥ 1): switch into s at slot t
	arg      []int32   // lowest-id argmin of V_t
}

// Reset starts a new input with k servers and setup cost C. start is the
// server occupied before the first slot (the warm start of spec §3), or
// NoServer. If trace is false only the cost is kept (O(k) memory) and
// Schedule panics. Reset returns an error wrapping loadlab.ErrInvalid,
// naming the value, if k < 1, if start is neither NoServer nor a server
// id, or if C is negative, NaN or infinite, and one wrapping
// loadlab.ErrTooLarge if a row of k values does not fit in memory; the
// solver is then left as it was.
func (o *Optimal) Reset(k int, C float64, start int, trace bool) error {
	if err := validateReset(k, C); err != nil {
		return err
	}
	if start < NoServer || start >= k {
		return loadlab.Invalid(pkg, "Optimal.Reset: start = %d, want NoServer (−1) or a server id in [0, %d)", start, k)
	}
	o.reset(k, C, start, trace)
	return nil
}

// reset is Reset for arguments already validated (an Instance's).
func (o *Optimal) reset(k int, C float64, start int, trace bool) {
	o.k, o.c, o.t, o.trace = k, C, 0, trace
	o.words = (k + 63) / 64
	if cap(o.v) < k || cap(o.next) < k {
		o.v, o.next = make([]float64, k), make([]float64, k)
	}
	o.v, o.next = o.v[:k], o.next[:k]
	// A virtual row before slot 1 reproduces both first-row rules
	// through the general recurrence: V_0 = 0 on start and +∞ elsewhere
	// (warm start), or V_0 ≡ M_0 = 0 with a forced switch (NoServer).
	for s := range o.v {
		o.v[s] = math.Inf(1)
	}
	o.m = 0
	if start != NoServer {
		o.v[start] = 0
	}
	o.bits = o.bits[:0]
	o.arg = o.arg[:0]
}

// Grow reserves room for the back-pointers of T more slots, so that a
// long traced run does not reallocate as it goes; without trace, or for
// T ≤ 0, it does nothing. It returns an error wrapping
// loadlab.ErrTooLarge if the back-pointers of that many slots do not fit
// in memory (nothing is then reserved).
func (o *Optimal) Grow(T int) error {
	if !o.trace || T <= 0 {
		return nil
	}
	if err := o.fits(T); err != nil {
		return err
	}
	o.bits = growTo(o.bits, len(o.bits)+T*o.words)
	o.arg = growTo(o.arg, len(o.arg)+T)
	return nil
}

// fits returns an error unless the back-pointers of T more slots (words
// bit words and one int32 each, besides those already held) fit in
// size.MaxBytes.
func (o *Optimal) fits(T int) error {
	n, ok := size.Mul(T+o.t, 8*o.words+4)
	if !ok || n > size.MaxBytes {
		return loadlab.TooLarge(pkg, "Optimal: back-pointers of %d + %d slots for k = %d servers need more than %d GiB", o.t, T, o.k, size.MaxBytes>>30)
	}
	return nil
}

func growTo[E any](s []E, n int) []E {
	if cap(s) >= n {
		return s
	}
	t := make([]E, len(s), n)
	copy(t, s)
	return t
}

// Push adds the hold costs of the next slot. It returns an error wrapping
// loadlab.ErrInvalid, and leaves the solver unchanged, if len(row) ≠ k,
// if a value is negative, NaN or infinite (the error names its index,
// the slot and the value), or if the optimal cost would overflow
// float64; with trace, an error wrapping loadlab.ErrTooLarge once the
// back-pointers would exceed size.MaxBytes. It panics if Reset has not
// been called (misuse of the zero value).
func (o *Optimal) Push(row []float64) error {
	if o.k == 0 {
		panic("competitive: Optimal.Push before Reset")
	}
	if len(row) != o.k {
		return loadlab.Invalid(pkg, "Optimal.Push: len(row) = %d at slot %d, want k = %d", len(row), o.t, o.k)
	}
	if o.trace {
		if err := o.fits(1); err != nil {
			return err
		}
	}
	// The row is validated by the update itself, which computes into
	// o.next and so can be dropped: its largest bit pattern is below
	// that of +Inf exactly when every value is finite and ≥ 0 (see
	// rowMax; a −0 takes the exact check).
	m, bits := o.step(row)
	top := math.Float64frombits(bits)
	if bits >= 0x7ff0000000000000 {
		var bad int
		if top, bad = rowMax(row); bad >= 0 {
			o.drop()
			return loadlab.Invalid(pkg, "Optimal.Push: row[%d] = %v at slot %d, want finite and ≥ 0", bad, row[bad], o.t)
		}
	}
	// Every new V_t(s) is at most M_{t−1} + C + max h_t.
	if o.m+o.c+top > math.MaxFloat64 {
		o.drop()
		return loadlab.Invalid(pkg, "Optimal.Push: costs too large at slot %d: M + C + max row = %v + %v + %v overflows float64", o.t, o.m, o.c, top)
	}
	o.commit(m)
	return nil
}

// push adds a row already validated (an Instance's).
func (o *Optimal) push(row []float64) {
	m, _ := o.step(row)
	o.commit(m)
}

// commit makes the row step computed the current one.
func (o *Optimal) commit(m float64) {
	o.v, o.next = o.next, o.v
	o.m = m
	o.t++
}

// drop forgets the row step computed: the back-pointers it appended.
func (o *Optimal) drop() {
	if o.trace {
		o.bits = o.bits[:o.t*o.words]
		o.arg = o.arg[:o.t]
	}
}

// step computes V_t(s) = h_t(s) + min(V_{t−1}(s), M_{t−1} + C) into
// o.next (spec §3), appending the row's back-pointers when tracing, and
// returns M_t and the largest bit pattern of the row's values (for
// Push's validation). The state is unchanged until commit.
func (o *Optimal) step(row []float64) (m float64, bits uint64) {
	thr := o.m + o.c // spec §3: min(V_{t−1}(s), M_{t−1} + C)
	v, next := o.v[:len(row)], o.next[:len(row)]
	m, am := math.Inf(1), 0
	// The loops are branch-free except for the running minimum: whether
	// a server stays or switches is data-dependent and unpredictable, and
	// mispredicted branches would halve the speed. min of two non-NaN floats
	// compiles to MINSD, and the switch bit is the sign of thr − V, which
	// is +0 on a tie (prefer staying, spec §3 backtracking).
	if !o.trace {
		for s, h := range row {
			bits = max(bits, math.Float64bits(h))
			x := min(v[s], thr) + h
			next[s] = x
			if x < m {
				m, am = x, s
			}
		}
		return m, bits
	}
	for w := 0; w < o.words; w++ {
		lo := w * 64
		hi := min(lo+64, len(row))
		var word uint64
		vs, hs, ns := v[lo:hi], row[lo:hi], next[lo:hi]
		hs, ns = hs[:len(vs)], ns[:len(vs)]
		for i, x := range vs {
			bits = max(bits, math.Float64bits(hs[i]))
			word |= math.Float64bits(thr-x) >> 63 << uint(i)
			x = min(x, thr) + hs[i]
			ns[i] = x
			if x < m {
				m, am = x, lo+i
			}
		}
		o.bits = append(o.bits, word)
	}
	o.arg = append(o.arg, int32(am))
	return m, bits
}

// Slots returns the number of slots pushed since Reset.
func (o *Optimal) Slots() int { return o.t }

// Cost returns M_t, the optimal cost of the slots pushed so far (0
// before the first slot).
func (o *Optimal) Cost() float64 { return o.m }

// Values returns the current row V_t(·) of the dynamic program. The slice
// is the solver's workspace: it must not be modified, and the Push after
// next overwrites it.
func (o *Optimal) Values() []float64 { return o.v }

// Schedule writes an optimal schedule of the slots pushed so far into dst
// (grown if needed) and returns it. Ties are broken as in spec §3: the
// last slot uses the lowest-id minimiser, and backwards the schedule stays
// whenever staying is optimal. Schedule panics if Reset was called with
// trace false.
func (o *Optimal) Schedule(dst []int) []int {
	if !o.trace {
		panic("competitive: Optimal.Schedule without trace")
	}
	T := o.t
	if cap(dst) < T {
		dst = make([]int, T)
	}
	dst = dst[:T]
	if T == 0 {
		return dst
	}
	s := int(o.arg[T-1])
	for t := T - 1; t >= 0; t-- {
		dst[t] = s
		if t == 0 {
			break
		}
		if o.bits[t*o.words+s>>6]>>(uint(s)&63)&1 != 0 {
			s = int(o.arg[t-1])
		}
	}
	return dst
}

// Optimum returns the optimal cost OPT(I) and an optimal schedule of in
// (spec §3), in O(kT) time and O(kT) bits of memory. It returns an error
// wrapping loadlab.ErrTooLarge if the back-pointers and the schedule do
// not fit in memory. It panics if in is nil.
func Optimum(in *Instance) (float64, []int, error) {
	if in == nil {
		panic("competitive: Optimum: nil instance")
	}
	var o Optimal
	o.reset(in.Servers(), in.Setup(), NoServer, true)
	if err := o.fits(in.Slots()); err != nil {
		return 0, nil, err
	}
	if err := size.Check(pkg, "Optimum: schedule of T slots", in.Slots(), 8); err != nil {
		return 0, nil, err
	}
	_ = o.Grow(in.Slots()) // cannot fail after fits
	for t := 0; t < in.Slots(); t++ {
		o.push(in.Row(t))
	}
	return o.Cost(), o.Schedule(nil), nil
}

// OptimumCost returns OPT(I) in O(kT) time and O(k) memory (spec §3).
// It panics if in is nil.
func OptimumCost(in *Instance) float64 {
	if in == nil {
		panic("competitive: OptimumCost: nil instance")
	}
	var o Optimal
	o.reset(in.Servers(), in.Setup(), NoServer, false)
	for t := 0; t < in.Slots(); t++ {
		o.push(in.Row(t))
	}
	return o.Cost()
}
