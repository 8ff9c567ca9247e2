package consensus

import (
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
)

// exactSum returns Σv rounded once to float64: the sum is formed
// exactly in a big.Float (2200 bits hold the sum of any few doubles).
func exactSum(v []float64) float64 {
	s := new(big.Float).SetPrec(2200)
	for _, x := range v {
		s.Add(s, new(big.Float).SetPrec(2200).SetFloat64(x))
	}
	f, _ := s.Float64()
	return f
}

// ulp returns the spacing of float64 numbers at |x|.
func ulp(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

func ones(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// TestNetworkIdealBitwise checks spec deployed §1.6: a Network with
// τ = 0, q = 0, γ_i = γ and every server ticking (by probability 1 or
// by period 1) reproduces the ideal Simulate bit for bit, for each
// measure on a small graph and, through the blocked gather, on a graph
// of 2^16 nodes and more with 1 and 2 workers.
func TestNetworkIdealBitwise(t *testing.T) {
	nets := func(n int) []*Network {
		return []*Network{
			{},
			{Gammas: ones(n, 0.05), Tick: ones(n, 1), Src: mc.Source(3)},
			{Gammas: ones(n, 0.05), Period: make([]int, n), LinkDelay: nil, Directed: nil},
		}
	}
	check := func(g *wgraph.Graph, m Measure, steps, workers int) {
		n := g.Order()
		start := make([]float64, n)
		for i := range start {
			start[i] = 50 + float64(i%23)
		}
		th := &Throttler{Graph: g, Gamma: 0.05, Measure: m}
		sim := func(nw *Network) *Trajectory {
			d := &StationaryDemand{Mean: start, Sigma: 3, Src: mc.Source(4, uint64(m))}
			tr, err := Simulate(th, d, start, steps, &Settings{Workers: workers, States: n < 100, Network: nw})
			require.NoError(t, err)
			return tr
		}
		want := sim(nil)
		for i, nw := range nets(n) {
			for j := range nw.Period {
				nw.Period[j] = 1
			}
			got := sim(nw)
			assert.Equal(t, want.Final, got.Final, "%v net %d n %d", m, i, n)
			assert.Equal(t, want.LTotal, got.LTotal)
			assert.Equal(t, want.Dispersion, got.Dispersion)
			assert.Equal(t, want.Over, got.Over)
			assert.Equal(t, want.X, got.X)
			assert.Equal(t, want.P, got.P)
			if i == 0 { // the others have random or clocked parts: not decided
				assert.Equal(t, want.LambdaMax, got.LambdaMax)
			}
		}
	}
	for _, m := range []Measure{Amount, Ratio, LogRatio, Clipped} {
		check(randomGraph(12, 0.3, mc.Source(5, uint64(m))), m, 200, 1)
	}
	if testing.Short() {
		return
	}
	g := sparseRandom(gatherNodes+1000, 6, mc.Source(6))
	check(g, Amount, 6, 1)
	check(g, Amount, 6, 2)
}

// TestNetworkHandPath3Delay1 checks spec deployed §1.1 on the unit path
// 0–1–2 at γ = 1/4 with delay 1, constant r = (7, 1, 4) and x(0) =
// (0, 5, 1), computed by hand (every number is a dyadic rational, so the
// floating-point run must match exactly):
//
//	p(0) = r − x(0) = (7, −4, 3); cycle 0 moves nothing (no measure of
//	cycle −1): x(1) = x(0).
//	p(1) = p(0); x(2) = x(1) + γ L p(0) = x(1) + (11, −18, 7)/4 = (2.75, 0.5, 2.75).
//	p(2) = (4.25, 0.5, 1.25); x(3) = x(2) + γ L p(1) = (5.5, −4, 4.5).
//	p(3) = (1.5, 5, −0.5); x(4) = x(3) + γ L p(2) = x(3) + (3.75, −4.5, 0.75)/4
//	     = (6.4375, −5.125, 4.6875).
//	x(5) = x(4) + γ L p(3) = x(4) + (−3.5, 9, −5.5)/4 = (5.5625, −2.875, 3.3125).
//
// The ideal network would instead give x(1) = x(0) + γ L p(0).
func TestNetworkHandPath3Delay1(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.25}
	r := []float64{7, 1, 4}
	tr, err := Simulate(th, constant(r, 5), []float64{0, 5, 1}, 5, &Settings{States: true, Network: &Network{Delay: 1}})
	require.NoError(t, err)
	want := [][]float64{{0, 5, 1}, {0, 5, 1}, {2.75, 0.5, 2.75}, {5.5, -4, 4.5}, {6.4375, -5.125, 4.6875}}
	assert.Equal(t, want, tr.X)
	assert.Equal(t, []float64{5.5625, -2.875, 3.3125}, tr.Final)
	// Link {0, 1} and {1, 2}: none due in cycle 0, both after.
	assert.Equal(t, []int{0, 2, 2, 2, 2}, tr.Exchanges.Due)
	assert.Equal(t, []int{0, 0, 0, 0, 0}, tr.Exchanges.Lost)
}

// conservingNetworks are the imperfections under which Joint conserves
// the total limit exactly (spec deployed §1.4): each alone and all
// together, on a graph of n nodes and m links, drawn from rnd.
func conservingNetworks(n, m int, rnd *rand.Rand, src rand.Source) map[string]*Network {
	linkDelay := make([]int, m)
	for i := range linkDelay {
		linkDelay[i] = rnd.IntN(5)
	}
	gammas, tick, period, phase := make([]float64, n), make([]float64, n), make([]int, n), make([]int, n)
	for i := range n {
		gammas[i] = 0.01 + 0.02*rnd.Float64()
		tick[i] = 0.3 + 0.7*rnd.Float64()
		period[i] = 1 + rnd.IntN(4)
		phase[i] = rnd.IntN(period[i])
	}
	law := []float64{0.5, 0.25, 0.125, 0.125}
	return map[string]*Network{
		"delay 3":      {Delay: 3},
		"link delays":  {LinkDelay: linkDelay},
		"random delay": {DelayLaw: law, Src: src},
		"loss 0.3":     {Loss: 0.3, Src: src},
		"bursts":       {Loss: 0.3, Burst: 6, Src: src},
		"ticks":        {Tick: tick, Src: src},
		"periods":      {Period: period, Phase: phase},
		"gammas":       {Gammas: gammas},
		"all": {LinkDelay: linkDelay, Loss: 0.2, Burst: 3, Gammas: gammas, Tick: tick,
			Src: src},
		"all, random delay": {DelayLaw: law, Loss: 0.1, Gammas: gammas, Period: period, Phase: phase, Src: src},
	}
}

// TestNetworkConservation checks spec deployed §1.4 (Lemma 1 under the
// Joint protocol): on random graphs and seeds, under every conserving
// imperfection, the exact sum of the recorded limits x(k) stays equal to
// that of x(0) to within 4 ulps of the total. The recorded limits are
// the high parts of x = hi + lo, whose remainders |lo_i| ≤ ulp(x_i)/2
// are dropped: with 10 servers of limits below 2^8 they add at most
// 5·2^-44, below one ulp of a total above 2^9; the exact sums add one
// rounding each. A drift of even one lost transfer (≥ 1e-6 here) would
// exceed the bound by orders of magnitude, and the limits do move.
func TestNetworkConservation(t *testing.T) {
	for seed := range uint64(4) {
		src := mc.Source(40, seed)
		rnd := rand.New(src)
		g := randomGraph(10, 0.4, src)
		n := g.Order()
		mean := make([]float64, n)
		x0 := make([]float64, n)
		for i := range n {
			mean[i] = 60 + 80*rnd.Float64()
			x0[i] = 60 + 80*rnd.Float64()
		}
		nets := conservingNetworks(n, g.Size(), rnd, mc.Source(41, seed))
		for i, name := range sortedKeys(nets) {
			nw := nets[name]
			if nw.Src != nil { // its own stream, whatever the order of the runs
				nw.Src = mc.Source(41, seed, uint64(i))
			}
			// λ_n < 2 d_max ≲ 20 here: γλ_n ≲ 0.4 would be unstable under
			// delay 3 (limit 2 sin(π/14) ≈ 0.445); γ = 0.02 keeps every
			// network stable.
			th := &Throttler{Graph: g, Gamma: 0.02}
			d := &StationaryDemand{Mean: mean, Sigma: 20, Src: mc.Source(42, seed)}
			tr, err := Simulate(th, d, x0, 2000, &Settings{States: true, Network: nw})
			require.NoError(t, err, name)
			total := exactSum(x0)
			bound := 4 * ulp(total)
			var worst, moved float64
			for k := range tr.Steps {
				worst = max(worst, math.Abs(exactSum(tr.X[k])-total))
				for i, x := range tr.X[k] {
					moved = max(moved, math.Abs(x-x0[i]))
				}
			}
			worst = max(worst, math.Abs(exactSum(tr.Final)-total))
			assert.LessOrEqual(t, worst, bound, "seed %d %s", seed, name)
			assert.Greater(t, moved, 1.0, "seed %d %s", seed, name)
		}
	}
}

// TestNetworkDrift checks the imperfections that do not conserve (spec
// deployed §1.4): one-way links change the total by exactly
// Σ_arcs t→h γ w (p_h − p_t) per cycle (τ = 0, nothing lost), zero on a
// weight-balanced orientation up to rounding; Separate under loss,
// asynchrony or unequal cycles drifts, each cycle by at most
// Σ_links γ_max w |p_u − p_v| (spec deployed §1.4 (D2)), and with
// random delays.
func TestNetworkDrift(t *testing.T) {
	// The unit cycle 0→1→…→5→0 plus the chord {0, 3} both ways is
	// weight-balanced and strongly connected; with the chord one-way
	// 0→3 it is strongly connected but not balanced.
	g := mustGraph(wgraph.FromEdges(6, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 4, W: 1}, {U: 4, V: 5, W: 1}, {U: 0, V: 5, W: 1}, {U: 0, V: 3, W: 1}}))
	// Edges order: {0,1} {0,3} {0,5} {1,2} {2,3} {3,4} {4,5}.
	balanced := []Direction{Forward, Both, Backward, Forward, Forward, Forward, Forward}
	unbalanced := []Direction{Forward, Forward, Backward, Forward, Forward, Forward, Forward}
	mean := []float64{10, 50, 20, 80, 30, 60}
	x0 := []float64{40, 40, 40, 40, 40, 40}
	th := &Throttler{Graph: g, Gamma: 0.1}
	run := func(nw *Network) *Trajectory {
		tr, err := Simulate(th, &StationaryDemand{Mean: mean, Sigma: 5, Src: mc.Source(50)}, x0, 300, &Settings{States: true, Network: nw})
		require.NoError(t, err)
		return tr
	}
	tr := run(&Network{Directed: balanced})
	for k := range tr.Steps {
		// 300 cycles of sums of six limits below 2^8: ≤ 1e-11.
		assert.InDelta(t, 240, exactSum(tr.X[k]), 1e-11, "balanced, cycle %d", k)
	}
	tr = run(&Network{Directed: unbalanced})
	// d_in − d_out of the one-way arcs: −1 at node 0, +1 at node 3.
	imb := []float64{-1, 0, 0, 1, 0, 0}
	var drift float64
	for k := 0; k+1 < tr.Steps; k++ {
		var want float64
		for i, p := range tr.P[k] {
			want += 0.1 * p * imb[i]
		}
		got := exactSum(tr.X[k+1]) - exactSum(tr.X[k])
		assert.InDelta(t, want, got, 1e-10, "cycle %d", k)
		drift = max(drift, math.Abs(exactSum(tr.X[k+1])-240))
	}
	assert.Greater(t, drift, 1.0) // one-way links do not conserve
	// Separate: loss, ticks and unequal cycles each drift, within (D2).
	gammas := []float64{0.05, 0.1, 0.15, 0.05, 0.1, 0.15}
	for name, nw := range map[string]*Network{
		"loss":   {Protocol: Separate, Loss: 0.2, Src: mc.Source(51)},
		"ticks":  {Protocol: Separate, Tick: ones(6, 0.5), Src: mc.Source(52)},
		"gammas": {Protocol: Separate, Gammas: gammas},
	} {
		tr := run(nw)
		var worst float64
		for k := 0; k+1 < tr.Steps; k++ {
			var bound float64
			for _, e := range g.Edges() {
				bound += max(gammas[e.U], gammas[e.V], th.Gamma) * e.W * math.Abs(tr.P[k][e.U]-tr.P[k][e.V])
			}
			step := math.Abs(exactSum(tr.X[k+1]) - exactSum(tr.X[k]))
			assert.LessOrEqual(t, step, bound+1e-12, "%s cycle %d", name, k)
			worst = max(worst, math.Abs(exactSum(tr.X[k+1])-240))
		}
		assert.Greater(t, worst, 1e-3, name)
	}
	// Separate with random delays: each message draws its own delay, so
	// the two ends use measures of different stamps and the total moves
	// (under Joint it does not: TestNetworkConservation).
	tr = run(&Network{Protocol: Separate, DelayLaw: []float64{0.5, 0.5}, Src: mc.Source(53)})
	drift = 0
	for k := range tr.Steps {
		drift = max(drift, math.Abs(exactSum(tr.X[k])-240))
	}
	assert.Greater(t, drift, 1e-3, "Separate, random delays")
}

