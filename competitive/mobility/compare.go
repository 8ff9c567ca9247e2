package mobility

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/mc"
)

// Contender is a named online algorithm for the simulations.
type Contender struct {
	Name string
	// New returns a fresh algorithm for one run; sc is the run's scene
	// and src a random stream private to this (run, contender) pair.
	New func(sc *Scene, src rand.Source) competitive.Online
}

// Baselines returns the online algorithms that use no prediction:
// DTrack-RR, DTrack-F, DTrack-B(β = 0) (all α = 1, strict trigger),
// CTrack (α = 1, skip), the work function algorithm and the randomised
// Marking.
func Baselines() []Contender {
	return []Contender{
		{"DTrack-RR", func(*Scene, rand.Source) competitive.Online { return competitive.NewDTrack(competitive.RoundRobin) }},
		{"DTrack-F", func(*Scene, rand.Source) competitive.Online { return competitive.NewDTrack(competitive.Forward) }},
		{"DTrack-B", func(*Scene, rand.Source) competitive.Online { return competitive.NewDTrack(competitive.Backward) }},
		{"CTrack", func(*Scene, rand.Source) competitive.Online { return competitive.NewCTrack() }},
		{"WFA", func(*Scene, rand.Source) competitive.Online { return &competitive.WFA{} }},
		{"Marking", func(_ *Scene, src rand.Source) competitive.Online { return &competitive.Marking{Src: src} }},
	}
}

// TargetAware returns the Target-Aware algorithm of spec §7 with a
// look-ahead of window slots and target noise σ = noise metres (see
// Lookahead and the package documentation); a noise that is not > 0
// means exact prediction. Without a walk in the scene it is DTrack-RR. A
// negative window makes every run fail with Lookahead's Reset error.
func TargetAware(window int, noise float64) Contender {
	return motionAware(fmt.Sprintf("Target-Aware(%d)", window), window, noise, false)
}

// DirectionAware returns the Direction-Aware algorithm of spec §7:
// Target-Aware towards the point window slots straight ahead. Window and
// noise are as for TargetAware.
func DirectionAware(window int, noise float64) Contender {
	return motionAware(fmt.Sprintf("Direction-Aware(%d)", window), window, noise, true)
}

func motionAware(name string, window int, noise float64, direction bool) Contender {
	return Contender{name, func(sc *Scene, src rand.Source) competitive.Online {
		a := &competitive.Lookahead{Window: window}
		if sc.Walk != nil {
			a.Forecaster = newForecast(sc, direction, noise, src)
		}
		return a
	}}
}

// TargetForecast returns Target-Aware's predictor for the walk of sc:
// it knows the current way-point and the speed; noise is the standard
// deviation in metres of the announced way-point's error, drawn from src
// once per leg (not > 0: exact). It panics if sc has no walk.
func TargetForecast(sc *Scene, noise float64, src rand.Source) competitive.Forecaster {
	return newForecast(sc, false, noise, src)
}

// DirectionForecast returns Direction-Aware's predictor for the walk of
// sc: it knows the heading and the speed only. It panics if sc has no
// walk.
func DirectionForecast(sc *Scene, noise float64, src rand.Source) competitive.Forecaster {
	return newForecast(sc, true, noise, src)
}

func newForecast(sc *Scene, direction bool, noise float64, src rand.Source) *forecast {
	if sc.Walk == nil {
		panic("mobility: forecast without a walk")
	}
	return &forecast{walk: sc.Walk, sites: sc.Sites, direction: direction, noise: noise, rng: rand.New(src)}
}

// Estimate is a sample mean with its 95% Student-t confidence interval.
type Estimate struct {
	Mean, Lo, Hi, StdErr float64
	N                    int
}

func estimate(xs []float64) Estimate {
	s := mc.Summarize(xs)
	return Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: s.N}
}

// Result is the performance of one algorithm over the runs: the average
// total cost and the average performance ratio cost/OPT (spec §8).
type Result struct {
	Name        string
	Cost, Ratio Estimate
}

// Compare samples runs independent runs of sc and plays every contender
// on each, returning OPT's result first and then the contenders' in
// order. Run r of sweep point point uses the stream mc.Source(seed,
// point, r) for the scene and mc.Source(seed, point, r, 1+i) for
// contender i, so the result depends only on the arguments, whatever
// the number of goroutines (runs are spread over GOMAXPROCS). It returns
// the first error of a run, in run order.
func Compare(sc Scenario, cs []Contender, runs int, seed, point uint64) ([]Result, error) {
	if runs < 1 {
		return nil, fmt.Errorf("mobility: runs = %d: want ≥ 1", runs)
	}
	cost := make([][]float64, len(cs)+1) // [0] is OPT
	ratio := make([][]float64, len(cs)+1)
	for i := range cost {
		cost[i] = make([]float64, runs)
		ratio[i] = make([]float64, runs)
	}
	errs := make([]error, runs)
	mc.For(runs, 0, func(r int) {
		in, scene, err := sc.Sample(mc.Source(seed, point, uint64(r)))
		if err != nil {
			errs[r] = err
			return
		}
		opt := competitive.OptimumCost(in)
		cost[0][r], ratio[0][r] = opt, 1
		for i, c := range cs {
			alg := c.New(scene, mc.Source(seed, point, uint64(r), uint64(1+i)))
			x, err := competitive.RunCost(alg, in)
			if err != nil {
				errs[r] = fmt.Errorf("mobility: %s: %w", c.Name, err)
				return
			}
			cost[i+1][r], ratio[i+1][r] = x, x/opt
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := make([]Result, len(cs)+1)
	out[0] = Result{"OPT", estimate(cost[0]), estimate(ratio[0])}
	for i, c := range cs {
		out[i+1] = Result{c.Name, estimate(cost[i+1]), estimate(ratio[i+1])}
	}
	return out, nil
}
