package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/spf13/cobra"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// scaleDesignFlags are the flags of "design --weights --resistance"
// (spec §13.12) and "design --weights --objective rho2" (spec §13.14);
// objective and th are copied from the command's other flags.
type scaleDesignFlags struct {
	resistance, gammaOpt bool
	sketch, local        bool
	depth                int
	minW, maxW, tol      float64
	eps                  float64
	objective            string
	th                   throttlerFlags
}

func (f *scaleDesignFlags) register(c *cobra.Command) {
	c.Flags().BoolVar(&f.resistance, "resistance", false, "with --weights: minimise tr L(w)† at any size (spec §13.12)")
	c.Flags().Float64Var(&f.minW, "min-weight", 0, "with --resistance: lower bound on every link weight")
	c.Flags().Float64Var(&f.maxW, "max-weight", math.Inf(1), "with --resistance: upper bound on every link weight")
	c.Flags().Float64Var(&f.tol, "gap-tol", 0.01, "with --resistance: relative certified gap to aim at")
	c.Flags().Float64Var(&f.eps, "sketch-eps", 0.2, "with --resistance above 1000 servers: the certificate's sketch accuracy ε")
	c.Flags().BoolVar(&f.sketch, "sketch", false, "with --resistance or --objective rho2: the sketched path even where an exact one (dense, or sparse Cholesky) would run — faster on large graphs, the certificate at the printed probability")
	c.Flags().BoolVar(&f.local, "local", false, "with --resistance or --objective rho2: the local path (gradients and an exact polynomial certificate from each link's neighbourhood; chosen by default on large expanders)")
	c.Flags().IntVar(&f.depth, "depth", 0, "with --resistance or --objective rho2 on the local path: the polynomials' degree H, 1–8 (0: by the balls' volume)")
	c.Flags().BoolVar(&f.gammaOpt, "gamma-opt", false, "with --weights --objective rho2: design the update cycle γ with the weights (spec §13.14)")
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
	if weights && f.objective == "rho2" {
		return true, a.emitOrErr(a.designRho2AtScale(d, budget, f))
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
	case weights && f.objective == "rho2" && (f.resistance || excess):
		return usagef("--objective rho2 and --resistance or --excess are two objectives: give one")
	case f.gammaOpt && !(weights && f.objective == "rho2"):
		return usagef("--gamma-opt goes with --weights --objective rho2")
	case f.gammaOpt && f.th.gamma != 0:
		return usagef("--gamma and --gamma-opt: give one")
	}
	return nil
}

