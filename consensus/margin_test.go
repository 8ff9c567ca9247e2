package consensus

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// TestGammaMarginComplete: K_n has λ_i = n (i ≥ 2), γ*_H2 = 1/n and
// γ*λ_n = 1, a margin of ½ (spec §5.1 fact 3). Up to m = ½ the choice
// is γ*_H2 at no price; at m = 0.6, Γλ_n = 0.8(1 − O(nε)) and
// ρ₂ = (n − 1)/(0.8 · 1.2), so the price is 1/0.96 − 1 = 1/24.
func TestGammaMarginComplete(t *testing.T) {
	const n = 12
	s, err := NewSpectral(graphtest.Must(gen.Complete(n)))
	require.NoError(t, err)
	for _, m := range []float64{0.1, 0.3, 0.499} {
		mc, err := s.GammaMargin(m, 2)
		require.NoError(t, err)
		require.True(t, mc.H2Optimal)
		require.InDelta(t, 1.0/n, mc.Gamma, 1e-12)
		require.Zero(t, mc.Price)
		require.Equal(t, mc.Rho2H2, mc.Rho2)
		require.InDelta(t, 4*(n-1), mc.Rho2, 1e-9) // σ² (n − 1), σ = 2
		require.InDelta(t, 0.5, mc.AchievedLo, 1e-12)
	}
	mc, err := s.GammaMargin(0.6, 1)
	require.NoError(t, err)
	require.False(t, mc.H2Optimal)
	// Γ = 0.8/λ_n⁺ with λ_n⁺ = n(1 + 8nε): relative error 1e-13.
	require.InEpsilon(t, 0.8/n, mc.Gamma, 1e-13)
	require.InEpsilon(t, (n-1)/0.96, mc.Rho2, 1e-12)
	require.InEpsilon(t, 1.0/24, mc.Price, 1e-11)
	require.GreaterOrEqual(t, mc.AchievedLo, 0.6)
	require.InDelta(t, 0.6, mc.AchievedHi, 1e-12)
}

// TestGammaMarginOptimal: on the families of spec §9 and random weighted
// graphs, for margins on both sides of γ*_H2's own, Γ keeps the margin
// for the exact λ_n, and no cycle that keeps it has a smaller ρ₂ (a grid
// of 400 cycles below (1 − m)·2/λ_n⁺, ρ₂ by Cholesky, an independent
// path); ρ₂(Γ) agrees with Rho.
func TestGammaMarginOptimal(t *testing.T) {
	for i, g := range familyAndRandomGraphs(t) {
		s, err := NewSpectral(g)
		require.NoError(t, err)
		gh2, _, err := s.GammaH2(1)
		require.NoError(t, err)
		own := 1 - gh2*s.LambdaMax()/2 // γ*_H2's own margin
		for _, m := range []float64{own / 2, own * 1.5, 0.9} {
			mc, err := s.GammaMargin(m, 1)
			require.NoError(t, err)
			name := fmt.Sprintf("graph %d, m = %.3g", i, m)
			require.LessOrEqual(t, mc.Gamma*s.LambdaMax(), 2*(1-m), name)
			require.Equal(t, m < own, mc.H2Optimal, name)
			th := &Throttler{Graph: g, Gamma: mc.Gamma}
			rho, err := Rho(th, Case2, 1)
			require.NoError(t, err)
			require.InEpsilon(t, rho, mc.Rho2, 1e-9, name)
			top := (1 - m) * mc.Limit
			for k := 1; k <= 400; k++ {
				r, err := s.Rho(Case2, top*float64(k)/400, 1)
				require.NoError(t, err)
				require.GreaterOrEqual(t, r, mc.Rho2*(1-1e-12), "%s: γ = %v", name, top*float64(k)/400)
			}
			require.InDelta(t, mc.Rho2/mc.Rho2H2-1, mc.Price, 1e-12*mc.Rho2/mc.Rho2H2, name)
		}
	}
}

// familyAndRandomGraphs returns the six-node graphs of spec §6 and two
// random weighted graphs.
func familyAndRandomGraphs(t *testing.T) []*wgraph.Graph {
	gs := []*wgraph.Graph{
		graphtest.Must(gen.Path(6)), graphtest.Must(gen.Cycle(6)), graphtest.Must(gen.Star(6)),
		graphtest.Must(gen.Grid(2, 3)), graphtest.Must(gen.Hypercube(4)),
		graphtest.SparseWeighted(t, 60, 0.1, 1, 7), graphtest.SparseWeighted(t, 120, 0.05, 3, 8),
	}
	return gs
}

// TestGammaMarginSmallPrice: just above γ*_H2's own margin the price is
// of second order in Γ − γ*_H2; the term-by-term difference keeps its
// digits where the ratio of the two sums would lose them (checked
// against the sums in 256-bit floating point).
func TestGammaMarginSmallPrice(t *testing.T) {
	s, err := NewSpectral(graphtest.Must(gen.Path(30)))
	require.NoError(t, err)
	gh2, _, err := s.GammaH2(1)
	require.NoError(t, err)
	own := 1 - gh2*s.LambdaMax()/2
	mc, err := s.GammaMargin(own*(1+1e-6), 1)
	require.NoError(t, err)
	want := bigPrice(s.Values(), mc.Gamma, gh2)
	require.Greater(t, want, 0.0)
	require.Less(t, want, 1e-9, "second order in a relative step of 1e-6")
	// With δ = (Γ − γ*)/γ* ≈ 1e-6 the terms of the difference are of
	// order δρ₂ and the price of order δ², so rounding the terms costs a
	// relative error of about nε/δ ≈ 1e-9 of the price; the ratio of the
	// two sums would cost ε/δ² ≈ 1e-4. 1e-6 separates the two.
	require.InEpsilon(t, want, mc.Price, 1e-6)
}

