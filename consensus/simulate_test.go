package consensus

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/loadlab/loadlab"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func constant(r []float64, steps int) TraceDemand {
	d := make(TraceDemand, steps)
	for k := range d {
		d[k] = r
	}
	return d
}

// dispersionNorm returns ‖M_n v‖.
func dispersionNorm(v []float64) float64 {
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	var s float64
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s)
}

// TestConservation checks Lemma 1 (spec §3.3, §9): random graph, random
// weights, random demand, every measure, 500 steps: |l_total(k) −
// l_total(0)| ≤ 1e-12·scale. The edge-flow form with compensated limits
// keeps the error at a few roundings of the final sum, so the test also
// uses a bound of 4ε·Σ|x| over a long run.
func TestConservation(t *testing.T) {
	for _, m := range []Measure{Amount, Ratio, LogRatio, Clipped} {
		for seed := range uint64(5) {
			src := mc.Source(5, seed, uint64(m))
			rnd := rand.New(src)
			g := randomGraph(12, 0.3, src)
			n := g.Order()
			mean := make([]float64, n)
			x0 := make([]float64, n)
			for i := range mean {
				mean[i] = 50 + 100*rnd.Float64()
				x0[i] = 40 + 60*rnd.Float64()
			}
			var dmax float64
			for u := range n {
				dmax = max(dmax, g.WeightedDegree(u))
			}
			// Ratio and LogRatio rescale by 1/r, 1/x ≈ 1/50: a larger γ keeps them moving.
			gamma := 0.9 / dmax
			if m == Ratio || m == LogRatio {
				gamma *= 30
			}
			net := &Throttler{Graph: g, Gamma: gamma, Measure: m}
			d := &StationaryDemand{Mean: mean, Sigma: 10, Src: src}
			tr, err := Simulate(net, d, x0, 500, nil)
			require.NoError(t, err, "%v", m)
			scale := 0.0
			for _, x := range x0 {
				scale += math.Abs(x)
			}
			for k, l := range tr.LTotal {
				assert.InDelta(t, tr.LTotal[0], l, 1e-12*scale, "%v step %d", m, k)
			}
			var fin float64
			for _, x := range tr.Final {
				fin += x
			}
			assert.InDelta(t, tr.LTotal[0], fin, 1e-12*scale)
		}
	}
	// Long runs: 200 000 steps on six servers for every measure (six
	// nodes keep the four runs at ~0.1 s each; drift, if any, grows with
	// the number of steps, not with n, so the length is what matters).
	// Amount and Clipped take random-walk demand; Ratio and LogRatio need
	// r > 0 throughout, which a random walk of step 30 over 2e5 steps
	// (spread ~1.3e4) would break, so they take stationary demand around
	// the same levels (σ = 30: r ≤ 0 would need a 33σ draw).
	g := randomGraph(6, 0.5, mc.Source(6))
	x0 := []float64{1e3, 2e3, 3e3, 4e3, 5e3, 6e3}
	for _, m := range []Measure{Amount, Ratio, LogRatio, Clipped} {
		var d Demand = &RandomWalkDemand{Start: x0, Sigma: 30, Src: mc.Source(6, 1, uint64(m))}
		gamma := 0.2
		if m == Ratio || m == LogRatio {
			d = &StationaryDemand{Mean: x0, Sigma: 30, Src: mc.Source(6, 1, uint64(m))}
			gamma *= 1e3 // q = 1/r ≤ 1e-3: the same γλ scale as Amount
		}
		tr, err := Simulate(&Throttler{Graph: g, Gamma: gamma, Measure: m}, d, x0, 200000, nil)
		require.NoError(t, err, "%v", m)
		require.Equal(t, 200000, tr.Steps, "%v", m)
		// 4 ulps of the total 21000: the compensated sum is exact to ~1 ulp.
		bound := 4 * 0x1p-52 * 21000
		var worst float64
		for _, l := range tr.LTotal {
			worst = max(worst, math.Abs(l-21000))
		}
		var fin float64
		for _, x := range tr.Final {
			fin += x
		}
		assert.LessOrEqual(t, worst, bound, "%v", m)
		assert.InDelta(t, 21000, fin, bound, "%v", m)
		// The limits did move (the check is not vacuous): σ = 30 noise
		// moves them by several units per step.
		var moved float64
		for i, x := range tr.Final {
			moved = max(moved, math.Abs(x-x0[i]))
		}
		assert.Greater(t, moved, 1.0, "%v", m)
	}
}

// TestTotalsExample checks spec §9: r = (5, 1), x = (3, 3) gives
// a = (3, 1), a_total = 4, a_ideal = 6, O = 2.
func TestTotalsExample(t *testing.T) {
	net := &Throttler{Graph: mustGraph(gen.Path(2)), Gamma: 0.1}
	tr, err := Simulate(net, TraceDemand{{5, 1}}, []float64{3, 3}, 1, &Settings{States: true})
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 1}, tr.A[0])
	assert.Equal(t, 4.0, tr.ATotal[0])
	assert.Equal(t, 6.0, tr.Ideal[0])
	assert.Equal(t, 2.0, tr.Over[0])
	assert.Equal(t, 6.0, tr.RTotal[0])
	assert.Equal(t, 6.0, tr.LTotal[0])
	assert.Equal(t, []float64{2, -2}, tr.P[0])
}

