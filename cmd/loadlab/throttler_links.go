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

// kirchhoffObjective reports whether "design --add" minimises the
// Kirchhoff index: --objective kirchhoff, or no --objective on a graph
// above the dense limit (where ρ₂'s greedy cannot run).
func kirchhoffObjective(objective string, n int) (bool, error) {
	switch objective {
	case "kirchhoff":
		return true, nil
	case "rho2":
		return false, nil
	case "":
		return n > spectral.DenseMaxNodes, nil
	}
	return false, usagef("--objective %q: want rho2 or kirchhoff", objective)
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
	q.add("best K_f with k links ≥", res.Lower, nil, nil, "", "certified lower bound (convex relaxation, spec §13.13)")
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