// TestNetworkLossRate checks spec deployed §1.2: the observed fraction
// of lost exchanges matches q within the 99.9 % binomial interval
// (|q̂ − q| ≤ 3.29 √(q(1−q)/N)) for independent losses; with bursts the
// draws of a link are a Markov chain with lag-one correlation
// ρ = 1 − p_gb − p_bg, whose variance of the mean is inflated by at most
// (1+ρ)/(1−ρ), so the interval widens by its square root. The mean
// length of the loss bursts of one channel matches Burst within the
// interval of a geometric mean.
func TestNetworkLossRate(t *testing.T) {
	g := mustGraph(gen.RandomRegular(200, 3, mc.Source(60)))
	x0 := ones(200, 10)
	th := &Throttler{Graph: g, Gamma: 0.1}
	for _, c := range []struct{ q, burst float64 }{{0.01, 0}, {0.1, 0}, {0.3, 0}, {0.1, 5}, {0.3, 2}} {
		nw := &Network{Loss: c.q, Burst: c.burst, Src: mc.Source(61)}
		tr, err := Simulate(th, constant(x0, 400), x0, 400, &Settings{Network: nw})
		require.NoError(t, err)
		var due, lost int
		for k := range tr.Steps {
			due += tr.Exchanges.Due[k]
			lost += tr.Exchanges.Lost[k]
		}
		require.Equal(t, 300*400, due) // every link, every cycle
		inflate := 1.0
		if c.burst > 0 {
			rho := 1 - 1/c.burst - c.q/((1-c.q)*c.burst)
			inflate = math.Sqrt((1 + rho) / (1 - rho))
		}
		half := 3.29 * inflate * math.Sqrt(c.q*(1-c.q)/float64(due))
		assert.InDelta(t, c.q, float64(lost)/float64(due), half, "q = %v burst %v", c.q, c.burst)
	}
	// The channel of the one link of P2 over 2·10⁵ cycles: Lost[k] is its
	// state. Bursts are geometric with mean B = 8 and sd √(B(B−1)) = √56:
	// the mean of the ~5000 bursts lies within 3.29 sd/√count of 8.
	th2 := &Throttler{Graph: mustGraph(gen.Path(2)), Gamma: 0.1}
	const cycles = 200000
	tr, err := Simulate(th2, constant([]float64{1, 1}, cycles), []float64{1, 1}, cycles, &Settings{Network: &Network{Loss: 0.2, Burst: 8, Src: mc.Source(62)}})
	require.NoError(t, err)
	var bursts, length, both, lost int
	for k, l := range tr.Exchanges.Lost {
		require.Equal(t, 1, tr.Exchanges.Due[k])
		lost += l
		if l == 1 {
			length++
			if k == 0 || tr.Exchanges.Lost[k-1] == 0 {
				bursts++
			} else {
				both++
			}
		}
	}
	mean := float64(length) / float64(bursts)
	assert.InDelta(t, 8, mean, 3.29*math.Sqrt(56/float64(bursts)))
	// P(lost at k−1 and k) = q (1 − p_bg) = 0.2·7/8 = 0.175, a frequency
	// over 2·10⁵ cycles correlated with ρ = 0.84: its sd is about
	// 0.38·√((1+ρ)/(1−ρ))/√(2·10⁵) ≈ 0.003, so 0.01 is over 3 sd.
	assert.InDelta(t, 0.175, float64(both)/cycles, 0.01)
}

