package codedload

import (
	"math"
	"math/rand/v2"
)

// The reference simulator's experiments (spec §7.1, S3 drivers), kept as
// test presets (the figure driver keeps its own). Each returns the points of
// one sweep for strategy s (ℓ = 1 unless s is Coded; see each function for
// ℓ); the authors ran 10 runs per point (4 for the cache-size sweep).

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
	tor, _ := NewTorus(2025)
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
	tor, _ := NewTorus(49)
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
	tor, _ := NewTorus(1024)
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

// must returns v, panicking on err: for calls whose arguments a test knows
// to be valid.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
