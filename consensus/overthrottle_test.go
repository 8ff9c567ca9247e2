package consensus

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestPositivePart: E (X)₊ of N(μ, s²) against the integral
// ∫ (μ + s z)₊ φ(z) dz by the midpoint rule on [−12, 12] with 2·10⁵
// cells (error O(h²) ≈ 10⁻⁹ of s; the tails beyond 12 weigh e⁻⁷²).
func TestPositivePart(t *testing.T) {
	for _, c := range []struct{ mu, s float64 }{{0, 1}, {1, 2}, {-3, 1}, {5, 0.5}, {-0.3, 4}, {2, 0}, {-2, 0}} {
		const cells = 200000
		h := 24.0 / cells
		var sum float64
		for q := range cells {
			z := -12 + (float64(q)+0.5)*h
			sum += max(c.mu+c.s*z, 0) * math.Exp(-z*z/2)
		}
		want := sum * h / math.Sqrt(2*math.Pi)
		if c.s == 0 {
			want = max(c.mu, 0)
		}
		assert.InDelta(t, want, positivePart(c.mu, c.s), 1e-8*(1+c.s), "μ = %v, s = %v", c.mu, c.s)
	}
}

// overGraph is a small irregular throttler (a random graph on 8 nodes)
// at a cycle where its dispersion is large: γ = 0.9·2/λ_n.
func overGraph(t *testing.T) *Throttler {
	g := randomGraph(8, 0.3, rand.NewPCG(3, 3))
	return &Throttler{Graph: g, Gamma: 0.9 * spectralOf(t, g).StabilityBound()}
}

// TestExpectedOverForms: the closed form from the dense NodalRho
// (Cholesky) equals the one from the eigenvectors (Spectral.Over), two
// independent computations of the nodal variances, to 1e-9 relative
// (both are backward stable on this well-conditioned graph); the parts
// sum to the total and are ≥ 0 (spec deployed §4.2); without noise
// there is no over-throttling.
func TestExpectedOverForms(t *testing.T) {
	th := overGraph(t)
	s := spectralOf(t, th.Graph)
	for _, tr := range []Traffic{Case1, Case2, Case2T} {
		for _, excess := range []float64{-6, 0, 2.5} {
			o, err := ExpectedOver(th, tr, 1.3, excess)
			require.NoError(t, err)
			p, err := s.Over(tr, th.Gamma, 1.3, excess)
			require.NoError(t, err)
			assert.InDelta(t, o.Total, p.Total, 1e-9*o.Total, "%v excess %v", tr, excess)
			var sum float64
			for j, v := range o.Server {
				require.GreaterOrEqual(t, v, 0.0, "%v excess %v server %d", tr, excess, j)
				sum += v
				assert.InDelta(t, o.Throttled[j]-o.Unavoidable/8, v, 1e-12*(1+o.Throttled[j]))
			}
			assert.InDelta(t, o.Total, sum, 1e-12*(1+o.Total))
			assert.Positive(t, o.Total)
		}
		o, err := ExpectedOver(th, tr, 0, 3)
		require.NoError(t, err)
		assert.Zero(t, o.Total)
	}
}

