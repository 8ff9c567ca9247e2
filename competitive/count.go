package competitive

import "math"

// CountOptimal returns the number of optimal schedules of in: the
// schedules σ with cost(σ) = OPT (spec §2.3, §3), so that a caller can
// tell whether the schedule Optimum returns is the only one. It runs the
// dynamic program of spec §3 with a count per server,
//
//	N_1(s) = 1,
//	N_t(s) = [V_{t−1}(s) ≤ M_{t−1} + C]·N_{t−1}(s)
//	       + [V_{t−1}(s) ≥ M_{t−1} + C]·Σ_{s' ≠ s, V_{t−1}(s') = M_{t−1}} N_{t−1}(s'),
//
// and returns Σ_{s : V_T(s) = M_T} N_T(s), in O(kT) time and O(k)
// memory. (Moving into s from its own minimum costs C more than staying,
// so the second sum excludes s; when s is the only minimiser of row t−1
// and C = 0 it is empty, which is right.)
//
// Ties are exact float64 comparisons of the values Optimum computes, so
// the count is exact when every sum is (integer-valued or dyadic costs
// of moderate size); with arbitrary reals it counts the schedules that
// tie in floating point. The counts saturate at math.MaxUint64: exact is
// false when the number of optimal schedules is at least 2⁶⁴ − 1 and n
// is then math.MaxUint64. It panics if in is nil.
func CountOptimal(in *Instance) (n uint64, exact bool) {
	if in == nil {
		panic("competitive: CountOptimal: nil instance")
	}
	k, C := in.Servers(), in.Setup()
	v := make([]float64, k)  // V_{t−1}, +∞ before slot 1 (as in Optimal)
	cnt := make([]uint64, k) // N_{t−1}
	others := make([]uint64, k)
	for s := range v {
		v[s] = math.Inf(1)
	}
	m := 0.0 // M_0 = 0: the virtual start, counted once
	for t := 0; t < in.Slots(); t++ {
		othersAtMin(others, v, cnt, m, t == 0)
		thr := m + C
		m = math.Inf(1)
		for s, h := range in.Row(t) {
			var c uint64
			if v[s] <= thr {
				c = cnt[s]
			}
			if thr <= v[s] {
				c = satAdd(c, others[s])
			}
			v[s], cnt[s] = min(v[s], thr)+h, c // the arithmetic of Optimal.push
			m = min(m, v[s])
		}
	}
	for s := range v {
		if v[s] == m {
			n = satAdd(n, cnt[s])
		}
	}
	return n, n < math.MaxUint64
}

// othersAtMin sets others[s] = Σ_{s' ≠ s, v[s'] = m} cnt[s'] (saturating)
// with a prefix and a suffix pass. Before the first slot (first) no
// server holds the minimum: the virtual start counts once for every s.
func othersAtMin(others []uint64, v []float64, cnt []uint64, m float64, first bool) {
	if first {
		for s := range others {
			others[s] = 1
		}
		return
	}
	var acc uint64
	for s := range others {
		others[s] = acc
		if v[s] == m {
			acc = satAdd(acc, cnt[s])
		}
	}
	acc = 0
	for s := len(others) - 1; s >= 0; s-- {
		others[s] = satAdd(others[s], acc)
		if v[s] == m {
			acc = satAdd(acc, cnt[s])
		}
	}
}

// satAdd returns min(a + b, MaxUint64). With a = min(x, Max) and
// b = min(y, Max) it returns min(x + y, Max), so saturated counts stay
// exact lower bounds.
func satAdd(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint64
}
