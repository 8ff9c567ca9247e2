package mobility

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/competitive"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
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
// Lookahead and the package documentation); noise 0 means exact
// prediction. Without a walk in the scene it is DTrack-RR. A negative
// window, or a noise that is negative, NaN or infinite, makes every run
// fail with an error naming it (wrapping loadlab.ErrInvalid).
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
		if err := validateNoise(name, noise); err != nil {
			return refuse{err}
		}
		a := &competitive.Lookahead{Window: window}
		if sc.Walk != nil {
			a.Forecaster = newForecast(sc, direction, noise, src)
		}
		return a
	}}
}

// refuse is an Online whose Reset returns its error: the way a
// Contender with bad parameters reports them in every run.
type refuse struct{ err error }

func (r refuse) Reset(int, float64) error    { return r.err }
func (r refuse) Step([]float64) (int, error) { return competitive.NoServer, r.err }

func validateNoise(who string, noise float64) error {
	if !(noise >= 0) || noise > math.MaxFloat64 {
		return loadlab.Invalid(pkg, "%s: noise = %v, want finite and ≥ 0 (0 = exact)", who, noise)
	}
	return nil
}

// TargetForecast returns Target-Aware's predictor for the walk of sc:
// it knows the current way-point and the speed; noise is the standard
// deviation in metres of the announced way-point's error, drawn from src
// once per leg (0: exact). It returns an error wrapping
// loadlab.ErrInvalid if noise is negative, NaN or infinite or sc.Walk is
// nil (a required field, docs/conventions.md §2). It panics if sc or src
// is nil; the forecaster's Forecast
// panics if asked about a slot beyond the walk or given a dst shorter
// than w·len(sc.Sites) (the Forecaster contract).
func TargetForecast(sc *Scene, noise float64, src rand.Source) (competitive.Forecaster, error) {
	if err := validateForecast("TargetForecast", sc, noise, src); err != nil {
		return nil, err
	}
	return newForecast(sc, false, noise, src), nil
}

// DirectionForecast returns Direction-Aware's predictor for the walk of
// sc: it knows the heading and the speed only. Errors and panics are as
// for TargetForecast.
func DirectionForecast(sc *Scene, noise float64, src rand.Source) (competitive.Forecaster, error) {
	if err := validateForecast("DirectionForecast", sc, noise, src); err != nil {
		return nil, err
	}
	return newForecast(sc, true, noise, src), nil
}

// validateForecast panics on a nil scene or source (arguments) and
// returns an error for a bad noise or a scene without a walk (a field).
func validateForecast(fn string, sc *Scene, noise float64, src rand.Source) error {
	switch {
	case sc == nil:
		panic("mobility: " + fn + ": scene sc is nil")
	case src == nil:
		panic("mobility: " + fn + ": src is nil")
	case sc.Walk == nil:
		return loadlab.Invalid(pkg, "%s: Scene.Walk is nil, want the scene's walk", fn)
	}
	return validateNoise(fn, noise)
}

func newForecast(sc *Scene, direction bool, noise float64, src rand.Source) *forecast {
	return &forecast{walk: sc.Walk, sites: sc.Sites, direction: direction, noise: noise, rng: rand.New(src)}
}

func estimate(xs []float64) loadlab.Estimate {
	s := mc.Summarize(xs)
	return loadlab.Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: s.N}
}

// Result is the performance of one algorithm over the runs: the average
// total cost and the average performance ratio cost/OPT (spec §8), each
// with its 95 % Student-t interval over the runs.
type Result struct {
	Name        string
	Cost, Ratio loadlab.Estimate
}

