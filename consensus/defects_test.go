package consensus

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/dense"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// The boundary and bad-input cases of issue 11, each of which produced a
// number (or a misleading error) before it was fixed.

// TestStabilityLimitIsUnstable: unit 6-cycle at γ = 1/2, so γλ_n = 2
// exactly (the eigensolver returns λ_n = 3.9999999999999996). Rho(Case2)
// gave 2.70e16, Rho(Case2T) 1.35e16, Spectral.Rho(Case2) 2.25e15 and
// Spectral.Rho(Case1) 9.0e15, all without an error.
func TestStabilityLimitIsUnstable(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Cycle(6)), Gamma: 0.5}
	for _, tc := range []Traffic{Case1, Case2, Case2T} {
		r, err := Rho(th, tc, 1)
		require.ErrorIs(t, err, ErrUnstable, "Rho(%v) = %v", tc, r)
		assert.True(t, math.IsInf(r, 1))
		_, err = NodalRho(nil, th, tc, 1)
		require.ErrorIs(t, err, ErrUnstable, "NodalRho(%v)", tc)
		_, err = Covariance(th, tc, 1)
		require.ErrorIs(t, err, ErrUnstable, "Covariance(%v)", tc)
	}
	s, err := NewSpectral(th.Graph)
	require.NoError(t, err)
	for _, tc := range []Traffic{Case1, Case2, Case2T} {
		r, err := s.Rho(tc, 0.5, 1)
		require.ErrorIs(t, err, ErrUnstable, "Spectral.Rho(%v) = %v", tc, r)
		_, err = s.NodalRho(nil, tc, 0.5, 1)
		require.ErrorIs(t, err, ErrUnstable, "Spectral.NodalRho(%v)", tc)
	}
	_, hi, err := s.Bounds(0.5, 1)
	require.NoError(t, err)
	assert.True(t, math.IsInf(hi, 1), "upper bound %v at the limit", hi)
	_, err = GreedyLinks(th, nil, 0)
	require.ErrorIs(t, err, ErrUnstable)
	// Simulate runs on and reports it.
	x0 := make([]float64, 6)
	tr, err := Simulate(th, TraceDemand{x0, x0}, x0, 2, nil)
	require.ErrorIs(t, err, ErrUnstable)
	assert.Equal(t, 2, tr.Steps)
	// Just inside the limit the answer is a number again (2 − γλ_n =
	// 2e-6 is far above the error bounds).
	th.Gamma = 0.5 * (1 - 1e-6)
	r, err := Rho(th, Case2, 1)
	require.NoError(t, err)
	want, err := s.Rho(Case2, th.Gamma, 1)
	require.NoError(t, err)
	// κ(2I − γL) = 2/(2 − γλ_n) ≈ 1e6: relative error ≲ 1e6·n·ε.
	assert.InEpsilon(t, want, r, 1e-8)
}

// twoCliques returns two 5-cliques joined by one link of weight w.
func twoCliques(w float64) *wgraph.Graph {
	var es []wgraph.Edge
	for c := range 2 {
		for u := range 5 {
			for v := u + 1; v < 5; v++ {
				es = append(es, wgraph.Edge{U: 5*c + u, V: 5*c + v, W: 1})
			}
		}
	}
	es = append(es, wgraph.Edge{U: 4, V: 5, W: w})
	g, err := wgraph.FromEdges(10, es)
	must(err)
	return g
}

// TestNearlyDisconnected: with a 1e-15 bridge Rho(Case2) was 11 % off
// (6.93e15 against about 6.25e15) with no error while
// spectral.KirchhoffIndex refuses the graph; with a 1e-20 bridge Rho
// reported "unstable" although γλ_n = 1 (a failed factorisation taken
// for instability). Both are ErrIllConditioned now, consistent with
// KirchhoffIndex; ρ₁, which needs no L†, is still answered.
func TestNearlyDisconnected(t *testing.T) {
	for _, w := range []float64{1e-15, 1e-20} {
		g := twoCliques(w)
		_, kerr := spectral.KirchhoffIndex(g)
		require.ErrorIs(t, kerr, loadlab.ErrIllConditioned, "w = %v", w)
		th := &Throttler{Graph: g, Gamma: 0.2} // λ_n ≈ 5: γλ_n ≈ 1
		for _, tc := range []Traffic{Case2, Case2T} {
			r, err := Rho(th, tc, 1)
			require.ErrorIs(t, err, ErrIllConditioned, "w = %v %v: %v", w, tc, r)
			assert.NotErrorIs(t, err, ErrUnstable, "w = %v %v", w, tc)
		}
		r1, err := Rho(th, Case1, 1)
		require.NoError(t, err)
		// ρ₁ = Σ_{i≥2} 2/(2 − γλ_i) over λ = ~0, 5 (×8), ≈5+: the
		// 5-cliques give 2/(2 − 1) each, the near-zero mode 1: ≈ 17.
		assert.InDelta(t, 17, r1, 0.01)
		_, err = NewSpectral(g)
		require.ErrorIs(t, err, ErrIllConditioned, "w = %v", w)
	}
}

