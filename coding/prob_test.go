package coding

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
)

// TestDecodeProbHand checks DecodeProb against products worked by hand
// (spec §11.3) and the values of spec §8 check K; 1e-15 is a few units
// of rounding of at most three factors, 5e-7 the six digits quoted.
func TestDecodeProbHand(t *testing.T) {
	must := func(q float64, ell, extra int) float64 {
		p, err := DecodeProb(q, ell, extra)
		require.NoError(t, err)
		return p
	}
	assert.Equal(t, 1.0, must(2, 0, 0))
	assert.InDelta(t, 0.5, must(2, 1, 0), 1e-15)
	assert.InDelta(t, 0.375, must(2, 2, 0), 1e-15)                 // (1 − 1/2)(1 − 1/4)
	assert.InDelta(t, 0.75*0.875, must(2, 2, 1), 1e-15)            // (1 − 1/4)(1 − 1/8)
	assert.InDelta(t, (1-1.0/16)*(1-1.0/64), must(4, 2, 1), 1e-15) // q = 4: (1 − 4⁻²)(1 − 4⁻³)
	assert.InDelta(t, 255.0/256, must(256, 1, 0), 1e-15)
	assert.InDelta(t, 0.289070, must(2, 10, 0), 5e-7)
	assert.InDelta(t, 0.933595, must(16, 5, 0), 5e-7)
	assert.InDelta(t, 0.996078, must(256, 14, 0), 5e-7)
	assert.Equal(t, 1.0, must(math.Inf(1), 5, 0))
	assert.Equal(t, 1.0, must(256, 3, 1000)) // every factor rounds to 1
	assert.InDelta(t, 0.288788, must(2, math.MaxInt-10, 0), 5e-7)
	// Increasing in δ, towards 1.
	prev := 0.0
	for d := range 20 {
		p := must(2, 6, d)
		assert.Greater(t, p, prev)
		prev = p
	}
	assert.InDelta(t, 1, prev, 1e-5) // 1 − P ≤ Σ_j 2^{−j}, j > 20
}

// TestExpectedExtraSeries checks the closed sums of ExpectedExtra
// against the tail sum Σ_δ (1 − DecodeProb(q, ℓ, δ)) (spec §11.3) and
// against the geometric law at ℓ = 1 (mean (1−p)/p, variance (1−p)/p²
// with p = 1 − 1/q). The series is cut where its terms fall below 1e-18;
// the 1e-13 tolerance covers the rounding of some 60 terms.
func TestExpectedExtraSeries(t *testing.T) {
	for _, q := range []float64{2, 4, 16, 256, 1 << 16} {
		for _, ell := range []int{1, 2, 5, 14, 100} {
			m, v, err := ExpectedExtra(q, ell)
			require.NoError(t, err)
			series := 0.0
			for d := 0; ; d++ {
				p, err := DecodeProb(q, ell, d)
				require.NoError(t, err)
				if 1-p < 1e-18 {
					break
				}
				series += 1 - p
			}
			assert.InDelta(t, series, m, 1e-13*math.Max(1, m), "q = %v, ℓ = %d", q, ell)
			if ell == 1 {
				p := 1 - 1/q
				assert.InDelta(t, (1-p)/p, m, 1e-15*m)
				assert.InDelta(t, (1-p)/(p*p), v, 1e-15*v)
			}
		}
	}
	m, v, err := ExpectedExtra(2, 0)
	require.NoError(t, err)
	assert.Zero(t, m+v)
	m, _, _ = ExpectedExtra(256, 14)
	assert.InDelta(t, 1.0/255+1.0/65535+1.0/16777215+1.0/4294967295, m, 1e-12) // the later terms sum to < 1e-12
}

// TestReceptionMatchesFormula: one large Monte Carlo study per field
// against DecodeProb and ExpectedExtra. A fixed seed makes the test
// deterministic; the intervals are exact (Clopper–Pearson) or Student-t
// at ≥ 20000 runs, and their coverage over many seeds is the subject of
// TestReceptionCoverage.
func TestReceptionMatchesFormula(t *testing.T) {
	for _, q := range Fields {
		const ell, runs = 14, 20000
		res, err := EstimateReception(q, ell, 4, runs, 2026, nil)
		require.NoError(t, err)
		for d, e := range res.Decode {
			p, _ := DecodeProb(float64(q), ell, d)
			assert.True(t, e.Contains(p), "q = %d, δ = %d: P = %v outside [%v, %v]", q, d, p, e.Lo, e.Hi)
		}
		m, _, _ := ExpectedExtra(float64(q), ell)
		assert.True(t, res.Extra.Contains(m), "q = %d: E = %v outside [%v, %v]", q, m, res.Extra.Lo, res.Extra.Hi)
		assert.Len(t, res.Needed, runs)
	}
}

