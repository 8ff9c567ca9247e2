package consensus_test

import (
	"fmt"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// ExampleDesignWeightsAtScale designs the weights of a 6-cycle with a
// chord under a total weight of 7, each link between 0.5 and 2. Small
// graphs are designed exactly (dense); above ScaleDesignSettings.DenseMax
// nodes the same call sketches the gradients and reports the value's
// interval and the confidence of the lower bound.
func ExampleDesignWeightsAtScale() {
	p := consensus.TraceWeightProblem{Nodes: 6, Budget: 7}
	for u := range 6 {
		p.Links = append(p.Links, consensus.Link{U: u, V: (u + 1) % 6, Cost: 1})
	}
	p.Links = append(p.Links, consensus.Link{U: 0, V: 3, Cost: 1})
	for range p.Links {
		p.Lo, p.Hi = append(p.Lo, 0.5), append(p.Hi, 2)
	}
	d, err := consensus.DesignWeightsAtScale(p, &consensus.ScaleDesignSettings{Tol: 1e-6}, mc.Source(1))
	if err != nil {
		panic(err)
	}
	fmt.Printf("weights %.3f\n", d.Weights)
	fmt.Printf("tr L† = %.4f, lower bound %.4f, confidence %g\n", d.Value.Mean, d.Lower, d.Confidence)
	// Output:
	// weights [1.106 0.947 1.106 1.106 0.947 1.106 0.683]
	// tr L† = 2.3329, lower bound 2.3329, confidence 1
}

// ExampleDesignWeightsAtScale_local designs the weights of a random
// 6-regular graph of 1000 nodes on the local path (the default for such
// expanders when no exact path runs; forced here): per-link gradients
// and an exact lower bound from each link's neighbourhood, the value's
// interval from Hutchinson's estimator.
func ExampleDesignWeightsAtScale_local() {
	g, err := gen.RandomRegular(1000, 6, mc.Source(3))
	if err != nil {
		panic(err)
	}
	p := consensus.TraceWeightProblem{Nodes: g.Order()}
	for _, e := range g.Edges() {
		p.Links = append(p.Links, consensus.Link{U: e.U, V: e.V, Cost: 1})
		p.Budget += e.W
	}
	d, err := consensus.DesignWeightsAtScale(p, &consensus.ScaleDesignSettings{Local: true}, mc.Source(4))
	if err != nil {
		panic(err)
	}
	fmt.Printf("local path, degree %d\n", d.Depth)
	fmt.Printf("certified gap below 1 %%: %v (confidence %g)\n", d.Gap < 0.01*d.Value.Hi, d.Confidence)
	// Output:
	// local path, degree 3
	// certified gap below 1 %: true (confidence 0.95)
}
