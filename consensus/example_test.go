package consensus_test

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// The H2 measures and the two optimal update cycles of the six-server
// cycle (spec §6 table).
func ExampleSpectral() {
	gr, gerr := gen.Cycle(6)
	if gerr != nil {
		panic(gerr)
	}
	s, err := consensus.NewSpectral(gr)
	if err != nil {
		panic(err)
	}
	gc, factor := s.GammaConv()
	gs, rho, _ := s.GammaH2(1)
	r2, _ := s.Rho(consensus.Case2, gc, 1)
	fmt.Printf("stable below γ = %.4g\n", s.StabilityBound())
	fmt.Printf("γ_conv = %.4g (factor %.4g), ρ₂ there = %.4g\n", gc, factor, r2)
	fmt.Printf("γ*_H2 = %.4g, ρ₂ = %.4g\n", gs, rho)
	// Output:
	// stable below γ = 0.5
	// γ_conv = 0.4 (factor 0.6), ρ₂ there = 6.771
	// γ*_H2 = 0.3653, ρ₂ = 6.638
}

// ρ₂ from one Cholesky factorisation, with the nodal values.
func ExampleRho() {
	g, err := gen.Path(3)
	if err != nil {
		panic(err)
	}
	rho, _ := consensus.Rho(&consensus.Throttler{Graph: g, Gamma: 0.5}, consensus.Case2, 1)
	nodal, _ := consensus.NodalRho(nil, &consensus.Throttler{Graph: g, Gamma: 0.5}, consensus.Case2, 1)
	fmt.Printf("ρ₂ = %.4g, nodal %.4g\n", rho, nodal)
	_, err = consensus.Rho(&consensus.Throttler{Graph: g, Gamma: 0.7}, consensus.Case2, 1)
	fmt.Println(errors.Is(err, consensus.ErrUnstable))
	// Output:
	// ρ₂ = 2.667, nodal [0.8889 0.8889 0.8889]
	// true
}

// At the stability limit γλ_n = 2 (the unit six-cycle at γ = ½) there
// is no stationary dispersion, and no number is returned, even though
// the computed λ_n = 3.9999999999999996 puts γλ_n a hair below 2.
func ExampleRho_stabilityLimit() {
	gr, gerr := gen.Cycle(6)
	if gerr != nil {
		panic(gerr)
	}
	th := &consensus.Throttler{Graph: gr, Gamma: 0.5}
	_, err := consensus.Rho(th, consensus.Case2, 1)
	fmt.Println(errors.Is(err, consensus.ErrUnstable))
	s, _ := consensus.NewSpectral(th.Graph)
	_, err = s.Rho(consensus.Case2, 0.5, 1)
	fmt.Println(errors.Is(err, consensus.ErrUnstable))
	// Output:
	// true
	// true
}

// Nodal ρ₂ over a sweep of γ from one eigendecomposition: the star's
// hub disperses less than its leaves. (S_4 has λ = 0, 1, 1, 4; only the
// λ = 4 mode moves the hub, with weight ¾: ρ₂,hub = ¾/(4γ(2 − 4γ)).)
func ExampleSpectral_NodalRho() {
	gr, gerr := gen.Star(4)
	if gerr != nil {
		panic(gerr)
	}
	s, _ := consensus.NewSpectral(gr)
	for _, gamma := range []float64{0.1, 0.3} {
		nodal, _ := s.NodalRho(nil, consensus.Case2, gamma, 1)
		fmt.Printf("γ = %.1f: hub %.4g, leaf %.4g\n", gamma, nodal[0], nodal[1])
	}
	// Output:
	// γ = 0.1: hub 1.172, leaf 3.639
	// γ = 0.3: hub 0.7812, leaf 1.394
}

