package beacon

import (
	"math"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/stat/distuv"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// knownC is a 4 × 4 correlation matrix with a large, a moderate, a small
// and a zero entry in its rows.
func knownC() *anycast.SparseC {
	rows := []int{0, 0, 0, 1, 1, 2, 2, 2, 3}
	cols := []int{0, 1, 3, 1, 2, 0, 2, 3, 3}
	vals := []float64{0.7, 0.25, 0.05, 0.5, 0.5, 0.02, 0.9, 0.08, 1}
	return must(anycast.NewSparseC(4, rows, cols, vals))
}

// TestClopperPearsonHand checks the interval against values that follow
// from its definition: 5 of 10 gives the tabulated (0.187086, 0.812914);
// the closed forms at k = 0, 1, n − 1, n; and the tail identities
// P(X ≥ k | lo) = a/2 and P(X ≤ k | hi) = a/2 of the binomial law.
func TestClopperPearsonHand(t *testing.T) {
	lo, hi := ClopperPearson(5, 10, 0.05)
	assert.InDelta(t, 0.187086, lo, 1e-6) // table to 6 decimals
	assert.InDelta(t, 0.812914, hi, 1e-6)
	lo, hi = ClopperPearson(0, 20, 0.05)
	assert.Equal(t, 0.0, lo)
	assert.InDelta(t, 1-math.Pow(0.025, 1.0/20), hi, 1e-15)
	lo, hi = ClopperPearson(20, 20, 0.05)
	assert.Equal(t, 1.0, hi)
	assert.InDelta(t, math.Pow(0.025, 1.0/20), lo, 1e-15)
	for _, c := range []struct{ k, n int64 }{{1, 30}, {7, 30}, {29, 30}, {120, 1000}} {
		lo, hi := ClopperPearson(c.k, c.n, 0.05)
		b := distuv.Binomial{N: float64(c.n)}
		b.P = lo
		upper := 1 - b.CDF(float64(c.k)-1)
		b.P = hi
		lower := b.CDF(float64(c.k))
		// the tails are sums of ≤ 1000 positive terms: 1e-9 covers their
		// rounding and that of the Beta quantile's inversion
		assert.InDelta(t, 0.025, upper, 1e-9, "k=%d n=%d", c.k, c.n)
		assert.InDelta(t, 0.025, lower, 1e-9, "k=%d n=%d", c.k, c.n)
	}
}

// exactMiss is the probability that the 95 % Clopper–Pearson interval
// of Binomial(n, p) misses p: the sum of the probabilities of the
// outcomes whose interval excludes p.
func exactMiss(n int64, p float64) float64 {
	b := distuv.Binomial{N: float64(n), P: p}
	var q float64
	for k := int64(0); k <= n; k++ {
		if lo, hi := ClopperPearson(k, n, 1-Level); p < lo || p > hi {
			q += b.Prob(float64(k))
		}
	}
	return q
}

// TestEntryCoverage draws 4000 campaigns of 40 beacons per region on a
// known C and counts, per entry, the campaigns whose 95 % interval
// misses C_ji. Each entry's count of n_ji is Binomial(40, C_ji) (the
// marginal of a multinomial), so the misses of an entry are
// Binomial(4000, q) with q its exact miss probability, q ≤ 0.05
// (Clopper–Pearson is conservative): the observed count must lie within
// 4.5 standard deviations of 4000q (a two-sided binomial test at level
// about 7e-6 per entry, 16 entries).
func TestEntryCoverage(t *testing.T) {
	c := knownC()
	const runs, n = 4000, 40
	misses := make([]int, 16)
	for r := 0; r < runs; r++ {
		cnt := must(Draw(c, []int64{n, n, n, n}, loadlab.Stream(29, uint64(r))))
		h := must(EstimateC(cnt, nil))
		for j := 0; j < 4; j++ {
			for i := 0; i < 4; i++ {
				if e := h.Estimate(j, i); !e.Contains(c.At(j, i)) {
					misses[4*j+i]++
				}
			}
		}
	}
	for j := 0; j < 4; j++ {
		for i := 0; i < 4; i++ {
			p := c.At(j, i)
			q := exactMiss(n, p)
			require.LessOrEqual(t, q, 0.05)
			sd := math.Sqrt(runs * q * (1 - q))
			assert.InDelta(t, runs*q, float64(misses[4*j+i]), 4.5*sd+0.5, "C[%d][%d] = %v, exact miss %v", j, i, p, q)
		}
	}
}

// TestSetCoverage counts the campaigns whose simultaneous set misses C
// (some entry outside its interval) on a 30 × 30 C with 5 proxies per
// row, with and without the support bound, at α = 0.05 and α = 0.5.
// Bonferroni guarantees a miss probability ≤ α, so the misses of 600
// campaigns are stochastically below Binomial(600, α): the test fails
// only if they exceed 600α + 4.5 standard deviations.
func TestSetCoverage(t *testing.T) {
	c := must(anycast.GenerateCDN(loadlab.Stream(3), &anycast.CDNSettings{N: 30, K: 5})).Sparse
	beacons := make([]int64, 30)
	for j := range beacons {
		beacons[j] = 60
	}
	const runs = 600
	for _, s := range []*Settings{nil, {Support: 5}, {Alpha: 0.5, Support: 5}} {
		miss, missEntry := 0, 0
		for r := 0; r < runs; r++ {
			h := must(EstimateC(must(Draw(c, beacons, loadlab.Stream(7, uint64(r)))), s))
			if !h.Set.Contains(c, 0) {
				miss++
			}
			if !h.Entry.Contains(c, 0) {
				missEntry++
			}
		}
		a := 0.05
		if s != nil && s.Alpha > 0 {
			a = s.Alpha
		}
		assert.LessOrEqual(t, float64(miss), runs*a+4.5*math.Sqrt(runs*a*(1-a)), "settings %+v", s)
		// the per-entry box is not simultaneous: with 150 entries of C > 0
		// at most 5 % each, it misses somewhere in most campaigns, which
		// shows that the set's correction is not vacuous
		assert.Greater(t, missEntry, runs/2)
	}
}

// TestEstimateHand checks Ĉ, the intervals and the merge of repeated
// pairs on a hand table.
func TestEstimateHand(t *testing.T) {
	cnt := must(NewCounts(2, 3, []int{0, 0, 1, 0, 1}, []int{2, 0, 1, 2, 0}, []int64{3, 5, 10, 2, 0}))
	assert.Equal(t, 3, cnt.NNZ())
	assert.Equal(t, int64(5), cnt.At(0, 2))
	assert.Equal(t, int64(0), cnt.At(1, 0))
	h := must(EstimateC(cnt, &Settings{Alpha: 0.1}))
	e := h.Estimate(0, 2)
	assert.Equal(t, 0.5, e.Mean)
	lo, hi := ClopperPearson(5, 10, 0.05)
	assert.Equal(t, lo, e.Lo)
	assert.Equal(t, hi, e.Hi)
	assert.Equal(t, 10, e.N)
	z := h.Estimate(1, 2)
	assert.Equal(t, 0.0, z.Mean)
	assert.InDelta(t, 1-math.Pow(0.025, 0.1), z.Hi, 1e-15)
	// the set's entries are at α/(R·P) = 0.1/6
	_, slo, shi, _ := h.Set.Row(0)
	lo, hi = ClopperPearson(5, 10, 0.1/6)
	assert.Equal(t, []float64{lo, lo}, slo)
	assert.Equal(t, []float64{hi, hi}, shi)
	_, err := h.Matrix()
	assert.ErrorIs(t, err, loadlab.ErrInvalid) // 2 × 3 is not an anycast C
}

// TestMatrixAndDrift: Ĉ of a square table is a valid anycast C, and the
// drift model interpolates between its end points.
func TestMatrixAndDrift(t *testing.T) {
	c := knownC()
	h := must(EstimateC(must(Draw(c, []int64{100, 100, 100, 100}, loadlab.Stream(1))), nil))
	chat := must(h.Matrix())
	assert.Equal(t, 0.0, chat.At(1, 0))
	assert.True(t, h.Set.Contains(chat, 0)) // Ĉ lies in its own set
	c1 := must(anycast.NewSparseC(4, []int{0, 1, 2, 3}, []int{1, 2, 3, 0}, []float64{1, 1, 1, 1}))
	d0 := must(Drift(c, c1, 0.1, 0))
	d2 := must(Drift(c, c1, 0.1, 2))
	for j := 0; j < 4; j++ {
		for i := 0; i < 4; i++ {
			assert.Equal(t, c.At(j, i), d0.At(j, i))
			// (1 − ε)² = 0.81, to rounding
			assert.InDelta(t, 0.81*c.At(j, i)+0.19*c1.At(j, i), d2.At(j, i), 1e-15)
		}
	}
}

// TestDeterministic: the intervals do not depend on the number of
// goroutines (each row by one goroutine).
func TestDeterministic(t *testing.T) {
	c := must(anycast.GenerateCDN(loadlab.Stream(4), &anycast.CDNSettings{N: 500})).Sparse
	b := make([]int64, 500)
	for j := range b {
		b[j] = 1000
	}
	cnt := must(Draw(c, b, loadlab.Stream(5)))
	h1 := must(EstimateC(cnt, nil))
	prev := setProcs(1)
	h2 := must(EstimateC(cnt, nil))
	setProcs(prev)
	assert.Equal(t, h1.Set.Hi, h2.Set.Hi)
	assert.Equal(t, h1.Entry.Lo, h2.Entry.Lo)
}

// setProcs sets GOMAXPROCS and returns the previous value.
func setProcs(n int) int { return runtime.GOMAXPROCS(n) }

// TestSupportFull: with Support = K a row with K observed proxies has
// its unseen pairs at zero; a row with fewer keeps the Clopper–Pearson
// bound.
func TestSupportFull(t *testing.T) {
	cnt := must(NewCounts(2, 4, []int{0, 0, 1}, []int{0, 2, 3}, []int64{5, 5, 10}))
	h := must(EstimateC(cnt, &Settings{Support: 2}))
	_, _, _, z0 := h.Set.Row(0)
	_, _, _, z1 := h.Set.Row(1)
	assert.Equal(t, 0.0, z0)
	_, want := ClopperPearson(0, 10, 0.05/4)
	assert.Equal(t, want, z1)
	assert.Equal(t, 0.0, h.Estimate(0, 1).Hi)
}

// TestPrior: a region below MinCount takes its prior row with [0, 1]
// intervals; the others are estimated; the set still contains C.
func TestPrior(t *testing.T) {
	c := knownC()
	cnt := must(Draw(c, []int64{500, 3, 0, 500}, loadlab.Stream(8)))
	_, err := EstimateC(cnt, &Settings{MinCount: 10})
	assert.ErrorIs(t, err, loadlab.ErrInvalid) // region 1 (3 beacons): no prior, an error
	h := must(EstimateC(cnt, &Settings{MinCount: 10, Prior: c}))
	assert.Equal(t, []int{1, 2}, h.Prior)
	chat := must(h.Matrix())
	for i := 0; i < 4; i++ {
		assert.Equal(t, c.At(2, i), chat.At(2, i))
		assert.Equal(t, c.At(1, i), chat.At(1, i))
		e := h.Estimate(1, i)
		assert.Equal(t, [2]float64{0, 1}, [2]float64{e.Lo, e.Hi})
		assert.Equal(t, c.At(1, i), e.Mean)
	}
	assert.True(t, h.Set.Contains(c, 0))
	assert.InDelta(t, float64(cnt.At(0, 0))/500, h.Estimate(0, 0).Mean, 1e-15)
}
