package competitive

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
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
	if tooLarge != errors.Is(err, loadlab.ErrTooLarge) {
		t.Fatalf("T = %d, k = %d: %v (ErrTooLarge expected: %v)", T, K, err, tooLarge)
	}
	if !tooLarge && !errors.Is(err, loadlab.ErrInvalid) {
		t.Fatalf("error not named: %v", err)
	}
}

// fuzzAccepted checks the invariants of an accepted instance.
func fuzzAccepted(t *testing.T, in *Instance, T, K int, h []float64) {
	if T < 1 || K < 1 || len(h) != T*K || !finiteNonNeg(in.Setup()) {
		t.Fatalf("accepted T = %d, k = %d, %d costs, C = %v", T, K, len(h), in.Setup())
	}
	lo, hi := in.Setup(), in.Setup()
	col := make([]float64, K)
	for s := range T {
		row := in.Row(s)
		for j, x := range row {
			if !finiteNonNeg(x) {
				t.Fatalf("accepted h(%d, %d) = %v", s, j, x)
			}
			col[j] += x
		}
		lo += row[argmin(row)]
	}
	hi += col[argmin(col)]
	opt, sched := optimum(t, in)
	// Relative 1e-12: the rounding of ≤ 10⁴ additions of non-negative
	// terms, each within 2⁻⁵³ of its exact value.
	rel := 1e-12 * hi
	if opt < lo-rel || opt > hi+rel || math.Abs(in.Cost(sched)-opt) > rel {
		t.Fatalf("OPT %v outside [C + Σ min h, C + min Σ h] = [%v, %v] or schedule cost %v", opt, lo, hi, in.Cost(sched))
	}
	if n, exact := CountOptimal(in); n < 1 || exact && float64(T)*math.Log(float64(K)) < 40 && float64(n) > math.Pow(float64(K), float64(T)) {
		t.Fatalf("%d optimal schedules of k^T = %d^%d", n, K, T)
	}
	for _, c := range contestants {
		cost, err := RunCost(c.alg(), in)
		if err != nil {
			t.Fatal(err)
		}
		if cost < opt-rel {
			t.Fatalf("%s cost %v < OPT %v", c.name, cost, opt)
		}
		if in.Setup() > 0 && cost > c.bound(in, opt)*(1+1e-12)+rel {
			t.Fatalf("%s cost %v above its bound %v (OPT %v)", c.name, cost, c.bound(in, opt), opt)
		}
	}
}

// FuzzCruel feeds arbitrary parameters to DTrack and to the adaptive
// adversary: whatever Reset and Cruel accept must give an instance on
// which the rule-independent facts of spec §6.1 hold (ALG ≥ C +
// (T−1)·min(ε, C), OPT ≤ C + (T−1)ε/k), and DTrack-RR with α = 1 must
// stay within 2k·OPT (spec §6.3).
func FuzzCruel(f *testing.F) {
	f.Add(uint8(2), uint16(6), 2.0, 1.0, 1.0, 0.0, uint8(0))
	f.Add(uint8(3), uint16(400), 10.0, 1.0, 1.0, 1.0, uint8(2))
	f.Add(uint8(0), uint16(5), -1.0, math.NaN(), -1.0, 2.0, uint8(9))
	f.Fuzz(func(t *testing.T, k uint8, T uint16, C, eps, alpha, beta float64, policy uint8) {
		K, TT := int(k%9), int(T%2000)
		alg := &DTrack{Policy: Policy(policy % 4), Alpha: alpha, Beta: beta}
		in, sched, err := Cruel(alg, K, TT, C, eps)
		if err != nil {
			return
		}
		if K < 1 || TT < 1 || !(C >= 0) || !(eps >= 0) || !(alpha >= 0) || beta > alpha {
			t.Fatalf("accepted k = %d, T = %d, C = %v, eps = %v, α = %v, β = %v", K, TT, C, eps, alpha, beta)
		}
		x := float64(TT-1) * eps
		if C+x > 1e300 {
			return // sums overflow; nothing left to compare
		}
		cost, opt := in.Cost(sched), OptimumCost(in)
		// Relative 1e-12: rounding of ≤ 2000 additions.
		slack := 1e-12 * (C + x)
		if low := C + float64(TT-1)*min(eps, C); cost < low-slack {
			t.Fatalf("ALG %v < C + (T−1)·min(ε, C) = %v", cost, low)
		}
		if opt > C+x/float64(K)+slack {
			t.Fatalf("OPT %v > C + (T−1)ε/k = %v", opt, C+x/float64(K))
		}
		if alg.Policy == RoundRobin && alpha == 1 && cost > float64(2*K)*opt*(1+1e-12)+slack {
			t.Fatalf("DTrack-RR cost %v > 2k·OPT = %v", cost, float64(2*K)*opt)
		}
	})
}
