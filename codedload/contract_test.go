package codedload

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
)

// Each case below is a defect of issue 11 (or of its classes found
// elsewhere in the package), and failed before its fix.

func TestNewTorusRefusesSidesBeyondInt32(t *testing.T) {
	// NewTorus(2^40) was accepted (side 2^20) although Validate caps the
	// side at 46340: every Run on it failed afterwards.
	_, err := NewTorus(1 << 40)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = NewTorus(46341 * 46341)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	tor, err := NewTorus(46340 * 46340)
	require.NoError(t, err)
	assert.NoError(t, tor.Validate())
	_, err = NewTorus(10)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
	_, err = NewGrid(1<<40, 1<<30) // the product wrapped to a small value before
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = NewGrid(1<<32, 1<<32) // 2^64 wraps to 0
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = NewHypercube(3)
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}

func TestDistPanicsOutOfRange(t *testing.T) {
	// Torus.Dist(-1, 5) returned 4; an index out of range is a programmer
	// error, and the panic names the method.
	tor := &Torus{Side: 10}
	assert.PanicsWithValue(t, "codedload: Torus.Dist(-1, 5) with n = 100: node out of range", func() { tor.Dist(-1, 5) })
	assert.Panics(t, func() { tor.Dist(0, 100) })
	assert.Panics(t, func() { (&Grid{Rows: 2, Cols: 3}).Dist(6, 0) })
	assert.Panics(t, func() { (&Hypercube{Dim: 3}).Dist(0, -8) })
	assert.Equal(t, 2, tor.Dist(0, 99)) // (0,0)–(9,9): one wrap each way
}