// TestEstimateOverCoverage: over 100 seeds the 95 % intervals of
// EstimateOver (8 runs of 300 cycles after 100 of burn-in, whose bias
// ς^{200} < 10⁻⁹ is nil) cover the closed form of spec deployed §4.2
// (Case 1), for the total and for two servers, at 95 % ± 3 binomial sd
// over 100 (0.065). The means are unequal and the regime is tight
// (excess 0.5), so every server both rejects and wastes.
func TestEstimateOverCoverage(t *testing.T) {
	const seeds = 100
	th := overGraph(t)
	mean := []float64{10, 12, 8, 9, 15, 11, 10, 7}
	g := Regime{Mean: mean, Sigma: 1.3, LTotal: 81.5} // Σ mean = 82
	want, err := ExpectedOver(th, Case1, g.Sigma, 0.5)
	require.NoError(t, err)
	var hit, hit0, hit5 int
	for seed := uint64(1); seed <= seeds; seed++ {
		e, err := EstimateOver(th, g, MonteCarlo{Runs: 8, Steps: 300, Burn: 100, Seed: seed})
		require.NoError(t, err)
		hit += b2i(e.Total.Contains(want.Total))
		hit0 += b2i(e.Server[0].Contains(want.Server[0]))
		hit5 += b2i(e.Server[5].Contains(want.Server[5]))
	}
	tol := 3 * math.Sqrt(0.95*0.05/seeds)
	t.Logf("coverage total %.2f, server 0 %.2f, server 5 %.2f of O = %.4g", float64(hit)/seeds, float64(hit0)/seeds, float64(hit5)/seeds, want.Total)
	assert.InDelta(t, 0.95, float64(hit)/seeds, tol, "total")
	assert.InDelta(t, 0.95, float64(hit0)/seeds, tol, "server 0")
	assert.InDelta(t, 0.95, float64(hit5)/seeds, tol, "server 5")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// projectedWalk is Case 2 demand with increments M_n v(k): the
// dispersion of p follows throttlers §4.2 Case 2 while r_total, and so
// the aggregate excess, stays at its start.
type projectedWalk struct {
	start []float64
	sigma float64
	rng   *rand.Rand
	cur   []float64
}

func (d *projectedWalk) Next(k int, r []float64) error {
	if k == 0 {
		d.cur = append(d.cur[:0], d.start...)
	} else {
		var s float64
		for i := range d.cur {
			r[i] = d.sigma * d.rng.NormFloat64()
			s += r[i]
		}
		for i := range d.cur {
			d.cur[i] += r[i] - s/float64(len(r))
		}
	}
	copy(r, d.cur)
	return nil
}

// TestExpectedOverCase2: the conditional closed form of Case 2 (spec
// deployed §4.2) against simulation with the aggregate held at
// excess = 1.2: over 60 seeds of 8 runs (400 cycles after 200 of
// burn-in from x = r(0), bias ς^{400} < 10⁻⁹), the intervals cover at
// 95 % ± 3 binomial sd over 60 (0.085).
func TestExpectedOverCase2(t *testing.T) {
	const seeds, runs, steps, burn = 60, 8, 400, 200
	th := overGraph(t)
	th.Gamma *= 0.6 // nearer γ*_H2: a faster-mixing run
	start := []float64{5, 5, 5, 5, 5, 5, 5, 5}
	x0 := make([]float64, 8)
	for i := range x0 {
		x0[i] = 5 - 1.2/8
	}
	want, err := ExpectedOver(th, Case2, 0.7, 1.2)
	require.NoError(t, err)
	hit := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		means := make([]float64, runs)
		for i := range means {
			d := &projectedWalk{start: start, sigma: 0.7, rng: rand.New(loadlab.Stream(seed, uint64(i)))}
			tr, err := Simulate(th, d, x0, burn+steps, nil)
			require.NoError(t, err)
			for _, o := range tr.Over[burn:] {
				means[i] += o / steps
			}
		}
		hit += b2i(mc.Estimate(means).Contains(want.Total))
	}
	t.Logf("coverage %.2f of O = %.4g", float64(hit)/seeds, want.Total)
	assert.InDelta(t, 0.95, float64(hit)/seeds, 3*math.Sqrt(0.95*0.05/seeds))
}

