package consensus

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/require"
)

// TestGammaWorstServerTransitive: on vertex-transitive graphs every
// server has ρ₂,j = ρ₂/n (spec §4.3), so the worst server's optimum is
// γ*_H2 and every server is among the worst. The subgradient there is
// the derivative of ρ₂/n computed through different servers' rows, equal
// to rounding: 1e-9 relative covers the bisection's last bits.
func TestGammaWorstServerTransitive(t *testing.T) {
	for name, g := range map[string]*wgraph.Graph{
		"C9": graphtest.Must(gen.Cycle(9)), "K6": graphtest.Must(gen.Complete(6)),
		"Q4": graphtest.Must(gen.Hypercube(4)), "T5x7": graphtest.Must(gen.Torus(5, 7)),
	} {
		s, err := NewSpectral(g)
		require.NoError(t, err)
		w, err := s.GammaWorstServer(1)
		require.NoError(t, err)
		require.InEpsilon(t, w.GammaH2, w.Gamma, 1e-9, name)
		require.Len(t, w.Worst, g.Order(), name)
		require.InEpsilon(t, w.Rho2/float64(g.Order()), w.WorstRho, 1e-9, name)
		require.InEpsilon(t, w.Rho2H2, w.Rho2, 1e-12, name)
	}
}

// TestGammaWorstServerStar: the star S_n (hub 0) has spectrum 0, 1
// (n − 2 times), n; the hub's weights are (n − 1)/n on λ = n and 0 on
// λ = 1, a leaf's (n − 2)/(n − 1) on λ = 1 and 1/(n(n − 1)) on λ = n, so
//
//	ρ_hub(γ) = (n − 1)/n · f(nγ),  ρ_leaf(γ) = (n − 2)/(n − 1) · f(γ) + f(nγ)/(n(n − 1)).
//
// The minimax of these two closed forms, by golden section to 1e-13
// relative, is the reference.
func TestGammaWorstServerStar(t *testing.T) {
	for _, n := range []int{4, 6, 12} {
		nf := float64(n)
		f := func(t float64) float64 { return 1 / (t * (2 - t)) }
		hub := func(g float64) float64 { return (nf - 1) / nf * f(nf*g) }
		leaf := func(g float64) float64 { return (nf-2)/(nf-1)*f(g) + f(nf*g)/(nf*(nf-1)) }
		worst := func(g float64) float64 { return math.Max(hub(g), leaf(g)) }
		want := golden(worst, 1/nf, 2/nf)
		s, err := NewSpectral(graphtest.Must(gen.Star(n)))
		require.NoError(t, err)
		w, err := s.GammaWorstServer(1)
		require.NoError(t, err)
		require.InEpsilon(t, want, w.Gamma, 1e-9, "n = %d", n)
		require.InEpsilon(t, worst(want), w.WorstRho, 1e-12, "n = %d", n)
		if hub(want) > leaf(want)*(1+1e-6) {
			require.Equal(t, []int{0}, w.Worst)
		}
		t.Logf("S%d: γ = %.6g (γ*_H2 %.6g), worst %v, hub %.6g leaf %.6g; at γ*_H2 worst %d", n, w.Gamma, w.GammaH2, w.Worst, hub(w.Gamma), leaf(w.Gamma), w.WorstH2)
	}
}

// golden minimises the convex f on [a, b] by golden section until the
// bracket is 1e-14 relative.
func golden(f func(float64) float64, a, b float64) float64 {
	r := (math.Sqrt(5) - 1) / 2
	for b-a > 1e-14*b {
		c, d := b-r*(b-a), a+r*(b-a)
		if f(c) < f(d) {
			b = d
		} else {
			a = c
		}
	}
	return (a + b) / 2
}

// TestGammaWorstServerBruteForce: on paths, grids and random weighted
// graphs, no cycle on a grid of 300 over the stable range, nor γ*_H2,
// has a smaller worst ρ₂,j than Gamma (nodal values by Cholesky,
// NodalRho: an independent path); Gamma is a minimum from both sides;
// the worst servers reported are the largest nodal values.
func TestGammaWorstServerBruteForce(t *testing.T) {
	graphs := []*wgraph.Graph{
		graphtest.Must(gen.Path(7)), graphtest.Must(gen.Grid(3, 5)),
		graphtest.SparseWeighted(t, 40, 0.15, 1, 3), graphtest.SparseWeighted(t, 80, 0.08, 2, 4),
	}
	for i, g := range graphs {
		name := fmt.Sprintf("graph %d", i)
		s, err := NewSpectral(g)
		require.NoError(t, err)
		w, err := s.GammaWorstServer(2)
		require.NoError(t, err)
		worstAt := func(gamma float64) float64 {
			r, err := NodalRho(nil, &Throttler{Graph: g, Gamma: gamma}, Case2, 2)
			require.NoError(t, err)
			return slices.Max(r)
		}
		at := worstAt(w.Gamma)
		// Cholesky against eigenvectors: both within ~1e-12 relative.
		require.InEpsilon(t, at, w.WorstRho, 1e-10, name)
		require.LessOrEqual(t, at, worstAt(w.GammaH2)*(1+1e-12), name)
		limit := s.StabilityBound()
		for k := 1; k < 300; k++ {
			require.LessOrEqual(t, at, worstAt(limit*float64(k)/300)*(1+1e-12), "%s: γ = %v", name, limit*float64(k)/300)
		}
		for _, d := range []float64{1 - 1e-6, 1 + 1e-6} {
			require.LessOrEqual(t, at, worstAt(w.Gamma*d)*(1+1e-13), name)
		}
		r, err := NodalRho(nil, &Throttler{Graph: g, Gamma: w.Gamma}, Case2, 2)
		require.NoError(t, err)
		for _, j := range w.Worst {
			require.InEpsilon(t, at, r[j], 1e-8, name)
		}
		require.GreaterOrEqual(t, w.Rho2, w.Rho2H2*(1-1e-12), "%s: γ*_H2 minimises the total", name)
		t.Logf("%s: γ = %.6g, worst %v (%.6g); γ*_H2 = %.6g, worst %d (%.6g)", name, w.Gamma, w.Worst, w.WorstRho, w.GammaH2, w.WorstH2, w.WorstRhoH2)
	}
}

// TestGammaWorstServerPath: on P_n the minimiser is γ = ½ = γ_conv,
// where every server ties (spec §13.11: the spectrum pairs as
// t_i + t_{n+2−i} = 2 there).
func TestGammaWorstServerPath(t *testing.T) {
	for n := 3; n <= 12; n++ {
		s, err := NewSpectral(graphtest.Must(gen.Path(n)))
		require.NoError(t, err)
		w, err := s.GammaWorstServer(1)
		require.NoError(t, err)
		require.InDelta(t, 0.5, w.Gamma, 1e-12, "n = %d", n)
		require.Len(t, w.Worst, n, "n = %d", n)
	}
}
