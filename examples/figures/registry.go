package main

import (
	"fmt"
	"sort"

	"github.com/loadlab/loadlab/plots"
)

// registry holds every figure, filled by the init functions of the
// per-area files (graphs.go, consensus.go, ...).
var registry = map[string]plots.Figure{}

// register adds figures to the registry. A duplicate name is a programmer
// error and panics at start-up.
func register(figs ...plots.Figure) {
	for _, f := range figs {
		if _, dup := registry[f.Name]; dup {
			panic(fmt.Sprintf("figures: duplicate figure name %q", f.Name))
		}
		if f.Make == nil {
			panic(fmt.Sprintf("figures: figure %q has no Make function", f.Name))
		}
		registry[f.Name] = f
	}
}

// sortedFigures returns the registered figures ordered by name.
func sortedFigures() []plots.Figure {
	out := make([]plots.Figure, 0, len(registry))
	for _, f := range registry {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
