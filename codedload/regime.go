package codedload

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
)

// Regime is the analysed regime of proximity-aware two choices (spec §6.2
// T-2choice, §12.3): on the √n×√n torus, K = n files of uniform
// popularity, caches of M = ⌈n^Alpha⌉ files (at most n) and a search
// radius r = max(1, round(n^Beta)), with Alpha + 2·Beta ≥ 1 so that the
// ball of radius r holds about 2r²M/K ≈ 2n^(Alpha+2·Beta−1) holders of a
// file.
type Regime struct {
	Alpha, Beta float64
}

// Validate returns an error wrapping loadlab.ErrInvalid unless 0 ≤ Alpha
// ≤ 1, 0 ≤ Beta ≤ 1/2 and Alpha + 2·Beta ≥ 1.
func (r Regime) Validate() error {
	switch {
	case !(r.Alpha >= 0 && r.Alpha <= 1):
		return loadlab.Invalid(pkg, "Regime.Alpha = %v, want 0 ≤ α ≤ 1", r.Alpha)
	case !(r.Beta >= 0 && r.Beta <= 0.5):
		return loadlab.Invalid(pkg, "Regime.Beta = %v, want 0 ≤ β ≤ 1/2", r.Beta)
	case r.Alpha+2*r.Beta < 1:
		return loadlab.Invalid(pkg, "Regime.Alpha + 2·Regime.Beta = %v + 2·%v < 1, want ≥ 1 (the analysed regime)", r.Alpha, r.Beta)
	}
	return nil
}

// Config returns the regime's configuration at n servers: the exact torus
// of n nodes, Files = n, Cache = min(n, ⌈n^Alpha⌉), uniform popularity,
// proportional placement and TwoChoice{Radius: max(1, round(n^Beta))}.
// It returns the error of Validate, of NewTorus (n not a perfect square)
// and of Config.Validate (sizes).
func (r Regime) Config(n int) (Config, error) {
	if err := r.Validate(); err != nil {
		return Config{}, err
	}
	tor, err := NewTorus(n)
	if err != nil {
		return Config{}, err
	}
	fn := float64(n)
	m := min(n, int(math.Ceil(math.Pow(fn, r.Alpha))))
	rad := max(1, int(math.Round(math.Pow(fn, r.Beta))))
	c := Config{Topology: tor, Files: n, Cache: m, Strategy: TwoChoice{Radius: rad}}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// RegimeResult is the maximum load of two choices in its regime against n
// (spec §12.3), with straight-line fits of the mean against ln ln n and
// against ln n.
type RegimeResult struct {
	Regime Regime
	Points []PointResult // X = n
	// LogLog fits E[L_max] ≈ a + b·ln ln n; Log fits a + b·ln n.
	LogLog, Log LineFit
}

// RegimeStudy runs the regime at every n in ns (perfect squares ≥ 16)
// with runs(n) runs, run r of size i on loadlab.Stream(seed, i, r, ·) as
// in Sweep, and fits the mean maximum load against ln ln n and ln n
// (FitLine, spec §12.3). Errors are those of Regime.Config (with the
// size), of Sweep and of FitLine; an n < 16 (ln ln n below 1) or runs(n)
// < 2 is an error wrapping loadlab.ErrInvalid. It panics if runs is nil.
func RegimeStudy(ns []int, r Regime, runs func(n int) int, seed uint64, set *SweepSettings) (*RegimeResult, error) {
	if runs == nil {
		panic(pkg + ": RegimeStudy: nil runs")
	}
	pts := make([]Point, len(ns))
	for i, n := range ns {
		if n < 16 {
			return nil, loadlab.Invalid(pkg, "RegimeStudy: ns[%d] = %d, want ≥ 16", i, n)
		}
		if k := runs(n); k < 2 {
			return nil, loadlab.Invalid(pkg, "RegimeStudy: runs(%d) = %d, want ≥ 2", n, k)
		}
		c, err := r.Config(n)
		if err != nil {
			return nil, fmt.Errorf("size %d: %w", n, err)
		}
		pts[i] = Point{X: float64(n), Config: c, Runs: runs(n)}
	}
	res, err := Sweep(pts, 1, seed, set)
	if res == nil {
		return nil, err
	}
	out := &RegimeResult{Regime: r, Points: res}
	var ferr error
	if out.LogLog, ferr = fitAgainst(res, func(n float64) float64 { return math.Log(math.Log(n)) }); ferr != nil {
		return nil, ferr
	}
	if out.Log, ferr = fitAgainst(res, math.Log); ferr != nil {
		return nil, ferr
	}
	return out, err
}
