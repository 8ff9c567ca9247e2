package competitive

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
)

// Sessions is m sessions sharing k servers with capacities (spec
// §17.4): session i has the hold costs of In[i] (all with the same T, k
// and setup cost C); server s holds at most Capacity[s] sessions in each
// slot. A joint schedule gives every session a server in every slot
// within the capacities and costs the sum of the sessions' costs.
type Sessions struct {
	In       []*Instance
	Capacity []int
}

// maxJointWork bounds T·S²·m of the joint dynamic program.
const maxJointWork = 2e9

// Validate returns an error wrapping loadlab.ErrInvalid if there is no
// session, a session is nil or differs from the first in T, k or C, the
// capacities are not one per server, a capacity is negative, or they
// sum to fewer than m.
func (ss *Sessions) Validate() error {
	if len(ss.In) == 0 {
		return loadlab.Invalid(pkg, "Sessions.In is empty, want at least one session")
	}
	for i, in := range ss.In {
		if in == nil {
			return loadlab.Invalid(pkg, "Sessions.In[%d] is nil, want an instance", i)
		}
		a := ss.In[0]
		if in.Slots() != a.Slots() || in.Servers() != a.Servers() || in.Setup() != a.Setup() {
			return loadlab.Invalid(pkg, "Sessions.In[%d] has T = %d, k = %d, C = %v, want those of In[0]: %d, %d, %v", i, in.Slots(), in.Servers(), in.Setup(), a.Slots(), a.Servers(), a.Setup())
		}
	}
	k := ss.In[0].Servers()
	if len(ss.Capacity) != k {
		return loadlab.Invalid(pkg, "Sessions.Capacity has %d entries, want one per server (%d)", len(ss.Capacity), k)
	}
	total := 0
	for s, c := range ss.Capacity {
		if c < 0 {
			return loadlab.Invalid(pkg, "Sessions.Capacity[%d] = %d, want ≥ 0", s, c)
		}
		total += min(c, len(ss.In))
	}
	if total < len(ss.In) {
		return loadlab.Invalid(pkg, "Sessions.Capacity sums to %d, want ≥ %d sessions", total, len(ss.In))
	}
	return nil
}

// Cost returns the cost of the joint schedule sched (sched[i] is
// session i's schedule), and an error wrapping loadlab.ErrInvalid naming
// the slot and server where the capacities are exceeded, or Validate's.
// It panics if sched does not have one schedule of T servers in range per
// session.
func (ss *Sessions) Cost(sched [][]int) (float64, error) {
	if err := ss.Validate(); err != nil {
		return 0, err
	}
	if len(sched) != len(ss.In) {
		panic(fmt.Sprintf("competitive: Sessions.Cost: %d schedules for %d sessions", len(sched), len(ss.In)))
	}
	total := 0.0
	for i, in := range ss.In {
		total += in.Cost(sched[i]) // panics on a bad schedule
	}
	load := make([]int, len(ss.Capacity))
	for t := range ss.In[0].Slots() {
		clear(load)
		for i := range sched {
			s := sched[i][t]
			if load[s]++; load[s] > ss.Capacity[s] {
				return 0, loadlab.Invalid(pkg, "Sessions.Cost: slot %d: server %d holds more than its capacity %d", t, s, ss.Capacity[s])
			}
		}
	}
	return total, nil
}