// Compare samples runs independent runs of sc and plays every contender
// on each, returning OPT's result first and then the contenders' in
// order. Run r is Play(sc, cs, seed, point, r): its scene draws from
// loadlab.Stream(seed, point, r) and contender i from
// loadlab.Stream(seed, point, r, 1+i), so the result depends only on the
// arguments, whatever the number of goroutines (runs are spread over
// GOMAXPROCS), and a run computed elsewhere (loadlab sweep) is the same.
//
// It returns an error wrapping loadlab.ErrInvalid if runs < 1 or a
// contender's New is nil or returns nil, one wrapping loadlab.ErrTooLarge if the
// per-run results do not fit in memory, and otherwise the first error
// of a run, in run order (a scenario's Sample error, or a contender's
// Reset or Step error, prefixed with its name). It panics, on the
// caller's goroutine, if sc is nil (a programmer error), and re-raises there any panic of a scenario or
// contender in a worker goroutine.
func Compare(sc Scenario, cs []Contender, runs int, seed, point uint64) ([]Result, error) {
	return compare("Compare", sc, cs, runs, seed, point, nil)
}

// validateCompare checks the arguments of Compare or Play (fn) on the
// caller's goroutine.
func validateCompare(fn string, sc Scenario, cs []Contender, runs int) error {
	if sc == nil {
		panic("mobility: " + fn + ": scenario sc is nil")
	}
	for i, c := range cs {
		if c.New == nil {
			return loadlab.Invalid(pkg, "%s: cs[%d].New (%q) is nil, want a constructor", fn, i, c.Name)
		}
	}
	if runs < 1 {
		return loadlab.Invalid(pkg, "%s: runs = %d, want ≥ 1", fn, runs)
	}
	n, ok := size.Mul(runs, len(cs)+1)
	if !ok {
		return loadlab.TooLarge(pkg, "%s: runs·(contenders+1) = %d·%d overflows int", fn, runs, len(cs)+1)
	}
	return size.Check(pkg, fn+": runs·(contenders+1) results", n, 2*8+16)
}

// play samples run r and plays OPT and every contender on it, writing
// their costs and ratios into slot r.
func play(sc Scenario, cs []Contender, r int, seed, point uint64, cost, ratio [][]float64) error {
	c, q, err := playRun(sc, cs, seed, []uint64{point, uint64(r)})
	if err != nil {
		return err
	}
	for i := range c {
		cost[i][r], ratio[i][r] = c[i], q[i]
	}
	return nil
}

// Play plays one run of Compare: it samples an instance of sc and its
// scene from the stream loadlab.Stream(seed, path...) and plays OPT and
// every contender on it, contender i drawing from loadlab.Stream(seed,
// path..., 1+i). It returns the costs and performance ratios cost/OPT
// (spec §8) of OPT (first, ratio 1) and of every contender in order.
// Compare's run r at sweep point point is Play(sc, cs, seed, point, r).
// Errors are those of a run of Compare (a contender's New that is nil
// or returns nil, a scenario's Sample error, a contender's Reset or
// Step error prefixed with its name). It panics if sc is nil, and a
// panic of the scenario or a contender propagates.
func Play(sc Scenario, cs []Contender, seed uint64, path ...uint64) (cost, ratio []float64, err error) {
	if err := validateCompare("Play", sc, cs, 1); err != nil {
		return nil, nil, err
	}
	return playRun(sc, cs, seed, path)
}

// playRun is Play on validated arguments.
func playRun(sc Scenario, cs []Contender, seed uint64, path []uint64) (cost, ratio []float64, err error) {
	path = slices.Clip(path)
	in, scene, err := sc.Sample(loadlab.Stream(seed, path...))
	if err != nil {
		return nil, nil, err
	}
	cost = make([]float64, len(cs)+1)
	ratio = make([]float64, len(cs)+1)
	opt := competitive.OptimumCost(in)
	cost[0], ratio[0] = opt, 1
	for i, c := range cs {
		alg := c.New(scene, loadlab.Stream(seed, append(path, uint64(1+i))...))
		if alg == nil {
			return nil, nil, loadlab.Invalid(pkg, "Compare: contender %q: New returned nil", c.Name)
		}
		x, err := competitive.RunCost(alg, in)
		if err != nil {
			return nil, nil, fmt.Errorf("mobility: %s: %w", c.Name, err)
		}
		q, err := competitive.PerformanceRatio(x, opt)
		if err != nil {
			return nil, nil, fmt.Errorf("mobility: %s: %w", c.Name, err)
		}
		cost[i+1], ratio[i+1] = x, q
	}
	return cost, ratio, nil
}
