package competitive

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
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
// It returns an error wrapping loadlab.ErrInvalid for k < 1, T < 1, C
// or eps negative, NaN or infinite, or costs so large that C·T +
// (T−1)·eps overflows float64; one wrapping loadlab.ErrTooLarge if the
// T·k hold costs do not fit in memory; and alg's own Reset or Step
// error. It panics if alg is nil.
func Cruel(alg Online, k, T int, C, eps float64) (*Instance, []int, error) {
	return cruel("Cruel", alg, k, T, C, eps)
}

// cruel is Cruel, called from fn.
func cruel(fn string, alg Online, k, T int, C, eps float64) (*Instance, []int, error) {
	if alg == nil {
		panic("competitive: " + fn + ": nil Online algorithm")
	}
	if err := validateCruel(k, T, C, eps); err != nil {
		return nil, nil, err
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
		s, err := step(alg, row, t)
		if err != nil {
			return nil, nil, err
		}
		sched[t] = s
	}
	return &Instance{t: T, k: k, c: C, h: h, peak: float64(T-1) * eps}, sched, nil
}

// validateCruel checks the arguments of Cruel, CruelRatio and
// CruelBound.
func validateCruel(k, T int, C, eps float64) error {
	if err := validateReset(k, C); err != nil {
		return err
	}
	switch {
	case T < 1:
		return loadlab.Invalid(pkg, "T = %d slots, want ≥ 1", T)
	case !finiteNonNeg(eps):
		return loadlab.Invalid(pkg, "eps = %v, want finite and ≥ 0", eps)
	}
	n, ok := size.Mul(T, k+1) // hold costs and the schedule
	if !ok {
		return loadlab.TooLarge(pkg, "Cruel: T·(k+1) = %d·%d overflows int", T, k+1)
	}
	if err := size.Check(pkg, "Cruel: T·(k+1) hold costs and schedule entries", n, 8); err != nil {
		return err
	}
	return validateTotal(T, C, float64(T-1)*eps)
}

// CruelRatio returns cost/OPT of alg on the input Cruel builds against
// it, with the conventions of Ratio when OPT = 0 (C = 0 and, for T > 1,
// eps = 0 or a k > 1 with an algorithm that dodges): 1 when alg pays 0
// too, +Inf otherwise. Errors and panics are Cruel's.
func CruelRatio(alg Online, k, T int, C, eps float64) (float64, error) {
	in, sched, err := cruel("CruelRatio", alg, k, T, C, eps)
	if err != nil {
		return 0, err
	}
	return ratio(in.Cost(sched), OptimumCost(in)), nil
}

// CruelBound returns k(C + (T−1)eps)/(kC + (T−1)eps), the ratio every
// deterministic online algorithm reaches at least against Cruel (spec
// §6.1), evaluated as k/(1 + (k−1)C/(C + (T−1)eps)) so that it stays
// finite when (T−1)eps overflows (the limit is k). When C + (T−1)eps = 0
// both costs are 0 and it returns 1, the ratio of Ratio's convention.
// Errors are Cruel's argument errors.
func CruelBound(k, T int, C, eps float64) (float64, error) {
	if err := validateCruel(k, T, C, eps); err != nil {
		return 0, err
	}
	x := C + float64(T-1)*eps
	if x == 0 {
		return 1, nil
	}
	return float64(k) / (1 + float64(k-1)*C/x), nil
}

// Trap returns the instance of spec §6.4 on which DTrack-F and
// aggressive DTrack-B (β = α = 1) pay Ω(C) times the optimum: k = 3
// servers, setup cost C, slot 1 = (0,1,1), then n half-cycles; odd ones
// are C slots of (1,0,0) and one of (1,0,1), even ones C slots of (0,1,0)
// and one of (0,1,1). T = 1 + n(C+1). For C ≥ 2 and n ≥ 2 (spec §6.4):
//
//	DTrack-F = DTrack-B(β=α) = (2n+1)C,  OPT = C + n + 1,  DTrack-RR = n + 5C − 1.
//
// It returns an error wrapping loadlab.ErrInvalid if C < 1 or n < 1, and
// one wrapping loadlab.ErrTooLarge if the 3T hold costs do not fit in
// memory (or T overflows int).
func Trap(C, n int) (*Instance, error) {
	if C < 1 {
		return nil, loadlab.Invalid(pkg, "Trap: setup cost C = %d, want ≥ 1", C)
	}
	if n < 1 {
		return nil, loadlab.Invalid(pkg, "Trap: half-cycles n = %d, want ≥ 1", n)
	}
	cells, ok := size.Product(n, C+1, 3) // C+1 ≥ 2 unless C+1 wraps negative
	if !ok || cells > math.MaxInt-3 {
		return nil, loadlab.TooLarge(pkg, "Trap: T = 1 + n(C+1) slots with n = %d, C = %d overflows int", n, C)
	}
	if err := size.Check(pkg, "Trap: 3T hold costs", cells+3, 8); err != nil {
		return nil, err
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
	return &Instance{t: T, k: 3, c: float64(C), h: h, peak: float64(T)}, nil
}