// TestTotalsInvariants checks spec §3.2's derived facts on random runs:
// a_total ≤ a_ideal, O = a_ideal − a_total ≥ 0, and O = 0 when all
// servers are on one side. The limits start as the demand reversed
// (same total, servers on both sides, O > 0) and settle near
// x* = r − (r_total − l_total)/n·1, where every server is on the side of
// r_total − l_total: both cases must occur.
func TestTotalsInvariants(t *testing.T) {
	g := randomGraph(8, 0.3, mc.Source(7))
	mean := []float64{10, 20, 30, 40, 15, 25, 35, 45}
	x0 := slices.Clone(mean)
	slices.Reverse(x0)
	net := &Throttler{Graph: g, Gamma: 0.1}
	tr, err := Simulate(net, &RandomWalkDemand{Start: mean, Sigma: 3, Src: mc.Source(7, 1)}, x0, 300, &Settings{States: true})
	require.NoError(t, err)
	var sameSide, positive int
	for k := range tr.Steps {
		// Sums of ~10 terms of size ~50: rounding ≤ 1e-12 absolute.
		assert.LessOrEqual(t, tr.ATotal[k], tr.Ideal[k]+1e-12)
		// O computed two ways agree to rounding of sums of ~100.
		assert.InDelta(t, tr.Ideal[k]-tr.ATotal[k], tr.Over[k], 1e-10)
		assert.GreaterOrEqual(t, tr.Over[k], 0.0)
		same := true
		for i := range tr.X[k] {
			if (tr.X[k][i] > tr.R[k][i]) != (tr.X[k][0] > tr.R[k][0]) {
				same = false
			}
		}
		if same {
			sameSide++
			assert.Equal(t, 0.0, tr.Over[k])
		}
		if tr.Over[k] > 0 {
			positive++
		}
	}
	assert.Positive(t, sameSide) // the checks above are not vacuous
	assert.Positive(t, positive)
}

// TestContractionAndDeadbeat checks spec §9: on P3 at γ = 1/2 with
// constant r the dispersion of x − x* halves every step; on K4 at
// γ = 1/4 the first step lands on x* = r − (r_total − l_total)/4·1.
func TestContractionAndDeadbeat(t *testing.T) {
	r := []float64{7, 1, 4}
	x0 := []float64{0, 5, 1}
	net := &Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.5}
	tr, err := Simulate(net, constant(r, 30), x0, 30, &Settings{States: true})
	require.NoError(t, err)
	xs, _ := Equilibrium(Amount, r, 6)
	e0 := dispersionNorm(sub(x0, xs))
	for k, x := range tr.X {
		// Exact halving; relative 1e-12 covers 30 steps of rounding.
		assert.InDelta(t, e0*math.Pow(2, -float64(k)), dispersionNorm(sub(x, xs)), 1e-12*e0, "k = %d", k)
	}
	r4 := []float64{3, 9, 1, 6}
	x4 := []float64{2, 2, 2, 2}
	k4 := &Throttler{Graph: mustGraph(gen.Complete(4)), Gamma: 0.25}
	tr, err = Simulate(k4, constant(r4, 1), x4, 1, nil)
	require.NoError(t, err)
	want, _ := Equilibrium(Amount, r4, 8) // r − (19 − 8)/4
	assert.InDeltaSlice(t, []float64{0.25, 6.25, -1.75, 3.25}, want, 1e-15)
	assert.InDeltaSlice(t, want, tr.Final, 1e-14)
}

