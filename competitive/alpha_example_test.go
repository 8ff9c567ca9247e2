package competitive_test

import (
	"fmt"

	"github.com/loadlab/loadlab/competitive"
)

// DTrack-RR's bound U(α) is least at α* = √(k/(k−1)), not at α = 1; the
// adversary shows that the ratio at α = 1 is exactly 2k (spec §15).
func ExampleBestAlpha() {
	for _, k := range []int{2, 3, 8} {
		a, b, _ := competitive.BestAlpha(k)
		u1, _ := competitive.DTrackBound(k, 1)
		l1, _ := competitive.DTrackCruelLimit(k, 1)
		fmt.Printf("k=%d: α*=%.4f U(α*)=%.4f U(1)=%g L(1)=%g\n", k, a, b, u1, l1)
	}
	// Output:
	// k=2: α*=1.4142 U(α*)=3.4142 U(1)=4 L(1)=4
	// k=3: α*=1.2247 U(α*)=5.4495 U(1)=6 L(1)=6
	// k=8: α*=1.0690 U(α*)=15.4833 U(1)=16 L(1)=16
}

// The α/β study: DTrack-RR's ratio against the adversary built for it
// and on random sticky workloads, beside its bound.
func ExampleAlphaStudy() {
	pts := []competitive.AlphaPoint{{Servers: 2, Alpha: 1}, {Servers: 2, Alpha: 1.5}}
	out, err := competitive.AlphaStudy(pts, 50, 1)
	if err != nil {
		panic(err)
	}
	for _, s := range out {
		fmt.Printf("α=%.1f bound %.2f adversary %.2f random %.2f [%.2f, %.2f]\n",
			s.Point.Alpha, s.Bound, s.Adversary, s.Random.Mean, s.Random.Lo, s.Random.Hi)
	}
	// Output:
	// α=1.0 bound 4.00 adversary 3.74 random 1.56 [1.51, 1.60]
	// α=1.5 bound 3.50 adversary 3.20 random 1.83 [1.76, 1.90]
}
