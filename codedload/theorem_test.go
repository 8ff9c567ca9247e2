package codedload

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
)

// TestTailsHand: a hand example, the share of runs above each threshold
// with the Clopper–Pearson interval of internal/mc.
func TestTailsHand(t *testing.T) {
	p := PointResult{Runs: []*Result{{MaxLoad: 2}, {MaxLoad: 3}, {MaxLoad: 3.5}, {MaxLoad: 5}}}
	got, err := Tails(p, []float64{1, 3, 5})
	require.NoError(t, err)
	assert.Equal(t, []loadlab.Estimate{mc.Binomial(4, 4), mc.Binomial(2, 4), mc.Binomial(0, 4)}, got)
	assert.InDelta(t, 0.5, got[1].Mean, 0)
}

// TestTailStudyFullReplication checks the tail estimate against a closed
// form: nearest replica with full replication and Poissonized requests
// has L_max = max of n i.i.d. Po(1) counts (spec §8 C), so
// P[L_max > c] = 1 − F(c)^n exactly. The exact value must lie in the
// 95 % Clopper–Pearson interval of 3000 runs (a fixed seed: the check is
// deterministic; over seeds it would fail at most 5 % of the time).
func TestTailStudyFullReplication(t *testing.T) {
	tor := must(NewTorus(16))
	pt := Point{X: 16, Config: Config{Topology: tor, Files: 4, Cache: 1, Placement: Full, Requests: Poissonized}}
	cs := []float64{1, 2, 3, 4}
	got, err := TailStudy([]Point{pt}, 3000, cs, 7, nil)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, 1, got[0].Ell)
	for i, c := range cs {
		f := 0.0 // Po(1) CDF at c
		for j := 0.0; j <= c; j++ {
			f += math.Exp(-1) / math.Gamma(j+1)
		}
		want := 1 - math.Pow(f, 16)
		e := got[0].Tail[i]
		assert.Equal(t, 3000, e.N)
		assert.True(t, e.Contains(want), "c = %v: P = %v not in [%v, %v]", c, want, e.Lo, e.Hi)
	}
	// The tail falls with the threshold.
	for i := 1; i < len(cs); i++ {
		assert.LessOrEqual(t, got[0].Tail[i].Mean, got[0].Tail[i-1].Mean)
	}
}

// TestTailStudyIsSweep: the study's runs are Sweep's (same seed, same
// streams), so its mean maximum load is Sweep's.
func TestTailStudyIsSweep(t *testing.T) {
	pts := must(SizePoints([]int{16, 64}, Config{Files: 10, Cache: 2, Strategy: Coded{}}, TorusFamily, false, LogEll))
	got, err := TailStudy(pts, 5, []float64{2}, 3, &SweepSettings{Workers: 1})
	require.NoError(t, err)
	res := must(Sweep(pts, 5, 3, &SweepSettings{Workers: 2}))
	for i := range pts {
		assert.Equal(t, res[i].MaxLoad, got[i].MaxLoad)
		assert.Equal(t, LogEll(int(pts[i].X)), got[i].Ell)
	}
}

// TestFitLineExact: noise-free means on a line give that line; with
// equal run counts and standard errors the slope's standard error is the
// ordinary least-squares one, SE/√Σ(x−x̄)².
func TestFitLineExact(t *testing.T) {
	xs := []float64{1, 2, 4, 7}
	ys := make([]loadlab.Estimate, len(xs))
	for i, x := range xs {
		ys[i] = loadlab.Estimate{Mean: 3 - 0.5*x, StdErr: 0.2, N: 10}
	}
	f, err := FitLine(xs, ys)
	require.NoError(t, err)
	// Tolerance: a few ulps of sums of 4 terms of size ≤ 10.
	assert.InDelta(t, -0.5, f.Slope.Mean, 1e-13)
	assert.InDelta(t, 3, f.Intercept.Mean, 1e-13)
	sxx := 0.0 // x̄ = 3.5
	for _, x := range xs {
		sxx += (x - 3.5) * (x - 3.5)
	}
	assert.InDelta(t, 0.2/math.Sqrt(sxx), f.Slope.StdErr, 1e-15)
	// Intercept: SE²(1/k + x̄²/Sxx).
	assert.InDelta(t, 0.2*math.Sqrt(0.25+3.5*3.5/sxx), f.Intercept.StdErr, 1e-15)
	assert.Equal(t, 40, f.Runs)
	assert.Equal(t, 4, f.Slope.N)
}

