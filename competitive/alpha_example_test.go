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

// Predictions of future hold costs: Lookahead trusts them, Guarded falls
// back to WFA when trusting them has cost too much. Exact predictions
// over the whole horizon give OPT; noisy ones cost more, and the guard
// bounds the damage (spec §16).
func ExamplePredictionStudy() {
	var pts []competitive.PredictionPoint
	for _, noise := range []float64{0, 1, 10} {
		pts = append(pts, competitive.PredictionPoint{Servers: 3, Slots: 100, Window: 10, Noise: noise, Lambda: 0.5})
	}
	out, err := competitive.PredictionStudy(pts, 40, 1)
	if err != nil {
		panic(err)
	}
	for _, s := range out {
		fmt.Printf("noise %4.1f·C: lookahead %.2f guarded %.2f (bound %.1f) WFA %.2f never migrate %.2f\n",
			s.Point.Noise, s.Lookahead.Mean, s.Guarded.Mean, s.Bound, s.WFA.Mean, s.NeverMigrate.Mean)
	}
	// Output:
	// noise  0.0·C: lookahead 1.00 guarded 1.00 (bound 9.5) WFA 2.12 never migrate 7.92
	// noise  1.0·C: lookahead 1.37 guarded 1.56 (bound 9.5) WFA 2.06 never migrate 7.66
	// noise 10.0·C: lookahead 2.61 guarded 2.07 (bound 9.5) WFA 2.03 never migrate 8.81
}

// Two sessions that both want server 0, which holds one of them: the
// joint optimum sends the one that loses less elsewhere (spec §17.4).
func ExampleSessionsOptimum() {
	a, _ := competitive.NewInstance([][]float64{{0, 5}, {0, 5}, {0, 5}}, 1)
	b, _ := competitive.NewInstance([][]float64{{0, 1}, {0, 1}, {0, 1}}, 1)
	ss := &competitive.Sessions{In: []*competitive.Instance{b, a}, Capacity: []int{1, 1}}
	opt, sched, _ := competitive.SessionsOptimum(ss)
	seq, _, _ := competitive.SessionsSequential(ss)
	fmt.Println(opt, sched, seq)
	// Output:
	// 5 [[1 1 1] [0 0 0]] 17
}
