package consensus

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Greedy is the result of GreedyLinks.
type Greedy struct {
	// Graph is the input graph with the chosen links added (a chosen
	// link that already exists has its weight increased).
	Graph *wgraph.Graph
	// Added lists the chosen candidates in the order they were added.
	Added []wgraph.Edge
	// Rho holds ρ₂ (σ = 1) before any addition, Rho[0], and after each,
	// Rho[i+1], computed by the rank-one updates.
	Rho []float64
}

// GreedyLinks solves Problem C of spec §5.2 greedily for the throttler
// th (graph and update cycle γ): k times, it adds the candidate link
// {U, V} with weight W that gives the smallest ρ₂, using no candidate
// twice. Each round scores every
// candidate in O(n) with the Sherman–Morrison identities of spec §5.2
// (b = e_u − e_v, ω = W, Q = (2I − γL)⁻¹):
//
//	tr (L + ωbbᵀ)† = tr L† − ω‖L†b‖²/(1 + ω r_uv)
//	tr (2I − γL − γωbbᵀ)⁻¹ = tr Q + γω‖Qb‖²/(1 − γω bᵀQb),
//
// and ρ₂ = ½[tr L†/γ + tr Q − ½] (spec §4.4); a candidate with
// 1 − γω bᵀQb ≤ 0 would make the network unstable and is skipped. The
// chosen link updates L† and Q by the matching rank-one corrections in
// O(n²). Since adding a link can raise ρ₂ (spec §5.1 fact 5), the best
// candidate is added even when it hurts; Rho shows where to stop.
// Fewer than k links are added if every remaining candidate is
// unstable.
//
// It returns an error for an invalid or unstable starting throttler
// (th.Measure must be Amount), k < 0, or a candidate out of range, a
// self-loop, or a weight that is not finite and positive. It panics if
// th is nil.
func GreedyLinks(th *Throttler, candidates []wgraph.Edge, k int) (*Greedy, error) {
	if err := th.validateLinear("GreedyLinks"); err != nil {
		return nil, err
	}
	g, gamma := th.Graph, th.Gamma
	if err := size.CheckDense("consensus", "consensus: GreedyLinks", g.Order(), 4); err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, loadlab.Invalid("consensus", "GreedyLinks: k = %d: want ≥ 0", k)
	}
	n := g.Order()
	for i, c := range candidates {
		if c.U < 0 || c.U >= n || c.V < 0 || c.V >= n || c.U == c.V {
			return nil, loadlab.Invalid("consensus", "candidates[%d] = {%d, %d}: want two distinct nodes in [0, %d)", i, c.U, c.V, n)
		}
		if !(c.W > 0) || math.IsInf(c.W, 1) {
			return nil, loadlab.Invalid("consensus", "candidates[%d].W = %v: want finite and > 0", i, c.W)
		}
	}
	lp, err := spectral.PseudoInverse(g)
	if err != nil {
		return nil, err
	}
	f, err := stationaryInverse(g, gamma)
	if err != nil {
		return nil, fmt.Errorf("consensus: GreedyLinks: the starting graph: %w", err)
	}
	var q mat.SymDense
	f.InverseTo(&q)
	trL, trQ := mat.Trace(lp), mat.Trace(&q)
	rho := func(trL, trQ float64) float64 { return 0.5 * (trL/gamma + trQ - 0.5) } // spec §4.4 R2
	out := &Greedy{Graph: g, Rho: []float64{rho(trL, trQ)}}
	b := g.Builder()
	used := make([]bool, len(candidates))
	lb := make([]float64, n)
	qbv := make([]float64, n)
	for range k {
		best, bestRho := -1, math.Inf(1)
		var bestL, bestQ float64
		for i, c := range candidates {
			if used[i] {
				continue
			}
			nl, r := colDiff(lb, lp, c.U, c.V)
			nq, bq := colDiff(qbv, &q, c.U, c.V)
			den := 1 - gamma*c.W*bq
			if den <= 0 {
				continue // would destabilise
			}
			tl := trL - c.W*nl/(1+c.W*r) // spec §5.2
			tq := trQ + gamma*c.W*nq/den // spec §5.2
			if v := rho(tl, tq); v < bestRho {
				best, bestRho, bestL, bestQ = i, v, tl, tq
			}
		}
		if best < 0 {
			break
		}
		c := candidates[best]
		used[best] = true
		_, r := colDiff(lb, lp, c.U, c.V)
		_, bq := colDiff(qbv, &q, c.U, c.V)
		// L† ← L† − ω L†b bᵀL†/(1 + ω r);  Q ← Q + γω Qb bᵀQ/(1 − γω bᵀQb).
		lp.SymRankOne(lp, -c.W/(1+c.W*r), mat.NewVecDense(n, lb))
		q.SymRankOne(&q, gamma*c.W/(1-gamma*c.W*bq), mat.NewVecDense(n, qbv))
		trL, trQ = bestL, bestQ
		mustSet(b, c.U, c.V, out.Graph.Weight(c.U, c.V)+c.W)
		out.Graph = b.Build() // O(n + m) per added link
		out.Added = append(out.Added, c)
		out.Rho = append(out.Rho, bestRho)
	}
	return out, nil
}

// colDiff writes x = X b (b = e_u − e_v) into dst and returns ‖x‖² and
// bᵀXb.
func colDiff(dst []float64, x *mat.SymDense, u, v int) (sq, quad float64) {
	for i := range dst {
		d := x.At(i, u) - x.At(i, v)
		dst[i] = d
		sq += d * d
	}
	return sq, dst[u] - dst[v]
}
