package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestAddLinksRho2StarSketchBruteForce forces the sketch path of
// LinkRho2Star on small random graphs of at most 9 candidates (fewer
// than Pool, so every candidate is confirmed): the links must be the
// exact path's, After's interval must contain the dense ρ₂ of the
// answer at AfterGamma and lie above F, and Lower must not exceed the
// brute-force optimum over all subsets of at most k (spec §13.17).
func TestAddLinksRho2StarSketchBruteForce(t *testing.T) {
	for seed := range uint64(4) {
		g, cands, k, w := starLinkCase(t, seed)
		set := LinkSettings{Objective: LinkRho2Star, Weight: w, Trace: &estimate.TraceSettings{RelAcc: 0.05}}
		ex, err := AddLinks(g, cands, k, &set, nil)
		if err != nil {
			t.Fatal(err)
		}
		set.Method, set.CertSketch = LinkSketch, 64
		sk, err := AddLinks(g, cands, k, &set, rand.NewPCG(seed, 3))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("seed %d: exact %d links after %.4f lower %.4f; sketch %d links after %+v at γ %.4g (γ* %+v), lower %.4f, gap %.4f",
			seed, len(ex.Steps), ex.After.Mean, ex.Lower, len(sk.Steps), sk.After, sk.AfterGamma, sk.GammaStar, sk.Lower, sk.Gap)
		if len(sk.Steps) != len(ex.Steps) {
			t.Errorf("seed %d: %d links, exact path %d", seed, len(sk.Steps), len(ex.Steps))
			continue
		}
		for i := range sk.Steps {
			a, b := sk.Steps[i], ex.Steps[i]
			if a.Link != b.Link || a.Gamma <= 0 {
				t.Errorf("seed %d step %d: %v at γ %v, exact %v at γ %v", seed, i, a.Link, a.Gamma, b.Link, b.Gamma)
			}
		}
		opt := bruteRho(g, cands, k, w, func(h *wgraph.Graph) float64 { return rhoStar(t, h) })
		at := rhoAt(t, sk.Graph, sk.AfterGamma)
		if sk.Lower > opt*(1+1e-9) || !sk.After.Contains(at) || at < ex.After.Mean*(1-1e-9) {
			t.Errorf("seed %d: Lower %v, optimum %v; After %+v, dense at AfterGamma %v, exact F %v", seed, sk.Lower, opt, sk.After, at, ex.After.Mean)
		}
	}
}

// starLinkCase returns a random 3-regular graph of 40 + 10·seed nodes,
// 9 of its candidates within 4 hops, k = 1 + seed mod 3 links of weight
// 0.5 + seed/4. (Graphs of a dozen nodes, as in smallLinkCase, make
// the probes' spread as large as ρ₂ itself.)
func starLinkCase(t *testing.T, seed uint64) (*wgraph.Graph, []wgraph.Edge, int, float64) {
	t.Helper()
	g, err := gen.RandomRegular(40+10*int(seed), 3, rand.NewPCG(seed, 21))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 4)
	if err != nil {
		t.Fatal(err)
	}
	// the 9 candidates farthest apart in the list's order: distant pairs
	// shorten paths most, so the links help at γ*
	var far []wgraph.Edge
	for _, c := range cands {
		if c.V-c.U > g.Order()/3 && len(far) < 9 {
			far = append(far, c)
		}
	}
	return g, far, 1 + int(seed%3), 0.5 + float64(seed)/4
}