// TestNetworkWorkers checks that the random parts do not depend on the
// number of goroutines: on a graph with the blocked gather and one with
// per-entry delays, runs with 1, 2 and 3 workers and GOMAXPROCS 1 and 2
// are bitwise equal.
func TestNetworkWorkers(t *testing.T) {
	if testing.Short() {
		t.Skip("70 000 nodes")
	}
	n := gatherNodes + 4464
	g := sparseRandom(n, 6, mc.Source(70))
	start := make([]float64, n)
	for i := range start {
		start[i] = 50 + float64(i%23)
	}
	tick := make([]float64, n)
	for i := range tick {
		tick[i] = 0.5 + 0.5*float64(i%7)/7
	}
	th := &Throttler{Graph: g, Gamma: 0.05}
	for name, mk := range map[string]func() *Network{
		"uniform": func() *Network { return &Network{Delay: 2, Loss: 0.05, Burst: 3, Tick: tick, Src: mc.Source(71)} },
		"random":  func() *Network { return &Network{DelayLaw: []float64{0.5, 0.5}, Loss: 0.1, Src: mc.Source(71)} },
	} {
		run := func(procs, w int) *Trajectory {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			d := &RandomWalkDemand{Start: start, Sigma: 1, Src: mc.Source(72)}
			tr, err := Simulate(th, d, start, 8, &Settings{Workers: w, Network: mk()})
			require.NoError(t, err)
			return tr
		}
		a := run(1, 1)
		for _, c := range [][2]int{{2, 0}, {2, 2}, {2, 3}} {
			tr := run(c[0], c[1])
			assert.Equal(t, a.Final, tr.Final, "%s GOMAXPROCS %d, Workers %d", name, c[0], c[1])
			assert.Equal(t, a.LTotal, tr.LTotal)
			assert.Equal(t, a.Exchanges, tr.Exchanges)
		}
	}
}