func sub(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

// sixNode is a six-server weighted graph for the equilibria of spec §9.
func sixNode() *wgraph.Graph {
	g := newBuilder(6)
	for _, e := range [][3]float64{{0, 1, 1}, {1, 2, 0.5}, {2, 3, 2}, {3, 4, 1}, {4, 5, 1.5}, {5, 0, 1}, {1, 4, 0.7}} {
		must(g.SetEdge(int(e[0]), int(e[1]), e[2]))
	}
	return g.Build()
}

// TestEquilibria checks spec §9: r = (2, 4, …, 12), l_total = 30; row I
// converges to (0, 2, 4, 6, 8, 10), rows II and III to 30/42·r.
func TestEquilibria(t *testing.T) {
	r := []float64{2, 4, 6, 8, 10, 12}
	x0 := []float64{5, 5, 5, 5, 5, 5}
	for _, c := range []struct {
		m    Measure
		want []float64
	}{
		{Amount, []float64{0, 2, 4, 6, 8, 10}},
		{Ratio, []float64{10.0 / 7, 20.0 / 7, 30.0 / 7, 40.0 / 7, 50.0 / 7, 60.0 / 7}},
		{LogRatio, []float64{10.0 / 7, 20.0 / 7, 30.0 / 7, 40.0 / 7, 50.0 / 7, 60.0 / 7}},
	} {
		eq, err := Equilibrium(c.m, r, 30)
		require.NoError(t, err)
		assert.InDeltaSlice(t, c.want, eq, 1e-14)
		net := &Throttler{Graph: sixNode(), Gamma: 0.2, Measure: c.m}
		tr, err := Simulate(net, constant(r, 3000), x0, 3000, nil)
		require.NoError(t, err)
		// Geometric convergence: 3000 steps at a factor ≤ 0.99 leave < 1e-11.
		assert.InDeltaSlice(t, c.want, tr.Final, 1e-10, "%v", c.m)
	}
	_, err := Equilibrium(Clipped, r, 50)
	assert.Error(t, err)
	_, err = Equilibrium(Ratio, []float64{1, 0}, 1)
	assert.Error(t, err)
}

// TestOrientation checks that the Served convention (open question 1)
// gives the same limits and the measure c − p.
func TestOrientation(t *testing.T) {
	r := []float64{2, 4, 6, 8, 10, 12}
	x0 := []float64{5, 5, 5, 5, 5, 5}
	for _, m := range []Measure{Amount, Ratio, LogRatio, Clipped} {
		a, err := Simulate(&Throttler{Graph: sixNode(), Gamma: 0.2, Measure: m}, constant(r, 20), x0, 20, &Settings{States: true})
		require.NoError(t, err)
		b, err := Simulate(&Throttler{Graph: sixNode(), Gamma: 0.2, Measure: m, Orientation: Served}, constant(r, 20), x0, 20, &Settings{States: true})
		require.NoError(t, err)
		assert.Equal(t, a.X, b.X)
		c := 0.0
		if m == Ratio {
			c = 1
		}
		for k := range a.P {
			for i := range a.P[k] {
				assert.InDelta(t, c-a.P[k][i], b.P[k][i], 1e-15)
			}
		}
	}
}

// TestStepMatchesSimulate checks the plain Step against the
// compensated loop.
func TestStepMatchesSimulate(t *testing.T) {
	g := randomGraph(9, 0.3, mc.Source(8))
	r := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	x := []float64{9, 8, 7, 6, 5, 4, 3, 2, 1}
	net := &Throttler{Graph: g, Gamma: 0.05, Measure: Ratio}
	dst := make([]float64, 9)
	require.NoError(t, net.Step(dst, x, r))
	tr, err := Simulate(net, constant(r, 1), x, 1, nil)
	require.NoError(t, err)
	assert.InDeltaSlice(t, dst, tr.Final, 1e-13)
}

// TestUnstableSimulation checks spec §4.1 / §9: above 2/λ_n the result
// carries a warning and the limits diverge; below it neither.
func TestUnstableSimulation(t *testing.T) {
	g := mustGraph(gen.Cycle(6)) // λ_n = 4: bound 1/2
	r := []float64{1, 2, 3, 4, 5, 6}
	x0 := []float64{3, 3, 3, 3, 4, 4}
	tr, err := Simulate(&Throttler{Graph: g, Gamma: 0.55}, constant(r, 200), x0, 200, nil)
	require.ErrorIs(t, err, ErrUnstable)
	assert.Contains(t, err.Error(), "unstable")
	assert.Equal(t, 200, tr.Steps) // the run goes on, so the divergence shows
	assert.InDelta(t, 4, tr.LambdaMax.Est, 1e-12)
	// Mode 1 − γλ_n = −1.2 grows by 1.2^200 ≈ 7e15.
	assert.Greater(t, dispersionNorm(tr.Final), 1e12)
	tr, err = Simulate(&Throttler{Graph: g, Gamma: 0.45}, constant(r, 200), x0, 200, nil)
	require.NoError(t, err)
	assert.Less(t, dispersionNorm(tr.Final), 10.0)
	// Large graphs: λ_n(C_n) = 4 for even n, so 2/λ_n = 1/2. Just above
	// it (γλ_n = 2.00004) the top modes grow by 1.00004 per step; a
	// Lanczos estimate alone (a lower bound) would miss this.
	for _, n := range []int{1000, 5000} {
		big := mustGraph(gen.Cycle(n))
		zero := make([]float64, n)
		tr, err = Simulate(&Throttler{Graph: big, Gamma: 0.50001}, constant(zero, 1), zero, 1, nil)
		require.ErrorIs(t, err, ErrUnstable, "C_%d", n)
		assert.Contains(t, err.Error(), "is unstable", "C_%d", n)
		// The Ritz value approaches λ_n = 4 from below and must be
		// past 2/γ = 3.99992 to certify.
		assert.LessOrEqual(t, tr.LambdaMax.Est, 4.0, "C_%d", n)
		assert.GreaterOrEqual(t, tr.LambdaMax.Lo, 2/0.50001, "C_%d", n)
		_, err = Simulate(&Throttler{Graph: big, Gamma: 0.49}, constant(zero, 1), zero, 1, nil)
		require.NoError(t, err, "C_%d", n)
	}
}

// TestStabilityDecision checks the warning against the dense spectrum on
// both sides of 2/λ_n on graphs above the dense-eigenvalue size, where
// the Lanczos lower bound and the proven upper bounds bracket λ_n: never
// silent at or above 2/λ_n; silent below it up to 3000 nodes (the dense
// Cholesky decision); above 3000 nodes an undecided γ gets the
// "uncertain" warning with the bracket.
func TestStabilityDecision(t *testing.T) {
	g := sparseRandom(600, 6, mc.Source(17))
	dense, err := spectral.Spectrum(g)
	require.NoError(t, err)
	lam := dense[599]
	var edge float64
	for _, e := range g.Edges() {
		edge = max(edge, g.WeightedDegree(e.U)+g.WeightedDegree(e.V))
	}
	// γ from just below the edge bound's 2/edge to well above 2/λ_n,
	// including 2/λ_n ± 1e-8 relative (the decision margins are 1e-9
	// relative of 2/γ + hi ≤ 3e-9 relative of 2/γ here).
	gammas := []float64{2 / edge * 0.999, 2 / lam * 0.9, 2 / lam * 0.999, 2 / lam * (1 - 1e-8), 2 / lam * (1 + 1e-8), 2 / lam * 1.001, 2 / lam * 1.2}
	for _, gm := range gammas {
		b, err := stability(g, gm, nil)
		if gm >= 2/lam {
			require.ErrorIs(t, err, ErrUnstable, "γλ_n = %v", gm*lam)
			assert.Contains(t, err.Error(), "is unstable", "γλ_n = %v", gm*lam)
		} else {
			assert.NoError(t, err, "γλ_n = %v", gm*lam)
		}
		// The bracket is proven: it holds the dense λ_n (whose own
		// error is ~1e-13 relative here).
		assert.LessOrEqual(t, b.Lo, lam*(1+1e-12))
		assert.GreaterOrEqual(t, b.Hi, lam*(1-1e-12))
	}
	// The Collatz–Wielandt bound is an upper bound and at most the
	// Gershgorin bound 2 max d (its value at x = 1).
	var gersh float64
	for u := range 600 {
		gersh = max(gersh, 2*g.WeightedDegree(u))
	}
	cw, err := spectral.LambdaMaxBracket(g, nil)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, cw.Hi, lam)
	assert.LessOrEqual(t, cw.Hi, gersh*(1+1e-12))
	// C_5000 at γ = 1/2 exactly: γλ_n = 2 (marginal, no decay), but
	// the Ritz value can only approach 4 from below and 5000 nodes is
	// past the dense decision: the warning says uncertain, with the
	// bracket containing 4.
	_, err = stability(mustGraph(gen.Cycle(5000)), 0.5, nil)
	require.ErrorIs(t, err, ErrIllConditioned)
	assert.Contains(t, err.Error(), "uncertain")
	assert.Contains(t, err.Error(), ", 4]")
}

