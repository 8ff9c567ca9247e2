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
		if d := in.Cost(sched) - opt; math.Abs(d) > 1e-9*(1+opt) {
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
