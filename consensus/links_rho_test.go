package consensus

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// rhoAt is ρ₂ (σ = 1) of g at γ by the dense reference, +Inf when
// unstable.
func rhoAt(t *testing.T, g *wgraph.Graph, gamma float64) float64 {
	t.Helper()
	r, err := Rho(&Throttler{Graph: g, Gamma: gamma}, Case2, 1)
	if errors.Is(err, ErrUnstable) {
		return math.Inf(1)
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rhoStar is ρ₂ at γ*_H2 of g by the dense reference.
func rhoStar(t *testing.T, g *wgraph.Graph) float64 {
	t.Helper()
	gs, err := gammaStar(g)
	if err != nil {
		t.Fatal(err)
	}
	return rhoAt(t, g, gs)
}

// bruteRho returns the least f over all subsets of at most k of cands
// added to g with weight w.
func bruteRho(g *wgraph.Graph, cands []wgraph.Edge, k int, w float64, f func(*wgraph.Graph) float64) float64 {
	best := f(g)
	var rec func(start int, pick []int)
	rec = func(start int, pick []int) {
		for i := start; i < len(cands) && len(pick) < k; i++ {
			p := append(pick, i)
			b := g.Builder()
			for _, j := range p {
				mustSet(b, cands[j].U, cands[j].V, w)
			}
			best = min(best, f(b.Build()))
			rec(i+1, p)
		}
	}
	rec(0, nil)
	return best
}

// TestAddLinksRho2BruteForce checks LinkRho2 and LinkRho2Star on small
// random graphs against all subsets of at most k of 9 candidates:
// Lower ≤ optimum ≤ After, After equal to the dense ρ₂ of the answer
// (spec §13.15).
func TestAddLinksRho2BruteForce(t *testing.T) {
	for seed := range uint64(5) {
		g, cands, k, w := smallLinkCase(t, seed, 17)
		gs, err := gammaStar(g)
		if err != nil {
			t.Fatal(err)
		}
		gamma := 0.9 * gs
		at := func(h *wgraph.Graph) float64 { return rhoAt(t, h, gamma) }
		star := func(h *wgraph.Graph) float64 { return rhoStar(t, h) }
		for _, tc := range []struct {
			obj LinkObjective
			f   func(*wgraph.Graph) float64
		}{{LinkRho2, at}, {LinkRho2Star, star}} {
			res, err := AddLinks(g, cands, k, &LinkSettings{Objective: tc.obj, Gamma: gamma, Weight: w}, nil)
			if err != nil {
				t.Fatal(err)
			}
			opt := bruteRho(g, cands, k, w, tc.f)
			got := tc.f(res.Graph)
			// Tolerances: dense rank-one updates of ≤ 14 nodes keep about
			// 1e-13 relative; 1e-9 leaves room.
			if math.Abs(res.After.Mean-got) > 1e-9*got {
				t.Errorf("seed %d %v: After = %v, want %v", seed, tc.obj, res.After.Mean, got)
			}
			if res.Lower > opt*(1+1e-9) || opt > res.After.Mean*(1+1e-9) {
				t.Errorf("seed %d %v: want Lower %v ≤ optimum %v ≤ greedy %v", seed, tc.obj, res.Lower, opt, res.After.Mean)
			}
			if res.Gap < 0 || math.Abs(res.After.Mean-res.Lower-res.Gap) > 1e-9*got {
				t.Errorf("seed %d %v: Gap %v, After %v, Lower %v", seed, tc.obj, res.Gap, res.After.Mean, res.Lower)
			}
		}
	}
}

// TestAddLinksRho2AgreesWithGreedyLinks checks LinkRho2 against the
// dense GreedyLinks: the same links, and ρ₂ after each, while the links
// lower ρ₂.
func TestAddLinksRho2AgreesWithGreedyLinks(t *testing.T) {
	g, err := gen.RandomRegular(40, 3, rand.NewPCG(4, 3))
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cands {
		cands[i].W = 1
	}
	gs, err := gammaStar(g)
	if err != nil {
		t.Fatal(err)
	}
	th := &Throttler{Graph: g, Gamma: gs}
	gr, err := GreedyLinks(th, cands, 6)
	if err != nil {
		t.Fatal(err)
	}
	res, err := AddLinks(g, cands, 6, &LinkSettings{Objective: LinkRho2, Gamma: gs, FrankWolfe: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rho := res.Before.Mean
	// Tolerance: both are dense rank-one updates of the same matrices on
	// 40 nodes; 1e-10 relative leaves room for the different orders.
	if math.Abs(rho-gr.Rho[0]) > 1e-10*rho {
		t.Fatalf("Before = %v, GreedyLinks %v", rho, gr.Rho[0])
	}
	for i, s := range res.Steps {
		e := gr.Added[i]
		if s.Link.U != e.U || s.Link.V != e.V {
			t.Fatalf("step %d: %v, GreedyLinks %v", i, s.Link, e)
		}
		rho -= s.Gain.Mean
		if math.Abs(rho-gr.Rho[i+1]) > 1e-10*rho {
			t.Errorf("step %d: ρ₂ %v, GreedyLinks %v", i, rho, gr.Rho[i+1])
		}
	}
}

// TestAddLinksRho2Unstable checks that near the stability limit the
// links that would push γλ_n to 2 are refused (LinkStability says so),
// and that AddLinks stops when no link lowers ρ₂.
func TestAddLinksRho2Unstable(t *testing.T) {
	g, err := gen.RandomConnected(16, 0.3, 0.5, 2, rand.NewPCG(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	sp, err := NewSpectral(g)
	if err != nil {
		t.Fatal(err)
	}
	gamma := 1.98 / sp.LambdaMax()
	cands, err := Candidates(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	eff, err := LinkStability(&Throttler{Graph: g, Gamma: gamma}, cands, 3)
	if err != nil {
		t.Fatal(err)
	}
	unstable := 0
	for _, e := range eff {
		if e == LinkUnstable {
			unstable++
		}
	}
	if unstable == 0 {
		t.Fatal("no unstable candidate: the test needs one")
	}
	res, err := AddLinks(g, cands, len(cands), &LinkSettings{Objective: LinkRho2, Gamma: gamma, Weight: 3, FrankWolfe: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) >= len(cands)-unstable+1 {
		t.Errorf("%d links added of %d candidates, %d unstable alone", len(res.Steps), len(cands), unstable)
	}
	if r := rhoAt(t, res.Graph, gamma); math.IsInf(r, 1) {
		t.Error("the answer is unstable")
	}
	for i, s := range res.Steps {
		if !(s.Gain.Mean > 0) {
			t.Errorf("step %d: gain %v, want > 0 (AddLinks stops when no link lowers ρ₂)", i, s.Gain.Mean)
		}
	}
}

// TestAddLinksRho2Errors checks the ρ₂ objectives' named errors.
func TestAddLinksRho2Errors(t *testing.T) {
	small, err := gen.RandomRegular(20, 3, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Candidates(small, 2)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AddLinks(small, cs, 1, &LinkSettings{Objective: LinkRho2, Gamma: 1}, nil)
	if !errors.Is(err, ErrUnstable) {
		t.Errorf("γ = 1 on a 3-regular graph (λ_n > 2): %v, want ErrUnstable", err)
	}
}

// TestAddLinksRho2StarRetunes checks that LinkRho2Star takes links that
// are unstable at the input's γ* but lower ρ₂ at a smaller γ: on the
// 12-node path with W = 1 the greedy reaches 28.69 (the best pair gives
// 27.05, spec §13.15), and the bound stays below the brute force.
func TestAddLinksRho2StarRetunes(t *testing.T) {
	g, err := gen.Path(12)
	if err != nil {
		t.Fatal(err)
	}
	cands, err := Candidates(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	res, err := AddLinks(g, cands, 2, &LinkSettings{Objective: LinkRho2Star}, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt := bruteRho(g, cands, 2, 1, func(h *wgraph.Graph) float64 { return rhoStar(t, h) })
	// The greedy is 6 % above the optimum here (measured); 10 % leaves
	// room, and the bound must not exceed the optimum.
	if len(res.Steps) != 2 || res.After.Mean > 1.1*opt || res.Lower > opt*(1+1e-9) {
		t.Errorf("%d links, after %v, lower %v, optimum %v", len(res.Steps), res.After.Mean, res.Lower, opt)
	}
}
