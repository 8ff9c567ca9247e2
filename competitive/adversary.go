package competitive

import (
	"fmt"
	"math"
)

// Cruel plays the adaptive adversary of spec §6.1 against alg for T
// slots: slot 1 costs 0 everywhere, and every later slot costs eps on the
// server alg occupied in the previous slot and 0 elsewhere. It returns
// the generated instance and alg's schedule on it.
//
// Whatever alg does, every slot after the first costs it eps (staying)
// or at least C (moving), so ALG ≥ C + (T−1)·min(eps, C), while
// OPT ≤ C + (T−1)·eps/k (the k static schedules share the eps costs).
// So for 0 < eps ≤ C the ratio is at least k(C + (T−1)eps)/(kC +
// (T−1)eps) → k (spec §6.1).
//
// It returns an error for k < 1, T < 1, C not finite or negative, eps
// not finite or negative, or alg's own Reset error.
func Cruel(alg Online, k, T int, C, eps float64) (*Instance, []int, error) {
	if err := checkReset(k, C); err != nil {
		return nil, nil, err
	}
	switch {
	case T < 1:
		return nil, nil, fmt.Errorf("competitive: T = %d slots: want ≥ 1", T)
	case !(eps >= 0) || math.IsInf(eps, 1):
		return nil, nil, fmt.Errorf("competitive: eps = %v: want finite and ≥ 0", eps)
	}
	if err := alg.Reset(k, C); err != nil {
		return nil, nil, err
	}
	h := make([]float64, T*k)
	sched := make([]int, T)
	for t := range T {
		row := h[t*k : (t+1)*k]
		if t > 0 {
			row[sched[t-1]] = eps // spec §6.1
		}
		s := alg.Step(row)
		if s < 0 || s >= k {
			return nil, nil, fmt.Errorf("competitive: online algorithm chose server %d of %d at slot %d", s, k, t)
		}
		sched[t] = s
	}
	return &Instance{t: T, k: k, c: C, h: h}, sched, nil
}

// CruelRatio returns cost/OPT of alg on the input Cruel builds against
// it (NaN when C = eps = 0, where both are 0); errors are Cruel's.
func CruelRatio(alg Online, k, T int, C, eps float64) (float64, error) {
	in, sched, err := Cruel(alg, k, T, C, eps)
	if err != nil {
		return 0, err
	}
	return in.Cost(sched) / OptimumCost(in), nil
}

// CruelBound returns k(C + (T−1)eps)/(kC + (T−1)eps), the ratio every
// deterministic online algorithm reaches at least against Cruel (spec
// §6.1).
func CruelBound(k, T int, C, eps float64) float64 {
	x := float64(T-1) * eps
	return float64(k) * (C + x) / (float64(k)*C + x)
}

// Trap returns the instance of spec §6.4 on which DTrack-F and
// aggressive DTrack-B (β = α = 1) pay Ω(C) times the optimum: k = 3
// servers, setup cost C, slot 1 = (0,1,1), then n half-cycles; odd ones
// are C slots of (1,0,0) and one of (1,0,1), even ones C slots of (0,1,0)
// and one of (0,1,1). T = 1 + n(C+1). For C ≥ 2 and n ≥ 2 (spec §6.4):
//
//	DTrack-F = DTrack-B(β=α) = (2n+1)C,  OPT = C + n + 1,  DTrack-RR = n + 5C − 1.
//
// It returns an error if C < 1 or n < 1.
func Trap(C, n int) (*Instance, error) {
	if C < 1 {
		return nil, fmt.Errorf("competitive: trap setup cost C = %d: want ≥ 1", C)
	}
	if n < 1 {
		return nil, fmt.Errorf("competitive: trap half-cycles n = %d: want ≥ 1", n)
	}
	T := 1 + n*(C+1)
	h := make([]float64, 0, 3*T)
	h = append(h, 0, 1, 1)
	for i := 1; i <= n; i++ {
		odd := i%2 == 1
		for range C {
			if odd {
				h = append(h, 1, 0, 0)
			} else {
				h = append(h, 0, 1, 0)
			}
		}
		if odd {
			h = append(h, 1, 0, 1)
		} else {
			h = append(h, 0, 1, 1)
		}
	}
	return &Instance{t: T, k: 3, c: float64(C), h: h}, nil
}
