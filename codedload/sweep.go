package codedload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
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
	// (fewer runs at the largest sizes, say); 0 means Sweep's runs.
	// Negative values are an error.
	Runs int
}

// PointResult holds the runs of one point and their summaries: mean,
// two-sided 95 % Student-t interval of the mean, standard error and number
// of runs (with one run the interval is NaN).
type PointResult struct {
	X                     float64
	MaxLoad, Cost, Outage loadlab.Estimate
	Runs                  []*Result
	// Status is Success for fixed runs and for a point that met
	// SweepSettings.Precision, IterationLimit for one stopped by its
	// cap (see SweepPrecise).
	Status loadlab.Status
}

// SweepSettings tunes Sweep; a nil *SweepSettings means the defaults.
type SweepSettings struct {
	// Workers is the number of goroutines; 0 means GOMAXPROCS. Results
	// do not depend on it. Negative values are an error.
	Workers int
	// Logf, if not nil, receives progress lines (about ten per sweep,
	// one per round with a Precision). It is called from one goroutine
	// at a time.
	Logf func(format string, args ...any)
	// Precision, if not zero, runs every point until its MaxLoad and
	// Cost both meet it, Sweep's runs (or Point.Runs) being the pilot
	// (see Sweep); zero means the fixed runs.
	Precision loadlab.Precision
}

// Validate returns an error naming the field if Workers is negative or
// Precision is invalid. A nil *SweepSettings is valid (the defaults).
func (s *SweepSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.Workers < 0 {
		return loadlab.Invalid(pkg, "SweepSettings.Workers = %d, want ≥ 0 (0: GOMAXPROCS)", s.Workers)
	}
	if err := s.Precision.Validate(); err != nil {
		return fmt.Errorf("%s: SweepSettings: %w", pkg, err)
	}
	return nil
}

