package competitive

import "math"

// WFA is the work function algorithm for the uniform metrical task
// system that the problem is (spec §2.5): k states at mutual distance C,
// entered from a virtual start state at distance C from every server.
//
// The work function after slot t is w_t(x) = min(V_t(x), M_t + C), with
// V and M the offline dynamic program of spec §3 (Optimal): the least
// cost of serving slots 1..t and then standing on x. On slot t, from
// its previous server p, WFA moves to a minimiser of w_t(x) + C·[x ≠ p]
// whose work function is supported, w_t(x) = V_t(x) (Borodin, Linial and
// Saks; Borodin and El-Yaniv §9). On the uniform metric this reduces to
//
//	stay on p        if V_t(p) ≤ M_t + C,
//	move to argmin V_t (lowest id) otherwise,
//
// and the first slot takes argmin h_1. WFA's cost is at most (2k − 1)·OPT
// on every input, without additive constant (proof sketch in the package
// documentation). Each slot costs O(k); the state
// is stored relative to M_{t−1}, so it stays in [0, C + max h] however
// long the input.
type WFA struct {
	k    int
	c, m float64
	v    []float64
	next []float64 // the buffer the next row is computed into
	s    int
}

// Reset implements Online. It returns an error wrapping
// loadlab.ErrInvalid if k < 1 or C is negative, NaN or infinite.
func (w *WFA) Reset(k int, C float64) error {
	if err := validateReset(k, C); err != nil {
		return err
	}
	w.k, w.c, w.s, w.m = k, C, NoServer, 0
	if cap(w.v) < k || cap(w.next) < k {
		w.v, w.next = make([]float64, k), make([]float64, k)
	}
	w.v, w.next = w.v[:k], w.next[:k]
	return nil
}

// Step implements Online.
func (w *WFA) Step(hold []float64) (int, error) {
	if w.s == NoServer || len(hold) != w.k || w.k == 0 {
		if err := validateStep("WFA.Step", hold, w.k); err != nil {
			return NoServer, err
		}
		return w.first(hold), nil
	}
	// v holds V_{t−1} − M_{t−2}; w.m = M_{t−1} − M_{t−2}. The new row is
	// V_t − M_{t−1} = h_t + min(V_{t−1} − M_{t−1}, C) (spec §3), computed
	// into w.next so that a bad row (found by the bit-pattern test of
	// rowMax) leaves the state unchanged.
	v, next := w.v[:len(hold)], w.next[:len(hold)]
	m, am := math.Inf(1), 0
	var bits uint64
	for s, h := range hold {
		bits = max(bits, math.Float64bits(h))
		x := min(v[s]-w.m, w.c) + h // branch-free, as in Optimal.Push
		next[s] = x
		if x < m {
			m, am = x, s
		}
	}
	if bits >= 0x7ff0000000000000 {
		if err := validateStep("WFA.Step", hold, w.k); err != nil {
			return NoServer, err
		}
	}
	w.v, w.next, w.m = next, v, m
	if next[w.s] > m+w.c {
		w.s = am
	}
	return w.s, nil
}

// first serves the first slot: V_1 − M_0 = C + h_1 with M_0 := 0 (spec
// §3).
func (w *WFA) first(hold []float64) int {
	v := w.v[:len(hold)]
	for s, h := range hold {
		v[s] = w.c + h
	}
	w.s = argmin(v)
	w.m = v[w.s]
	return w.s
}
