package codedload_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/codedload"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// One run of nearest replica and of coded delivery on the same requests.
func ExampleRun() {
	tor, err := codedload.NewTorus(2500)
	if err != nil {
		panic(err)
	}
	for _, c := range []codedload.Config{
		{Topology: tor, Files: 100, Cache: 2, Strategy: codedload.NearestReplica{}},
		{Topology: tor, Files: 100, Cache: 2, Strategy: codedload.Coded{Ell: codedload.LogEll(2500)}},
	} {
		r, err := codedload.Run(c, rand.NewPCG(1, 2))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%v: ℓ=%d max load %.4g, cost %.3g hops, outage %.2g\n", c.Strategy, r.Ell, r.MaxLoad, r.Cost, r.Outage)
	}
	// Output:
	// nearest replica: ℓ=1 max load 6, cost 4.4 hops, outage 0
	// coded: ℓ=8 max load 2.75, cost 3.44 hops, outage 0
}

// The exact expected cost of spec §6.3 on the infinite grid (K = 100,
// M = 2, uniform popularity) against ℓ, and on a finite torus.
func ExampleCost() {
	p, err := codedload.ZipfPMF(100, 0)
	if err != nil {
		panic(err)
	}
	for _, ell := range []int{1, 2, 5, 10} {
		c, err := codedload.Cost(p, 2, ell, nil)
		if err != nil {
			panic(err)
		}
		fmt.Printf("ℓ=%d: C=%.4f\n", ell, c)
	}
	tor, _ := codedload.NewTorus(100)
	c, err := codedload.Cost(p, 2, 1, tor.Balls())
	if err != nil {
		panic(err)
	}
	out, err := codedload.Outage(p, 100, 2, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("10×10 torus, ℓ=1: C=%.4f, outage %.4f\n", c, out)
	// Output:
	// ℓ=1: C=4.3758
	// ℓ=2: C=3.8638
	// ℓ=5: C=3.5252
	// ℓ=10: C=3.4060
	// 10×10 torus, ℓ=1: C=3.3441, outage 0.1340
}

// Bad input is an error wrapping a named error of package loadlab, naming
// the field and its value; a series too long to sum is refused, not run.
func ExampleConfig_Validate() {
	tor, _ := codedload.NewTorus(100)
	cfg := codedload.Config{Topology: tor, Files: 100, Cache: 1 << 40, Strategy: codedload.Coded{Ell: 1 << 30}}
	err := cfg.Validate()
	fmt.Println(errors.Is(err, loadlab.ErrTooLarge), err)
	cfg.Cache, cfg.Strategy = 2, codedload.TwoChoice{}
	fmt.Println(cfg.Validate())
	_, err = codedload.FileCost(1e-300, 1, 1, nil)
	fmt.Println(errors.Is(err, loadlab.ErrTooLarge))
	// Output:
	// true codedload: Config.Cache·Ell = 1099511627776·1073741824 slots per server, want ≤ 2^24: size too large
	// codedload: TwoChoice.Radius = 0, want ≥ 1: invalid argument
	// true
}

// A sweep over n with 95% confidence intervals; the result does not depend
// on the number of workers.
func ExampleSweep() {
	base := codedload.Config{Files: 100, Cache: 2, Strategy: codedload.Coded{}}
	pts, err := codedload.SizePoints([]int{400, 1600}, base, codedload.TorusFamily, false, codedload.LogEll)
	if err != nil {
		panic(err)
	}
	res, err := codedload.Sweep(pts, 8, 1, &codedload.SweepSettings{Workers: 2})
	if err != nil {
		panic(err)
	}
	for _, p := range res {
		fmt.Printf("n=%g: max load %.2f ∈ [%.2f, %.2f]\n", p.X, p.MaxLoad.Mean, p.MaxLoad.Lo, p.MaxLoad.Hi)
	}
	// Output:
	// n=400: max load 2.60 ∈ [2.32, 2.89]
	// n=1600: max load 2.56 ∈ [2.39, 2.73]
}

// Nearest holders on a random geometric graph are found by breadth-first
// search; the graph is resampled until connected.
func ExampleNewRGG() {
	g, err := codedload.NewRGG(1024, 0, rand.NewPCG(3, 4))
	if err != nil {
		panic(err)
	}
	fmt.Printf("r_n = %.4f, %d nodes\n", codedload.RGGRadius(1024), g.Order())
	// Output:
	// r_n = 0.0920, 1024 nodes
}

// Any connected *wgraph.Graph can carry the simulation; here the 6-cube built by package gen, searched by BFS, gives
// the same result as the closed-form Hypercube for the same seed.
func ExampleFromGraph() {
	q6, err := gen.Hypercube(6)
	if err != nil {
		panic(err)
	}
	w, err := codedload.FromGraph(q6)
	if err != nil {
		panic(err)
	}
	h, _ := codedload.NewHypercube(64)
	for _, top := range []codedload.Topology{w, h} {
		c := codedload.Config{Topology: top, Files: 10, Cache: 2, Strategy: codedload.Coded{Ell: 4}, Ties: codedload.TieLowest}
		r, err := codedload.Run(c, rand.NewPCG(5, 6))
		if err != nil {
			panic(err)
		}
		fmt.Printf("max load %.4g, cost %.4g\n", r.MaxLoad, r.Cost)
	}
	// Output:
	// max load 3, cost 0.8555
	// max load 3, cost 0.8555
}

// Nearest replica, two choices (b) and coded delivery with ℓ = ⌈ln n⌉
// over network sizes, on one random 4-regular graph per size (4 runs per
// size; the far holders of two choices (b) are reached by bidirectional
// BFS).
func ExampleCompareSizes() {
	base := codedload.Config{Files: 20, Cache: 2}
	coded, global := base, base
	coded.Strategy, global.Strategy = codedload.Coded{}, codedload.TwoChoiceGlobal{}
	variants := []codedload.Variant{
		{Name: "nearest replica", Config: base},
		{Name: "two choices (b)", Config: global},
		{Name: "coded", Config: coded, Ell: codedload.LogEll},
	}
	runs := func(int) int { return 4 }
	curves, err := codedload.CompareSizes([]int{256, 2048}, codedload.RegularFamily(4), variants, runs, 1, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range curves {
		for _, p := range c.Points {
			fmt.Printf("%s, n=%g: max load %.3g, cost %.3g\n", c.Name, p.X, p.MaxLoad.Mean, p.Cost.Mean)
		}
	}
	// Output:
	// nearest replica, n=256: max load 5, cost 1.68
	// nearest replica, n=2048: max load 6.5, cost 1.66
	// two choices (b), n=256: max load 3, cost 3.17
	// two choices (b), n=2048: max load 3, cost 3.97
	// coded, n=256: max load 2.75, cost 1.44
	// coded, n=2048: max load 3, cost 1.41
}

// The three tie rules on the reference simulator's Uniform placement, for
// nearest replica on the same placement and requests: TieListOrder takes
// the holder that the simulator's list puts first (the dealt copies first),
// the rule its ℓ = 1 numbers follow. Every rule sends each request to a
// nearest holder, so the costs agree; the servers that serve differ.
func ExampleTieRule() {
	tor, _ := codedload.NewTorus(400)
	var lowest []int32
	for _, ties := range []codedload.TieRule{codedload.TieLowest, codedload.TieRandom, codedload.TieListOrder} {
		cfg := codedload.Config{Topology: tor, Files: 100, Cache: 2, Placement: codedload.Uniform, Ties: ties, KeepLoads: true}
		r, err := codedload.Run(cfg, rand.NewPCG(7, 8))
		if err != nil {
			panic(err)
		}
		if lowest == nil {
			lowest = r.Loads
		}
		differ := 0
		for s, x := range r.Loads {
			if x != lowest[s] {
				differ++
			}
		}
		fmt.Printf("%s: cost %.4f, %d servers loaded differently from lowest index\n", ties, r.Cost, differ)
	}
	// Output:
	// lowest index: cost 4.3925, 0 servers loaded differently from lowest index
	// random: cost 4.3925, 48 servers loaded differently from lowest index
	// list order: cost 4.3925, 2 servers loaded differently from lowest index
}

// A comparison to a requested precision: each strategy runs until its
// maximum load and its cost are known to ±2 % at 95 %, the 10 runs asked
// for being the pilot. The maximum load, an integer under nearest
// replica, sets the runs; the cost needs few.
func ExampleSweep_precision() {
	tor, err := codedload.NewTorus(900)
	if err != nil {
		panic(err)
	}
	pts := []codedload.Point{
		{X: 1, Config: codedload.Config{Topology: tor, Files: 100, Cache: 2}},
		{X: 2, Config: codedload.Config{Topology: tor, Files: 100, Cache: 2, Strategy: codedload.Coded{Ell: 7}}},
	}
	set := &codedload.SweepSettings{Precision: loadlab.Precision{Rel: 0.02}}
	res, err := codedload.Sweep(pts, 10, 1, set)
	if err != nil {
		panic(err)
	}
	for _, p := range res {
		fmt.Printf("%v after %d runs: max load %.2f ± %.2f, cost %.3f ± %.3f\n",
			p.Status, len(p.Runs), p.MaxLoad.Mean, p.MaxLoad.HalfWidth(), p.Cost.Mean, p.Cost.HalfWidth())
	}
	// Output:
	// Success after 200 runs: max load 6.23 ± 0.12, cost 4.381 ± 0.011
	// Success after 61 runs: max load 2.54 ± 0.05, cost 3.459 ± 0.006
}