// Six servers under random-walk demand: the total limit is conserved
// and the over-throttling is the gap to the ideal curve.
func ExampleSimulate() {
	gr, gerr := gen.Cycle(6)
	if gerr != nil {
		panic(gerr)
	}
	net := &consensus.Throttler{Graph: gr, Gamma: 0.3}
	start := []float64{10, 20, 30, 40, 50, 60}
	d := &consensus.RandomWalkDemand{Start: start, Sigma: 2, Src: rand.NewPCG(1, 2)}
	x0 := []float64{30, 30, 30, 30, 30, 30}
	tr, err := consensus.Simulate(net, d, x0, 100, nil)
	if err != nil {
		panic(err)
	}
	k := tr.Steps - 1
	fmt.Printf("l_total = %.6g, ideal − a_total = over-throttling: %v\n", tr.LTotal[k], tr.Ideal[k]-tr.ATotal[k]-tr.Over[k] < 1e-9)
	// Output:
	// l_total = 180, ideal − a_total = over-throttling: true
}

// Algorithms 1 and 2 on the example of spec §9.
func ExampleWaterFill() {
	r := []float64{1, 2, 3, 6}
	uniform, _ := consensus.UniformRatio(nil, r, 8)
	fair, level, _ := consensus.WaterFill(nil, r, 8)
	fmt.Printf("uniform ratio %.4g\nwater-filling %.4g at level %.4g\n", uniform, fair, level)
	// Output:
	// uniform ratio [0.6667 1.333 2 4]
	// water-filling [1 2 2.5 2.5] at level 2.5
}

