package codedload

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

func TestHarmonicTableA(t *testing.T) {
	// Spec §8 A, printed to 6 decimals.
	cases := []struct {
		k     int
		gamma float64
		want  float64
	}{
		{100, 0, 100}, {100, 0.5, 18.589604}, {100, 0.8, 8.134436}, {100, 1, 5.187378},
		{100, 1.5, 2.412874}, {100, 2, 1.634984}, {1000, 1, 7.485471}, {1000, 2, 1.643935},
		{1000, 0.5, 61.801009},
	}
	for _, c := range cases {
		assert.InDelta(t, c.want, must(Harmonic(c.k, c.gamma)), 5e-7, "H_{%d,%v}", c.k, c.gamma)
	}
}

func TestZipfPMF(t *testing.T) {
	p, err := ZipfPMF(100, 1)
	require.NoError(t, err)
	// Spec §8 A: p_1 = 0.192776, p_100 = 0.0019278 (printed precision).
	assert.InDelta(t, 0.192776, p[0], 5e-7)
	assert.InDelta(t, 0.0019278, p[99], 5e-8)
	for _, g := range []float64{0, 0.3, 1, 2.5} {
		p, err := ZipfPMF(1000, g)
		require.NoError(t, err)
		var s float64
		for i, x := range p {
			s += x
			if i > 0 {
				assert.LessOrEqual(t, x, p[i-1])
			}
		}
		// 1000 terms each with relative rounding ≤ 2^-52.
		assert.InDelta(t, 1, s, 1e-12)
	}
	u, _ := ZipfPMF(7, 0)
	for _, x := range u {
		assert.Equal(t, 1.0/7, x) // exact by construction
	}
	_, err = ZipfPMF(0, 1)
	assert.ErrorContains(t, err, "Files = 0")
	_, err = ZipfPMF(5, -0.5)
	assert.ErrorContains(t, err, "Gamma = -0.5")
	_, err = ZipfPMF(5, math.NaN())
	assert.ErrorContains(t, err, "Gamma = NaN")
}

func TestAliasChiSquare(t *testing.T) {
	// Spec §8 A: N = 10⁶ draws, K = 100, γ = 1.
	const n = 1000000
	for _, g := range []float64{0, 0.5, 1, 2} {
		p, _ := ZipfPMF(100, g)
		a := must(NewAlias(p))
		rnd := rand.New(rand.NewPCG(1, uint64(g*10)))
		counts := make([]float64, len(p))
		for range n {
			counts[a.Draw(rnd)]++
		}
		var chi2 float64
		for i, c := range counts {
			e := n * p[i]
			chi2 += (c - e) * (c - e) / e
		}
		// 99.9% quantile of χ² with 99 degrees of freedom: a correct
		// sampler fails with probability 0.001 per γ (fixed seeds).
		q := distuv.ChiSquared{K: 99}.Quantile(0.999)
		assert.Less(t, chi2, q, "γ=%v", g)
		for i, c := range counts {
			assert.Greater(t, c, 0.0, "rank %d never drawn (S4 off-by-one regression)", i+1)
		}
		if g == 1 {
			// Rank 1: ±4 standard errors, sd = √(p(1−p)/N) (spec §8 A).
			assert.InDelta(t, p[0], counts[0]/n, 4*math.Sqrt(p[0]*(1-p[0])/n))
		}
	}
}

func TestAliasDegenerate(t *testing.T) {
	a := must(NewAlias([]float64{0, 3, 0}))
	rnd := rand.New(rand.NewPCG(2, 2))
	for range 1000 {
		require.Equal(t, 1, a.Draw(rnd))
	}
	assert.Panics(t, func() { must(NewAlias(nil)) })
	assert.Panics(t, func() { must(NewAlias([]float64{0, 0})) })
	assert.Panics(t, func() { must(NewAlias([]float64{1, -1})) })
}
