package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/spf13/cobra"

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

func (f *scaleDesignFlags) register(c *cobra.Command) {
	c.Flags().BoolVar(&f.resistance, "resistance", false, "with --weights: minimise tr L(w)† at any size (spec §13.12)")
	c.Flags().Float64Var(&f.minW, "min-weight", 0, "with --resistance: lower bound on every link weight")
	c.Flags().Float64Var(&f.maxW, "max-weight", math.Inf(1), "with --resistance: upper bound on every link weight")
	c.Flags().Float64Var(&f.tol, "gap-tol", 0.01, "with --resistance: relative certified gap to aim at")
	c.Flags().Float64Var(&f.eps, "sketch-eps", 0.2, "with --resistance above 1000 servers: the certificate's sketch accuracy ε")
}

// emitOrErr emits an answer (when there is one) and returns err.
func (a *app) emitOrErr(ans *answer, err error) error {
	if ans != nil {
		if eerr := a.emit(ans); eerr != nil {
			return eerr
		}
	}
	return err
}

// designAtScale answers "design --weights" on the scalable path when it
// applies (done): asked for with --resistance, or --weights without
// --excess on a graph above the dense limit. It refuses --resistance
// without --weights or with --excess.
func (a *app) designAtScale(d *graphio.Data, budget float64, weights, excess bool, f scaleDesignFlags) (done bool, err error) {
	if err := f.mode(weights, excess); err != nil {
		return true, err
	}
	if !weights || excess || !(f.resistance || d.Graph.Order() > spectral.DenseMaxNodes) {
		return false, nil
	}
	return true, a.emitOrErr(a.designWeightsAtScale(d, budget, f))
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
	t := weightsTable(d.Labels, edges, wd.Weights)
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