// TestUniformRatioOverflow: UniformRatio(nil, {1e308, 1e308}, 1) gave
// [0 0] because R = 2e308 overflowed; the answer is [½ ½].
func TestUniformRatioOverflow(t *testing.T) {
	got, err := UniformRatio(nil, []float64{1e308, 1e308}, 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{0.5, 0.5}, got)
	got, err = UniformRatio(nil, []float64{1e308, 1e308, 0}, 1.5e308)
	require.NoError(t, err)
	// Each gets 0.75e308 (one rounding of r/m · x m/R).
	assert.InDeltaSlice(t, []float64{0.75e308, 0.75e308, 0}, got, 1e293)
	got, err = UniformRatio(nil, []float64{0, 0}, 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 0}, got)
	lim, level, err := WaterFill(nil, []float64{1e308, 1e308}, 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{0.5, 0.5}, lim)
	assert.Equal(t, 0.5, level)
}

// TestEquilibriumOverflow: with r_total beyond the float64 range the
// fixed point used to be −Inf (Amount) or 0 (Ratio).
func TestEquilibriumOverflow(t *testing.T) {
	r := []float64{1e308, 1.5e308}
	x, err := Equilibrium(Amount, r, 1e308)
	require.NoError(t, err)
	// x = r − (r_total − l_total)/n: c = (2.5e308 − 1e308)/2 = 0.75e308.
	assert.InDeltaSlice(t, []float64{0.25e308, 0.75e308}, x, 1e293)
	x, err = Equilibrium(Ratio, r, 1e308)
	require.NoError(t, err)
	// x = (l_total/r_total) r = r/2.5.
	assert.InDeltaSlice(t, []float64{0.4e308, 0.6e308}, x, 1e293)
}

// TestLyapunovNaN: a NaN in A used to be passed to the solver.
func TestLyapunovNaN(t *testing.T) {
	q := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	a := mat.NewDense(2, 2, []float64{0.5, 0, math.NaN(), 0.5})
	_, err := Lyapunov(a, q)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.Contains(t, err.Error(), "A[1][0] = NaN")
	a.Set(1, 0, 0)
	q.SetSym(0, 1, math.Inf(1))
	_, err = Lyapunov(a, q)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
	assert.Contains(t, err.Error(), "Q[0][1] = +Inf")
	// μν = 1: singular system.
	_, err = Lyapunov(mat.NewDense(1, 1, []float64{1}), mat.NewSymDense(1, []float64{1}))
	require.ErrorIs(t, err, loadlab.ErrIllConditioned)
}

// TestGammaH2Sigma: γ*_H2 does not depend on σ and ρ₂ scales with σ².
func TestGammaH2Sigma(t *testing.T) {
	s := spectralOf(t, mustGraph(gen.Path(5)))
	g1, r1, err := s.GammaH2(1)
	require.NoError(t, err)
	g3, r3, err := s.GammaH2(3)
	require.NoError(t, err)
	assert.Equal(t, g1, g3)
	assert.InEpsilon(t, 9*r1, r3, 1e-15)
	_, _, err = s.GammaH2(-1)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
}

// TestSpectralNodalRho checks the nodal measures from the eigenvectors
// against the Cholesky route on a weighted graph, for every case, and
// that a SpectralFrom (no graph) refuses them.
func TestSpectralNodalRho(t *testing.T) {
	g := weightedTriangle()
	s := spectralOf(t, g)
	gamma := 0.8 * s.StabilityBound()
	for _, tc := range []Traffic{Case1, Case2, Case2T} {
		want, err := NodalRho(nil, &Throttler{Graph: g, Gamma: gamma}, tc, 1.5)
		require.NoError(t, err)
		for range 2 { // the second call reuses the eigenvectors
			got, err := s.NodalRho(nil, tc, gamma, 1.5)
			require.NoError(t, err)
			// κ ≤ 1/(γλ₂(2 − γλ_n)) ≈ 10 here: 1e-12 relative.
			assert.InDeltaSlice(t, want, got, 1e-12*want[0], "%v", tc)
		}
	}
	sf, err := SpectralFrom(s.Values())
	require.NoError(t, err)
	_, err = sf.NodalRho(nil, Case2, gamma, 1)
	require.ErrorIs(t, err, loadlab.ErrInvalid)
}