// designWeightsAtScale answers "design --weights" on the scalable path:
// every existing link a candidate of unit cost, the budget (default the
// current total) and uniform per-link bounds --min-weight/--max-weight.
func (a *app) designWeightsAtScale(d *graphio.Data, budget float64, f scaleDesignFlags) (*answer, error) {
	p, edges, err := scaleProblem(d, budget, f)
	if err != nil {
		return nil, err
	}
	pr := a.startProgress(-1, "weight design at scale")
	wd, err := consensus.DesignWeightsAtScale(p, &consensus.ScaleDesignSettings{Tol: f.tol, Eps: f.eps, Sketch: f.sketch, Local: f.local, Depth: f.depth}, rand.NewPCG(a.seed, 6))
	pr.done()
	if wd == nil {
		return nil, err
	}
	t := weightsTable(d.Labels, edges, wd.Weights)
	s := quantityTable("certificate")
	method := designMethod(wd.Exact, wd.Sparse, wd.SketchColumns)
	if wd.Local {
		method = fmt.Sprintf("local path, degree %d; 95 %% interval by Hutchinson", wd.Depth)
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

// scaleProblem is the problem of the scalable weight designs: every
// existing link a candidate of unit cost, the budget (default the
// current total) and uniform per-link bounds --min-weight/--max-weight;
// it checks those flags and --gap-tol and --sketch-eps.
func scaleProblem(d *graphio.Data, budget float64, f scaleDesignFlags) (consensus.TraceWeightProblem, []wgraph.Edge, error) {
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
		return p, nil, usagef("want 0 ≤ --min-weight ≤ --max-weight, got %v and %v", f.minW, f.maxW)
	}
	if !(f.tol > 0 && f.tol < 1) || !(f.eps > 0 && f.eps < 1) {
		return p, nil, usagef("--gap-tol and --sketch-eps must lie in (0, 1), got %v and %v", f.tol, f.eps)
	}
	switch {
	case f.depth < 0 || f.depth > 8:
		return p, nil, usagef("--depth must lie in 0–8, got %d", f.depth)
	case f.local && f.sketch:
		return p, nil, usagef("--local and --sketch are two paths: give one")
	}
	return p, edges, nil
}

// designRho2AtScale answers "design --weights --objective rho2": ρ₂ at
// --gamma (default γ*_H2 of the input graph up to the dense limit), or
// jointly over the cycle with --gamma-opt (spec §13.14), exact up to
// 1000 servers and sketched above, with its certificate.
func (a *app) designRho2AtScale(d *graphio.Data, budget float64, f scaleDesignFlags) (*answer, error) {
	p, edges, err := scaleProblem(d, budget, f)
	if err != nil {
		return nil, err
	}
	set := &consensus.ScaleDesignSettings{Tol: f.tol, Eps: f.eps, Sketch: f.sketch, Local: f.local, Depth: f.depth}
	src := rand.NewPCG(a.seed, 7)
	var wd *consensus.Rho2WeightDesign
	if f.gammaOpt {
		pr := a.startProgress(-1, "ρ₂ weight and cycle design")
		wd, err = consensus.DesignRho2CycleAtScale(p, set, src)
		pr.done()
	} else {
		gamma := f.th.gamma
		if gamma == 0 {
			if d.Graph.Order() > spectral.DenseMaxNodes {
				return nil, usagef("--objective rho2 above %d servers: give --gamma G or --gamma-opt", spectral.DenseMaxNodes)
			}
			th, terr := designThrottler(d.Graph, f.th)
			if terr != nil {
				return nil, terr
			}
			gamma = th.Gamma
		}
		pr := a.startProgress(-1, "ρ₂ weight design")
		wd, err = consensus.DesignRho2AtScale(consensus.Rho2WeightProblem{TraceWeightProblem: p, Gamma: gamma}, set, src)
		pr.done()
	}
	if wd == nil {
		return nil, err
	}
	return rho2Answer(d, edges, p.Budget, f, wd), err
}

// rho2Answer is the answer of "design --weights --objective rho2": the
// weights and the certificate.
func rho2Answer(d *graphio.Data, edges []wgraph.Edge, budget float64, f scaleDesignFlags, wd *consensus.Rho2WeightDesign) *answer {
	t := weightsTable(d.Labels, edges, wd.Weights)
	s := quantityTable("certificate")
	method := designMethod(wd.Exact, wd.Sparse, wd.SketchColumns)
	if wd.Local {
		method = fmt.Sprintf("local path, degree %d; exact up to 1000 servers, else a 95 %% interval", wd.Depth)
	}
	how := "given (--gamma)"
	if f.gammaOpt {
		how = "designed with the weights (spec §13.14)"
	} else if f.th.gamma == 0 {
		how = "γ*_H2 of the input graph"
	}
	s.add("γ", wd.Gamma, nil, nil, "time", how)
	s.add("ρ₂ at the design", wd.Value.Mean, wd.Value.Lo, wd.Value.Hi, "load²", method)
	s.add("lower bound on the optimum", wd.Lower, wd.Lower, nil, "load²", fmt.Sprintf("holds with probability ≥ %.3g", wd.Confidence))
	s.add("certified gap", wd.Gap, nil, nil, "load²", wd.Status.String())
	s.add("relative gap", wd.Gap/wd.Value.Hi, nil, nil, "", fmt.Sprintf("want ≤ %g", f.tol))
	s.add("γ·λ_n (stability)", wd.Gamma*wd.LambdaMax.Est, wd.Gamma*wd.LambdaMax.Lo, wd.Gamma*wd.LambdaMax.Hi, "", "< 2: stable (certified bracket)")
	s.add("budget", budget, nil, nil, "weight", "")
	s.add("iterations", wd.Iterations, nil, nil, "", fmt.Sprintf("%d solves of L, %d of 2I − γL", wd.Solves, wd.ShiftedSolves))
	notes := []string{"Objective ρ₂(γ; L(w)) with σ = 1 (spec §4.4, §13.14); with --gamma-opt the minimum over every cycle γ."}
	return &answer{tables: []*table{t, s}, value: wd, notes: notes}
}

// designMethod names the path a scalable weight design took.
func designMethod(exact, sparse bool, columns int) string {
	switch {
	case sparse:
		return "exact (sparse Cholesky)"
	case exact:
		return "exact (dense)"
	}
	return fmt.Sprintf("sketch, 95 %% interval; %d columns", columns)
}