// Sweep runs every point runs times (or Point.Runs times) and summarises
// the runs. Run r of point i is points[i].Run(seed, i, r), on the streams
// loadlab.Stream(seed, i, r, ·) only, so the results are the same for any
// number of workers and when the runs are computed elsewhere
// (loadlab sweep). It returns the first error met, with the point index:
// runs < 1, a negative Point.Runs, invalid settings, an invalid
// configuration, a failing Build, or a total number of runs too large
// to hold (loadlab.ErrTooLarge). A panic in Build or Run is re-raised on
// the caller's goroutine.
//
// With set.Precision not zero, each point's runs (runs or Point.Runs)
// are its pilot, and its runs go on until its MaxLoad and Cost both have
// a 95 % half-width ≤ Abs or ≤ Rel·|mean| with at least
// loadlab.MinOffMode values off their most frequent value (the rule of
// docs/specs/monte-carlo.md §2; Outage is summarised but not watched, as
// it is 0 in every run of most configurations). Run r of point i is the
// same run as above, so a point that stops after N runs has the result
// of a fixed sweep with N runs, whatever the workers and
// Precision.Batch; len(Runs) and each Estimate's N are the runs used.
// Points whose cap (Precision.MaxRuns) comes first have Status
// IterationLimit, and Sweep returns every point's result with an error
// wrapping loadlab.ErrNotConverged that names them. A pilot above the
// cap is an error wrapping loadlab.ErrInvalid, and points·MaxRuns runs
// too many to hold one wrapping loadlab.ErrTooLarge.
func Sweep(points []Point, runs int, seed uint64, set *SweepSettings) ([]PointResult, error) {
	if err := set.Validate(); err != nil {
		return nil, err
	}
	if set == nil {
		set = &SweepSettings{}
	}
	if !set.Precision.IsZero() {
		return sweepPrecise(points, runs, seed, set)
	}
	start, err := sweepPlan(points, runs)
	if err != nil {
		return nil, err
	}
	total := start[len(points)]
	out := make([][]*Result, len(points))
	for i := range points {
		out[i] = make([]*Result, start[i+1]-start[i])
	}
	errs := make([]error, total)
	progress := newProgress(total, set.Logf)
	mc.For(total, set.Workers, func(j int) {
		i := sort.SearchInts(start, j+1) - 1
		r := j - start[i]
		if out[i][r], errs[j] = points[i].Run(seed, uint64(i), uint64(r)); errs[j] != nil {
			errs[j] = fmt.Errorf("point %d run %d: %w", i, r, errs[j])
		}
		progress.step()
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

// sweepPlan validates the points and returns start, where pair j of the
// flattened loop is run j − start[i] of point i.
func sweepPlan(points []Point, runs int) ([]int, error) {
	if runs < 1 {
		return nil, loadlab.Invalid(pkg, "Sweep: runs = %d, want ≥ 1", runs)
	}
	start := make([]int, len(points)+1)
	for i, p := range points {
		if p.Runs < 0 {
			return nil, loadlab.Invalid(pkg, "Sweep: points[%d].Runs = %d, want ≥ 0 (0: Sweep's runs)", i, p.Runs)
		}
		if p.Build == nil {
			if err := p.Config.Validate(); err != nil {
				return nil, fmt.Errorf("point %d: %w", i, err)
			}
		}
		r := runs
		if p.Runs > 0 {
			r = p.Runs
		}
		if r > math.MaxInt-start[i] {
			return nil, loadlab.TooLarge(pkg, "Sweep: total runs overflow at point %d", i)
		}
		start[i+1] = start[i] + r
	}
	// Per run: a result pointer and an error slot, before the results.
	if err := size.Check(pkg, "Sweep: total runs", start[len(points)], 8+16); err != nil {
		return nil, err
	}
	return start, nil
}

// Run performs one run of the point: it builds the topology from
// loadlab.Stream(seed, path..., 0) if Build is set (Config.Topology
// otherwise), and runs the model (Run) on loadlab.Stream(seed, path...,
// 1). Sweep's run r of point i is points[i].Run(seed, i, r). Errors are
// those of Build and of Run. It panics if p is nil.
func (p *Point) Run(seed uint64, path ...uint64) (*Result, error) {
	cfg := p.Config
	path = slices.Clip(path)
	if p.Build != nil {
		top, err := p.Build(loadlab.Stream(seed, append(path, 0)...))
		if err != nil {
			return nil, err
		}
		cfg.Topology = top
	}
	return Run(cfg, loadlab.Stream(seed, append(path, 1)...))
}

// progress reports about ten progress lines over a sweep, one goroutine at
// a time.
type progress struct {
	total int64
	logf  func(format string, args ...any)
	done  atomic.Int64
	mu    sync.Mutex
}

func newProgress(total int, logf func(string, ...any)) *progress {
	return &progress{total: int64(total), logf: logf}
}

func (p *progress) step() {
	if p.logf == nil {
		return
	}
	k := p.done.Add(1)
	if k*10/p.total != (k-1)*10/p.total {
		p.mu.Lock()
		p.logf("codedload: %d/%d runs done", k, p.total)
		p.mu.Unlock()
	}
}

func summarise(x float64, rs []*Result) PointResult {
	ml, co, ou := make([]float64, len(rs)), make([]float64, len(rs)), make([]float64, len(rs))
	for i, r := range rs {
		ml[i], co[i], ou[i] = r.MaxLoad, r.Cost, r.Outage
	}
	return PointResult{X: x, MaxLoad: stat(ml), Cost: stat(co), Outage: stat(ou), Runs: rs, Status: loadlab.Success}
}

func stat(xs []float64) loadlab.Estimate {
	s := mc.Summarize(xs)
	return loadlab.Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: s.N}
}

// LogEll returns ℓ = ⌈ln n⌉, the Θ(log n) piece count of the coded scheme
// (spec §6.2), and 1 for n < 3.
func LogEll(n int) int {
	if n < 3 {
		return 1
	}
	return int(math.Ceil(math.Log(float64(n))))
}

// SizePoints returns one point per n in ns: the configuration base on a
// topology of family fam with n nodes, and, when ell is not nil and the
// strategy is a Coded, its Ell = ell(n). X is n. With random true the topology is
// drawn afresh for every run; otherwise it is built once here (a random
// family then gives one fixed graph, drawn from loadlab.Stream(n)).
func SizePoints(ns []int, base Config, fam Family, random bool, ell func(n int) int) ([]Point, error) {
	pts := make([]Point, len(ns))
	for i, n := range ns {
		c := base
		c.Strategy = (&Variant{Ell: ell}).at(c.Strategy, n, nil)
		pts[i] = Point{X: float64(n), Config: c}
		if random {
			n := n
			pts[i].Build = func(src rand.Source) (Topology, error) { return fam(n, src) }
			continue
		}
		top, err := fam(n, loadlab.Stream(uint64(n)))
		if err != nil {
			return nil, err
		}
		pts[i].Config.Topology = top
	}
	return pts, nil
}
