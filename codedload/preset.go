package codedload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
)

// Preset is one of the authors' experiments (spec §7.1, §12.4), public so
// that a user can rerun it: a named sweep with its curves (one per
// strategy) and the authors' number of runs per point.
type Preset struct {
	// Name is the key of Presets and LookupPreset ("server-count", …).
	Name string
	// Description says what the sweep varies and on what model.
	Description string
	// X names the quantity of PointResult.X ("n", "M", "ℓ", "γ", "α").
	X string
	// Runs is the authors' number of runs per point.
	Runs int
	// curves builds the curves.
	curves func() []PresetCurve
}

// PresetCurve is one curve of a preset: a name and its points.
type PresetCurve struct {
	Name   string
	Points []Point
}

// Curves returns the preset's curves, built afresh (the caller may change
// them).
func (p Preset) Curves() []PresetCurve { return p.curves() }

// Presets returns the authors' experiments, sorted by name:
//
//   - "cache-size" (Main_CacheSzVar.py): torus n = 2025, K = 100,
//     M ∈ {1, 10, 20, …, 100}, uniform placement; nearest replica and
//     coded ℓ = 10 with chnk_max = 10; 4 runs.
//   - "chunk" (Main_ChnkSzVar.py): torus n = 49, K = 10, M = 1, coded
//     ℓ = 1…10 with chnk_max = 10, uniform placement; 10 runs.
//   - "server-count" (Main_SrvSzVar.py): torus n ∈ {100, …, 5041}, K = 100,
//     M = 2, uniform placement; nearest replica and coded ℓ = ⌈ln n⌉ with
//     chnk_max = 1; 10 runs.
//   - "tradeoff" (S4 simulator_tradeoff): a fresh random geometric graph of
//     n = 2025 per run, K = 500, M = 10, uniform popularity, two choices
//     (c) with 19 stretches α from 0 to 120; 10 runs.
//   - "zipf" (Main_Zipf_GammaVar.py): torus n = 1024, K = 100, M = 2,
//     γ ∈ {0, 0.1, …, 2}, proportional placement; nearest replica and coded
//     ℓ = 10 with chnk_max = 1; 10 runs.
func Presets() []Preset {
	nrCoded := func(f func(Strategy) []Point) func() []PresetCurve {
		return func() []PresetCurve {
			return []PresetCurve{{"nearest replica", f(NearestReplica{})}, {"coded", f(Coded{})}}
		}
	}
	return []Preset{
		{Name: "cache-size", X: "M", Runs: 4, Description: "torus n = 2025, K = 100, cache M = 1…100, uniform placement; nearest replica and coded ℓ = 10, chnk_max = 10",
			curves: nrCoded(func(s Strategy) []Point { return cacheSweep(s, 10) })},
		{Name: "chunk", X: "ℓ", Runs: 10, Description: "torus n = 49, K = 10, M = 1, uniform placement; coded ℓ = 1…10, chnk_max = 10",
			curves: func() []PresetCurve { return []PresetCurve{{"coded", chunkSweep()}} }},
		{Name: "server-count", X: "n", Runs: 10, Description: "torus n = 100…5041, K = 100, M = 2, uniform placement; nearest replica and coded ℓ = ⌈ln n⌉, chnk_max = 1",
			curves: nrCoded(serverSweep)},
		{Name: "tradeoff", X: "α", Runs: 10, Description: "random geometric graph n = 2025 (fresh per run), K = 500, M = 10; two choices (c) with stretch α = 0…120",
			curves: func() []PresetCurve { return []PresetCurve{{"two choices (c)", tradeoffSweep()}} }},
		{Name: "zipf", X: "γ", Runs: 10, Description: "torus n = 1024, K = 100, M = 2, Zipf γ = 0…2, proportional placement; nearest replica and coded ℓ = 10, chnk_max = 1",
			curves: nrCoded(func(s Strategy) []Point { return zipfSweep(s, 10) })},
	}
}

// LookupPreset returns the preset called name, or an error wrapping
// loadlab.ErrInvalid that lists the names.
func LookupPreset(name string) (Preset, error) {
	ps := Presets()
	i := slices.IndexFunc(ps, func(p Preset) bool { return p.Name == name })
	if i < 0 {
		names := make([]string, len(ps))
		for j, p := range ps {
			names[j] = p.Name
		}
		return Preset{}, loadlab.Invalid(pkg, "preset %q, want one of %q", name, names)
	}
	return ps[i], nil
}

