package estimate

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// leastK is the definition of SketchProjections' count searched by
// brute force on SketchMiss: the least k with SketchMiss(k, ε) ≤ δ, or
// 0 when SketchMiss of k − 1 has underflowed (the definition cannot be
// checked there).
func leastK(t *testing.T, eps, miss float64) int {
	t.Helper()
	hi := 1
	for graphtest.Must(SketchMiss(hi, eps)) > miss {
		hi *= 2
	}
	lo := hi / 2
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; graphtest.Must(SketchMiss(mid, eps)) <= miss {
			hi = mid
		} else {
			lo = mid
		}
	}
	if graphtest.Must(SketchMiss(max(hi-1, 1), eps)) < 1e-300 {
		return 0
	}
	return max(hi, 2)
}

// SketchProjections answers every per-estimate miss δ down to 1e-300
// (ε = 0.3 and 0.1): the count is the least k of the definition wherever
// SketchMiss(k − 1, ε) is a normal float (leastK; this includes the
// values before logarithms were needed, δ ≥ 1e-15), and it never
// decreases as δ falls (δ = 10^(−j/8)). The χ²_k/k upper tail is ≤
// exp(−(k/2)(ε − ln(1 + ε))) and the lower one ≤ exp((k/2)(ε + ln(1 − ε)))
// (Chernoff), so k ≤ 2 ln(2/δ)/(ε − ln(1 + ε)) + 1 must hold as well.
func TestSketchProjectionsTinyMiss(t *testing.T) {
	for _, eps := range []float64{0.3, 0.1} {
		last := 0
		for j := 8; j <= 2400; j++ {
			miss := math.Pow(10, -float64(j)/8)
			k, err := SketchProjections(100, &SketchSettings{Eps: eps, Miss: miss})
			require.NoError(t, err, "ε = %v, δ = %g", eps, miss)
			require.GreaterOrEqual(t, k, last, "ε = %v, δ = %g: count falls", eps, miss)
			last = k
			chernoff := 2*math.Log(2/miss)/(eps-math.Log1p(eps)) + 1
			require.LessOrEqual(t, float64(k), chernoff, "ε = %v, δ = %g: above the Chernoff count", eps, miss)
			if want := leastK(t, eps, miss); want > 0 {
				require.Equal(t, want, k, "ε = %v, δ = %g: not the least count", eps, miss)
			}
		}
		t.Logf("ε = %v: k = %d at δ = 1e-300", eps, last)
	}
}

// All pairs of 5·10⁷ nodes and more (per-pair δ = 0.05/(n(n − 1)/2) ≤
// 4e-17, below where the normal screen used to overflow) get a count,
// between 1 800 and 2 700 up to n = 10¹⁰ (the Chernoff count at 10¹⁰,
// 2 ln(2/δ)/(ε − ln 1.3) ≈ 5 200, bounds it above; the normal
// approximation 2(z/ε)², z² ≈ 2 ln(1/δ), ≈ 1 700 at 5·10⁷, below),
// increasing with n, also when δ/(n(n − 1)/2) underflows (δ = 1e-300 at
// n = 10⁹: a per-pair miss of 2e-318).
func TestSketchProjectionsAllPairsLarge(t *testing.T) {
	last := 0
	for _, n := range []int{5e7, 1e8, 1e9, 1e10} {
		k, err := SketchProjections(n, &SketchSettings{AllPairs: true})
		require.NoError(t, err, "n = %d", n)
		assert.True(t, k >= 1800 && k <= 2700 && k > last, "n = %d: k = %d (after %d)", n, k, last)
		last = k
	}
	tiny, err := SketchProjections(1e9, &SketchSettings{AllPairs: true, Miss: 1e-300})
	require.NoError(t, err)
	tinier, err := SketchProjections(1e10, &SketchSettings{AllPairs: true, Miss: 1e-300})
	require.NoError(t, err)
	assert.True(t, tinier > tiny && tiny > last, "k = %d at n = 1e9, %d at 1e10, δ = 1e-300", tiny, tinier)
}

// The logarithmic tails (series of P, continued fraction of Q) agree
// with ln of mathext's regularised incomplete gamma functions wherever
// those are normal floats above 1e-300, to 1e-9 relative in the tail
// (two independent evaluations; the series and fraction are summed to
// 1e-16, and the log-prefix loses about 1e-16·a to the k/2 terms).
func TestLogSketchMissAgrees(t *testing.T) {
	checked := 0
	for _, eps := range []float64{0.5, 0.3, 0.1, 0.03} {
		for k := 2; k <= 1<<22; k = k*5/4 + 1 {
			v := sketchMiss(k, eps)
			if v < 1e-300 {
				break
			}
			a := float64(k) / 2
			lp, lq := logGammaIncLower(a, eps), logGammaIncUpper(a, eps)
			got := math.Log(math.Exp(lp-lq)+1) + lq
			require.InDelta(t, math.Log(v), got, 1e-9, "k = %d, ε = %v: tail %g", k, eps, v)
			checked++
		}
	}
	t.Logf("%d tails compared", checked)
}