func TestFileCostBoundsItsWork(t *testing.T) {
	// FileCost(1e-300, 1, 1, nil) never returned: the infinite-grid series
	// needs about √(1/(2mp)) = 7e149 terms. It is refused at once.
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

func TestExactFormulasRejectBadArguments(t *testing.T) {
	// FileCost panicked on bad data; the others returned numbers.
	p := []float64{0.5, 0.5}
	for name, err := range map[string]error{
		"FileCost m":      second(FileCost(0.1, 0, 1, nil)),
		"FileCost ell":    second(FileCost(0.1, 1, 0, nil)),
		"FileCost p NaN":  second(FileCost(math.NaN(), 1, 1, nil)),
		"FileCost p > 1":  second(FileCost(1.5, 1, 1, nil)),
		"FileCost balls":  second(FileCost(0.1, 1, 1, []int{1, 5, 3})),
		"FileCost empty":  second(FileCost(0.1, 1, 1, []int{})),
		"Cost empty":      second(Cost(nil, 1, 1, nil)),
		"Cost p NaN":      second(Cost([]float64{math.NaN()}, 1, 1, nil)),
		"Outage n":        second(Outage(p, 0, 1, 1)),
		"Outage p":        second(Outage([]float64{-0.1}, 10, 1, 1)),
		"MaxPoissonMean":  second(MaxPoissonMean(-1)), // returned −2.19
		"MaxBinomialMean": second(MaxBinomialMean(0)),
		"DecodeProb q":    second(DecodeProb(1, 3)),
		"DecodeProb NaN":  second(DecodeProb(math.NaN(), 3)),
		"DecodeProb ell":  second(DecodeProb(2, -1)),
		"Harmonic k":      second(Harmonic(0, 1)),
		"Harmonic γ":      second(Harmonic(10, math.NaN())),
		"ZipfPMF γ":       second(ZipfPMF(10, -1)),
		"NewAlias empty":  second(NewAlias(nil)),
		"NewAlias NaN":    second(NewAlias([]float64{1, math.NaN()})),
		"NewAlias zero":   second(NewAlias([]float64{0, 0})),
		"NewAlias Inf":    second(NewAlias([]float64{1e308, 1e308})), // sums to +Inf
	} {
		assert.ErrorIs(t, err, loadlab.ErrInvalid, name)
		assert.ErrorContains(t, err, "codedload: ", name)
	}
	_, err := Outage(p, 1<<40, 1<<30, 1<<10)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}

func TestZipfSizesRefusedBeforeAllocating(t *testing.T) {
	// ZipfPMF(2^40) crashed with a Go out-of-memory error; Harmonic(2^40)
	// would have summed 2^40 powers.
	_, err := ZipfPMF(1<<40, 1)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = Harmonic(1<<40, 1)
	assert.ErrorIs(t, err, loadlab.ErrTooLarge)
}

func TestBoundaryValuesExact(t *testing.T) {
	// MaxBinomialMean(1) returned NaN (0·log 0 in the pmf of Bin(1, 1)).
	assert.Equal(t, 1.0, must(MaxBinomialMean(1)))
	// The maximum of one Po(1) is Po(1): Σ_m P(X > m) = E X = 1, up to the
	// rounding of 60 terms.
	assert.InDelta(t, 1.0, must(MaxPoissonMean(1)), 1e-14)
	// A file that is never requested adds nothing: with p_k = 0 the
	// infinite-grid cost was 0·∞ = NaN.
	c, err := Cost([]float64{1, 0}, 2, 1, nil)
	require.NoError(t, err)
	assert.Equal(t, must(FileCost(1, 2, 1, nil)), c)
	assert.Equal(t, 0.0, c) // every server holds the only file
	// DecodeProb(2, 2^40) looped 2^40 times; its factors round to 1 after
	// j = 54, so the limit 0.288788 (spec §8 K) comes at once.
	start := time.Now()
	assert.InDelta(t, 0.288788, must(DecodeProb(2, 1<<40)), 5e-7)
	assert.Equal(t, 1.0, must(DecodeProb(math.Inf(1), 5)))
	assert.Equal(t, 1.0, must(DecodeProb(2, 0)))
	assert.Less(t, time.Since(start), time.Second)
	// GridBall(−1) was 1; no node lies within a negative distance.
	assert.Equal(t, 0, GridBall(-1))
	assert.Panics(t, func() { GridBall(1 << 40) })
	assert.Equal(t, 1, LogEll(0))
	assert.Equal(t, 1, LogEll(-5))
}

func TestNilArgumentsPanicNamingThem(t *testing.T) {
	a := must(NewAlias([]float64{1, 2}))
	assert.PanicsWithValue(t, "codedload: Alias.Draw: nil rand.Source", func() { a.Draw(nil) })
	assert.Panics(t, func() { BallRadius(nil, 5) })
	assert.Panics(t, func() { (&Torus{Side: -1}).Balls() })
	assert.Panics(t, func() { (&Hypercube{Dim: 40}).Balls() })
}

// second returns the error of a (value, error) pair.
func second[T any](_ T, err error) error { return err }

func TestOverflowedConfigNoLongerRuns(t *testing.T) {
	// Issue 11: Cache = 2^40, Ell = 2^30 passed Validate (Cache·Ell wrapped)
	// and Run returned MaxLoad 0, Cost 0, Outage 1 with no error.
	cfg := Config{Topology: &Torus{Side: 10}, Files: 10, Cache: 1 << 40, Strategy: Coded{Ell: 1 << 30}}
	r, err := Run(cfg, mc.Source(1))
	assert.Nil(t, r)
	assert.True(t, errors.Is(err, loadlab.ErrTooLarge), err)
}

func TestBinomialPMFHugeN(t *testing.T) {
	// log P(Bin(n, 1/n) = 3) was formed as lgamma(n+1) − lgamma(n−2) + …,
	// which cancels catastrophically for huge n: at n = 2^62 it gave −131.7
	// instead of log(e⁻¹/6) = −2.79, and MaxBinomialMean was wrong with no
	// error. Bin(n, 1/n) is within O(1/n) of Po(1) in total variation, so
	// the two references agree to rounding there.
	want := math.Log(math.Exp(-1) / 6)
	for _, n := range []int64{1 << 33, 1 << 40, 1 << 62} {
		assert.InDelta(t, want, logBinom(n, 1/float64(n), 3), 1e-9, "n = %d", n)
	}
	assert.InDelta(t, must(MaxPoissonMean(1<<62)), must(MaxBinomialMean(1<<62)), 1e-9)
}