// TestReceptionCoverage measures the coverage of the 95 % intervals of
// EstimateReception over 200 seeds (200 runs each, ℓ = 6) at q = 2 and
// q = 16. The Clopper–Pearson interval covers with probability ≥ 0.95 by
// construction; the Student-t interval of the mean extra count about
// 0.95. With 200 seeds the observed fraction has a standard error of
// √(0.95·0.05/200) ≈ 0.015: the bound 0.90 is three standard errors
// below 0.95.
func TestReceptionCoverage(t *testing.T) {
	const ell, runs, seeds = 6, 200, 200
	for _, q := range []int{2, 16} {
		mean, _, _ := ExpectedExtra(float64(q), ell)
		covers := make([]int, 3) // δ = 0, δ = 1, Extra
		for s := range seeds {
			res, err := EstimateReception(q, ell, 1, runs, uint64(1000+s), nil)
			require.NoError(t, err)
			for d := range 2 {
				p, _ := DecodeProb(float64(q), ell, d)
				if res.Decode[d].Contains(p) {
					covers[d]++
				}
			}
			if res.Extra.Contains(mean) {
				covers[2]++
			}
		}
		for i, c := range covers {
			assert.GreaterOrEqual(t, float64(c)/seeds, 0.90, "q = %d, interval %d: coverage %d/%d", q, i, c, seeds)
		}
		t.Logf("q = %d: coverage δ=0 %d, δ=1 %d, extra %d of %d", q, covers[0], covers[1], covers[2], seeds)
	}
}

// TestReceptionWorkers: the result does not depend on the number of
// goroutines, and run r is ChunksToDecode on loadlab.Stream(seed, r).
func TestReceptionWorkers(t *testing.T) {
	a, err := EstimateReception(4, 5, 2, 300, 9, &MonteCarlo{Workers: 1})
	require.NoError(t, err)
	b, err := EstimateReception(4, 5, 2, 300, 9, &MonteCarlo{Workers: 3})
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestFailProb: 1 − P computed without cancellation. Where P is far from
// 1 it must equal 1 − DecodeProb to rounding (1e-15); far in the tail it
// must match the leading terms of the expansion 1 − ∏(1 − x_j) =
// Σ x_j − Σ_{i<j} x_i x_j + … (x_j = q^{−j}), to 1e-12 relative.
func TestFailProb(t *testing.T) {
	for _, c := range [][3]int{{2, 1, 0}, {2, 10, 0}, {4, 3, 1}, {16, 5, 0}} {
		p, _ := DecodeProb(float64(c[0]), c[1], c[2])
		f, err := FailProb(float64(c[0]), c[1], c[2])
		require.NoError(t, err)
		assert.InDelta(t, 1-p, f, 1e-15, "%v", c)
	}
	f, _ := FailProb(256, 14, 3) // x_j = 256^−j, j = 4 … 17; third-order terms are 1e-19 of f
	s1, s2 := 0.0, 0.0
	for i := 4; i <= 17; i++ {
		s1 += math.Pow(256, float64(-i))
		for j := i + 1; j <= 17; j++ {
			s2 += math.Pow(256, float64(-i-j))
		}
	}
	assert.InDelta(t, s1-s2, f, 1e-14*f)
	f, _ = FailProb(256, 1, 99) // 256^−100 ≈ 2.6e-241: far below 1 − DecodeProb's reach
	assert.InDelta(t, math.Pow(256, -100), f, 1e-12*f)
	f, _ = FailProb(2, 0, 0)
	assert.Zero(t, f)
	f, _ = FailProb(math.Inf(1), 4, 0)
	assert.Zero(t, f)
}

// TestReceptionPrecision: with a Precision the study stops at the first
// run count whose mean extra count meets it, and its result is the
// fixed-runs result at that count bit for bit; a cap that comes first
// returns the partial result with ErrNotConverged.
func TestReceptionPrecision(t *testing.T) {
	set := &MonteCarlo{Precision: loadlab.Precision{Rel: 0.1}}
	a, err := EstimateReception(2, 6, 2, 20, 5, set)
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, a.Status)
	assert.LessOrEqual(t, a.Extra.HalfWidth(), 0.1*a.Extra.Mean)
	b, err := EstimateReception(2, 6, 2, a.Runs, 5, nil)
	require.NoError(t, err)
	b.Status = a.Status
	assert.Equal(t, b, a)
	// One run in 255 needs an extra chunk at q = 256: ±1 % needs about
	// 10⁷ runs, far beyond a cap of 200.
	c, err := EstimateReception(256, 6, 1, 20, 5, &MonteCarlo{Precision: loadlab.Precision{Rel: 0.01, MaxRuns: 200}})
	assert.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.NotNil(t, c)
	assert.Equal(t, 200, c.Runs)
	assert.Equal(t, loadlab.IterationLimit, c.Status)
}

// TestDecodeProbTableK checks the values of coded-load spec §8 K
// (printed to 6 decimals, so 5e-7 is their rounding; the first two are
// exact: 1/2 and 3/8), and that a huge ℓ costs nothing: the product
// stops once its factors round to 1 (after j = 54 at q = 2).
func TestDecodeProbTableK(t *testing.T) {
	for _, c := range []struct {
		q    float64
		ell  int
		want float64
		tol  float64
	}{{2, 1, 0.5, 1e-15}, {2, 2, 0.375, 1e-15}, {2, 10, 0.289070, 5e-7}, {2, 200, 0.288788, 5e-7},
		{16, 5, 0.933595, 5e-7}, {256, 1, 0.996094, 5e-7}, {256, 5, 0.996078, 5e-7}, {1 << 16, 3, 0.999985, 5e-7},
		{2, 1 << 40, 0.288788, 5e-7}, {math.Inf(1), 5, 1, 0}, {2, 0, 1, 0}} {
		p, err := DecodeProb(c.q, c.ell, 0)
		if err != nil || math.Abs(p-c.want) > c.tol {
			t.Errorf("DecodeProb(%v, %d, 0) = %v, %v; want %v", c.q, c.ell, p, err, c.want)
		}
	}
}
