package consensus_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// Add two links to a 12-node cycle among the pairs at most 3 hops apart,
// to lower the Kirchhoff index; the exact method also certifies how far
// the answer can be from the best pair of links.
func ExampleAddLinks() {
	g, _ := gen.Cycle(12)
	cands, _ := consensus.Candidates(g, 3)
	res, err := consensus.AddLinks(g, cands, 2, nil, nil)
	if err != nil {
		panic(err)
	}
	for _, s := range res.Steps {
		fmt.Printf("add {%d, %d}: K_f falls by %.2f\n", s.Link.U, s.Link.V, s.Gain.Mean)
	}
	fmt.Printf("K_f %.2f -> %.2f; best possible ≥ %.2f (gap %.2f)\n", res.Before.Mean, res.After.Mean, res.Lower, res.Gap)
	// Output:
	// add {0, 3}: K_f falls by 20.08
	// add {0, 9}: K_f falls by 21.10
	// K_f 143.00 -> 101.82; best possible ≥ 78.61 (gap 23.21)
}

// Add two links to a 12-node cycle to lower ρ₂ at the best update cycle
// γ*, re-tuned after every link, with a certified lower bound on the
// best ρ₂ any two candidates could reach.
func ExampleAddLinks_rho2Star() {
	g, _ := gen.Cycle(12)
	cands, _ := consensus.Candidates(g, 3)
	res, err := consensus.AddLinks(g, cands, 2, &consensus.LinkSettings{Objective: consensus.LinkRho2Star}, nil)
	if err != nil {
		panic(err)
	}
	for _, s := range res.Steps {
		fmt.Printf("add {%d, %d} at γ = %.3f: ρ₂ falls by %.2f\n", s.Link.U, s.Link.V, s.Gamma, s.Gain.Mean)
	}
	fmt.Printf("ρ₂ at γ*: %.2f -> %.2f; best possible ≥ %.2f\n", res.Before.Mean, res.After.Mean, res.Lower)
	// Output:
	// add {0, 3} at γ = 0.348: ρ₂ falls by 0.40
	// add {1, 10} at γ = 0.323: ρ₂ falls by 1.36
	// ρ₂ at γ*: 21.34 -> 19.58; best possible ≥ 14.43
}

// Add three links to a 300-node random 4-regular graph to lower ρ₂ at
// γ = 0.2 by the sketch path (the default above 1000 nodes, forced here):
// ρ₂ comes with a 95 % interval and the lower bound holds at the stated
// confidence.
func ExampleAddLinks_rho2Sketch() {
	g, _ := gen.RandomRegular(300, 4, rand.NewPCG(5, 6))
	cands, _ := consensus.Candidates(g, 2)
	set := &consensus.LinkSettings{Objective: consensus.LinkRho2, Gamma: 0.2, Method: consensus.LinkSketch}
	res, err := consensus.AddLinks(g, cands, 3, set, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d links, ρ₂ lowered by %.2f, refused %d\n", len(res.Steps), res.Before.Mean-res.After.Mean, res.Refused)
	fmt.Printf("ρ₂ after within ±%.1f %%; best possible ≥ %.0f at confidence %.2f\n", 100*res.After.RelHalfWidth(), res.Lower, res.Confidence)
	// Output:
	// 3 links, ρ₂ lowered by 0.87, refused 0
	// ρ₂ after within ±0.4 %; best possible ≥ 412 at confidence 0.95
}