// TestFitLineCoverage: over 2000 synthetic studies with a known line and
// heteroscedastic normal means (each SE different), the slope and the
// intercept intervals cover the truth about 95 % of the time. With 2000
// trials the share has standard deviation 0.0049; the band [0.93, 0.97]
// is four of them.
func TestFitLineCoverage(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	xs := []float64{4.6, 6.2, 6.9, 8.3, 9.2, 11.5}
	se := []float64{0.05, 0.2, 0.08, 0.3, 0.1, 0.15}
	ns := []int{100, 30, 60, 20, 80, 40}
	const trials = 2000
	var inS, inI int
	for range trials {
		ys := make([]loadlab.Estimate, len(xs))
		for i, x := range xs {
			ys[i] = loadlab.Estimate{Mean: 2 + 0.1*x + se[i]*rnd.NormFloat64(), StdErr: se[i], N: ns[i]}
		}
		f := must(FitLine(xs, ys))
		if f.Slope.Contains(0.1) {
			inS++
		}
		if f.Intercept.Contains(2) {
			inI++
		}
	}
	for _, k := range []int{inS, inI} {
		assert.InDelta(t, 0.95, float64(k)/trials, 0.02)
	}
}

func TestScaledEll(t *testing.T) {
	for _, c := range []struct {
		c    float64
		n, l int
	}{{1, 1, 1}, {1, 100, 5}, {2, 100, 9}, {0.5, 10000, 5}, {0.01, 100, 1}} {
		assert.Equal(t, c.l, must(ScaledEll(c.c, c.n)), "c=%v n=%d", c.c, c.n)
	}
}

// TestSlopeStudy: the curves are CompareSizes' (baselines first, then one
// per c with ℓ = round(c·ln n)), each with FitLine against ln n.
func TestSlopeStudy(t *testing.T) {
	base := Config{Files: 10, Cache: 2, Strategy: Coded{ChunkCap: 1}}
	nr := Variant{Name: "nr", Config: Config{Files: 10, Cache: 2}}
	ns := []int{16, 64, 256}
	got, err := SlopeStudy(ns, TorusFamily, base, []float64{1, 2}, []Variant{nr}, func(int) int { return 6 }, 5, nil)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, []string{"nr", "coded c=1", "coded c=2"}, []string{got[0].Name, got[1].Name, got[2].Name})
	assert.Equal(t, []float64{0, 1, 2}, []float64{got[0].C, got[1].C, got[2].C})
	for j, n := range ns {
		assert.Equal(t, must(ScaledEll(2, n)), got[2].Points[j].Runs[0].Ell)
	}
	for _, cv := range got {
		f, err := fitAgainst(cv.Points, math.Log)
		require.NoError(t, err)
		assert.Equal(t, f, cv.Fit)
	}
}

// TestRegimeConfig: the regime's parameters at n = 256 and n = 10⁴.
func TestRegimeConfig(t *testing.T) {
	c := must(Regime{Alpha: 0.5, Beta: 0.4}.Config(256))
	assert.Equal(t, 256, c.Files)
	assert.Equal(t, 16, c.Cache)
	assert.Equal(t, TwoChoice{Radius: 9}, c.Strategy) // 256^0.4 = 9.19
	c = must(Regime{Alpha: 1, Beta: 0}.Config(10000))
	assert.Equal(t, 10000, c.Cache)
	assert.Equal(t, TwoChoice{Radius: 1}, c.Strategy)
}

// TestRegimeStudy: the points are the regime's configurations, the two
// fits those of FitLine on ln ln n and ln n.
func TestRegimeStudy(t *testing.T) {
	ns := []int{64, 256, 1024}
	got, err := RegimeStudy(ns, Regime{Alpha: 0.5, Beta: 0.4}, func(int) int { return 4 }, 9, nil)
	require.NoError(t, err)
	require.Len(t, got.Points, 3)
	for i, n := range ns {
		assert.Equal(t, float64(n), got.Points[i].X)
		assert.Equal(t, 4, got.Points[i].MaxLoad.N)
	}
	f := must(fitAgainst(got.Points, func(n float64) float64 { return math.Log(math.Log(n)) }))
	assert.Equal(t, f, got.LogLog)
	assert.Equal(t, must(fitAgainst(got.Points, math.Log)), got.Log)
}
