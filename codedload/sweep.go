package codedload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/loadlab/loadlab/internal/mc"
)

// Family builds a topology of n servers for one run; random families draw
// from src, deterministic ones ignore it.
type Family func(n int, src rand.Source) (Topology, error)

// TorusFamily builds the √n×√n torus with the exact metric.
func TorusFamily(n int, _ rand.Source) (Topology, error) { return NewTorus(n) }

// HypercubeFamily builds the hypercube on n = 2^m nodes.
func HypercubeFamily(n int, _ rand.Source) (Topology, error) { return NewHypercube(n) }

// RGGFamily builds a connected random geometric graph with radius
// RGGRadius(n) (spec §3.1).
func RGGFamily(n int, src rand.Source) (Topology, error) { return NewRGG(n, 0, src) }

// RegularFamily returns the family of connected random d-regular graphs.
func RegularFamily(d int) Family {
	return func(n int, src rand.Source) (Topology, error) { return NewRegular(n, d, src) }
}

// Point is one point of a sweep: a configuration and the value X it stands
// for on a plot's horizontal axis.
type Point struct {
	X      float64
	Config Config
	// Build, if not nil, makes a fresh topology for every run (random
	// graphs); Config.Topology is then ignored.
	Build func(src rand.Source) (Topology, error)
	// Runs, if > 0, overrides the number of runs of Sweep for this point
	// (fewer runs at the largest sizes, say).
	Runs int
}

// Stat summarises one metric over the runs of a point.
type Stat struct {
	Mean, Std, StdErr float64
	Lo, Hi            float64 // two-sided 95% Student-t confidence interval of the mean
}

// PointResult holds the runs of one point and their summaries.
type PointResult struct {
	X                     float64
	MaxLoad, Cost, Outage Stat
	Runs                  []*Result
}

// SweepSettings tunes Sweep; a nil *SweepSettings means the defaults.
type SweepSettings struct {
	// Workers is the number of goroutines; ≤ 0 means GOMAXPROCS. Results
	// do not depend on it.
	Workers int
	// Logf, if not nil, receives progress lines (about ten per sweep).
	// It is called from one goroutine at a time.
	Logf func(format string, args ...any)
}