// jointStates lists the joint states (a server per session) within the
// capacities, as base-k digits, or an error if the joint program is too
// large.
func (ss *Sessions) jointStates() ([][]int, error) {
	m, k, T := len(ss.In), ss.In[0].Servers(), ss.In[0].Slots()
	if float64(m)*math.Log(float64(k)) > math.Log(1e6) {
		return nil, loadlab.TooLarge(pkg, "SessionsOptimum: k^m = %d^%d joint states, more than 10⁶; use SessionsSequential", k, m)
	}
	var out [][]int
	cur, load := make([]int, m), make([]int, k)
	var rec func(i int)
	rec = func(i int) {
		if i == m {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for s := range k {
			if load[s] < ss.Capacity[s] {
				load[s]++
				cur[i] = s
				rec(i + 1)
				load[s]--
			}
		}
	}
	rec(0)
	S := float64(len(out))
	if w := float64(T) * S * S * float64(m); w > maxJointWork {
		return nil, loadlab.TooLarge(pkg, "SessionsOptimum: T·S²·m = %.3g for S = %d joint states, more than %.0g; use SessionsSequential", w, len(out), maxJointWork)
	}
	if n, ok := size.Mul(T, len(out)); !ok || size.Check(pkg, "SessionsOptimum: T·S back-pointers", n, 4) != nil {
		return nil, loadlab.TooLarge(pkg, "SessionsOptimum: T·S = %d·%d back-pointers do not fit in memory", T, len(out))
	}
	return out, nil
}

// SessionsOptimum returns the least cost of a joint schedule and one
// such schedule, by the dynamic program over the S ≤ k^m joint states
// within the capacities (spec §17.4), in O(T·S²·m) time and O(T·S)
// memory: exact, for small sizes. Ties: the lowest-numbered joint state
// (sessions' servers read as base-k digits, session 0 first). It returns
// Validate's errors and one wrapping loadlab.ErrTooLarge if k^m > 10⁶ or
// T·S²·m > 2·10⁹.
func SessionsOptimum(ss *Sessions) (float64, [][]int, error) {
	if err := ss.Validate(); err != nil {
		return 0, nil, err
	}
	states, err := ss.jointStates()
	if err != nil {
		return 0, nil, err
	}
	m, T, C := len(ss.In), ss.In[0].Slots(), ss.In[0].Setup()
	S := len(states)
	hold := func(t, j int) float64 {
		h := 0.0
		for i, s := range states[j] {
			h += ss.In[i].Hold(t, s)
		}
		return h
	}
	moves := func(a, b int) float64 {
		n := 0
		for i := range m {
			if states[a][i] != states[b][i] {
				n++
			}
		}
		return float64(n) * C
	}
	v, next := make([]float64, S), make([]float64, S)
	back := make([]int32, T*S)
	for j := range S {
		v[j] = float64(m)*C + hold(0, j)
	}
	for t := 1; t < T; t++ {
		for j := range S {
			best, arg := math.Inf(1), 0
			for p := range S {
				if c := v[p] + moves(p, j); c < best {
					best, arg = c, p
				}
			}
			next[j], back[t*S+j] = best+hold(t, j), int32(arg)
		}
		v, next = next, v
	}
	j := 0
	for p := range S {
		if v[p] < v[j] {
			j = p
		}
	}
	cost := v[j]
	sched := make([][]int, m)
	for i := range sched {
		sched[i] = make([]int, T)
	}
	for t := T - 1; t >= 0; t-- {
		for i := range m {
			sched[i][t] = states[j][i]
		}
		j = int(back[t*S+j])
	}
	return cost, sched, nil
}

// SessionsSequential is a heuristic for many sessions (spec §17.4): it
// gives each session in turn, session 0 first, its optimal schedule
// (Optimum) on the servers the earlier sessions leave free in each slot.
// The result is a feasible joint schedule (at every slot the capacities
// sum to at least m, so a free server remains for every later session),
// of cost at least SessionsOptimum's and at least the sum of the
// sessions' own optima. It costs m optima of O(kT). It returns
// Validate's errors and one wrapping loadlab.ErrInvalid if the penalty
// that keeps a session off full servers overflows float64.
func SessionsSequential(ss *Sessions) (float64, [][]int, error) {
	if err := ss.Validate(); err != nil {
		return 0, nil, err
	}
	T, k, C := ss.In[0].Slots(), ss.In[0].Servers(), ss.In[0].Setup()
	left := make([]int, T*k)
	for t := range T {
		copy(left[t*k:(t+1)*k], ss.Capacity)
	}
	sched := make([][]int, len(ss.In))
	total := 0.0
	for i, in := range ss.In {
		// A schedule that avoids the full servers costs at most
		// T·max h + T·C; the penalty exceeds that, so the optimum avoids
		// every full server whenever it can, which it always can.
		pen := 2*(float64(T)*in.MaxHold()+float64(T+1)*C) + 1
		h := make([]float64, T*k)
		for t := range T {
			for s := range k {
				h[t*k+s] = in.Hold(t, s)
				if left[t*k+s] == 0 {
					h[t*k+s] = pen
				}
			}
		}
		pin, err := NewInstanceFlat(T, k, h, C)
		if err != nil {
			return 0, nil, fmt.Errorf("SessionsSequential: session %d: %w", i, err)
		}
		_, s, err := Optimum(pin)
		if err != nil {
			return 0, nil, err
		}
		for t, x := range s {
			left[t*k+x]--
		}
		sched[i] = s
		total += in.Cost(s)
	}
	return total, sched, nil
}
