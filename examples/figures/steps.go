package main

import (
	"math"

	"github.com/loadlab/loadlab/plots"
	"gonum.org/v1/plot/vg"
)

// threeSteps builds a figure's Make function from its three steps: the
// preset of parameters for the mode (quick or full), the computation,
// which returns the figure's data (its table among it), and the drawing,
// which also states the headline numbers. Presets live here in the driver
// so that the library packages export no figure settings.
func threeSteps[P, D any](preset func(quick bool) P, compute func(plots.Config, P) (D, error), draw func(P, D) *plots.Result) func(plots.Config) (*plots.Result, error) {
	return func(cfg plots.Config) (*plots.Result, error) {
		p := preset(cfg.Quick)
		d, err := compute(cfg, p)
		if err != nil {
			return nil, err
		}
		return draw(p, d), nil
	}
}

// fixed is the preset of a figure that has one size in both modes.
func fixed[P any](p P) func(bool) P { return func(bool) P { return p } }

// cm is a centimetre: figure sizes are given in it.
const cm = vg.Centimeter

// belowRounding returns 0 for a difference v of two computed values of
// size scale that lies within 1e-12·scale of zero (rounding, which would
// print as a raw −4.4e−16), and v otherwise.
func belowRounding(v, scale float64) float64 {
	if math.Abs(v) < 1e-12*math.Abs(scale) {
		return 0
	}
	return v
}
