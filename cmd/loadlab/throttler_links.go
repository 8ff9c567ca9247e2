package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/graphio"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// linkObjective returns the objective of "design --add": kirchhoff,
// rho2 or rho2-star, or with no --objective kirchhoff above the dense
// limit (where ρ₂'s greedy cannot run) and rho2 up to it.
func linkObjective(objective string, n int) (string, error) {
	switch objective {
	case "kirchhoff", "rho2", "rho2-star":
		return objective, nil
	case "":
		if n > spectral.DenseMaxNodes {
			return "kirchhoff", nil
		}
		return "rho2", nil
	}
	return "", usagef("--objective %q: want rho2, rho2-star or kirchhoff", objective)
}

// rho2Certificate returns the table of consensus.AddLinks with LinkRho2
// (the greedy that stops when links stop helping, and the certified
// lower bound on the best ρ₂ at γ with k links), or nil and the reason
// it does not apply to these candidates.
func rho2Certificate(g *wgraph.Graph, cands []wgraph.Edge, k int, gamma, w float64) (*table, string) {
	res, err := consensus.AddLinks(g, cands, k, &consensus.LinkSettings{Weight: w, Objective: consensus.LinkRho2, Gamma: gamma}, nil)
	if err != nil {
		return nil, fmt.Sprintf("No certificate: %v.", err)
	}
	q := quantityTable("ρ₂ certificate")
	q.add("ρ₂ before", res.Before.Mean, nil, nil, "load²", "exact")
	q.add("ρ₂ after", res.After.Mean, nil, nil, "load²", fmt.Sprintf("greedy, %d links (it stops when no link lowers ρ₂)", len(res.Steps)))
	q.add("best ρ₂ with k links ≥", res.Lower, nil, nil, "load²", "certified lower bound (convex relaxation, spec §13.15)")
	q.add("gap", res.Gap, nil, nil, "load²", "ρ₂ after − the best achievable, at most")
	return q, fmt.Sprintf("The best %d links at γ = %.6g leave ρ₂ ≥ %.6g.", k, gamma, res.Lower)
}

// designAddStar answers "design --add K --objective rho2-star":
// consensus.AddLinks with LinkRho2Star (exact, up to 1000 servers), each
// step's gain at the update cycle it was scored at, ρ₂ at γ* before and
// after, and the certified lower bound and gap.
func (a *app) designAddStar(d *graphio.Data, k, hops int, path string, w float64, every int) (*answer, error) {
	if !(w > 0) || math.IsInf(w, 1) {
		return nil, usagef("--link-weight %v: want finite and > 0", w)
	}
	if every < 1 {
		return nil, usagef("--gamma-every %d: want ≥ 1", every)
	}
	if err := wgraph.CheckConnected(d.Graph); err != nil {
		return nil, err
	}
	cands, err := candidateLinks(d, path, w, hops)
	if err != nil {
		return nil, err
	}
	p := a.startProgress(-1, "link addition")
	res, err := consensus.AddLinks(d.Graph, cands, k, &consensus.LinkSettings{Weight: w, Objective: consensus.LinkRho2Star, GammaEvery: every}, rand.NewPCG(a.seed, 3))
	p.done()
	if err != nil {
		return nil, err
	}
	t := &table{name: "added links", cols: []string{"step", "u", "v", "weight", "γ", "ρ₂ gain at γ", "gain lo", "gain hi"}}
	for i, s := range res.Steps {
		t.add(i+1, d.Labels[s.Link.U], d.Labels[s.Link.V], s.Link.W, s.Gamma, s.Gain.Mean, s.Gain.Lo, s.Gain.Hi)
	}
	before, after := "exact, at γ* of the input graph", "exact, at γ* of the graph with the links"
	if res.Method == consensus.LinkSketch {
		before = fmt.Sprintf("estimate at the estimated γ* of the input graph, 95 %% interval; gap at confidence %.3g", res.Confidence)
		after = fmt.Sprintf("estimate at γ = %.6g (the estimated γ* of the graph with the links), 95 %% interval", res.AfterGamma)
	}
	q := quantityTable("ρ₂ at γ*")
	q.add("ρ₂ before", res.Before.Mean, res.Before.Lo, res.Before.Hi, "load²", before)
	q.add("ρ₂ after", res.After.Mean, res.After.Lo, res.After.Hi, "load²", after)
	q.add("γ* after", res.GammaStar.Mean, res.GammaStar.Lo, res.GammaStar.Hi, "cycle", "γ*_H2 of the graph with the links")
	spec := "spec §13.15"
	if res.Method == consensus.LinkSketch {
		spec = "spec §13.17"
	}
	q.add("best ρ₂ with k links ≥", res.Lower, nil, nil, "load²", "certified lower bound ("+spec+")")
	q.add("gap", res.Gap, nil, nil, "load²", "ρ₂ after − the best achievable, at most")
	if res.Method == consensus.LinkSketch {
		q.add("refused", res.Refused, nil, nil, "links", "confirmed candidates not certified stable at the smallest cycle scored")
		q.add("candidates", len(cands), nil, nil, "links", fmt.Sprintf("%d Laplacian solves, %d of 2I − γL", res.Solves, res.ShiftedSolves))
	}
	notes := []string{"γ* is recomputed as links are added; each step scores links at a few cycles at and below γ* (spec §13.15), and its gain is the decrease of the least ρ₂ over those cycles, at the γ shown. AddLinks stops early when no link lowers ρ₂."}
	return &answer{tables: []*table{t, q}, value: res, notes: notes}, nil
}