// TestSimulateErrors checks the input errors of the model.
func TestSimulateErrors(t *testing.T) {
	g := mustGraph(gen.Path(3))
	ok := TraceDemand{{1, 2, 3}}
	x0 := []float64{1, 1, 1}
	db := newBuilder(3)
	must(db.SetEdge(0, 1, 1))
	disc := db.Build()
	for _, c := range []struct {
		name string
		net  *Throttler
		d    Demand
		x0   []float64
		want string
	}{
		{"gamma 0", &Throttler{Graph: g}, ok, x0, "Gamma = 0"},
		{"gamma NaN", &Throttler{Graph: g, Gamma: math.NaN()}, ok, x0, "Gamma = NaN"},
		{"gamma -1", &Throttler{Graph: g, Gamma: -1}, ok, x0, "Gamma = -1"},
		{"disconnected", &Throttler{Graph: disc, Gamma: 0.1}, ok, x0, "disconnected"},
		{"nil graph", &Throttler{Gamma: 0.1}, ok, x0, "nil"},
		{"measure", &Throttler{Graph: g, Gamma: 0.1, Measure: 7}, ok, x0, "Measure"},
		{"x0 length", &Throttler{Graph: g, Gamma: 0.1}, ok, []float64{1}, "len(x0)"},
		{"x0 NaN", &Throttler{Graph: g, Gamma: 0.1}, ok, []float64{1, math.NaN(), 1}, "x0[1] = NaN"},
		{"demand length", &Throttler{Graph: g, Gamma: 0.1}, TraceDemand{{1, 2}}, x0, "row 0 has 2 values"},
		{"trace short", &Throttler{Graph: g, Gamma: 0.1}, TraceDemand{}, x0, "beyond the trace"},
		{"walk length", &Throttler{Graph: g, Gamma: 0.1}, &RandomWalkDemand{Start: []float64{1}}, x0, "len(Start)"},
		{"ratio r ≤ 0", &Throttler{Graph: g, Gamma: 0.1, Measure: Ratio}, TraceDemand{{1, 0, 3}}, x0, "r[1] = 0"},
		{"log x ≤ 0", &Throttler{Graph: g, Gamma: 0.1, Measure: LogRatio}, ok, []float64{1, -1, 1}, "x[1] = -1"},
		{"no source", &Throttler{Graph: g, Gamma: 0.1}, &StationaryDemand{Mean: x0, Sigma: 1}, x0, "Src is nil"},
		{"workers", &Throttler{Graph: g, Gamma: 0.1}, ok, x0, "Settings.Workers = -1"},
		{"demand NaN", &Throttler{Graph: g, Gamma: 0.1}, TraceDemand{{1, math.NaN(), 3}}, x0, "r[1] = NaN"},
		{"demand +Inf", &Throttler{Graph: g, Gamma: 0.1}, TraceDemand{{1, 2, math.Inf(1)}}, x0, "r[2] = +Inf"},
		{"demand -Inf ratio", &Throttler{Graph: g, Gamma: 0.1, Measure: Ratio}, TraceDemand{{math.Inf(-1), 2, 3}}, x0, "r[0] = -Inf"},
		{"demand +Inf clipped", &Throttler{Graph: g, Gamma: 0.1, Measure: Clipped}, TraceDemand{{1, math.Inf(1), 3}}, x0, "r[1] = +Inf"},
		{"demand overflow", &Throttler{Graph: g, Gamma: 0.1}, TraceDemand{{math.MaxFloat64, math.MaxFloat64, 1}}, x0, "overflows"},
	} {
		_, err := Simulate(c.net, c.d, c.x0, 1, &Settings{Workers: map[bool]int{true: -1}[c.name == "workers"]})
		assert.ErrorContains(t, err, c.want, c.name)
	}
	_, err := Simulate(&Throttler{Graph: g, Gamma: 0.1}, ok, x0, -1, nil)
	assert.ErrorContains(t, err, "steps = -1")
	// Nil required arguments are programmer errors: documented panics.
	assert.PanicsWithValue(t, "consensus: Simulate: demand d is nil", func() { _, _ = Simulate(&Throttler{Graph: g, Gamma: 0.1}, nil, x0, 1, nil) })
	assert.PanicsWithValue(t, "consensus: Throttler is nil", func() { _, _ = Simulate(nil, ok, x0, 1, nil) })
}