// TestAddLinksRho2StarSketch300 runs the sketch path on a 300-node
// 4-regular graph (candidates within 2 hops) and checks the answer by
// the dense references: After contains ρ₂ of the answer at AfterGamma,
// Lower lies below the exact path's After, the links are stable.
func TestAddLinksRho2StarSketch300(t *testing.T) {
	g, err := gen.RandomRegular(300, 4, rand.NewPCG(5, 6))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := AddLinks(g, cands, 4, &LinkSettings{Objective: LinkRho2Star}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := AddLinks(g, cands, 4, &LinkSettings{Objective: LinkRho2Star, Method: LinkSketch, GammaEvery: 2}, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	at := rhoAt(t, sk.Graph, sk.AfterGamma)
	t.Logf("exact: %.4f → %.4f, lower %.4f; sketch: %+v → %+v (dense %.4f), lower %.4f, gap %.4f, solves %d + %d shifted, rescored %d",
		ex.Before.Mean, ex.After.Mean, ex.Lower, sk.Before, sk.After, at, sk.Lower, sk.Gap, sk.Solves, sk.ShiftedSolves, sk.Rescored)
	if !sk.After.Contains(at) || sk.Lower > ex.After.Mean || math.IsInf(at, 1) {
		t.Errorf("After %+v, dense %v; Lower %v, exact After %v", sk.After, at, sk.Lower, ex.After.Mean)
	}
}

// TestAddLinksRho2StarAbove1000 runs LinkRho2Star with the default
// method on a 1100-node 3-regular graph, above LinkDenseMaxNodes, where
// it used to return ErrTooLarge: the sketch path runs, the answer is
// checked by the sparse exact ρ₂ at AfterGamma, and Lower ≤ After.
func TestAddLinksRho2StarAbove1000(t *testing.T) {
	g, err := gen.RandomRegular(1100, 3, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := AddLinks(g, cands[:200], 2, &LinkSettings{Objective: LinkRho2Star, GammaEvery: 2}, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	at, err := Rho(&Throttler{Graph: res.Graph, Gamma: res.AfterGamma}, Case2, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d links, before %+v, after %+v (exact %v), lower %v, confidence %v", len(res.Steps), res.Before, res.After, at, res.Lower, res.Confidence)
	if res.Method != LinkSketch || !res.After.Contains(at) || !(res.Lower <= res.After.Mean) || !(res.Confidence > 0.9) {
		t.Errorf("method %v, After %+v, exact %v, Lower %v, Confidence %v", res.Method, res.After, at, res.Lower, res.Confidence)
	}
}

// TestAddLinksRho2StarSketchStable puts LinkRho2Star on a hub graph
// (γ*λ_n near 2) with heavy candidates at the hub: they must be refused,
// every step's link must keep the throttler stable at the cycle it was
// scored at, on the graph before it, and the answer must be stable at
// AfterGamma (spec §13.17).
func TestAddLinksRho2StarSketchStable(t *testing.T) {
	g := hubGraph(t, 200)
	all, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	// The hub's candidates weigh 30: each alone raises λ_n by about 60,
	// past 2/γ at every cycle of the grid (γ ≥ γ*/2), so they must be
	// refused.
	var cands []wgraph.Edge
	for _, c := range all {
		switch {
		case c.U == 0:
			cands = append(cands, wgraph.Edge{U: c.U, V: c.V, W: 30})
		case c.U >= 100 && len(cands) < 30:
			cands = append(cands, c)
		}
	}
	res, err := AddLinks(g, cands, 3, &LinkSettings{Objective: LinkRho2Star, Method: LinkSketch, CertSketch: 32, Pool: 40}, rand.NewPCG(2, 2))
	if err != nil {
		t.Fatal(err)
	}
	h := g
	for i, s := range res.Steps {
		b := h.Builder()
		mustSet(b, s.Link.U, s.Link.V, h.Weight(s.Link.U, s.Link.V)+s.Link.W)
		h = b.Build()
		if math.IsInf(rhoAt(t, h, s.Gamma), 1) {
			t.Errorf("step %d: %v unstable at its γ %v", i, s.Link, s.Gamma)
		}
	}
	t.Logf("%d links, refused %d, after %+v at γ %v", len(res.Steps), res.Refused, res.After, res.AfterGamma)
	for _, s := range res.Steps {
		if s.Link.U == 0 || s.Link.V == 0 {
			t.Errorf("hub link %v taken", s.Link)
		}
	}
	if res.Refused == 0 {
		t.Error("no candidate refused")
	}
	if at := rhoAt(t, res.Graph, res.AfterGamma); math.IsInf(at, 1) || !res.After.Contains(at) {
		t.Errorf("answer at γ %v: ρ₂ %v, After %+v", res.AfterGamma, at, res.After)
	}
}

// TestAddLinksRho2StarSketchCoverage checks After's interval over 8
// seeds against the dense ρ₂ of the answer at AfterGamma (a 95 %
// interval: fewer than 6 of 8 has probability 0.6 %).
func TestAddLinksRho2StarSketchCoverage(t *testing.T) {
	g, cands, _, _ := starLinkCase(t, 1)
	hit := 0
	set := &LinkSettings{Objective: LinkRho2Star, Method: LinkSketch, CertSketch: 8, Confirm: 1, Sketch: 16, Trace: &estimate.TraceSettings{RelAcc: 0.05}}
	for seed := range uint64(8) {
		res, err := AddLinks(g, cands, 2, set, rand.NewPCG(seed, 13))
		if err != nil {
			t.Fatal(err)
		}
		if res.After.Contains(rhoAt(t, res.Graph, res.AfterGamma)) {
			hit++
		}
	}
	if hit < 6 {
		t.Errorf("After's interval covered %d of 8", hit)
	}
}

// TestStarLinkQRise checks the inequality behind the ρ₂* certificate's
// link cost (spec §13.17): adding a non-edge e of weight W to a stable
// graph raises tr_{1⊥}(2I − γL)⁻¹ by at least γWβ⁻²/2/(1 − γWβ⁻), β⁻ =
// 1 + γ(d_u + d_v)/4 (Sherman–Morrison and §13.16's bounds; a link with
// γWβ⁻ ≥ 1 leaves the graph unstable), against dense traces on random
// graphs of 30 nodes at cycles up to γλ_n = 1.9, every non-edge, W = 1
// and 0.5. The margin is exact arithmetic's up to rounding (1e-9
// relative to the traces, which are of order n).
func TestStarLinkQRise(t *testing.T) {
	for seed := range uint64(3) {
		g := randomGraph(30, 0.2, rand.NewPCG(seed, 151))
		p := traceProblem(g)
		w, err := p.start(nil)
		if err != nil {
			t.Fatal(err)
		}
		w = append([]float64(nil), w...)
		for i, e := range g.Edges() {
			w[i] = e.W
		}
		ev, err := spectral.Spectrum(g)
		if err != nil {
			t.Fatal(err)
		}
		br := ev[len(ev)-1]
		for _, c := range []float64{0.5, 1.2, 1.9} {
			gamma := c / br
			base, ok, err := newDenseRho2Oracle(p, gamma).eval(w)
			if err != nil || !ok {
				t.Fatal(err)
			}
			for u := range 30 {
				for v := u + 1; v < 30; v++ {
					if g.Weight(u, v) != 0 {
						continue
					}
					for _, wt := range []float64{1, 0.5} {
						q := p
						q.Links = append(append([]Link(nil), p.Links...), Link{U: u, V: v, Cost: 1})
						after, ok, err := newDenseRho2Oracle(q, gamma).eval(append(append([]float64(nil), w...), wt))
						if err != nil {
							t.Fatal(err)
						}
						if !ok {
							continue // unstable with the link: ρ₂ infinite, the bound holds
						}
						beta := 1 + gamma*(g.WeightedDegree(u)+g.WeightedDegree(v))/4
						want := math.Inf(1)
						if den := 1 - gamma*wt*beta; den > 0 {
							want = gamma * wt * beta * beta / 2 / den
						}
						if rise := after.q2 - base.q2; rise < want-1e-9*base.q2 {
							t.Errorf("seed %d γλ_n %v link (%d, %d) W %v: tr Q rose by %v < %v", seed, c, u, v, wt, rise, want)
						}
					}
				}
			}
		}
	}
}
