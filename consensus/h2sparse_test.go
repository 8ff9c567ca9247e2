package consensus

import (
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodalRhoSparseAgainstDense: the sparse path's nodal H2 values
// equal the dense path's on random sparse weighted graphs, in every
// traffic case. Both are backward stable with condition numbers below
// 1e5 here, so 1e-10 relative to the largest value covers both errors.
func TestNodalRhoSparseAgainstDense(t *testing.T) {
	for i, g := range []*wgraph.Graph{
		mustGraph(gen.RandomConnectedSparse(400, 4, 0.2, 5, rand.NewPCG(1, 1))),
		mustGraph(gen.Grid(15, 20)),
	} {
		sl, err := spectral.NewShiftedLaplacian(g, nil)
		require.NoError(t, err)
		lmax, err := spectral.LambdaMaxBracket(g, nil)
		require.NoError(t, err)
		for _, t0 := range []Traffic{Case1, Case2, Case2T} {
			th := &Throttler{Graph: g, Gamma: 1.2 / lmax.Hi}
			got, err := nodalRhoSparse(nil, th, t0, 0.7, sl, "NodalRho")
			require.NoError(t, err)
			want, err := nodalRhoDense(nil, th, t0, 0.7, "NodalRho")
			require.NoError(t, err)
			top := 0.0
			for _, x := range want {
				top = max(top, x)
			}
			for j := range want {
				assert.InDelta(t, want[j], got[j], 1e-10*top, "graph %d %v node %d", i, t0, j)
			}
		}
	}
}

// TestRhoSparseUnstable: past the stability limit the sparse path
// refuses with ErrUnstable, as the dense one does.
func TestRhoSparseUnstable(t *testing.T) {
	g := mustGraph(gen.Grid(60, 60)) // λ_n < 8
	th := &Throttler{Graph: g, Gamma: 0.3}
	_, err := Rho(th, Case2, 1)
	require.ErrorIs(t, err, ErrUnstable)
	th.Gamma = 0.2
	_, err = Rho(th, Case2, 1)
	require.NoError(t, err)
}

// TestGammaH2SparseAgainstSpectrum: the sparse golden-section search
// finds the dense spectrum's γ*_H2 (bisection of ρ₂' to the last bit).
// ρ₂ is flat at its minimum, so its value agrees to rounding (1e-12
// relative) while γ* agrees to about √ε (1e-6 relative allows for the
// curvature of ρ₂ on these graphs).
func TestGammaH2SparseAgainstSpectrum(t *testing.T) {
	for i, g := range []*wgraph.Graph{
		mustGraph(gen.RandomConnectedSparse(300, 3, 0.5, 2, rand.NewPCG(2, 2))),
		mustGraph(gen.Star(200)),
		mustGraph(gen.Grid(12, 17)),
	} {
		sl, err := spectral.NewShiftedLaplacian(g, nil)
		require.NoError(t, err)
		gs, rs, err := gammaH2Sparse(g, sl, 1.5)
		require.NoError(t, err)
		s, err := NewSpectral(g)
		require.NoError(t, err)
		gd, rd, err := s.GammaH2(1.5)
		require.NoError(t, err)
		assert.InEpsilon(t, gd, gs, 1e-6, "graph %d γ*", i)
		assert.InEpsilon(t, rd, rs, 1e-12, "graph %d ρ₂(γ*)", i)
	}
}

// TestRhoSparseLarge: above spectral.DenseMaxNodes Rho is exact by the
// sparse path: on a torus it matches the closed-form spectrum.
func TestRhoSparseLarge(t *testing.T) {
	g := mustGraph(gen.Torus(60, 70))
	ev, err := spectral.TorusSpectrum(60, 70)
	require.NoError(t, err)
	s, err := SpectralFrom(ev)
	require.NoError(t, err)
	th := &Throttler{Graph: g, Gamma: 0.2}
	for _, t0 := range []Traffic{Case1, Case2} {
		got, err := Rho(th, t0, 1)
		require.NoError(t, err)
		want, err := s.Rho(t0, 0.2, 1)
		require.NoError(t, err)
		assert.InEpsilon(t, want, got, 1e-10, "%v", t0)
	}
	gm, rho, err := GammaH2(g, 1)
	require.NoError(t, err)
	gd, rd, err := s.GammaH2(1)
	require.NoError(t, err)
	assert.InEpsilon(t, gd, gm, 1e-6)
	assert.InEpsilon(t, rd, rho, 1e-12)
}