// TestSizesBeforeAllocation checks that step counts beyond the memory
// budget are errors, not out-of-memory crashes: Simulate with
// 2^40 steps, with States on a graph whose record is too large, and
// EstimateRho with Steps = 2^40 or Burn + Steps overflowing.
func TestSizesBeforeAllocation(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.1}
	x0 := []float64{1, 1, 1}
	_, err := Simulate(th, TraceDemand{x0}, x0, 1<<40, nil)
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.Contains(t, err.Error(), "steps = 1099511627776")
	// 2^22 steps alone need 200 MB, but with the states of 1000 nodes
	// 134 GB.
	big := make([]float64, 1000)
	_, err = Simulate(&Throttler{Graph: mustGraph(gen.Path(1000)), Gamma: 0.1}, TraceDemand{big}, big, 1<<22, &Settings{States: true})
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	_, err = EstimateRho(th, Case2, 1, MonteCarlo{Runs: 2, Steps: 1 << 40})
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	assert.Contains(t, err.Error(), "Burn + Steps")
	_, err = EstimateRho(th, Case2, 1, MonteCarlo{Runs: 2, Steps: math.MaxInt, Burn: 2})
	require.ErrorIs(t, err, loadlab.ErrTooLarge)
	for _, m := range []MonteCarlo{{Runs: 1, Steps: 1}, {Runs: 2}, {Runs: 2, Steps: 1, Burn: -1}} {
		_, err = EstimateRho(th, Case2, 1, m)
		require.ErrorIs(t, err, loadlab.ErrInvalid)
		assert.Contains(t, err.Error(), "MonteCarlo.")
	}
}

// FuzzSimulate feeds arbitrary parameters to the validating entry point:
// it must return an error or a finite conserving run, never panic.
func FuzzSimulate(f *testing.F) {
	f.Add(0.1, 1.0, 2.0, 3.0, 1.0, uint8(0))
	f.Add(-1.0, 0.0, 2.0, 3.0, 1.0, uint8(1))
	f.Add(0.3, -1.0, 2.0, math.NaN(), 1.0, uint8(2))
	f.Fuzz(func(t *testing.T, gamma, r0, r1, r2, x float64, m uint8) {
		net := &Throttler{Graph: mustGraph(gen.Path(3)), Gamma: gamma, Measure: Measure(m % 5)}
		tr, err := Simulate(net, constant([]float64{r0, r1, r2}, 5), []float64{x, x, x}, 5, nil)
		if err != nil {
			return
		}
		if isFinite(tr.Final) && math.Abs(x) < 1e100 {
			// Each Final_i = fl(hi + lo) and the test's own sum round
			// at ε relative to Σ|Final_i|: 4ε covers three terms.
			var s, abs float64
			for _, v := range tr.Final {
				s += v
				abs += math.Abs(v)
			}
			require.False(t, math.Abs(s-3*x) > 4*0x1p-52*(abs+math.Abs(3*x)), "total %v, want %v", s, 3*x)
		}
	})
}