// TestEstimateCentralOver: the CST with the equal rule sets x_i = l/n
// whatever the demand and its delay, so r_i − x_i ~ N(r̄_i − l/n, σ²)
// independently and E O = Σ G(r̄_i − l/n, σ) − G(r̄_total − l, σ√n)
// exactly (spec deployed §4.2): over 60 seeds the intervals cover at
// 95 % ± 3 binomial sd (0.085). The proportional rule without delay
// never over-throttles (demand ≥ 0: means 10σ above zero, a negative
// draw has probability 10⁻²³).
func TestEstimateCentralOver(t *testing.T) {
	const seeds = 60
	mean := []float64{10, 12, 8, 9, 15}
	g := Regime{Mean: mean, Sigma: 1, LTotal: 50}
	var want float64
	for _, m := range mean {
		want += positivePart(m-10, 1)
	}
	want -= positivePart(54-50, math.Sqrt(5))
	hit := 0
	for seed := uint64(1); seed <= seeds; seed++ {
		e, err := EstimateCentralOver(&Central{Rule: Equal, Delay: 2}, g, MonteCarlo{Runs: 6, Steps: 100, Burn: 2, Seed: seed})
		require.NoError(t, err)
		hit += b2i(e.Total.Contains(want))
	}
	assert.InDelta(t, 0.95, float64(hit)/seeds, 3*math.Sqrt(0.95*0.05/seeds), "O = %v", want)

	e, err := EstimateCentralOver(&Central{}, g, MonteCarlo{Runs: 4, Steps: 100, Seed: 1})
	require.NoError(t, err)
	// Rounding only: 4n u r_total per cycle (TestCentralIdeal).
	assert.InDelta(t, 0, e.Total.Mean, 4*5*eps*60)
	// A delay of one cycle costs about as much as the equal split here.
	e, err = EstimateCentralOver(&Central{Delay: 1}, g, MonteCarlo{Runs: 4, Steps: 100, Seed: 1})
	require.NoError(t, err)
	assert.Greater(t, e.Total.Lo, 0.3)
}

// TestEstimateOverDeterministic: the estimate does not depend on the
// workers; with a precision it equals the fixed estimate at the runs
// used, bit for bit, per server too; SimulateOver is run i.
func TestEstimateOverDeterministic(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Cycle(5)), Gamma: 0.3}
	g := Regime{Mean: []float64{3, 4, 5, 6, 7}, Sigma: 1, LTotal: 24}
	m := MonteCarlo{Runs: 5, Steps: 80, Burn: 10, Seed: 4, Workers: 1}
	a, err := EstimateOver(th, g, m)
	require.NoError(t, err)
	m.Workers = 3
	b, err := EstimateOver(th, g, m)
	require.NoError(t, err)
	require.Equal(t, a, b)
	tot, srv, err := SimulateOver(th, g, 80, 10, loadlab.Stream(4, 2))
	require.NoError(t, err)
	require.Greater(t, tot, 0.0)
	require.Len(t, srv, 5)

	m.Precision = loadlab.Precision{Rel: 0.05}
	p, err := EstimateOver(th, g, m)
	require.NoError(t, err)
	require.True(t, m.Precision.Met(p.Total))
	fixed, err := EstimateOver(th, g, MonteCarlo{Runs: p.Total.N, Steps: 80, Burn: 10, Seed: 4})
	require.NoError(t, err)
	require.Equal(t, fixed, p)
	m.Precision = loadlab.Precision{Rel: 1e-6, MaxRuns: 12}
	p, err = EstimateOver(th, g, m)
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.ErrorContains(t, err, "after Precision.MaxRuns = 12 runs")
	fixed, err = EstimateOver(th, g, MonteCarlo{Runs: 12, Steps: 80, Burn: 10, Seed: 4})
	require.NoError(t, err)
	require.Equal(t, fixed, p, "the partial estimate is that of the 12 runs")
	c := &Central{Rule: MaxMinFair, Delay: 1}
	ce, err := EstimateCentralOver(c, g, MonteCarlo{Runs: 3, Steps: 50, Seed: 9})
	require.NoError(t, err)
	ct, _, err := SimulateCentralOver(c, g, 50, 0, loadlab.Stream(9, 1))
	require.NoError(t, err)
	var sum float64
	for i := range 3 {
		v, _, err := SimulateCentralOver(c, g, 50, 0, loadlab.Stream(9, uint64(i)))
		require.NoError(t, err)
		sum += v
	}
	assert.InDelta(t, sum/3, ce.Total.Mean, 1e-12*sum)
	assert.Positive(t, ct)
}

