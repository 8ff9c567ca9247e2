package anycast

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenerateCDNRowsAndDegree(t *testing.T) {
	for _, tc := range []struct{ n, k int }{{1, 1}, {5, 5}, {300, 7}, {2000, 10}} {
		nw, err := GenerateCDN(rand.NewPCG(1, uint64(tc.n)), &CDNSettings{N: tc.n, K: tc.k})
		require.NoError(t, err)
		require.NotNil(t, nw.Sparse)
		assert.Equal(t, tc.n*tc.k, nw.NNZ())
		for j := 0; j < tc.n; j++ {
			cols, vals := nw.Row(j)
			require.Len(t, cols, tc.k, "degree of row %d", j)
			var s float64
			for _, v := range vals {
				s += v
			}
			// K ≤ 10 terms of size ≤ 1: a few ulps
			assert.InDelta(t, 1, s, 1e-14, "row %d", j)
			// the region's own proxy (distance 0) has the largest weight
			assert.Equal(t, slices.Max(vals), nw.At(j, j), "row %d", j)
		}
		// utilisation at x = 1 lies in [RhoLo, RhoHi] = [0.5, 1.2]
		for i, s := range nw.MaxLoads() {
			if s > 0 {
				rho := s / nw.T[i]
				assert.True(t, rho >= 0.5-1e-12 && rho <= 1.2+1e-12, "ρ[%d] = %v", i, rho)
			}
		}
	}
}

func TestGenerateCDNNearestIsBruteForce(t *testing.T) {
	// The grid search returns the same K nearest proxies as sorting all N
	// distances (positions redrawn from the same stream and renumbered as
	// GenerateCDN does).
	const n, k = 400, 6
	nw, err := GenerateCDN(rand.NewPCG(9, 9), &CDNSettings{N: n, K: k})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(9, 9))
	px, py := make([]float64, n), make([]float64, n)
	for j := range px {
		px[j], py[j] = rng.Float64(), rng.Float64()
	}
	sx, sy := slices.Clone(px), slices.Clone(py)
	localOrder(px, py, k)
	slices.Sort(sx)
	slices.Sort(sy)
	qx, qy := slices.Clone(px), slices.Clone(py)
	slices.Sort(qx)
	slices.Sort(qy)
	require.Equal(t, sx, qx, "localOrder permutes the points")
	require.Equal(t, sy, qy)
	for j := 0; j < n; j++ {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		d := func(i int) float64 { return math.Hypot(px[i]-px[j], py[i]-py[j]) }
		slices.SortFunc(all, func(a, b int) int {
			if d(a) != d(b) {
				if d(a) < d(b) {
					return -1
				}
				return 1
			}
			return a - b
		})
		want := slices.Clone(all[:k])
		slices.Sort(want)
		cols, vals := nw.Row(j)
		assert.Equal(t, want, cols, "row %d", j)
		// weights decay with distance: w_i/w_self = exp(−d_i/ℓ), ℓ = 1/√N
		for q, i := range cols {
			assert.InDelta(t, math.Exp(-d(i)*math.Sqrt(n)), vals[q]/nw.At(j, j), 1e-12)
		}
	}
}

func TestGenerateCDNDemandMean(t *testing.T) {
	// A_j log-normal with mean 1 (σ = 1): the sample mean of 20000 draws
	// has standard error √(e−1)/√20000 ≈ 0.0093; 5 standard errors.
	nw, err := GenerateCDN(rand.NewPCG(2, 3), &CDNSettings{N: 20000, K: 3})
	require.NoError(t, err)
	var s float64
	for _, a := range nw.A {
		s += a
	}
	assert.InDelta(t, 1, s/20000, 5*math.Sqrt(math.E-1)/math.Sqrt(20000))
}

func TestGenerateCDNDeterministicAndErrors(t *testing.T) {
	a, err := GenerateCDN(rand.NewPCG(4, 4), &CDNSettings{N: 50})
	require.NoError(t, err)
	b, err := GenerateCDN(rand.NewPCG(4, 4), &CDNSettings{N: 50})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	for _, s := range []*CDNSettings{
		{N: -1}, {N: 5, K: 6}, {K: -1}, {Decay: -1}, {Sigma: math.NaN()},
		{RhoLo: math.Inf(1)}, {RhoLo: 2, RhoHi: 1},
	} {
		_, err := GenerateCDN(rand.NewPCG(1, 1), s)
		assert.ErrorIs(t, err, loadlab.ErrInvalid, "%+v", *s)
	}
	assert.Panics(t, func() { _, _ = GenerateCDN(nil, nil) })
	// A tiny utilisation makes a capacity overflow: the error names the
	// setting (guards: an error naming T[i] = +Inf from Network.Validate).
	_, err = GenerateCDN(rand.NewPCG(1, 1), &CDNSettings{N: 50, RhoLo: 1e-320, RhoHi: 1e-320})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.ErrorContains(t, err, "CDNSettings.RhoLo")
}

func TestGenerateCDNLocality(t *testing.T) {
	// Renumbered along the grid sweep, a region's proxies lie within a
	// few cell rows of it: mean |i − j| over the entries of C is O(√(NK)),
	// against N/3 for random labels. 4√(NK) leaves a margin of about 2
	// over the serpentine's expected offset of about one cell row.
	const n, k = 20000, 10
	nw, err := GenerateCDN(rand.NewPCG(3, 1), &CDNSettings{N: n, K: k})
	require.NoError(t, err)
	var sum float64
	for j := 0; j < n; j++ {
		cols, _ := nw.Row(j)
		for _, i := range cols {
			sum += math.Abs(float64(i - j))
		}
	}
	mean := sum / float64(nw.NNZ())
	assert.Less(t, mean, 4*math.Sqrt(n*k), "mean |i − j| = %v", mean)
	t.Logf("mean |i − j| = %.0f, √(NK) = %.0f, N/3 = %.0f", mean, math.Sqrt(n*k), float64(n)/3)
}

// A demand spread of σ = 30, the largest allowed, keeps every demand
// positive (beyond it: validate_test.go).
func TestGenerateCDNWideSpread(t *testing.T) {
	nw, err := GenerateCDN(rand.NewPCG(1, 2), &CDNSettings{N: 100, K: 5, Sigma: 30})
	require.NoError(t, err)
	for j, a := range nw.A {
		// |Z| ≤ 8 for all 100 draws except with probability 1e-13.
		assert.Greater(t, a, 0.0, "A[%d]", j)
	}
}