// TestNetworkStability checks spec deployed §1.5 on the unit path P5
// (λ_n = 4 sin²(2π/5) ≈ 3.618): per-server cycles with γ_i λ_n ≥ 2.17
// everywhere are reported unstable and diverge, and under a uniform
// delay τ = 1 (limit γλ_n < 1) γ = 0.3 (γλ_n ≈ 1.09, stable without
// delay) is reported unstable and diverges, while γ = 0.25 (≈ 0.90)
// is stable and converges.
func TestNetworkStability(t *testing.T) {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	r := []float64{5, 1, 4, 2, 3}
	x0 := []float64{1, 2, 3, 4, 5}
	run := func(gamma float64, nw *Network) (*Trajectory, error) {
		th.Gamma = gamma
		return Simulate(th, constant(r, 200), x0, 200, &Settings{Network: nw})
	}
	// The unstable runs grow by ≥ 1.085 per cycle in their worst mode
	// (1.085^200 ≈ 1e7): a thousandfold growth tells them from the
	// stable ones, which decay.
	grows := func(tr *Trajectory) bool { return tr.Dispersion[tr.Steps-1] > 1e3*tr.Dispersion[0] }
	tr, err := run(0.2, &Network{Gammas: []float64{0.6, 0.65, 0.7, 0.62, 0.6}})
	assert.ErrorIs(t, err, ErrUnstable)
	assert.True(t, grows(tr))
	tr, err = run(0.2, &Network{Gammas: []float64{0.1, 0.5, 0.2, 0.15, 0.3}})
	assert.NoError(t, err)
	assert.False(t, grows(tr))
	tr, err = run(0.3, &Network{Delay: 1})
	assert.ErrorIs(t, err, ErrUnstable)
	assert.True(t, grows(tr))
	tr, err = run(0.3, nil)
	assert.NoError(t, err)
	tr2, err := run(0.25, &Network{Delay: 1})
	assert.NoError(t, err)
	// The slowest modes contract by 0.95 (τ = 1: |z| = √(γλ_4)) and
	// 0.885 per cycle: over 200 cycles the dispersion falls below 1e-6
	// of its start.
	assert.Less(t, tr2.Dispersion[tr2.Steps-1], 1e-6*tr2.Dispersion[0])
	assert.Less(t, tr.Dispersion[tr.Steps-1], 1e-6*tr.Dispersion[0])
	// Independent loss and ticks are decided in the mean: the expected
	// steps (1 − q)π_uπ_v γ. At γ = 0.7 (γλ_n ≈ 2.53) loss 0.1 gives
	// 2.28 ≥ 2 and ticks π = 0.9 give 0.81·2.53 = 2.05 ≥ 2: unstable,
	// and the runs diverge; under delay 1, loss 0.2 at γ = 0.4 gives
	// 0.8·1.447 = 1.16 ≥ 1 (unstable, diverging) and at γ = 0.3 gives
	// 0.87 < 1 (the mean is stable: no error).
	for _, c := range []struct {
		gamma float64
		nw    *Network
	}{
		{0.7, &Network{Loss: 0.1, Src: mc.Source(80)}},
		{0.7, &Network{Tick: ones(5, 0.9), Src: mc.Source(81)}},
		{0.4, &Network{Delay: 1, Loss: 0.2, Src: mc.Source(82)}},
	} {
		tr, err = run(c.gamma, c.nw)
		assert.ErrorIs(t, err, ErrUnstable, "%+v", c.nw)
		assert.Contains(t, err.Error(), "the expected limits diverge")
		assert.True(t, grows(tr), "%+v", c.nw)
	}
	tr, err = run(0.3, &Network{Delay: 1, Loss: 0.2, Src: mc.Source(83)})
	assert.NoError(t, err)
	assert.Positive(t, tr.LambdaMax.Hi)
	// Bursts are not decided: no error, no bracket.
	tr, err = run(0.4, &Network{Delay: 1, Loss: 0.2, Burst: 3, Src: mc.Source(84)})
	assert.NoError(t, err)
	assert.Zero(t, tr.LambdaMax)
}

