package consensus_test

import (
	"fmt"

	"github.com/loadlab/loadlab/consensus"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// The six-server cycle when every measure arrives τ cycles late (spec
// deployed §2): the stability limit a*(τ)/λ_n, the H2-optimal cycle and
// ρ₂ there shrink and grow with τ (τ = 1 by hand from the AR(2)
// variance (1 + a)/((1 − a)a(2 + a)) on the modes 1, 1, 3, 3, 4: 15.33).
func ExampleSpectral_GammaH2Delay() {
	g, err := gen.Cycle(6)
	if err != nil {
		panic(err)
	}
	s, err := consensus.NewSpectral(g)
	if err != nil {
		panic(err)
	}
	for _, tau := range []int{0, 1, 2, 4} {
		lim, _ := s.DelayStabilityBound(tau)
		gs, rho, err := s.GammaH2Delay(tau, 1)
		if err != nil {
			panic(err)
		}
		fmt.Printf("τ = %d: stable below γ = %.4g, γ*_H2 = %.4g, ρ₂ = %.4g\n", tau, lim, gs, rho)
	}
	// Output:
	// τ = 0: stable below γ = 0.5, γ*_H2 = 0.3653, ρ₂ = 6.638
	// τ = 1: stable below γ = 0.25, γ*_H2 = 0.1741, ρ₂ = 15.33
	// τ = 2: stable below γ = 0.1545, γ*_H2 = 0.1081, ρ₂ = 24.87
	// τ = 4: stable below γ = 0.08682, γ*_H2 = 0.06087, ρ₂ = 44.3
}

// ρ₂ of a throttler on the five-server path whose measures arrive two
// cycles late, exactly, and in expectation when a fifth of the exchanges
// are lost and each server ticks in 80 % of the cycles (spec deployed
// §2.3, §2.6).
func ExampleSecondMomentRho() {
	g, err := gen.Path(5)
	if err != nil {
		panic(err)
	}
	th := &consensus.Throttler{Graph: g, Gamma: 0.1}
	if _, err := consensus.DelayStability(th, 2); err != nil {
		panic(err)
	}
	rho, err := consensus.RhoDelay(th, consensus.Case2, 2, 1)
	if err != nil {
		panic(err)
	}
	lossy, err := consensus.SecondMomentRho(th, consensus.Case2, 2, 1, 0.2, 0.8)
	if err != nil {
		panic(err)
	}
	fmt.Printf("ρ₂ = %.4g; with loss and ticking: %.4g (exchange rate %.3g, fluctuation radius %.2g)\n", rho, lossy.Rho, lossy.MeanRate, lossy.Radius)
	// Output:
	// ρ₂ = 27.58; with loss and ticking: 46.76 (exchange rate 0.512, fluctuation radius 0.083)
}
