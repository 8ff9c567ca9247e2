package competitive

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/stretchr/testify/require"
)

// FuzzInstance feeds arbitrary sizes, setup costs and hold costs to
// NewInstanceFlat, unclipped: with free set, T and k are the fuzzer's
// own ints (so T·k can overflow, as with T = 2⁶², k = 4), otherwise T is
// len(data)/k. Bytes 250–255 become the bad and extreme values 1e308,
// MaxFloat64, −1, −0, +Inf and NaN. Whatever is refused must be a named
// error (ErrTooLarge exactly when T·k overflows int, else ErrInvalid);
// whatever is accepted must satisfy spec §3 and §6: OPT between its
// closed-form bounds and attained by Optimum's schedule, at least one
// and at most k^T optimal schedules, OPT ≤ every online schedule,
// DTrack-RR ≤ 2k·OPT, WFA ≤ (2k−1)·OPT and CTrack ≤ (2+a)k·OPT.
func FuzzInstance(f *testing.F) {
	f.Add(2, 3, false, 1.0, []byte{0, 5, 0, 5, 5, 0, 5, 0, 5, 0})
	f.Add(3, 2, false, 0.5, []byte{1, 2, 3, 1, 2, 3, 9, 0, 9})
	f.Add(0, 0, false, 0.0, []byte{})
	f.Add(1<<62, 4, true, 1.0, []byte{})
	f.Add(2, 2, true, math.NaN(), []byte{1, 2, 3, 255})
	f.Add(3, 1, false, 1e308, []byte{250, 251, 250})
	f.Fuzz(func(t *testing.T, tk, k int, free bool, C float64, data []byte) {
		h := make([]float64, len(data))
		for i, b := range data {
			h[i] = fuzzCost(b)
		}
		T, K := tk, k
		if !free {
			K = k % 7
			if K > 0 {
				T, h = len(h)/K, h[:len(h)/K*K]
			}
		}
		in, err := NewInstanceFlat(T, K, h, C)
		if err != nil {
			fuzzRefused(t, T, K, err)
			return
		}
		fuzzAccepted(t, in, T, K, h)
	})
}

// fuzzCost maps a byte to a hold cost: multiples of 1/16 below 16, and
// the extreme and invalid values at the top.
func fuzzCost(b byte) float64 {
	switch b {
	case 250:
		return 1e308
	case 251:
		return math.MaxFloat64
	case 252:
		return -1
	case 253:
		return math.Copysign(0, -1) // −0 is ≥ 0: valid
	case 254:
		return math.Inf(1)
	case 255:
		return math.NaN()
	}
	return float64(b) / 16
}

// fuzzRefused checks that NewInstanceFlat's error is named: ErrTooLarge
// exactly when T·k overflows.
func fuzzRefused(t *testing.T, T, K int, err error) {
	_, ok := size.Mul(T, K)
	tooLarge := T >= 1 && K >= 1 && !ok
	require.Falsef(t, tooLarge != errors.Is(err, loadlab.ErrTooLarge), "T = %d, k = %d: %v (ErrTooLarge expected: %v)", T, K, err, tooLarge)
	require.Falsef(t, !tooLarge && !errors.Is(err, loadlab.ErrInvalid), "error not named: %v", err)
}

// fuzzAccepted checks the invariants of an accepted instance.
func fuzzAccepted(t *testing.T, in *Instance, T, K int, h []float64) {
	require.Falsef(t, T < 1 || K < 1 || len(h) != T*K || !finiteNonNeg(in.Setup()), "accepted T = %d, k = %d, %d costs, C = %v", T, K, len(h), in.Setup())
	lo, hi := in.Setup(), in.Setup()
	col := make([]float64, K)
	for s := range T {
		row := in.Row(s)
		for j, x := range row {
			require.Falsef(t, !finiteNonNeg(x), "accepted h(%d, %d) = %v", s, j, x)
			col[j] += x
		}
		lo += row[argmin(row)]
	}
	hi += col[argmin(col)]
	opt, sched := optimum(t, in)
	// Relative 1e-12: the rounding of ≤ 10⁴ additions of non-negative
	// terms, each within 2⁻⁵³ of its exact value.
	rel := 1e-12 * hi
	require.Falsef(t, opt < lo-rel || opt > hi+rel || math.Abs(in.Cost(sched)-opt) > rel, "OPT %v outside [C + Σ min h, C + min Σ h] = [%v, %v] or schedule cost %v", opt, lo, hi, in.Cost(sched))
	n, exact := CountOptimal(in)
	require.Falsef(t, n < 1 || exact && float64(T)*math.Log(float64(K)) < 40 && float64(n) > math.Pow(float64(K), float64(T)), "%d optimal schedules of k^T = %d^%d", n, K, T)
	for _, c := range contestants {
		cost, err := RunCost(c.alg(), in)
		require.NoError(t, err)
		require.Falsef(t, cost < opt-rel, "%s cost %v < OPT %v", c.name, cost, opt)
		// The bound is a product of OPT by a constant: one more rounding
		// (1e-12 relative) beyond rel.
		require.Falsef(t, in.Setup() > 0 && cost > c.bound(in, opt)*(1+1e-12)+rel, "%s cost %v above its bound %v (OPT %v)", c.name, cost, c.bound(in, opt), opt)
	}
}