// Problem A on a 4-cycle with one chord: the budget is spread over the
// links to minimise ρ₂, and the certificate bounds the distance to the
// optimum.
func ExampleDesignWeights() {
	links := []consensus.Link{{U: 0, V: 1, Cost: 1}, {U: 1, V: 2, Cost: 1}, {U: 2, V: 3, Cost: 1}, {U: 3, V: 0, Cost: 1}, {U: 0, V: 2, Cost: 2}}
	d, err := consensus.DesignWeights(consensus.WeightProblem{Nodes: 4, Links: links, Gamma: 0.2, Budget: 4}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("ρ₂ = %.4g, relative gap ≤ 1e-6: %v\n", d.Value, d.Gap <= 1e-6*d.Value)
	fmt.Printf("weights %.3f\n", d.Weights)
	// Output:
	// ρ₂ = 4.167, relative gap ≤ 1e-6: true
	// weights [1.000 1.000 1.000 1.000 0.000]
}

// The λ₂-floor variant of Problem A (minimise ρ₁ subject to λ₂ ≥ 1) when
// spreading the budget evenly cannot meet the floor: one expensive link
// takes most of a uniform allocation. The phase-one search finds a start
// that meets it, and a floor beyond every design is reported as such.
func ExampleDesignWeights_floor() {
	links := []consensus.Link{{U: 0, V: 1, Cost: 1}, {U: 1, V: 2, Cost: 1}, {U: 0, V: 2, Cost: 100}}
	p := consensus.WeightProblem{Nodes: 3, Links: links, Gamma: 0.05, Budget: 10, Floor: 1}
	d, err := consensus.DesignWeights(p, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("λ₂ = %.4g, ρ₁ = %.4g, weights %.3f\n", d.Lambda2, d.Value, d.Weights)
	p.Floor = 6
	_, err = consensus.DesignWeights(p, nil)
	fmt.Println(err != nil)
	// Output:
	// λ₂ = 1, ρ₁ = 2.092, weights [0.833 0.833 0.083]
	// true
}

// Problem C: add two links to a path of six servers, greedily.
func ExampleGreedyLinks() {
	cands := []wgraph.Edge{{U: 0, V: 5, W: 1}, {U: 0, V: 3, W: 1}, {U: 1, V: 4, W: 1}, {U: 2, V: 5, W: 1}}
	gr, gerr := gen.Path(6)
	if gerr != nil {
		panic(gerr)
	}
	res, err := consensus.GreedyLinks(&consensus.Throttler{Graph: gr, Gamma: 0.3}, cands, 2)
	if err != nil {
		panic(err)
	}
	for i, e := range res.Added {
		fmt.Printf("add {%d, %d}: ρ₂ %.4g → %.4g\n", e.U, e.V, res.Rho[i], res.Rho[i+1])
	}
	// Output:
	// add {0, 5}: ρ₂ 11.66 → 6.983
	// add {0, 3}: ρ₂ 6.983 → 6.505
}

// Monte Carlo through the whole throttler against the closed form.
func ExampleEstimateRho() {
	gr, gerr := gen.Path(3)
	if gerr != nil {
		panic(gerr)
	}
	net := &consensus.Throttler{Graph: gr, Gamma: 0.5}
	est, err := consensus.EstimateRho(net, consensus.Case2, 1, consensus.MonteCarlo{Runs: 20, Steps: 5000, Burn: 100, Seed: 1})
	if err != nil {
		panic(err)
	}
	fmt.Printf("closed form 8/3 = %.4g, inside the 95%% interval: %v\n", 8.0/3, est.Lo <= 8.0/3 && 8.0/3 <= est.Hi)
	// Output:
	// closed form 8/3 = 2.667, inside the 95% interval: true
}

// The same estimate to ±1 % at 95 %: the 10 runs are a pilot, and runs
// are added until the interval is that narrow; N is the runs used.
func ExampleEstimateRho_precision() {
	gr, gerr := gen.Path(3)
	if gerr != nil {
		panic(gerr)
	}
	net := &consensus.Throttler{Graph: gr, Gamma: 0.5}
	m := consensus.MonteCarlo{Runs: 10, Steps: 500, Burn: 100, Seed: 1, Precision: loadlab.Precision{Rel: 0.01}}
	est, err := consensus.EstimateRho(net, consensus.Case2, 1, m)
	if err != nil {
		panic(err)
	}
	fmt.Printf("ρ₂ = %.3f ± %.3f after %d runs (closed form 8/3 = %.3f)\n", est.Mean, est.HalfWidth(), est.N, 8.0/3)
	// Output:
	// ρ₂ = 2.677 ± 0.027 after 146 runs (closed form 8/3 = 2.667)
}

// γ*_H2 and ρ₂ there on a 5000-node random 6-regular graph, beyond
// spectral.DenseMaxNodes: the estimates carry 95 % intervals of relative
// half-width ≤ 1 %.
func ExampleEstimateGammaH2() {
	g, err := gen.RandomRegular(5000, 6, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	r, err := consensus.EstimateGammaH2(g, 1, nil, rand.NewPCG(3, 4))
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Status)
	fmt.Printf("γ*_H2 ≈ %.4f, 95 %% interval [%.4f, %.4f]\n", r.Gamma.Mean, r.Gamma.Lo, r.Gamma.Hi)
	fmt.Printf("ρ₂ ≈ %.4g ± %.2g\n", r.Rho2.Mean, r.Rho2.HalfWidth())
	// Output:
	// Success
	// γ*_H2 ≈ 0.1490, 95 % interval [0.1482, 0.1497]
	// ρ₂ ≈ 6064 ± 22
}

// A cycle with a 10 % safety margin below the certified stability limit
// (spec §13.11). On the star, a hub-heavy graph, γ*_H2 sits 5 % below
// the limit, so the margin binds and costs a little ρ₂; on the cycle
// γ*_H2 keeps 14.5 % and is chosen as it is.
func ExampleSpectral_GammaMargin() {
	for _, name := range []string{"star", "cycle"} {
		var g *wgraph.Graph
		var err error
		if name == "star" {
			g, err = gen.Star(20)
		} else {
			g, err = gen.Cycle(20)
		}
		if err != nil {
			panic(err)
		}
		s, err := consensus.NewSpectral(g)
		if err != nil {
			panic(err)
		}
		m, err := s.GammaMargin(0.1, 1)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: limit %.4g, γ*_H2 %.4g, chosen %.4g (H2-optimal %v), margin ≥ %.3g, price %.2f %%\n",
			name, m.Limit, m.GammaH2, m.Gamma, m.H2Optimal, m.AchievedLo, 100*m.Price)
	}
	// Output:
	// star: limit 0.1, γ*_H2 0.09499, chosen 0.09 (H2-optimal false), margin ≥ 0.1, price 2.64 %
	// cycle: limit 0.5, γ*_H2 0.4277, chosen 0.4277 (H2-optimal true), margin ≥ 0.145, price 0.00 %
}

// The same choice above spectral.DenseMaxNodes, from the estimators: the
// chosen cycle keeps the margin whatever the estimate's error, and the
// price comes with its interval.
func ExampleEstimateGammaMargin() {
	g, err := gen.RandomRegular(3000, 4, rand.NewPCG(1, 2))
	if err != nil {
		panic(err)
	}
	m, err := consensus.EstimateGammaMargin(g, 0.3, 1, nil, rand.NewPCG(3, 4))
	if err != nil {
		panic(err)
	}
	fmt.Printf("limit %.4f, γ*_H2 ≈ %.4f, chosen %.4f\n", m.Limit, m.GammaH2.Gamma.Mean, m.Gamma)
	fmt.Printf("price %.1f %%, 95 %% interval [%.1f, %.1f] %%\n", 100*m.Price.Mean, 100*m.Price.Lo, 100*m.Price.Hi)
	// Output:
	// limit 0.2681, γ*_H2 ≈ 0.2173, chosen 0.1876
	// price 3.3 %, 95 % interval [3.0, 3.6] %
}

// The worst server changes with γ (spec §13.11): on a path with a
// pendant star the cycle best for the worst server is not γ*_H2.
func ExampleSpectral_GammaWorstServer() {
	b, err := wgraph.NewBuilder(10)
	if err != nil {
		panic(err)
	}
	for u := range 6 { // path 0–1–…–6
		if err := b.SetEdge(u, u+1, 1); err != nil {
			panic(err)
		}
	}
	for _, v := range []int{7, 8, 9} { // three leaves on node 3
		if err := b.SetEdge(3, v, 1); err != nil {
			panic(err)
		}
	}
	s, err := consensus.NewSpectral(b.Build())
	if err != nil {
		panic(err)
	}
	w, err := s.GammaWorstServer(1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("γ*_H2 = %.4g: worst server %d, ρ₂,j = %.4g (total %.4g)\n", w.GammaH2, w.WorstH2, w.WorstRhoH2, w.Rho2H2)
	fmt.Printf("γ = %.4g: worst servers %v, ρ₂,j = %.4g (total %.4g)\n", w.Gamma, w.Worst, w.WorstRho, w.Rho2)
	// Output:
	// γ*_H2 = 0.2923: worst server 0, ρ₂,j = 3.889 (total 25.36)
	// γ = 0.307: worst servers [0 3 6], ρ₂,j = 3.72 (total 26.12)
}

// Reweighting two links of a path whose middle link is a hundred times
// weaker than the others, within the same total weight (spec §13.11):
// the weak link gains what a strong one gives up, and the certificate
// says how far any reweighting of all links could still go.
func ExampleReweightLinks() {
	b, err := wgraph.NewBuilder(8)
	if err != nil {
		panic(err)
	}
	total := 0.0
	for u := range 7 {
		w := 1.0
		if u == 3 {
			w = 0.01
		}
		total += w
		if err := b.SetEdge(u, u+1, w); err != nil {
			panic(err)
		}
	}
	th := &consensus.Throttler{Graph: b.Build(), Gamma: 0.2}
	r, err := consensus.ReweightLinks(th, 2, total, nil)
	if err != nil {
		panic(err)
	}
	for _, e := range r.Changed {
		fmt.Printf("link %d–%d: weight %.3f\n", e.U, e.V, e.W)
	}
	fmt.Printf("ρ₂ %.4g → %.4g; any reweighting ≥ %.4g\n", r.Rho2[0], r.Rho2[len(r.Rho2)-1], r.Lower)
	// Output:
	// link 3–4: weight 0.608
	// link 6–7: weight 0.402
	// ρ₂ 523.4 → 34.89; any reweighting ≥ 32.02
}
