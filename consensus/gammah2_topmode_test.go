package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/estimate"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTopModeVector: the control variate's vector is a unit vector
// orthogonal to the constants (so that E[c] = ‖Pu‖² = 1), and on graphs
// whose Lanczos process ends on an invariant subspace it is the top
// eigenvector: on the 2⁵-node hypercube θ = λ_n = 10 and λ̄ = (tr L −
// 10)/30 = 5 (tr L = 32·5), on the star of 21 nodes u ∝ (n − 1, −1, …,
// −1) with θ = n and λ̄ = 1 (tolerance 1e-10: a few steps' rounding).
// Below 3 nodes and from 2¹⁷ nodes on there is none.
func TestTopModeVector(t *testing.T) {
	for _, c := range []struct {
		name        string
		n           int
		theta, lbar float64
	}{
		{"hypercube 5", 32, 10, 5},
		{"star 21", 21, 21, 1},
	} {
		g := graphtest.Must(gen.Hypercube(5))
		if c.name == "star 21" {
			g = graphtest.Must(gen.Star(21))
		}
		m, err := lapmat.New(g)
		require.NoError(t, err)
		tm, err := newTopMode(m)
		require.NoError(t, err)
		require.NotNil(t, tm, c.name)
		var sum float64
		for _, x := range tm.u {
			sum += x
		}
		assert.InDelta(t, 0, sum, 1e-12, c.name)
		assert.InDelta(t, 1, dense.Dot(tm.u, tm.u), 1e-12, c.name)
		assert.InDelta(t, c.theta, tm.theta, 1e-10*c.theta, c.name)
		assert.InDelta(t, c.lbar, tm.lbar, 1e-10*c.lbar, c.name)
		assert.Greater(t, tm.matvecs, 0)
		if c.name == "star 21" { // the centre is node 0
			scale := tm.u[0] / 20
			for _, x := range tm.u[1:] {
				assert.InDelta(t, -scale, x, 1e-10*math.Abs(scale))
			}
		}
	}
	for _, n := range []int{2, 1 << 17} {
		m, err := lapmat.New(graphtest.Must(gen.Path(n)))
		require.NoError(t, err)
		tm, err := newTopMode(m)
		require.NoError(t, err)
		assert.Nil(t, tm, "n = %d", n)
	}
}

// TestTopModeStarExact: on a star every probe's value is affine in its
// weight c on the top eigenvector, (n − 1)f(1) + c(f(n) − f(1)), so the
// adjusted values are the exact g(γ) and ρ₂(γ) (closed forms over the
// eigenvalues 1, n − 2 times, and n) for every probe, to the rounding
// allowance the adjustment adds (1e-9 relative: the terms near the pole
// are up to 10³ times the result). The weights' mean is 1 within the
// sampling error (4 sd of a χ²₁-like weight over 4000 probes, sd ≈ √2).
func TestTopModeStarExact(t *testing.T) {
	const n = 21
	g := graphtest.Must(gen.Star(n))
	_, hs, err := gammaH2Sampler(g, &estimate.TraceSettings{RelAcc: 0.05}, rand.NewPCG(3, 4), false)
	require.NoError(t, err)
	require.NotNil(t, hs.top)
	for _, gamma := range []float64{0.05, 0.09, 0.0951} {
		var gx, rx float64
		for _, l := range []float64{1, n} {
			m := float64(n - 2)
			if l == n {
				m = 1
			}
			tt := gamma * l
			gx += m * (1 - tt) / (l * (2 - tt) * (2 - tt))
			rx += m / (tt * (2 - tt))
		}
		hs.probeParts(gamma, sampleG)
		for i, v := range hs.buf {
			assert.InDelta(t, gx, v, 1e-9*math.Abs(gx)+hs.half[i], "γ = %v: g of probe %d", gamma, i)
		}
		hs.probeParts(gamma, sampleRho2)
		for i, v := range hs.buf {
			assert.InDelta(t, rx, v, 1e-9*rx, "γ = %v: ρ₂ of probe %d", gamma, i)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var sum float64
	const probes = 4000
	for range probes {
		sum += hs.top.weight(&lanczos.Probe{Seed: rng.Uint64()})
	}
	assert.InDelta(t, 1, sum/probes, 4*math.Sqrt(2.0/probes))
}
