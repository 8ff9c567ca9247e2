package competitive

import (
	"math"
	"testing"
)

// FuzzInstance feeds arbitrary bytes to NewInstanceFlat; whatever it
// accepts must satisfy the bounds of spec §3 and §6: OPT between its
// closed-form bounds, OPT ≤ every online schedule, DTrack-RR ≤ 2k·OPT,
// WFA ≤ (2k−1)·OPT and CTrack ≤ (2+a)k·OPT.
func FuzzInstance(f *testing.F) {
	f.Add(uint8(2), uint8(3), []byte{0, 5, 0, 5, 5, 0, 5, 0, 5, 0})
	f.Add(uint8(3), uint8(2), []byte{1, 2, 3, 1, 2, 3, 9, 0, 9})
	f.Add(uint8(0), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, k, c uint8, data []byte) {
		K := int(k % 6)
		T := 0
		if K > 0 {
			T = len(data) / K
		}
		h := make([]float64, T*K)
		for i := range h {
			h[i] = float64(data[i]) / 16
			if data[i] == 255 {
				h[i] = math.NaN() // must be rejected
			}
		}
		in, err := NewInstanceFlat(T, K, h, float64(c)/8)
		if err != nil {
			return
		}
		if T < 1 || K < 1 {
			t.Fatalf("accepted T = %d, k = %d", T, K)
		}
		opt, sched := Optimum(in)
		// Hold costs are multiples of 1/16 below 16 and C a multiple of
		// 1/8, so every sum here is exact: the schedule must cost OPT to
		// the last bit.
		if in.Cost(sched) != opt {
			t.Fatalf("schedule cost %v ≠ OPT %v", in.Cost(sched), opt)
		}
		for _, c := range contestants {
			cost, err := RunCost(c.alg(), in)
			if err != nil {
				t.Fatal(err)
			}
			// Relative 1e-12: rounding of ≤ 10⁴ additions.
			if cost < opt*(1-1e-12) {
				t.Fatalf("%s cost %v < OPT %v", c.name, cost, opt)
			}
			if in.Setup() > 0 && cost > c.bound(in, opt)*(1+1e-12) {
				t.Fatalf("%s cost %v above its bound %v (OPT %v)", c.name, cost, c.bound(in, opt), opt)
			}
		}
	})
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