// TestSimulateWorkers checks that splitting the update over goroutines
// gives bit-identical trajectories.
func TestSimulateWorkers(t *testing.T) {
	n := parallelNodes + 100
	g := sparseRandom(n, 6, mc.Source(13))
	start := make([]float64, n)
	for i := range start {
		start[i] = float64(i % 17)
	}
	net := &Throttler{Graph: g, Gamma: 0.05}
	run := func(w int) *Trajectory {
		d := &RandomWalkDemand{Start: start, Sigma: 1, Src: mc.Source(14)}
		tr, err := Simulate(net, d, start, 30, &Settings{Workers: w, States: true})
		require.NoError(t, err)
		return tr
	}
	a, b := run(1), run(3)
	assert.Equal(t, a.Final, b.Final)
	assert.Equal(t, a.LTotal, b.LTotal)
	// Without a second processor the demand is drawn inline, with one
	// it is drawn ahead on another goroutine: the same trajectory.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	c := run(1)
	runtime.GOMAXPROCS(2)
	d := run(3)
	for _, tr := range []*Trajectory{b, c, d} {
		assert.Equal(t, a.Final, tr.Final)
		assert.Equal(t, a.RTotal, tr.RTotal)
		assert.Equal(t, a.LTotal, tr.LTotal)
		assert.Equal(t, a.Dispersion, tr.Dispersion)
		assert.Equal(t, a.R, tr.R) // recorded before the buffer is reused
		assert.Equal(t, a.X, tr.X)
	}
}

// TestSimulateBlockedWorkers checks, on a graph large enough for the
// blocked gather (weighted, so the per-entry γ w is read), that the
// trajectory is bitwise the same for 1, 2 and 3 workers and for
// GOMAXPROCS 1 and 2 (Workers 0 follows GOMAXPROCS), and that the total
// of the limits is conserved as on small graphs: Σx(k+1) = Σx(k) up to
// the rounding of the plain sums LTotal (n − 1 roundings of at most
// half an ulp of the running total each, in both sums compared) and of
// the dropped remainders lo (half an ulp of a limit below 128 each).
func TestSimulateBlockedWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("70 000 nodes")
	}
	n := gatherNodes + 4464
	g := sparseRandom(n, 6, mc.Source(16))
	start := make([]float64, n)
	for i := range start {
		start[i] = 50 + float64(i%23)
	}
	net := &Throttler{Graph: g, Gamma: 0.05}
	run := func(procs, w int) *Trajectory {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		d := &RandomWalkDemand{Start: start, Sigma: 1, Src: mc.Source(17)}
		tr, err := Simulate(net, d, start, 12, &Settings{Workers: w})
		require.NoError(t, err)
		return tr
	}
	a := run(1, 1)
	for _, c := range [][2]int{{1, 0}, {2, 0}, {2, 2}, {2, 3}} {
		tr := run(c[0], c[1])
		assert.Equal(t, a.Final, tr.Final, "GOMAXPROCS %d, Workers %d", c[0], c[1])
		assert.Equal(t, a.LTotal, tr.LTotal)
		assert.Equal(t, a.Dispersion, tr.Dispersion)
	}
	tol := 2*float64(n)*0x1p-53*a.LTotal[0] + float64(n)*0x1p-47
	for k := 1; k < len(a.LTotal); k++ {
		assert.InDelta(t, a.LTotal[0], a.LTotal[k], tol, "step %d", k)
	}
}

// TestSimulatePrefetchErrors checks that failures stop a simulation at
// the same step whether the demand is drawn inline (one processor) or
// ahead on a second goroutine: a demand error (trace too short) and a
// measure error (r ≤ 0 for Ratio) both end the run after the steps
// before them, with the same limits.
func TestSimulatePrefetchErrors(t *testing.T) {
	n := parallelNodes + 10
	g := sparseRandom(n, 4, mc.Source(15))
	trace := make(TraceDemand, 10)
	for k := range trace {
		trace[k] = make([]float64, n)
		for i := range trace[k] {
			trace[k][i] = 50 + float64((i+k)%7)
		}
	}
	bad := slices.Clone(trace)
	bad[6] = slices.Clone(trace[6])
	bad[6][3] = -1
	x0 := slices.Repeat([]float64{40}, n)
	for _, c := range []struct {
		m     Measure
		d     TraceDemand
		steps int
		want  string
	}{
		{Amount, trace, 30, "step 10"},
		{Ratio, bad, 8, "step 6"},
	} {
		net := &Throttler{Graph: g, Gamma: 0.05, Measure: c.m}
		var got []*Trajectory
		for _, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			// Wrapped, since a bare TraceDemand is not drawn ahead.
			tr, err := Simulate(net, opaque{c.d}, x0, c.steps, nil)
			runtime.GOMAXPROCS(old)
			require.ErrorContains(t, err, c.want)
			got = append(got, tr)
		}
		var k int
		_, err := fmt.Sscanf(c.want, "step %d", &k)
		require.NoError(t, err)
		for _, tr := range got {
			assert.Equal(t, k, tr.Steps)
			assert.Len(t, tr.LTotal, k)
			assert.Equal(t, got[0].Final, tr.Final)
		}
	}
}