// designAddKirchhoff answers "design --add K" for the Kirchhoff index:
// consensus.AddLinks (exact up to 1000 servers, sketches and solves
// above) with each step's gain, K_f before and after with intervals,
// and the certified lower bound and gap.
func (a *app) designAddKirchhoff(d *graphio.Data, gamma float64, k, hops int, path string, w float64) (*answer, error) {
	if !(w > 0) || math.IsInf(w, 1) {
		return nil, usagef("--link-weight %v: want finite and > 0", w)
	}
	cands, err := candidateLinks(d, path, w, hops)
	if err != nil {
		return nil, err
	}
	p := a.startProgress(-1, "link addition")
	res, err := consensus.AddLinks(d.Graph, cands, k, &consensus.LinkSettings{Weight: w}, rand.NewPCG(a.seed, 3))
	p.done()
	if err != nil {
		return nil, err
	}
	cols := []string{"step", "u", "v", "weight", "K_f gain", "gain lo", "gain hi", "K_f after"}
	var eff []consensus.LinkEffect
	if gamma > 0 {
		added := make([]wgraph.Edge, len(res.Steps))
		for i, s := range res.Steps {
			added[i] = s.Link
		}
		if eff, err = consensus.LinkStability(&consensus.Throttler{Graph: d.Graph, Gamma: gamma}, added, w); err != nil {
			return nil, err
		}
		cols = append(cols, fmt.Sprintf("alone at γ = %.4g", gamma))
	}
	t := &table{name: "added links", cols: cols}
	kf := []float64{res.Before.Mean}
	for i, s := range res.Steps {
		kf = append(kf, kf[i]-s.Gain.Mean)
		row := []any{i + 1, d.Labels[s.Link.U], d.Labels[s.Link.V], s.Link.W, s.Gain.Mean, s.Gain.Lo, s.Gain.Hi, kf[i+1]}
		if eff != nil {
			row = append(row, eff[i].String())
		}
		t.add(row...)
	}
	method := "exact (dense)"
	if res.Method == consensus.LinkSketch {
		method = fmt.Sprintf("estimate, 95 %% interval; gap at confidence %.3g", res.Confidence)
	}
	imp := res.Before.Mean - res.After.Mean
	q := quantityTable("Kirchhoff index")
	q.add("K_f before", res.Before.Mean, res.Before.Lo, res.Before.Hi, "", method)
	q.add("K_f after", res.After.Mean, res.After.Lo, res.After.Hi, "", method)
	q.add("improvement", imp, nil, nil, "", "sum of the step gains")
	bound := "certified lower bound (convex relaxation, spec §13.13)"
	if res.CertDepth > 0 {
		bound += fmt.Sprintf("; control variate of degree %d", res.CertDepth)
	}
	q.add("best K_f with k links ≥", res.Lower, nil, nil, "", bound)
	q.add("gap", res.Gap, nil, nil, "", "K_f after − the best achievable, at most")
	q.add("candidates", len(cands), nil, nil, "links", fmt.Sprintf("%d solves", res.Solves))
	notes := []string{fmt.Sprintf("The best k links would lower K_f by at most %.4g (greedy: %.4g).", imp+res.Gap, imp)}
	xs := steps(len(kf))
	low := []float64{res.Lower, res.Lower}
	draw := pointsPicture("Kirchhoff index as links are added", "links added", "K_f", true,
		series{name: "K_f", xs: xs, ys: kf, line: true},
		series{name: "certified lower bound at k", xs: []float64{0, float64(k)}, ys: low, line: true})
	return &answer{tables: []*table{t, q}, value: res, notes: notes, draw: draw}, nil
}

