package codedload_test

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
)

// The tail of the maximum load of coded delivery with ℓ = ⌈ln n⌉ against
// n: P[L_max > c] with its exact binomial 95 % interval over 200 runs.
func ExampleTailStudy() {
	pts, err := codedload.SizePoints([]int{100, 400}, codedload.Config{Files: 100, Cache: 2, Strategy: codedload.Coded{}},
		codedload.TorusFamily, false, codedload.LogEll)
	if err != nil {
		panic(err)
	}
	tails, err := codedload.TailStudy(pts, 200, []float64{2.5, 3}, 1, nil)
	if err != nil {
		panic(err)
	}
	for _, t := range tails {
		fmt.Printf("n=%g ℓ=%d: E[L]=%.2f  P[L>2.5]=%.3f [%.3f, %.3f]  P[L>3]=%.3f [%.3f, %.3f]\n", t.X, t.Ell, t.MaxLoad.Mean,
			t.Tail[0].Mean, t.Tail[0].Lo, t.Tail[0].Hi, t.Tail[1].Mean, t.Tail[1].Lo, t.Tail[1].Hi)
	}
	// Output:
	// n=100 ℓ=5: E[L]=2.27  P[L>2.5]=0.150 [0.104, 0.207]  P[L>3]=0.010 [0.001, 0.036]
	// n=400 ℓ=6: E[L]=2.47  P[L>2.5]=0.230 [0.174, 0.295]  P[L>3]=0.010 [0.001, 0.036]
}

// A straight line through means with their standard errors: the slope
// with its 95 % interval.
func ExampleFitLine() {
	xs := []float64{math.Log(100), math.Log(1000), math.Log(10000)}
	ys := []loadlab.Estimate{{Mean: 2.42, StdErr: 0.03, N: 100}, {Mean: 2.57, StdErr: 0.03, N: 100}, {Mean: 2.64, StdErr: 0.03, N: 100}}
	f, err := codedload.FitLine(xs, ys)
	if err != nil {
		panic(err)
	}
	fmt.Printf("slope %.4f [%.4f, %.4f] per unit of ln n\n", f.Slope.Mean, f.Slope.Lo, f.Slope.Hi)
	// Output:
	// slope 0.0478 [0.0297, 0.0658] per unit of ln n
}

// Proximity-aware two choices in its analysed regime (K = n, M = √n,
// r = n^0.4) against n, with the fitted slope against ln ln n.
func ExampleRegimeStudy() {
	res, err := codedload.RegimeStudy([]int{64, 256, 1024}, codedload.Regime{Alpha: 0.5, Beta: 0.4}, func(int) int { return 20 }, 1, nil)
	if err != nil {
		panic(err)
	}
	for _, p := range res.Points {
		fmt.Printf("n=%g: E[L]=%.2f\n", p.X, p.MaxLoad.Mean)
	}
	fmt.Printf("slope against ln ln n: %.2f [%.2f, %.2f]\n", res.LogLog.Slope.Mean, res.LogLog.Slope.Lo, res.LogLog.Slope.Hi)
	// Output:
	// n=64: E[L]=3.00
	// n=256: E[L]=3.15
	// n=1024: E[L]=3.35
	// slope against ln ln n: 0.68 [-0.08, 1.44]
}

// The authors' toy chunk experiment (Main_ChnkSzVar.py), rerun as a
// preset with 10 runs per point.
func ExampleRunPreset() {
	p, err := codedload.LookupPreset("chunk")
	if err != nil {
		panic(err)
	}
	curves, err := codedload.RunPreset(p, 0, 1, nil)
	if err != nil {
		panic(err)
	}
	for _, pt := range curves[0].Points[:3] {
		fmt.Printf("%s = %g: max load %.2f, cost %.2f\n", p.X, pt.X, pt.MaxLoad.Mean, pt.Cost.Mean)
	}
	// Output:
	// ℓ = 1: max load 4.30, cost 1.85
	// ℓ = 2: max load 3.05, cost 1.62
	// ℓ = 3: max load 2.50, cost 1.57
}

// The cheapest ℓ and chunk cap whose mean maximum load is at most 3 (upper
// end of its 95 % interval) on the 20×20 torus, each chunk priced at 0.05
// hops.
func ExampleDesignCoded() {
	tor, err := codedload.NewTorus(400)
	if err != nil {
		panic(err)
	}
	d := codedload.Design{Target: 3, Ells: []int{2, 4, 6, 8, 10}, ChunkPrice: 0.05, Runs: 40}
	r, err := codedload.DesignCoded(codedload.Config{Topology: tor, Files: 100, Cache: 2}, d, 1, nil)
	if err != nil {
		panic(err)
	}
	b := r.Candidates[r.Best]
	fmt.Printf("ℓ = %d, cap %d: max load %.2f (≤ %.2f), cost %.3f hops, price %.3f\n", b.Ell, b.ChunkCap, b.MaxLoad.Mean, b.MaxLoad.Hi, b.ExactCost, b.Price)
	// Output:
	// ℓ = 4, cap 0: max load 2.89 (≤ 2.98), cost 3.584 hops, price 3.784
}

// The slope of the mean maximum load against ln n for coded delivery with
// ℓ = round(c·ln n), beside nearest replica, on the torus.
func ExampleSlopeStudy() {
	base := codedload.Config{Files: 100, Cache: 2, Strategy: codedload.Coded{}}
	nr := codedload.Variant{Name: "nearest replica", Config: codedload.Config{Files: 100, Cache: 2}}
	curves, err := codedload.SlopeStudy([]int{100, 400, 1600}, codedload.TorusFamily, base, []float64{1}, []codedload.Variant{nr},
		func(int) int { return 20 }, 1, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range curves {
		s := c.Fit.Slope
		fmt.Printf("%s: slope %.2f [%.2f, %.2f] per unit of ln n\n", c.Name, s.Mean, s.Lo, s.Hi)
	}
	// Output:
	// nearest replica: slope 0.76 [0.56, 0.95] per unit of ln n
	// coded c=1: slope 0.10 [0.04, 0.17] per unit of ln n
}

// The authors' experiments by name.
func ExamplePresets() {
	for _, p := range codedload.Presets() {
		fmt.Printf("%s: %d curve(s) against %s, %d runs\n", p.Name, len(p.Curves()), p.X, p.Runs)
	}
	// Output:
	// cache-size: 2 curve(s) against M, 4 runs
	// chunk: 1 curve(s) against ℓ, 10 runs
	// server-count: 2 curve(s) against n, 10 runs
	// tradeoff: 1 curve(s) against α, 10 runs
	// zipf: 2 curve(s) against γ, 10 runs
}