// TestDelayedLimit checks delayLimit against the spectral radius of
// the companion matrix of y(k+1) = y(k) − a y(k−τ) (brute force): just
// below the limit the radius is < 1, just above it is > 1.
func TestDelayedLimit(t *testing.T) {
	radius := func(a float64, tau int) float64 {
		// Power iteration on the state (y(k), …, y(k−τ)) with a
		// generic start: the growth per step over a long run.
		s := make([]float64, tau+1)
		for i := range s {
			s[i] = 1 + 0.1*float64(i)
		}
		var logGrowth float64
		const steps = 20000
		for range steps {
			next := s[0] - a*s[tau]
			copy(s[1:], s[:tau])
			s[0] = next
			var nrm float64
			for _, v := range s {
				nrm = max(nrm, math.Abs(v))
			}
			logGrowth += math.Log(nrm)
			for i := range s {
				s[i] /= nrm
			}
		}
		return math.Exp(logGrowth / steps)
	}
	for tau := range 6 {
		c := delayLimit(tau)
		assert.Less(t, radius(c*0.98, tau), 1.0, "τ = %d", tau)
		assert.Greater(t, radius(c*1.02, tau), 1.0, "τ = %d", tau)
	}
}

// TestNetworkDirectedLimit checks the closed form of spec deployed §1.4
// (D1) for one-way links: on the 6-cycle 0→1→…→5→0 with the one-way
// chord 0→3, constant demand, the weighted total νᵀx is conserved, ν the
// left null vector of L_in (computed here by a dense solve), so the
// limits converge to r − c1 with c = νᵀ(r − x(0))/νᵀ1 and the total
// limit to r_total − nc, not to l_total(0).
func TestNetworkDirectedLimit(t *testing.T) {
	g := mustGraph(wgraph.FromEdges(6, []wgraph.Edge{{U: 0, V: 1, W: 1}, {U: 1, V: 2, W: 1}, {U: 2, V: 3, W: 1}, {U: 3, V: 4, W: 1}, {U: 4, V: 5, W: 1}, {U: 0, V: 5, W: 1}, {U: 0, V: 3, W: 1}}))
	dir := []Direction{Forward, Forward, Backward, Forward, Forward, Forward, Forward}
	arcs := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 0}, {0, 3}}
	// L_in: row h has d_in(h) on the diagonal and −w at column t, t → h.
	lin := mat.NewDense(6, 6, nil)
	for _, a := range arcs {
		lin.Set(a[1], a[1], lin.At(a[1], a[1])+1)
		lin.Set(a[1], a[0], lin.At(a[1], a[0])-1)
	}
	// νᵀ L_in = 0, Σν = 1: L_inᵀ ν = 0 with its last row replaced by 1ᵀ.
	m := mat.DenseCopyOf(lin.T())
	for j := range 6 {
		m.Set(5, j, 1)
	}
	var nu mat.VecDense
	require.NoError(t, nu.SolveVec(m, mat.NewVecDense(6, []float64{0, 0, 0, 0, 0, 1})))
	r := []float64{10, 50, 20, 80, 30, 60}
	x0 := []float64{40, 40, 40, 40, 40, 40}
	var c, rt float64
	for i := range 6 {
		c += nu.AtVec(i) * (r[i] - x0[i]) // Σν = 1
		rt += r[i]
	}
	th := &Throttler{Graph: g, Gamma: 0.1}
	tr, err := Simulate(th, constant(r, 3000), x0, 3000, &Settings{Network: &Network{Directed: dir}})
	require.NoError(t, err)
	// The slowest mode of I − γL_in contracts by about 1 − 0.1·0.5 per
	// cycle: after 3000 cycles the limits are at their fixed point to
	// rounding.
	for i, x := range tr.Final {
		assert.InDelta(t, r[i]-c, x, 1e-9, "server %d", i)
	}
	assert.InDelta(t, rt-6*c, exactSum(tr.Final), 1e-9)
	assert.Greater(t, math.Abs(rt-6*c-240), 1.0) // the total did move
}

