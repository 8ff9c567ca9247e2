package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/spectral"
)

// scaleDesignFlags are the flags of "design --weights --resistance"
// (spec §13.12).
type scaleDesignFlags struct {
	resistance      bool
	minW, maxW, tol float64
	eps             float64
}

// scalable reports whether "design --weights" takes the scalable path:
// asked for with --resistance, or a graph above the dense limit.
func (f *scaleDesignFlags) scalable(n int) bool {
	return f.resistance || n > spectral.DenseMaxNodes
}

// mode checks that --resistance goes with --weights and not --excess.
func (f *scaleDesignFlags) mode(weights, excess bool) error {
	switch {
	case f.resistance && !weights:
		return usagef("--resistance goes with --weights")
	case f.resistance && excess:
		return usagef("--resistance and --excess are two objectives: give one")
	}
	return nil
}

// designWeightsAtScale answers "design --weights" on the scalable path:
// every existing link a candidate of unit cost, the budget (default the
// current total) and uniform per-link bounds --min-weight/--max-weight.
func (a *app) designWeightsAtScale(d *graphio.Data, budget float64, f scaleDesignFlags) (*answer, error) {
	g := d.Graph
	edges := g.Edges()
	p := consensus.TraceWeightProblem{Nodes: g.Order(), Budget: budget}
	var total float64
	for _, e := range edges {
		p.Links = append(p.Links, consensus.Link{U: e.U, V: e.V, Cost: 1})
		total += e.W
	}
	if p.Budget == 0 {
		p.Budget = total
	}
	if f.minW > 0 || !math.IsInf(f.maxW, 1) {
		p.Lo, p.Hi = make([]float64, len(edges)), make([]float64, len(edges))
		for i := range edges {
			p.Lo[i], p.Hi[i] = f.minW, f.maxW
		}
	}
	if !(f.minW >= 0) || !(f.maxW >= f.minW) {
		return nil, usagef("want 0 ≤ --min-weight ≤ --max-weight, got %v and %v", f.minW, f.maxW)
	}
	if !(f.tol > 0 && f.tol < 1) || !(f.eps > 0 && f.eps < 1) {
		return nil, usagef("--gap-tol and --sketch-eps must lie in (0, 1), got %v and %v", f.tol, f.eps)
	}
	pr := a.startProgress(-1, "weight design at scale")
	wd, err := consensus.DesignWeightsAtScale(p, &consensus.ScaleDesignSettings{Tol: f.tol, Eps: f.eps}, rand.NewPCG(a.seed, 6))
	pr.done()
	if wd == nil {
		return nil, err
	}
	t := &table{name: "weights", cols: []string{"u", "v", "weight before", "weight after"}}
	for i, e := range edges {
		t.add(d.Labels[e.U], d.Labels[e.V], e.W, wd.Weights[i])
	}
	s := quantityTable("certificate")
	method := "exact (dense)"
	if !wd.Exact {
		method = fmt.Sprintf("sketch, 95 %% interval; %d columns", wd.SketchColumns)
	}
	s.add("tr L† at the design", wd.Value.Mean, wd.Value.Lo, wd.Value.Hi, "1/weight", method)
	s.add("lower bound on the optimum", wd.Lower, wd.Lower, nil, "1/weight", fmt.Sprintf("holds with probability ≥ %.3g", wd.Confidence))
	s.add("certified gap", wd.Gap, nil, nil, "1/weight", wd.Status.String())
	s.add("relative gap", wd.Gap/wd.Value.Hi, nil, nil, "", fmt.Sprintf("want ≤ %g", f.tol))
	s.add("budget", p.Budget, nil, nil, "weight", "")
	s.add("iterations", wd.Iterations, nil, nil, "", fmt.Sprintf("%d solves", wd.Solves))
	notes := []string{"Objective tr L(w)† = K_f/n, the resistance term of ρ₂ (spec §13.12); the γ of the throttler does not enter."}
	return &answer{tables: []*table{t, s}, value: wd, notes: notes}, err
}