// Sweep runs every point runs times (or Point.Runs times) and summarises
// the runs. Run r of point
// i uses the random streams derived from (seed, i, r) only, so the results
// are the same for any number of workers. It returns the first error met,
// for example an invalid configuration, with the point index.
func Sweep(points []Point, runs int, seed uint64, set *SweepSettings) ([]PointResult, error) {
	if runs < 1 {
		return nil, fmt.Errorf("codedload: Sweep runs = %d: want ≥ 1", runs)
	}
	if set == nil {
		set = &SweepSettings{}
	}
	for i, p := range points {
		if p.Build == nil {
			if err := p.Config.Validate(); err != nil {
				return nil, fmt.Errorf("point %d: %w", i, err)
			}
		}
	}
	// Pair j of the flattened loop is run j−start[i] of point i.
	start := make([]int, len(points)+1)
	out := make([][]*Result, len(points))
	for i, p := range points {
		r := runs
		if p.Runs > 0 {
			r = p.Runs
		}
		out[i] = make([]*Result, r)
		start[i+1] = start[i] + r
	}
	total := start[len(points)]
	errs := make([]error, total)
	var done atomic.Int64
	var mu sync.Mutex
	mc.For(total, set.Workers, func(j int) {
		i := sort.SearchInts(start, j+1) - 1
		r := j - start[i]
		p := points[i]
		cfg := p.Config
		if p.Build != nil {
			top, err := p.Build(mc.Source(seed, uint64(i), uint64(r), 0))
			if err != nil {
				errs[j] = fmt.Errorf("point %d run %d: %w", i, r, err)
				return
			}
			cfg.Topology = top
		}
		res, err := Run(cfg, mc.Source(seed, uint64(i), uint64(r), 1))
		if err != nil {
			errs[j] = fmt.Errorf("point %d run %d: %w", i, r, err)
			return
		}
		out[i][r] = res
		if set.Logf != nil {
			k := done.Add(1)
			if k*10/int64(total) != (k-1)*10/int64(total) {
				mu.Lock()
				set.Logf("codedload: %d/%d runs done", k, total)
				mu.Unlock()
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	res := make([]PointResult, len(points))
	for i, rs := range out {
		res[i] = summarise(points[i].X, rs)
	}
	return res, nil
}

func summarise(x float64, rs []*Result) PointResult {
	ml, co, ou := make([]float64, len(rs)), make([]float64, len(rs)), make([]float64, len(rs))
	for i, r := range rs {
		ml[i], co[i], ou[i] = r.MaxLoad, r.Cost, r.Outage
	}
	return PointResult{X: x, MaxLoad: stat(ml), Cost: stat(co), Outage: stat(ou), Runs: rs}
}

func stat(xs []float64) Stat {
	s := mc.Summarize(xs)
	return Stat{Mean: s.Mean, Std: s.Std, StdErr: s.StdErr, Lo: s.Lo, Hi: s.Hi}
}

// LogEll returns ℓ = ⌈ln n⌉, the Θ(log n) piece count of the coded scheme
// (spec §6.2).
func LogEll(n int) int { return max(1, int(math.Ceil(math.Log(float64(n))))) }

// SizePoints returns one point per n in ns: the configuration base on a
// topology of family fam with n nodes, and, when ell is not nil and the
// strategy is Coded, Ell = ell(n). X is n. With random true the topology is
// drawn afresh for every run; otherwise it is built once here (a random
// family then gives one fixed graph, drawn from a stream determined by n).
func SizePoints(ns []int, base Config, fam Family, random bool, ell func(n int) int) ([]Point, error) {
	pts := make([]Point, len(ns))
	for i, n := range ns {
		c := base
		if ell != nil && c.Strategy == Coded {
			c.Ell = ell(n)
		}
		pts[i] = Point{X: float64(n), Config: c}
		if random {
			n := n
			pts[i].Build = func(src rand.Source) (Topology, error) { return fam(n, src) }
			continue
		}
		top, err := fam(n, mc.Source(uint64(n)))
		if err != nil {
			return nil, err
		}
		pts[i].Config.Topology = top
	}
	return pts, nil
}

// The reference simulator's experiments (spec §7.1, S3 drivers). Each
// returns the points of one sweep for strategy s (ℓ = 1 unless s is Coded;
// see each function for ℓ); the authors ran 10 runs per point (4 for the
// cache-size sweep).

// ServerCounts are the torus sizes of the server-count sweep (spec §7.1).
var ServerCounts = []int{100, 144, 225, 289, 400, 625, 900, 1225, 2025, 3025, 4096, 5041}

// ServerSweep is the server-count sweep (Main_SrvSzVar.py): torus with n in
// ServerCounts, K = 100, M = 2, uniform placement, chnk_max = 1; Coded uses
// ℓ = ⌈ln n⌉ (the committed driver has ℓ = 1, which is nearest replica).
func ServerSweep(s Strategy) []Point {
	base := Config{Files: 100, Cache: 2, Strategy: s, Placement: Uniform}
	if s == Coded {
		base.ChunkCap = 1
	}
	pts, err := SizePoints(ServerCounts, base, TorusFamily, false, LogEll)
	if err != nil {
		panic(err) // ServerCounts are perfect squares
	}
	return pts
}

// CacheSweep is the cache-size sweep (Main_CacheSzVar.py): torus n = 2025,
// K = 100, M ∈ {1, 10, 20, …, 100}, uniform placement, chnk_max = 10; Coded
// uses ℓ = ell. X is M.
func CacheSweep(s Strategy, ell int) []Point {
	tor, _ := NewTorus(2025)
	var pts []Point
	for _, m := range []int{1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100} {
		c := Config{Topology: tor, Files: 100, Cache: m, Strategy: s, Placement: Uniform}
		if s == Coded {
			c.Ell, c.ChunkCap = ell, 10
		}
		pts = append(pts, Point{X: float64(m), Config: c})
	}
	return pts
}

// ChunkSweep is the toy chunk sweep (Main_ChnkSzVar.py): torus n = 49,
// M = 1, K = 10, ℓ = 1..10, uniform placement, chnk_max = 10, Coded. X is ℓ.
func ChunkSweep() []Point {
	tor, _ := NewTorus(49)
	var pts []Point
	for ell := 1; ell <= 10; ell++ {
		c := Config{Topology: tor, Files: 10, Cache: 1, Strategy: Coded, Ell: ell, ChunkCap: 10, Placement: Uniform}
		pts = append(pts, Point{X: float64(ell), Config: c})
	}
	return pts
}

// ZipfSweep is the Zipf sweep (Main_Zipf_GammaVar.py): torus n = 1024,
// K = 100, M = 2, γ ∈ {0, 0.1, …, 2}, proportional placement; Coded uses
// ℓ = ell with chnk_max = 1. X is γ.
func ZipfSweep(s Strategy, ell int) []Point {
	tor, _ := NewTorus(1024)
	var pts []Point
	for i := 0; i <= 20; i++ {
		g := float64(i) / 10
		c := Config{Topology: tor, Files: 100, Cache: 2, Gamma: g, Strategy: s}
		if s == Coded {
			c.Ell, c.ChunkCap = ell, 1
		}
		pts = append(pts, Point{X: g, Config: c})
	}
	return pts
}

// TradeoffAlphas are the stretch values of the trade-off sweep (spec §5.3 c).
var TradeoffAlphas = []float64{0, 0.2, 0.4, 0.7, 1, math.Sqrt2, math.Sqrt(3), 2, math.Sqrt(6), math.Sqrt(8),
	math.Sqrt(12), 4, 5, 6, 10, 15, 30, 60, 120}

// TradeoffSweep is the radius trade-off of the trade-off paper's simulator
// (spec §5.3 c): TwoChoiceStretch on a fresh RGG with n = 2025 per run,
// M = 10, K = 500, uniform popularity, α in TradeoffAlphas. X is α.
func TradeoffSweep() []Point {
	var pts []Point
	for _, a := range TradeoffAlphas {
		c := Config{Files: 500, Cache: 10, Strategy: TwoChoiceStretch, Alpha: a}
		pts = append(pts, Point{X: a, Config: c, Build: func(src rand.Source) (Topology, error) { return NewRGG(2025, 0, src) }})
	}
	return pts
}