// TestNetworkFusedDemandError checks the fused update of large graphs
// on a Network (it draws r(k+1) before it finishes cycle k): a demand
// that fails at step 5 of 9 ends the run with the error of step 5 after
// 5 cycles, with the limits and totals bitwise those of a run of 5
// cycles, inline and with the prefetcher, for the ideal network and a
// delay of 2 with loss.
func TestNetworkFusedDemandError(t *testing.T) {
	if testing.Short() {
		t.Skip("65 636 nodes")
	}
	n := gatherNodes + 100
	g := sparseRandom(n, 4, mc.Source(18))
	start := make([]float64, n)
	for i := range start {
		start[i] = 20 + float64(i%11)
	}
	th := &Throttler{Graph: g, Gamma: 0.02}
	walk := func() Demand { return &RandomWalkDemand{Start: start, Sigma: 1, Src: mc.Source(19)} }
	for _, mk := range []func() *Network{
		func() *Network { return &Network{} },
		func() *Network { return &Network{Delay: 2, Loss: 0.1, Src: mc.Source(20)} },
	} {
		want, err := Simulate(th, walk(), start, 5, &Settings{States: true, Network: mk()})
		require.NoError(t, err)
		for _, procs := range []int{1, 2} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				tr, err := Simulate(th, failingDemand{walk(), 5}, start, 9, &Settings{States: true, Network: mk()})
				require.Error(t, err)
				assert.Contains(t, err.Error(), "step 5: demand feed lost", "GOMAXPROCS %d", procs)
				assert.Equal(t, 5, tr.Steps)
				assert.Equal(t, want.Final, tr.Final, "GOMAXPROCS %d: limits after the failed step", procs)
				assert.Equal(t, want.LTotal, tr.LTotal)
				assert.Equal(t, want.X, tr.X)
				assert.Equal(t, want.Exchanges, tr.Exchanges)
			}()
		}
	}
}

