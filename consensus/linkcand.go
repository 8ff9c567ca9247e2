package consensus

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/wgraph"
)

// Candidates returns every non-edge {u, v} (u < v) of g whose endpoints
// are at most hops edges apart, sorted by (u, v), with W = 0 (AddLinks
// then uses LinkSettings.Weight). It returns an error wrapping
// loadlab.ErrInvalid for hops < 1 and loadlab.ErrTooLarge when the list
// would not fit in memory. It panics if g is nil.
func Candidates(g *wgraph.Graph, hops int) ([]wgraph.Edge, error) {
	if g == nil {
		panic("consensus: Candidates: nil graph")
	}
	if hops < 1 {
		return nil, loadlab.Invalid("consensus", "Candidates: hops = %d, want ≥ 1", hops)
	}
	n := g.Order()
	off, adj, _ := g.CSR()
	dist := make([]int32, n)
	for i := range dist {
		dist[i] = -1
	}
	var out []wgraph.Edge
	var seen, next []int32
	for u := range n {
		seen = append(seen[:0], int32(u))
		dist[u] = 0
		front := seen[:1:1]
		for d := int32(1); d <= int32(hops) && len(front) > 0; d++ {
			next = next[:0]
			for _, x := range front {
				for _, v := range adj[off[x]:off[x+1]] {
					if dist[v] < 0 {
						dist[v] = d
						next = append(next, v)
						seen = append(seen, v)
						if d > 1 && int(v) > u {
							out = append(out, wgraph.Edge{U: u, V: int(v)})
						}
					}
				}
			}
			front = append([]int32(nil), next...)
		}
		for _, v := range seen {
			dist[v] = -1
		}
		sortTail(out, u)
		if err := size.Check("consensus", "Candidates: links", len(out), 24); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sortTail sorts the candidates of source u (the tail of out) by V.
func sortTail(out []wgraph.Edge, u int) {
	i := len(out)
	for i > 0 && out[i-1].U == u {
		i--
	}
	t := out[i:]
	for a := 1; a < len(t); a++ {
		for b := a; b > 0 && t[b].V < t[b-1].V; b-- {
			t[b], t[b-1] = t[b-1], t[b]
		}
	}
}

// LinkEffect says whether adding a link keeps a throttler stable.
type LinkEffect int

const (
	// LinkStable: the throttler stays stable (γλ_n < 2).
	LinkStable LinkEffect = iota
	// LinkUnstable: the link raises γλ_n to 2 or beyond.
	LinkUnstable
	// LinkUndecided: the cheap bounds used above the dense limit do not
	// decide.
	LinkUndecided
)

// String returns "stable", "unstable" or "undecided".
func (e LinkEffect) String() string {
	switch e {
	case LinkStable:
		return "stable"
	case LinkUnstable:
		return "unstable"
	}
	return "undecided"
}

// LinkStability reports, for each candidate (weight W, or weight when W
// = 0), whether adding it alone to the stable throttler th keeps it
// stable (spec §13.13): exactly up to LinkDenseMaxNodes nodes, by
// 1 − γw bᵀ(2I − γL)⁻¹b > 0; above, by two certified bounds, stable when
// γ times the Gershgorin bound of L + wbbᵀ is below 2, unstable when γ
// times the Rayleigh quotient of b is at least 2, else LinkUndecided.
// A link that makes the throttler unstable makes ρ₂ infinite.
//
// Errors: an invalid or unstable th (Measure must be Amount), a
// candidate out of range, a self-loop, or a weight (W or weight) that is
// negative, NaN or infinite. It panics if th is nil.
func LinkStability(th *Throttler, cands []wgraph.Edge, weight float64) ([]LinkEffect, error) {
	if err := th.validateLinear("LinkStability"); err != nil {
		return nil, err
	}
	if !(weight > 0) || math.IsInf(weight, 1) {
		return nil, loadlab.Invalid("consensus", "LinkStability: weight = %v, want finite and > 0", weight)
	}
	g, n := th.Graph, th.Graph.Order()
	for i, c := range cands {
		if c.U < 0 || c.U >= n || c.V < 0 || c.V >= n || c.U == c.V {
			return nil, loadlab.Invalid("consensus", "LinkStability: candidates[%d] = {%d, %d}: want two distinct nodes in [0, %d)", i, c.U, c.V, n)
		}
		if !(c.W >= 0) || math.IsInf(c.W, 1) {
			return nil, loadlab.Invalid("consensus", "LinkStability: candidates[%d].W = %v: want finite and ≥ 0", i, c.W)
		}
	}
	out := make([]LinkEffect, len(cands))
	if n <= LinkDenseMaxNodes {
		f, err := stationaryInverse(g, th.Gamma)
		if err != nil {
			return nil, err
		}
		b, qb := make([]float64, n), make([]float64, n)
		for i, c := range cands {
			w := linkW(c, weight)
			b[c.U], b[c.V] = 1, -1
			f.SolveVec(qb, b)
			bqb := qb[c.U] - qb[c.V]
			b[c.U], b[c.V] = 0, 0
			if 1-th.Gamma*w*bqb <= 0 { // spec §5.2
				out[i] = LinkUnstable
			}
		}
		return out, nil
	}
	stabilityBounds(th, cands, weight, out)
	return out, nil
}

// stabilityBounds fills out by the Gershgorin and Rayleigh bounds of
// LinkStability.
func stabilityBounds(th *Throttler, cands []wgraph.Edge, weight float64, out []LinkEffect) {
	g := th.Graph
	gersh := 0.0
	for u := range g.Order() {
		gersh = max(gersh, 2*g.WeightedDegree(u))
	}
	for i, c := range cands {
		w := linkW(c, weight)
		du, dv := g.WeightedDegree(c.U), g.WeightedDegree(c.V)
		up := max(gersh, 2*(du+w), 2*(dv+w))
		ray := (du + dv + 2*g.Weight(c.U, c.V) + 4*w) / 2 // bᵀ(L + wbbᵀ)b / bᵀb
		switch {
		case th.Gamma*up < 2:
			out[i] = LinkStable
		case th.Gamma*ray >= 2:
			out[i] = LinkUnstable
		default:
			out[i] = LinkUndecided
		}
	}
}

func linkW(c wgraph.Edge, w float64) float64 {
	if c.W > 0 {
		return c.W
	}
	return w
}