// bigPrice is ρ₂(x)/ρ₂(y) − 1 from the spectrum in 256-bit arithmetic.
func bigPrice(ev []float64, x, y float64) float64 {
	sum := func(g float64) *big.Float {
		tot := new(big.Float).SetPrec(256)
		for _, l := range ev[1:] {
			t := new(big.Float).SetPrec(256).Mul(big.NewFloat(g), big.NewFloat(l))
			two := new(big.Float).SetPrec(256).Sub(big.NewFloat(2), t)
			d := new(big.Float).SetPrec(256).Mul(t, two)
			tot.Add(tot, new(big.Float).SetPrec(256).Quo(big.NewFloat(1), d))
		}
		return tot
	}
	r := new(big.Float).SetPrec(256).Quo(sum(x), sum(y))
	f, _ := r.Sub(r, big.NewFloat(1)).Float64()
	return f
}

// TestEstimateGammaMarginCoverage: on a random 6-regular graph of 600
// nodes (γ*_H2 λ_n ≈ 1.56, a margin of 0.22), at m = 0.35 the margin
// binds; over 100 seeds the 95 % intervals of ρ₂(Γ) and of the price
// hold the exact values (dense spectrum, at each run's own Γ) at about
// their rate (binomial: ≥ 95 % − 3 sd), Γ keeps the margin for the
// exact λ_n, and at m = 0.05 γ̂*_H2 is chosen at no price.
func TestEstimateGammaMarginCoverage(t *testing.T) {
	g := graphtest.Must(gen.RandomRegular(600, 6, rand.NewPCG(5, 6)))
	s, err := NewSpectral(g)
	require.NoError(t, err)
	gh2, _, err := s.GammaH2(1)
	require.NoError(t, err)
	const seeds = 100
	hitR, hitP := 0, 0
	set := &estimate.TraceSettings{RelAcc: 0.02}
	for seed := range uint64(seeds) {
		e, err := EstimateGammaMargin(g, 0.35, 1.5, set, rand.NewPCG(seed, 77))
		require.NoError(t, err)
		require.False(t, e.H2Optimal)
		require.LessOrEqual(t, e.Gamma*s.LambdaMax(), 2*(1-0.35))
		require.GreaterOrEqual(t, e.AchievedLo, 0.35)
		rho, err := s.Rho(Case2, e.Gamma, 1.5)
		require.NoError(t, err)
		price := s.rho2Excess(e.Gamma, gh2) / s.rho2Sum(gh2)
		if e.Rho2.Contains(rho) {
			hitR++
		}
		if e.Price.Contains(price) {
			hitP++
		}
		if seed == 0 {
			t.Logf("exact ρ₂ %.6g price %.6g; estimate %+v %+v", rho, price, e.Rho2, e.Price)
		}
	}
	graphtest.CheckRates(t, seeds, map[string]int{"ρ₂(Γ)": hitR, "price": hitP})
	e, err := EstimateGammaMargin(g, 0.05, 1, set, rand.NewPCG(1, 2))
	require.NoError(t, err)
	require.True(t, e.H2Optimal)
	require.Equal(t, e.GammaH2.Gamma.Mean, e.Gamma)
	require.Zero(t, e.Price.Mean)
	require.Equal(t, e.GammaH2.Rho2, e.Rho2)
}

// TestEstimateGammaMarginResistanceApart: on a 24 × 24 torus the
// quadrature of qᵀL†q is slow, so tr L† is estimated apart (Hutch++) and
// enters the price's interval as an independent part; over 60 seeds the
// intervals still cover at about their rate.
func TestEstimateGammaMarginResistanceApart(t *testing.T) {
	g := graphtest.Must(gen.Torus(24, 24))
	s, err := NewSpectral(g)
	require.NoError(t, err)
	gh2, _, err := s.GammaH2(1)
	require.NoError(t, err)
	m := 1 - gh2*s.LambdaMax()/2 + 0.1
	const seeds = 60
	hitR, hitP, apart := 0, 0, 0
	for seed := range uint64(seeds) {
		e, err := EstimateGammaMargin(g, m, 1, &estimate.TraceSettings{RelAcc: 0.02}, rand.NewPCG(seed, 78))
		require.NoError(t, err)
		require.False(t, e.H2Optimal)
		if e.GammaH2.Solves > 0 {
			apart++
		}
		rho, err := s.Rho(Case2, e.Gamma, 1)
		require.NoError(t, err)
		if e.Rho2.Contains(rho) {
			hitR++
		}
		if e.Price.Contains(s.rho2Excess(e.Gamma, gh2) / s.rho2Sum(gh2)) {
			hitP++
		}
	}
	require.Equal(t, seeds, apart, "the resistance term must be estimated apart on the torus")
	graphtest.CheckRates(t, seeds, map[string]int{"ρ₂(Γ)": hitR, "price": hitP})
}