// TestGammaOver: on a vertex-transitive graph (the cycle) every ρ₂,ⱼ is
// ρ₂/n, so the over-throttling is an increasing function of ρ₂ and its
// minimiser is γ*_H2 (to 1e-9, both bisected to the last bit of
// different functions with the same root). On irregular graphs it is
// no worse than γ*_H2 and than every point of a 4000-point grid over
// the stable range (brute force), and differs from γ*_H2.
func TestGammaOver(t *testing.T) {
	s := spectralOf(t, mustGraph(gen.Cycle(7)))
	gh, _, err := s.GammaH2(1)
	require.NoError(t, err)
	for _, excess := range []float64{-3, 0, 2} {
		g, _, err := s.GammaOver(1, excess)
		require.NoError(t, err)
		assert.InDelta(t, gh, g, 1e-9*gh, "excess %v", excess)
	}
	for seed := uint64(1); seed <= 4; seed++ {
		gr := randomGraph(10, 0.25, rand.NewPCG(seed, 9))
		s := spectralOf(t, gr)
		gh, _, err := s.GammaH2(1)
		require.NoError(t, err)
		for _, excess := range []float64{-4, 0, 1} {
			g, o, err := s.GammaOver(1, excess)
			require.NoError(t, err)
			h2, err := s.Over(Case2, gh, 1, excess)
			require.NoError(t, err)
			// The minimum is flat: at a relative distance δ from it, F
			// rises by O(δ²), so 1e-12 relative absorbs the rounding of
			// the sums (n² terms of relative error u).
			slack := 1e-12 * o.Total
			assert.LessOrEqual(t, o.Total, h2.Total+slack, "seed %d excess %v: γ = %v vs γ*_H2 = %v", seed, excess, g, gh)
			assert.Greater(t, math.Abs(g-gh), 1e-6*gh, "seed %d excess %v", seed, excess)
			const grid = 4000
			top := s.StabilityBound()
			for q := 1; q < grid; q++ {
				p, err := s.Over(Case2, top*float64(q)/grid, 1, excess)
				require.NoError(t, err)
				require.LessOrEqual(t, o.Total, p.Total+slack, "seed %d excess %v grid γ = %v", seed, excess, top*float64(q)/grid)
			}
		}
	}
}

// TestSimulateOverSegments: a run cut into segments of 16 cycles gives
// the per-server means of one Simulate over all cycles, up to the
// rounding dropped at each boundary (the low parts of the limits, about
// u·|x| per boundary, times 25 boundaries: 1e-12 relative holds with
// room).
func TestSimulateOverSegments(t *testing.T) {
	th := overGraph(t)
	g := Regime{Mean: []float64{10, 12, 8, 9, 15, 11, 10, 7}, Sigma: 1.3, LTotal: 81}
	const steps, burn = 300, 100
	save := overStateBytes
	overStateBytes = 1 // segments of 16 cycles
	defer func() { overStateBytes = save }()
	require.Equal(t, 16, overSegment(8))
	tot, srv, err := SimulateOver(th, g, steps, burn, loadlab.Stream(3, 0))
	require.NoError(t, err)

	x0, err := Equilibrium(Amount, g.Mean, g.LTotal)
	require.NoError(t, err)
	d := &StationaryDemand{Mean: g.Mean, Sigma: g.Sigma, Src: loadlab.Stream(3, 0)}
	tr, err := Simulate(th, d, x0, burn+steps, &Settings{States: true})
	require.NoError(t, err)
	want := make([]float64, 8)
	var wantTot float64
	for k := burn; k < burn+steps; k++ {
		share := max(tr.RTotal[k]-tr.LTotal[k], 0) / 8
		for i := range want {
			o := max(tr.R[k][i]-tr.X[k][i], 0) - share
			want[i] += o / steps
		}
		wantTot += tr.Over[k] / steps
	}
	for i := range want {
		assert.InDelta(t, want[i], srv[i], 1e-12*15, "server %d", i)
	}
	assert.InDelta(t, wantTot, tot, 1e-12*100)
}