// TestStabilityBoundEdges checks the eigenvalue-free bound used to skip
// λ_n: λ_n ≤ max_{u~v} (d_u + d_v) on random weighted graphs, and the
// Lanczos estimate against the dense spectrum.
func TestStabilityBoundEdges(t *testing.T) {
	for seed := range uint64(10) {
		g := randomGraph(8+int(seed), 0.4, mc.Source(15, seed))
		var b float64
		for _, e := range g.Edges() {
			b = max(b, g.WeightedDegree(e.U)+g.WeightedDegree(e.V))
		}
		s := spectralOf(t, g)
		assert.LessOrEqual(t, s.LambdaMax(), b*(1+1e-12))
	}
	g := sparseRandom(600, 6, mc.Source(16))
	dense, err := spectral.Spectrum(g)
	require.NoError(t, err)
	// 80 Lanczos steps on a 600-node graph: the extreme Ritz value is
	// within 1e-6 relative (observed far closer), and never above λ_n.
	est, err := spectral.LambdaMaxBracket(g, nil)
	require.NoError(t, err)
	assert.InEpsilon(t, dense[599], est.Est, 1e-6)
	assert.LessOrEqual(t, est.Lo, dense[599]*(1+1e-12))
}

// TestRatioStability checks spec §8 row II: with constant demand the
// ratio dynamics x(k+1) = (I − γ L R⁻¹) x converge iff γ < 2/μ_n,
// μ_n = λ_max(R^{-1/2} L R^{-1/2}); the warning uses that bound, not 2/λ_n.
func TestRatioStability(t *testing.T) {
	g := sixNode()
	r := []float64{2, 4, 6, 8, 10, 12}
	x0 := []float64{5, 5, 5, 5, 5, 5}
	q := make([]float64, 6)
	for i := range q {
		q[i] = 1 / r[i]
	}
	mb, err := spectral.LambdaMaxBracket(g, &spectral.EigenSettings{Scale: q})
	require.NoError(t, err)
	mu := mb.Est
	lam := spectralOf(t, g).LambdaMax()
	assert.Less(t, mu, lam) // demand above 1 slows the ratio dynamics
	eq, _ := Equilibrium(Ratio, r, 30)
	// Below the ratio bound (but above 2/λ_n): no warning, convergence.
	gamma := 0.95 * 2 / mu
	require.Greater(t, gamma, 2/lam)
	tr, err := Simulate(&Throttler{Graph: g, Gamma: gamma, Measure: Ratio}, constant(r, 2000), x0, 2000, nil)
	require.NoError(t, err)
	// Factor |1 − γμ_n| = 0.9 per step: 2000 steps leave far below 1e-9.
	assert.InDeltaSlice(t, eq, tr.Final, 1e-9)
	// Above it: warning and divergence (factor 1.1 per step).
	tr, err = Simulate(&Throttler{Graph: g, Gamma: 1.05 * 2 / mu, Measure: Ratio}, constant(r, 300), x0, 300, nil)
	require.ErrorIs(t, err, ErrUnstable)
	assert.InEpsilon(t, mu, tr.LambdaMax.Est, 1e-12)
	assert.Greater(t, dispersionNorm(tr.Final), 1e9)
}

// TestDemandTrend checks spec §4.7: with drifting demand
// r(k+1) = r(k) + d the dispersion of p settles at L†d/γ (a persistent
// mismatch set by the effective resistances), while its mean keeps
// moving with the total demand.
func TestDemandTrend(t *testing.T) {
	g := sixNode()
	gamma := 0.2
	drift := []float64{1, -1, 0.5, 0, -0.5, 0.3}
	steps := 3000
	trace := make(TraceDemand, steps)
	for k := range trace {
		trace[k] = make([]float64, 6)
		for i := range drift {
			trace[k][i] = 50 + float64(k)*drift[i]
		}
	}
	tr, err := Simulate(&Throttler{Graph: g, Gamma: gamma}, trace, make([]float64, 6), steps, &Settings{States: true})
	require.NoError(t, err)
	lp, err := spectral.PseudoInverse(g)
	require.NoError(t, err)
	p := tr.P[steps-1]
	var pbar float64
	for _, v := range p {
		pbar += v / 6
	}
	for i := range p {
		var want float64
		for j := range drift {
			want += lp.At(i, j) * drift[j] / gamma
		}
		// Geometric convergence at factor ς(0.2) < 0.95 over 3000 steps,
		// then rounding of values ~1e4.
		assert.InDelta(t, want, p[i]-pbar, 1e-8, "node %d", i)
	}
}

