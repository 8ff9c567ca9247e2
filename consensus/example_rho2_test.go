package consensus_test

import (
	"fmt"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// ExampleDesignRho2AtScale designs the weights of a 6-cycle with a
// chord for ρ₂ at the update cycle γ = 0.3 under a total weight of 7
// (spec §13.14): exact on this small graph, with the certified lower
// bound and the stability bracket γλ_n < 2.
func ExampleDesignRho2AtScale() {
	p := consensus.Rho2WeightProblem{TraceWeightProblem: consensus.TraceWeightProblem{Nodes: 6, Budget: 7}, Gamma: 0.3}
	for u := range 6 {
		p.Links = append(p.Links, consensus.Link{U: u, V: (u + 1) % 6, Cost: 1})
	}
	p.Links = append(p.Links, consensus.Link{U: 0, V: 3, Cost: 1})
	d, err := consensus.DesignRho2AtScale(p, &consensus.ScaleDesignSettings{Tol: 1e-6}, mc.Source(1))
	if err != nil {
		panic(err)
	}
	fmt.Printf("weights %.3f\n", d.Weights)
	fmt.Printf("ρ₂ = %.4f, lower bound %.4f, γλ_n ≤ %.3f\n", d.Value.Mean, d.Lower, p.Gamma*d.LambdaMax.Hi)
	// Output:
	// weights [1.079 1.063 1.079 1.079 1.063 1.079 0.560]
	// ρ₂ = 6.3811, lower bound 6.3811, γλ_n ≤ 1.630
}

// ExampleDesignRho2CycleAtScale designs the weights and the update
// cycle together: ρ₂ depends on γw only, so the design is the best ρ₂
// over every cycle, at the shortest cycle that spends the budget.
func ExampleDesignRho2CycleAtScale() {
	p := consensus.TraceWeightProblem{Nodes: 6, Budget: 7}
	for u := range 6 {
		p.Links = append(p.Links, consensus.Link{U: u, V: (u + 1) % 6, Cost: 1})
	}
	p.Links = append(p.Links, consensus.Link{U: 0, V: 3, Cost: 1})
	d, err := consensus.DesignRho2CycleAtScale(p, &consensus.ScaleDesignSettings{Tol: 1e-6}, mc.Source(1))
	if err != nil {
		panic(err)
	}
	fmt.Printf("γ = %.4f, weights %.3f\n", d.Gamma, d.Weights)
	fmt.Printf("ρ₂ = %.4f, lower bound %.4f\n", d.Value.Mean, d.Lower)
	// Output:
	// γ = 0.3092, weights [1.074 1.080 1.074 1.074 1.080 1.074 0.543]
	// ρ₂ = 6.3714, lower bound 6.3714
}

// ExampleDesignRho2AtScale_local designs the weights of a random
// 6-regular graph of 600 nodes for ρ₂ at γ = 0.1 on the local path (the
// default for such expanders when no exact path runs; forced here):
// multiplicative updates from each link's neighbourhood and the exact
// polynomial lower bound; up to 1000 nodes the value is exact.
func ExampleDesignRho2AtScale_local() {
	g, err := gen.RandomRegular(600, 6, mc.Source(3))
	if err != nil {
		panic(err)
	}
	p := consensus.Rho2WeightProblem{TraceWeightProblem: consensus.TraceWeightProblem{Nodes: g.Order()}, Gamma: 0.1}
	for _, e := range g.Edges() {
		p.Links = append(p.Links, consensus.Link{U: e.U, V: e.V, Cost: 1})
		p.Budget += e.W
	}
	d, err := consensus.DesignRho2AtScale(p, &consensus.ScaleDesignSettings{Local: true}, mc.Source(4))
	if err != nil {
		panic(err)
	}
	fmt.Printf("local path, degree %d, stable: %v\n", d.Depth, p.Gamma*d.LambdaMax.Hi < 2)
	fmt.Printf("certified gap below 1 %%: %v\n", d.Gap < 0.01*d.Value.Hi)
	// Output:
	// local path, degree 3, stable: true
	// certified gap below 1 %: true
}