// designAddRho2Scale answers "design --add K --objective rho2" above
// consensus.LinkDenseMaxNodes servers: consensus.AddLinks with LinkRho2
// on the sketch path (spec §13.16) at --gamma (default the estimate of
// γ*_H2), each step's gain with its interval, ρ₂ before and after with
// 95 % intervals, the links refused as unstable, and the certified lower
// bound and gap.
func (a *app) designAddRho2Scale(d *graphio.Data, gamma float64, k, hops int, path string, w float64) (*answer, error) {
	if !(w > 0) || math.IsInf(w, 1) {
		return nil, usagef("--link-weight %v: want finite and > 0", w)
	}
	if err := wgraph.CheckConnected(d.Graph); err != nil {
		return nil, err
	}
	cands, err := candidateLinks(d, path, w, hops)
	if err != nil {
		return nil, err
	}
	var notes []string
	if gamma == 0 {
		ge, err := consensus.EstimateGammaH2(d.Graph, 1, nil, rand.NewPCG(a.seed, 5))
		if err != nil {
			return nil, err
		}
		gamma = ge.Gamma.Mean
		notes = append(notes, fmt.Sprintf("γ = %.6g is the estimate of γ*_H2 of the input graph (95 %% interval [%.6g, %.6g]); give --gamma to fix it.", gamma, ge.Gamma.Lo, ge.Gamma.Hi))
	}
	p := a.startProgress(-1, "link addition")
	res, err := consensus.AddLinks(d.Graph, cands, k, &consensus.LinkSettings{Weight: w, Objective: consensus.LinkRho2, Gamma: gamma}, rand.NewPCG(a.seed, 3))
	p.done()
	if err != nil {
		return nil, err
	}
	t := &table{name: "added links", cols: []string{"step", "u", "v", "weight", "ρ₂ gain", "gain lo", "gain hi", "ρ₂ after"}}
	rho := []float64{res.Before.Mean}
	for i, s := range res.Steps {
		rho = append(rho, rho[i]-s.Gain.Mean)
		t.add(i+1, d.Labels[s.Link.U], d.Labels[s.Link.V], s.Link.W, s.Gain.Mean, s.Gain.Lo, s.Gain.Hi, rho[i+1])
	}
	method := fmt.Sprintf("estimate, 95 %% interval; gap at confidence %.3g", res.Confidence)
	q := quantityTable(fmt.Sprintf("ρ₂ at γ = %.6g (σ = 1)", gamma))
	q.add("ρ₂ before", res.Before.Mean, res.Before.Lo, res.Before.Hi, "load²", method)
	q.add("ρ₂ after", res.After.Mean, res.After.Lo, res.After.Hi, "load²", fmt.Sprintf("greedy, %d links (it stops when no link lowers ρ₂)", len(res.Steps)))
	q.add("improvement", res.Before.Mean-res.After.Mean, nil, nil, "load²", "sum of the step gains")
	q.add("best ρ₂ with k links ≥", res.Lower, nil, nil, "load²", "certified lower bound (convex relaxation, spec §13.16)")
	q.add("gap", res.Gap, nil, nil, "load²", "ρ₂ after − the best achievable, at most")
	q.add("refused", res.Refused, nil, nil, "links", "confirmed candidates not certified to keep γλ_n < 2")
	q.add("candidates", len(cands), nil, nil, "links", fmt.Sprintf("%d Laplacian solves, %d of 2I − γL", res.Solves, res.ShiftedSolves))
	notes = append(notes, fmt.Sprintf("The best %d links at γ = %.6g leave ρ₂ ≥ %.6g.", k, gamma, res.Lower))
	draw := pointsPicture("ρ₂ as links are added", "links added", "ρ₂ (load²)", true,
		series{name: "ρ₂", xs: steps(len(rho)), ys: rho, line: true},
		series{name: "certified lower bound at k", xs: []float64{0, float64(k)}, ys: []float64{res.Lower, res.Lower}, line: true})
	return &answer{tables: []*table{t, q}, value: res, notes: notes, draw: draw}, nil
}
