package main

import (
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
