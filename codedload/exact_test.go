package codedload

import (
	"math"
	"testing"
	"time"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Spec §8 E: C(ℓ) for K = 100, M = 2 on the infinite grid, printed to 4
// decimals, hence the tolerance of half a unit in the last place.
var costTable = []struct {
	gamma float64
	ell   int
	want  float64
}{
	{0, 1, 4.3758}, {0, 2, 3.8638}, {0, 5, 3.5252}, {0, 10, 3.4060}, {0, 20, 3.3452}, {0, 50, 3.3100},
	{1, 1, 3.5053}, {1, 2, 3.0921}, {1, 5, 2.8210}, {1, 10, 2.7270}, {1, 20, 2.6791}, {1, 50, 2.6495},
}

func TestCostTableE(t *testing.T) {
	for _, c := range costTable {
		p, err := ZipfPMF(100, c.gamma)
		require.NoError(t, err)
		assert.InDelta(t, c.want, must(Cost(p, 2, c.ell, nil)), 5e-5, "γ=%v ℓ=%d", c.gamma, c.ell)
	}
}

func TestCostNearestClosedForm(t *testing.T) {
	// For ℓ = 1 the shortfall sum must equal Σ_d (1−p)^{M|B_d|} (spec §6.3),
	// summed here directly; both are sums of positive terms with relative
	// rounding ~1e-15.
	for _, p := range []float64{0.01, 0.0019278, 0.19} {
		var want float64
		for d := 0; d < 10000; d++ {
			want += math.Pow(1-p, float64(2*GridBall(d)))
		}
		assert.InEpsilon(t, want, must(FileCost(p, 2, 1, nil)), 1e-12)
	}
}

func TestCostTorusMatchesGridWithoutWrap(t *testing.T) {
	// On a torus of side 100 the balls that matter (radius ≲ 15 for these
	// files) do not wrap, and the outage probability is < 1e-80, so the
	// finite and the infinite formulas agree to rounding (spec §6.3).
	tor := &Torus{Side: 100}
	p, _ := ZipfPMF(100, 0)
	for _, ell := range []int{1, 5, 10} {
		assert.InEpsilon(t, must(Cost(p, 2, ell, nil)), must(Cost(p, 2, ell, tor.Balls())), 1e-10)
	}
}

func TestBallsTorusCheckD(t *testing.T) {
	// Spec §8 D: distance histograms from a node (differences of balls).
	hist := map[int][]int{
		3:  {1, 4, 4},
		4:  {1, 4, 6, 4, 1},
		5:  {1, 4, 8, 8, 4},
		10: {1, 4, 8, 12, 16, 18, 16, 12, 8, 4, 1},
	}
	for s, want := range hist {
		b := (&Torus{Side: s}).Balls()
		got := []int{b[0]}
		for d := 1; d < len(b); d++ {
			got = append(got, b[d]-b[d-1])
		}
		assert.Equal(t, want, got, "side %d", s)
	}
	// |B_r| = 2r²+2r+1 while r < side/2; |B_10| = 221 (spec §8 D).
	b := (&Torus{Side: 25}).Balls()
	for r := 0; r < 12; r++ {
		assert.Equal(t, GridBall(r), b[r])
	}
	assert.Equal(t, 221, GridBall(10))
}

func TestBallsHypercube(t *testing.T) {
	// Σ_{i≤d} C(5, i) = 1, 6, 16, 26, 31, 32 by hand.
	assert.Equal(t, []int{1, 6, 16, 26, 31, 32}, (&Hypercube{Dim: 5}).Balls())
}

func TestOutageTableF(t *testing.T) {
	// Spec §8 F: n = 100, K = 100, M = 2, γ = 0, printed to 5 decimals.
	p, _ := ZipfPMF(100, 0)
	want := map[int]float64{1: 0.13398, 2: 0.09048, 5: 0.02869, 10: 0.00484, 20: 0.00017}
	for ell, w := range want {
		assert.InDelta(t, w, must(Outage(p, 100, 2, ell)), 5e-6, "ℓ=%d", ell)
	}
	// ℓ = 1 closed form (1−p)^{nM} = 0.99^200.
	assert.InDelta(t, math.Pow(0.99, 200), must(Outage(p, 100, 2, 1)), 1e-15)
}

func TestMaxPoissonMeanTableC(t *testing.T) {
	// Spec §8 C, printed to 4 decimals.
	want := map[int]float64{100: 4.2268, 400: 5.0178, 1024: 5.5259, 2025: 5.8775, 5041: 6.3494,
		10000: 6.6722, 22500: 7.0800, 100000: 7.7595, 1000000: 8.7917}
	for n, w := range want {
		assert.InDelta(t, w, must(MaxPoissonMean(n)), 5e-5, "n=%d", n)
	}
}

func TestMaxBinomialMeanCheckC(t *testing.T) {
	// Spec §8 C, printed to 4 decimals; within 0.04 of the Poisson values.
	assert.InDelta(t, 4.1942, must(MaxBinomialMean(100)), 5e-5)
	assert.InDelta(t, 6.6714, must(MaxBinomialMean(10000)), 5e-5)
	for _, n := range []int{100, 10000} {
		assert.InDelta(t, must(MaxPoissonMean(n)), must(MaxBinomialMean(n)), 0.04)
	}
}

func TestContinuumConstants(t *testing.T) {
	// Spec §6.2 (DERIVED): for 1 ≪ 1/(Mp) the NR cost tends to √(π/(8ρ))
	// and the coded cost (ℓ → ∞) to (2/3)/√(2ρ), ρ = Mp; ratio 4/(3√π).
	// Lattice corrections are O(√ρ) = 1e-2 here, finite-ℓ corrections
	// about 0.4/ℓ = 2e-3 at ℓ = 200: tolerances 1e-2 and 5e-3.
	p := 1e-4
	nr := must(FileCost(p, 1, 1, nil))
	assert.InEpsilon(t, math.Sqrt(math.Pi/(8*p)), nr, 1e-2)
	coded := must(FileCost(p, 1, 200, nil))
	assert.InEpsilon(t, (2.0/3)/math.Sqrt(2*p), coded, 5e-3)
	assert.InDelta(t, 4/(3*math.Sqrt(math.Pi)), coded/nr, 5e-3)
	assert.InDelta(t, 0.7523, 4/(3*math.Sqrt(math.Pi)), 5e-5) // spec §8 E
}

func TestRegimeSumsCheckE(t *testing.T) {
	// S(γ, K) = Σ_k √p_k, divided by √K (spec §8 E, printed to 4 digits).
	s := func(k int, g float64) float64 {
		p, _ := ZipfPMF(k, g)
		var x float64
		for _, v := range p {
			x += math.Sqrt(v)
		}
		return x
	}
	for _, c := range []struct {
		gamma float64
		k     int
		want  float64
		raw   bool
	}{
		{0, 100, 1, false}, {0.5, 100, 0.9627, false}, {0.5, 1000, 0.9509, false}, {0.5, 10000, 0.9457, false},
		{1, 100, 0.8162, false}, {1, 1000, 0.7143, false}, {1, 10000, 0.6346, false},
		{1.5, 100, 0.5938, false}, {1.5, 1000, 0.3774, false}, {1.5, 10000, 0.2271, false},
		{2, 100, 4.057, true}, {2, 1000, 5.838, true}, {2, 10000, 7.632, true},
	} {
		got := s(c.k, c.gamma)
		if !c.raw {
			got /= math.Sqrt(float64(c.k))
		}
		assert.InDelta(t, c.want, got, 5e-4, "γ=%v K=%d", c.gamma, c.k)
	}
}

func TestTorusBallsCountNodes(t *testing.T) {
	// Balls is computed from the per-coordinate counts in O(Side); here it
	// is checked against a direct count of the distances from node 0 for
	// every side up to 60, odd and even, and for the largest side its
	// last entry is n.
	for side := 1; side <= 60; side++ {
		tor := &Torus{Side: side}
		want := make([]int, 2*(side/2)+1)
		for v := 0; v < tor.Order(); v++ {
			want[tor.Dist(0, v)]++
		}
		for d := 1; d < len(want); d++ {
			want[d] += want[d-1]
		}
		want = want[:len(tor.Balls())]
		assert.Equal(t, want, tor.Balls(), "side %d", side)
		assert.Equal(t, tor.Order(), tor.Balls()[len(tor.Balls())-1])
	}
	big := (&Torus{Side: 46340}).Balls()
	assert.Equal(t, 46340*46340, big[len(big)-1])
}

// TestFileCostBoundsItsWork: work beyond the budget is refused at once
// (guards: FileCost(1e-300, 1, 1, nil), whose infinite-grid series needs
// about √(1/(2mp)) = 7e149 terms, never returning), and a small p that
// the bound admits is still summed.
func TestFileCostBoundsItsWork(t *testing.T) {
	start := time.Now()
	_, err := FileCost(1e-300, 1, 1, nil)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = FileCost(1e-14, 1, 1000, nil)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = FileCost(0.5, 1<<40, 1<<30, nil) // m·ℓ overflows
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = FileCost(0.01, 2, 1<<20, (&Torus{Side: 2000}).Balls()) // diameter·ℓ = 2e9 terms
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.Less(t, time.Since(start), 5*time.Second)
	// A small p that the bound admits is still summed: the NR cost on Z²
	// tends to √(π/(8·m·p)) (spec §6.2); the lattice corrections are
	// O(√(mp)) = 3e-4 relatively, hence the tolerance 1e-3.
	c, err := FileCost(1e-7, 1, 1, nil)
	require.NoError(t, err)
	assert.InEpsilon(t, math.Sqrt(math.Pi/(8e-7)), c, 1e-3)
}

// TestBoundaryValuesExact: the closed forms at the ends of their domains.
func TestBoundaryValuesExact(t *testing.T) {
	// Guards: MaxBinomialMean(1) = NaN (0·log 0 in the pmf of Bin(1, 1)).
	assert.Equal(t, 1.0, must(MaxBinomialMean(1)))
	// The maximum of one Po(1) is Po(1): Σ_m P(X > m) = E X = 1, up to the
	// rounding of 60 terms.
	assert.InDelta(t, 1.0, must(MaxPoissonMean(1)), 1e-14)
	// A file that is never requested adds nothing (guards: 0·∞ = NaN
	// for p_k = 0 on the infinite grid).
	c, err := Cost([]float64{1, 0}, 2, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, must(FileCost(1, 2, 1, nil)), c)
	assert.Equal(t, 0.0, c) // every server holds the only file
	// No node lies within a negative distance (guards: GridBall(−1) = 1).
	assert.Equal(t, 0, GridBall(-1))
	assert.Equal(t, 1, LogEll(0))
	assert.Equal(t, 1, LogEll(-5))
}

// TestBinomialPMFHugeN: log P(Bin(n, 1/n) = 3) at huge n is log(e⁻¹/6) =
// −2.79 (guards: lgamma(n+1) − lgamma(n−2) + … cancelling
// catastrophically, −131.7 at n = 2^62, and a wrong MaxBinomialMean with
// no error). Bin(n, 1/n) is within O(1/n) of Po(1) in total variation, so
// the two references agree to rounding there (1e-9 bounds the rounding of
// the log-sums of a few hundred terms).
func TestBinomialPMFHugeN(t *testing.T) {
	want := math.Log(math.Exp(-1) / 6)
	for _, n := range []int64{1 << 33, 1 << 40, 1 << 62} {
		assert.InDelta(t, want, logBinom(n, 1/float64(n), 3), 1e-9, "n = %d", n)
	}
	assert.InDelta(t, must(MaxPoissonMean(1<<62)), must(MaxBinomialMean(1<<62)), 1e-9)
}