// TestDispersion checks the unrolled Σ(p − p̄)² against the plain sum
// for lengths covering the remainder loop. Both are sums of n
// non-negative terms, so each has relative error ≤ n·ε: 2·n·ε bounds
// their difference.
func TestDispersion(t *testing.T) {
	rnd := rand.New(mc.Source(16))
	for n := range 12 {
		p := make([]float64, n)
		var s float64
		for i := range p {
			p[i] = 100 + rnd.NormFloat64()
			s += p[i]
		}
		pbar := 0.0
		if n > 0 {
			pbar = s / float64(n)
		}
		var want float64
		for _, v := range p {
			want += (v - pbar) * (v - pbar)
		}
		assert.InDelta(t, want, dispersion(p, pbar), 2*float64(n)*0x1p-52*want, "n = %d", n)
	}
}

// opaque hides the concrete type of a Demand from Simulate.
type opaque struct{ Demand }

type panicDemand struct{ at int }

func (d panicDemand) Next(k int, r []float64) error {
	if k == d.at {
		panic("demand failed")
	}
	clear(r)
	return nil
}

// TestSimulatePrefetchPanic checks that a panic in Demand.Next reaches
// the caller of Simulate also when the demand is drawn on a second
// goroutine.
func TestSimulatePrefetchPanic(t *testing.T) {
	n := parallelNodes + 10
	g := sparseRandom(n, 4, mc.Source(17))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	net := &Throttler{Graph: g, Gamma: 0.05}
	assert.PanicsWithValue(t, "demand failed", func() {
		_, _ = Simulate(net, panicDemand{at: 3}, make([]float64, n), 10, nil)
	})
}

// countingDemand counts the calls of Next.
type countingDemand struct{ calls int }

func (d *countingDemand) Next(k int, r []float64) error {
	d.calls++
	for i := range r {
		r[i] = 1
	}
	return nil
}

// TestSimulateDisconnectedLarge checks the connectivity check that runs
// beside the setup of the blocked update on large graphs: two disjoint
// cycles of 2^15 + 8 nodes each are refused with ErrDisconnected before
// the demand is drawn, on one processor and on two.
func TestSimulateDisconnectedLarge(t *testing.T) {
	const half = 1<<15 + 8
	b := newBuilder(2 * half)
	for c := range 2 {
		for u := range half {
			must(b.SetEdge(c*half+u, c*half+(u+1)%half, 1))
		}
	}
	net := &Throttler{Graph: b.Build(), Gamma: 0.1}
	for _, procs := range []int{1, 2} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			d := &countingDemand{}
			_, err := Simulate(net, d, make([]float64, 2*half), 5, nil)
			assert.ErrorIs(t, err, loadlab.ErrDisconnected, "GOMAXPROCS %d", procs)
			assert.Zero(t, d.calls, "GOMAXPROCS %d: demand drawn for a refused graph", procs)
		}()
	}
}

// failingDemand is d until step at, where Next fails.
type failingDemand struct {
	d  Demand
	at int
}

func (f failingDemand) Next(k int, r []float64) error {
	if k == f.at {
		return errors.New("demand feed lost")
	}
	return f.d.Next(k, r)
}

// TestSimulateFusedDemandError checks the fused update of large graphs,
// which draws r(k+1) before it updates the limits to x(k+1): a demand
// that fails at step 5 of 9 ends the run with the error of step 5 after
// 5 steps, with the limits x(5) and totals bitwise those of a run of 5
// steps, on one processor (demand drawn inline) and on two (drawn ahead
// by the prefetcher), and with the states recorded.
func TestSimulateFusedDemandError(t *testing.T) {
	n := gatherNodes + 100
	g := sparseRandom(n, 4, mc.Source(18))
	start := make([]float64, n)
	for i := range start {
		start[i] = 20 + float64(i%11)
	}
	net := &Throttler{Graph: g, Gamma: 0.02}
	walk := func() Demand { return &RandomWalkDemand{Start: start, Sigma: 1, Src: mc.Source(19)} }
	want, err := Simulate(net, walk(), start, 5, &Settings{States: true})
	require.NoError(t, err)
	for _, procs := range []int{1, 2} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			tr, err := Simulate(net, failingDemand{walk(), 5}, start, 9, &Settings{States: true})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "step 5: demand feed lost", "GOMAXPROCS %d", procs)
			assert.Equal(t, 5, tr.Steps)
			assert.Equal(t, want.Final, tr.Final, "GOMAXPROCS %d: limits after the failed step", procs)
			assert.Equal(t, want.LTotal, tr.LTotal)
			assert.Equal(t, want.Dispersion, tr.Dispersion)
			assert.Equal(t, want.X, tr.X)
			assert.Equal(t, want.P, tr.P)
		}()
	}
}

// TestEquilibriumOverflow: with r_total beyond the float64 range the
// fixed point is computed from the means Σ r_i/n, not from r_total
// (guards: −Inf for Amount, 0 for Ratio).
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