// RunPreset runs every curve of p with runs runs per point (0: p.Runs) as
// one Sweep over the curves' points in order (run r of point i of that
// list on loadlab.Stream(seed, i, r, ·)), and returns one Curve per
// PresetCurve. Errors are those of Sweep (runs < 0 wraps
// loadlab.ErrInvalid); with a Precision the curves come back whole with
// Sweep's error wrapping loadlab.ErrNotConverged when a point stopped at
// its cap.
func RunPreset(p Preset, runs int, seed uint64, set *SweepSettings) ([]Curve, error) {
	if p.curves == nil {
		return nil, loadlab.Invalid(pkg, "RunPreset: preset %q is not one of Presets", p.Name)
	}
	if runs < 0 {
		return nil, loadlab.Invalid(pkg, "RunPreset: runs = %d, want ≥ 0 (0: the preset's)", runs)
	}
	if runs == 0 {
		runs = p.Runs
	}
	cs := p.Curves()
	var pts []Point
	for _, c := range cs {
		pts = append(pts, c.Points...)
	}
	res, err := Sweep(pts, runs, seed, set)
	if res == nil {
		return nil, fmt.Errorf("preset %s: %w", p.Name, err)
	}
	out := make([]Curve, len(cs))
	k := 0
	for i, c := range cs {
		out[i] = Curve{Name: c.Name, Points: res[k : k+len(c.Points)]}
		k += len(c.Points)
	}
	return out, err
}

// The reference simulators' experiments (spec §7.1, S3 and S4 drivers).
// Each function returns the points of one sweep for strategy s (ℓ = 1
// unless s is Coded; see each function for ℓ); Presets names them.

// serverCounts are the torus sizes of the server-count sweep (spec §7.1).
var serverCounts = []int{100, 144, 225, 289, 400, 625, 900, 1225, 2025, 3025, 4096, 5041}

// serverSweep is the server-count sweep (Main_SrvSzVar.py): torus with n in
// serverCounts, K = 100, M = 2, uniform placement, chnk_max = 1; Coded uses
// ℓ = ⌈ln n⌉ (the committed driver has ℓ = 1, which is nearest replica).
func serverSweep(s Strategy) []Point {
	base := Config{Files: 100, Cache: 2, Strategy: s, Placement: Uniform}
	if _, ok := s.(Coded); ok {
		base.Strategy = Coded{ChunkCap: 1}
	}
	pts, err := SizePoints(serverCounts, base, TorusFamily, false, LogEll)
	if err != nil {
		panic(err) // serverCounts are perfect squares
	}
	return pts
}

// cacheSweep is the cache-size sweep (Main_CacheSzVar.py): torus n = 2025,
// K = 100, M ∈ {1, 10, 20, …, 100}, uniform placement, chnk_max = 10; Coded
// uses ℓ = ell. X is M.
func cacheSweep(s Strategy, ell int) []Point {
	tor := &Torus{Side: 45}
	if _, ok := s.(Coded); ok {
		s = Coded{Ell: ell, ChunkCap: 10}
	}
	var pts []Point
	for _, m := range []int{1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100} {
		c := Config{Topology: tor, Files: 100, Cache: m, Strategy: s, Placement: Uniform}
		pts = append(pts, Point{X: float64(m), Config: c})
	}
	return pts
}

// chunkSweep is the toy chunk sweep (Main_ChnkSzVar.py): torus n = 49,
// M = 1, K = 10, ℓ = 1..10, uniform placement, chnk_max = 10, Coded. X is ℓ.
func chunkSweep() []Point {
	tor := &Torus{Side: 7}
	var pts []Point
	for ell := 1; ell <= 10; ell++ {
		c := Config{Topology: tor, Files: 10, Cache: 1, Strategy: Coded{Ell: ell, ChunkCap: 10}, Placement: Uniform}
		pts = append(pts, Point{X: float64(ell), Config: c})
	}
	return pts
}

// zipfSweep is the Zipf sweep (Main_Zipf_GammaVar.py): torus n = 1024,
// K = 100, M = 2, γ ∈ {0, 0.1, …, 2}, proportional placement; Coded uses
// ℓ = ell with chnk_max = 1. X is γ.
func zipfSweep(s Strategy, ell int) []Point {
	tor := &Torus{Side: 32}
	if _, ok := s.(Coded); ok {
		s = Coded{Ell: ell, ChunkCap: 1}
	}
	var pts []Point
	for i := 0; i <= 20; i++ {
		g := float64(i) / 10
		c := Config{Topology: tor, Files: 100, Cache: 2, Gamma: g, Strategy: s}
		pts = append(pts, Point{X: g, Config: c})
	}
	return pts
}

// tradeoffAlphas are the stretch values of the trade-off sweep (spec §5.3 c).
var tradeoffAlphas = []float64{0, 0.2, 0.4, 0.7, 1, math.Sqrt2, math.Sqrt(3), 2, math.Sqrt(6), math.Sqrt(8),
	math.Sqrt(12), 4, 5, 6, 10, 15, 30, 60, 120}

// tradeoffSweep is the radius trade-off of the trade-off paper's simulator
// (spec §5.3 c): TwoChoiceStretch on a fresh RGG with n = 2025 per run,
// M = 10, K = 500, uniform popularity, α in tradeoffAlphas. X is α.
func tradeoffSweep() []Point {
	var pts []Point
	for _, a := range tradeoffAlphas {
		c := Config{Files: 500, Cache: 10, Strategy: TwoChoiceStretch{Alpha: a}}
		pts = append(pts, Point{X: a, Config: c, Build: func(src rand.Source) (Topology, error) { return NewRGG(2025, 0, src) }})
	}
	return pts
}