// TestDesignSettingsContract: Tol = −1 and MaxIter = −1 were silently
// replaced by the defaults; they are errors naming the field. A run cut
// short returns the partial design with Status and ErrNotConverged; a
// run that meets Tol has Status Success.
func TestDesignSettingsContract(t *testing.T) {
	links := randomProblem(8, 20, mc.Source(60))
	p := WeightProblem{Nodes: 8, Links: links, Gamma: 0.1, Budget: 8}
	for _, c := range []struct {
		s    DesignSettings
		want string
	}{{DesignSettings{Tol: -1}, "DesignSettings.Tol = -1"}, {DesignSettings{Tol: math.NaN()}, "DesignSettings.Tol = NaN"},
		{DesignSettings{Tol: math.Inf(1)}, "DesignSettings.Tol = +Inf"}, {DesignSettings{MaxIter: -1}, "DesignSettings.MaxIter = -1"}} {
		_, err := DesignWeights(p, &c.s)
		require.ErrorIs(t, err, loadlab.ErrInvalid)
		assert.Contains(t, err.Error(), c.want)
	}
	d, err := DesignWeights(p, &DesignSettings{MaxIter: 2, Tol: 1e-12})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.NotNil(t, d)
	assert.Equal(t, loadlab.IterationLimit, d.Status)
	assert.Equal(t, 2, d.Iterations)
	assert.Greater(t, d.Gap, 1e-12*d.Value)
	d, err = DesignWeights(p, nil)
	require.NoError(t, err)
	assert.Equal(t, loadlab.Success, d.Status)
	// The variant reports the same way.
	p.Floor = 0.05
	d, err = DesignWeights(p, &DesignSettings{MaxIter: 1, Tol: 1e-12})
	require.ErrorIs(t, err, loadlab.ErrNotConverged)
	require.NotNil(t, d)
	assert.Equal(t, loadlab.IterationLimit, d.Status)
	// Dense work beyond the memory budget is refused before allocating.
	_, err = DesignWeights(WeightProblem{Nodes: 1 << 20, Links: links, Gamma: 0.1, Budget: 8}, nil)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
}

// TestDenseWorkTooLarge: the dense methods on a graph far too large for
// them, and a Lyapunov system or a run count beyond the memory budget,
// are ErrTooLarge before anything is allocated (they used to crash the
// process with an out-of-memory error).
func TestDenseWorkTooLarge(t *testing.T) {
	g := mustGraph(gen.Path(1 << 17)) // n² doubles: 128 GiB per matrix
	th := &Throttler{Graph: g, Gamma: 0.1}
	_, err := Rho(th, Case2, 1)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = NodalRho(nil, th, Case1, 1)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = NewSpectral(g)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = GreedyLinks(th, nil, 1)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = spectral.KirchhoffIndex(g)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	a := mat.NewDense(300, 300, nil) // the system is 300²×300²: 65 GB
	_, err = Lyapunov(a, mat.NewSymDense(300, nil))
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = EstimateRho(&Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.1}, Case2, 1, MonteCarlo{Runs: 1 << 40, Steps: 1})
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
}

// TestTinyWeights: NewSpectral panicked inside gonum ("lapack:
// insufficient length of a") on a path whose weights are all ≲ 1e-122.
// ρ₂ scales as 1/weight at fixed γw (ρ(γ, cL) = ρ(cγ, L)): the tiny path
// at γ = 0.4/w matches the unit path at γ = 0.4.
func TestTinyWeights(t *testing.T) {
	const w = 1e-130
	var es []wgraph.Edge
	for u := range 4 {
		es = append(es, wgraph.Edge{U: u, V: u + 1, W: w})
	}
	g, err := wgraph.FromEdges(5, es)
	require.NoError(t, err)
	s, err := NewSpectral(g)
	require.NoError(t, err)
	unit := spectralOf(t, mustGraph(gen.Path(5)))
	want, err := unit.Rho(Case2, 0.4, 1)
	require.NoError(t, err)
	got, err := s.Rho(Case2, 0.4/w, 1)
	require.NoError(t, err)
	// Both spectra to ~n ε relative of λ_n; ρ₂ ≤ 1/(γλ₂(2 − γλ_n))-
	// conditioned (≈ 30 here): 1e-12 relative.
	assert.InEpsilon(t, want, got, 1e-12)
	nodal, err := s.NodalRho(nil, Case2, 0.4/w, 1)
	require.NoError(t, err)
	assert.InEpsilon(t, want, dense.Sum(nodal), 1e-12)
	got, err = Rho(&Throttler{Graph: g, Gamma: 0.4 / w}, Case2, 1)
	require.NoError(t, err)
	assert.InEpsilon(t, want, got, 1e-12)
}

// TestEstimateRhoUnstable: an unstable γ used to be simulated and
// averaged (the instability was only a warning string on each
// trajectory); EstimateRho now returns ErrUnstable.
func TestEstimateRhoUnstable(t *testing.T) {
	_, err := EstimateRho(&Throttler{Graph: mustGraph(gen.Cycle(6)), Gamma: 0.55}, Case2, 1, MonteCarlo{Runs: 2, Steps: 10})
	require.ErrorIs(t, err, ErrUnstable)
}

// TestRatioScaleOverflow: with r_i(0) = 1e-310 the ratio linearisation
// has q_i = 1/r_i = +Inf; the stability check failed on it. μ_n ≥ q_i d_i
// (a Rayleigh quotient) ≈ 1e310 exceeds 2/γ: ErrUnstable, naming q.
func TestRatioScaleOverflow(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.1, Measure: Ratio}
	r := []float64{1, 1e-310, 1}
	_, err := Simulate(th, TraceDemand{r}, []float64{1, 1, 1}, 1, nil)
	require.ErrorIs(t, err, ErrUnstable)
	assert.Contains(t, err.Error(), "q[1] = +Inf")
}