// TestNetworkStagedLossKernel checks the update of large graphs with
// loss as the only imperfection (chunkStagedLoss, which counts lost
// entries and reads no adjacency) against the general staged update
// (chunkUniform), reached by adding clocks that always tick: the same
// limits, totals and counts, bit for bit, for Joint and Separate.
func TestNetworkStagedLossKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("65 636 nodes")
	}
	n := gatherNodes + 100
	g := sparseRandom(n, 5, mc.Source(90))
	start := make([]float64, n)
	for i := range start {
		start[i] = 30 + float64(i%13)
	}
	th := &Throttler{Graph: g, Gamma: 0.02}
	for _, prot := range []Protocol{Joint, Separate} {
		run := func(tick []float64) *Trajectory {
			d := &StationaryDemand{Mean: start, Sigma: 2, Src: mc.Source(91)}
			nw := &Network{Delay: 2, Loss: 0.05, Burst: 3, Tick: tick, Protocol: prot, Src: mc.Source(92)}
			tr, err := Simulate(th, d, start, 10, &Settings{Network: nw})
			require.NoError(t, err)
			return tr
		}
		a, b := run(nil), run(ones(n, 1))
		assert.Equal(t, a.Final, b.Final, "%v", prot)
		assert.Equal(t, a.LTotal, b.LTotal)
		assert.Equal(t, a.Exchanges, b.Exchanges)
		assert.Positive(t, a.Exchanges.Lost[5])
	}
}