// FuzzCruel feeds arbitrary parameters to DTrack and to the adaptive
// adversary, with k and T the fuzzer's own ints (unclipped, so T·(k+1)
// can overflow or exceed the memory budget). CruelBound, which
// allocates nothing, is checked on every input: a named error, or a
// value in [1, k] (spec §6.1). Cruel itself runs when its work is small
// (T·k ≤ 2¹⁶); where T·(k+1) eight-byte values overflow or exceed
// size.MaxBytes it must refuse with ErrTooLarge (or ErrInvalid for a
// bad k, T, C or ε) before allocating; sizes in between are within the
// budget but too slow for a fuzz iteration and are skipped. Whatever
// Cruel accepts must give an instance on which the rule-independent
// facts of spec §6.1 hold (ALG ≥ C + (T−1)·min(ε, C), OPT ≤ C +
// (T−1)ε/k), and DTrack-RR with α = 1 must stay within 2k·OPT (spec
// §6.3).
func FuzzCruel(f *testing.F) {
	f.Add(2, 6, 2.0, 1.0, 1.0, 0.0, uint8(0))
	f.Add(3, 400, 10.0, 1.0, 1.0, 1.0, uint8(2))
	f.Add(0, 5, -1.0, math.NaN(), -1.0, 2.0, uint8(9))
	f.Add(4, 1<<62, 1.0, 1.0, 1.0, 0.0, uint8(0))
	f.Add(1<<62, 4, 1.0, 1.0, 1.0, 0.0, uint8(0))
	f.Add(math.MaxInt, 1, 1.0, 1.0, 1.0, 0.0, uint8(0))
	f.Add(1<<16, 1<<16, 1.0, 1e300, 1.0, 0.0, uint8(1))
	f.Fuzz(func(t *testing.T, K, TT int, C, eps, alpha, beta float64, policy uint8) {
		args := K >= 1 && TT >= 1 && finiteNonNeg(C) && finiteNonNeg(eps)
		fuzzCruelBound(t, K, TT, C, eps, args)
		work, okWork := size.Mul(TT, K)
		vals, okVals := size.Mul(TT, K+1)
		alg := &DTrack{Policy: Policy(policy % 4), Alpha: alpha, Beta: beta}
		switch {
		case K < 1 || TT < 1 || (okWork && work <= 1<<16):
		case !okVals || vals > size.MaxBytes/8:
			_, _, err := Cruel(alg, K, TT, C, eps)
			require.Falsef(t, args && !errors.Is(err, loadlab.ErrTooLarge) || !args && !errors.Is(err, loadlab.ErrInvalid) && !errors.Is(err, loadlab.ErrTooLarge), "Cruel(k = %d, T = %d, C = %v, ε = %v) beyond the budget: %v", K, TT, C, eps, err)
			return
		default:
			return
		}
		in, sched, err := Cruel(alg, K, TT, C, eps)
		if err != nil {
			// A bad T with a k too large in itself may be either.
			require.Falsef(t, !errors.Is(err, loadlab.ErrInvalid) && !errors.Is(err, loadlab.ErrTooLarge), "error not named: %v", err)
			return
		}
		require.Falsef(t, !args || !(alpha >= 0) || beta > alpha, "accepted k = %d, T = %d, C = %v, eps = %v, α = %v, β = %v", K, TT, C, eps, alpha, beta)
		fuzzCruelFacts(t, alg, in, sched, K, TT, C, eps)
	})
}

// fuzzCruelBound checks CruelBound on any sizes: a named error, and for
// valid arguments a value in [1, k] (it is k/(1 + (k−1)C/(C + (T−1)ε))).
func fuzzCruelBound(t *testing.T, K, TT int, C, eps float64, args bool) {
	b, err := CruelBound(K, TT, C, eps)
	if err != nil {
		require.Falsef(t, !errors.Is(err, loadlab.ErrInvalid) && !errors.Is(err, loadlab.ErrTooLarge), "CruelBound error not named: %v", err)
		return
	}
	// Relative 1e-15: a few roundings in k/(1 + (k−1)C/x).
	require.Falsef(t, !args || !(b >= 1-1e-15) || b > float64(K)*(1+1e-15), "CruelBound(k = %d, T = %d, C = %v, ε = %v) = %v, want in [1, k]", K, TT, C, eps, b)
}

// fuzzCruelFacts checks spec §6.1 and §6.3 on an instance Cruel built.
func fuzzCruelFacts(t *testing.T, alg *DTrack, in *Instance, sched []int, K, TT int, C, eps float64) {
	x := float64(TT-1) * eps
	if C+x > 1e300 {
		return // sums overflow; nothing left to compare
	}
	cost, opt := in.Cost(sched), OptimumCost(in)
	// Relative 1e-11: ≤ 2¹⁶ additions of non-negative terms have a
	// relative rounding error ≤ 2¹⁶·2⁻⁵³ ≈ 7.3e-12.
	slack := 1e-11 * (C + x)
	low := C + float64(TT-1)*min(eps, C)
	require.Falsef(t, cost < low-slack, "ALG %v < C + (T−1)·min(ε, C) = %v", cost, low)
	require.Falsef(t, opt > C+x/float64(K)+slack, "OPT %v > C + (T−1)ε/k = %v", opt, C+x/float64(K))
	require.Falsef(t, alg.Policy == RoundRobin && alg.Alpha == 1 && cost > float64(2*K)*opt*(1+1e-11)+slack, "DTrack-RR cost %v > 2k·OPT = %v", cost, float64(2*K)*opt)
}
