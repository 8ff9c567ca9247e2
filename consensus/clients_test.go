package consensus

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/wgraph/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unit is the unit roundoff u = 2⁻⁵³ of float64, the scale of the
// rounding bounds of this file.
const unit = 0x1p-53

// recorder keeps a copy of every client vector its demand draws.
type recorder struct {
	d    ClientDemand
	rows [][]float64
}

func (rd *recorder) Next(k int, r []float64) error {
	err := rd.d.Next(k, r)
	rd.rows = append(rd.rows, slices.Clone(r))
	return err
}

// aggregate is the servers' demand of the recorded client rows: r_i the
// sum of its clients' requests in client order (spec deployed §5.1).
func aggregate(rows [][]float64, server []int, n int) TraceDemand {
	tr := make(TraceDemand, len(rows))
	for k, row := range rows {
		tr[k] = make([]float64, n)
		for j, v := range row {
			tr[k][server[j]] += v
		}
	}
	return tr
}

// layout gives each of n servers between 1 and maxc clients (at least
// one), interleaved in client order, with random mean demands in
// [0, 2·scale).
func layout(n, maxc int, scale float64, rnd *rand.Rand) (server []int, mean []float64) {
	for i := range n {
		for range 1 + rnd.IntN(maxc) {
			server = append(server, i)
		}
	}
	rnd.Shuffle(len(server), func(a, b int) { server[a], server[b] = server[b], server[a] })
	mean = make([]float64, len(server))
	for j := range mean {
		mean[j] = 2 * scale * rnd.Float64()
	}
	return server, mean
}

// clientCase is one simulation with clients: a throttler, a layout, a
// demand model and x0.
type clientCase struct {
	name  string
	th    *Throttler
	cl    *Clients
	d     func() ClientDemand
	x0    []float64
	steps int
}

func clientCases() []clientCase {
	rnd := rand.New(mc.Source(28))
	var cs []clientCase
	g30 := randomGraph(30, 0.1, mc.Source(5))
	for _, split := range []Split{UniformSplit, WaterFillSplit} {
		for _, m := range []Measure{Amount, Ratio, Clipped} {
			server, mean := layout(30, 6, 1, rnd)
			cv := 0.3 // some clients idle (censored at zero) in some cycles
			if m == Ratio {
				cv = 0.1 // no server idle: Ratio needs r_i > 0
			}
			sigma := make([]float64, len(mean))
			for j := range sigma {
				sigma[j] = cv * mean[j]
			}
			x0 := make([]float64, 30)
			for i := range x0 {
				x0[i] = 0.5 + rnd.Float64() // l_total about 30, demand about 60: saturated
			}
			gamma := 0.05 // γλ_n < 0.5 on this graph
			if m == Ratio {
				gamma = 0.002 // μ_n of R⁻¹L is up to 1/min r_i times larger
			}
			cs = append(cs, clientCase{
				name: split.String() + "/" + m.String(),
				th:   &Throttler{Graph: g30, Gamma: gamma, Measure: m},
				cl:   &Clients{Server: server, Split: split},
				d: func() ClientDemand {
					return &ClientStationary{Mean: mean, Sigma: sigma, Src: rand.NewPCG(1, 2)}
				},
				x0: x0, steps: 40,
			})
		}
	}
	// Demand far below the limit on server 0 drives x_0 below zero
	// (Amount: x* = r − (r_total − l_total)/n, spec §3.4): a negative
	// limit admits nothing.
	cs = append(cs, clientCase{
		name: "negative limit",
		th:   &Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.2},
		cl:   &Clients{Server: []int{0, 1, 1, 2, 2, 2}, Split: WaterFillSplit},
		d: func() ClientDemand {
			return &ClientRandomWalk{Start: []float64{0.1, 5, 5, 3, 3, 3}, Sigma: []float64{0.01, 0.5, 0.5, 0.5, 0.5, 0.5}, Src: rand.NewPCG(3, 4)}
		},
		x0: []float64{1, 1, 1}, steps: 60,
	})
	return cs
}

// TestClientsMatchSimulate checks that the servers' record is bit for
// bit Simulate's under the aggregate demand (spec deployed §5.1: the
// split does not feed back), totals, vectors and final limits.
func TestClientsMatchSimulate(t *testing.T) {
	for _, c := range clientCases() {
		rd := &recorder{d: c.d()}
		ct, err := SimulateClients(c.th, c.cl, rd, c.x0, c.steps, &ClientSettings{States: true})
		require.NoError(t, err, c.name)
		n := c.th.Graph.Order()
		tr, err := Simulate(c.th, aggregate(rd.rows, c.cl.Server, n), c.x0, c.steps, &Settings{States: true})
		require.NoError(t, err, c.name)
		assertSameTrajectory(t, tr, ct.Servers, c.name)
	}
}

func assertSameTrajectory(t *testing.T, want, got *Trajectory, name string) {
	t.Helper()
	assert.Equal(t, want.Steps, got.Steps, name)
	for _, s := range [][2][]float64{
		{want.RTotal, got.RTotal}, {want.LTotal, got.LTotal}, {want.ATotal, got.ATotal},
		{want.Ideal, got.Ideal}, {want.Over, got.Over}, {want.Dispersion, got.Dispersion}, {want.Final, got.Final},
	} {
		assert.True(t, slices.Equal(s[0], s[1]), "%s: %v ≠ %v", name, s[0], s[1])
	}
	for k := range want.X {
		for _, v := range [][2][]float64{{want.X[k], got.X[k]}, {want.P[k], got.P[k]}, {want.A[k], got.A[k]}, {want.R[k], got.R[k]}} {
			assert.True(t, slices.Equal(v[0], v[1]), "%s: step %d", name, k)
		}
	}
	assert.Equal(t, want.LambdaMax, got.LambdaMax, name)
}

// TestClientsMatchSimulateBlocked checks the bit-for-bit agreement on a
// graph large enough for Simulate's blocked, fused update (gatherNodes),
// which the client loop replaces by the plain step and update, and that
// the workers do not change the result.
func TestClientsMatchSimulateBlocked(t *testing.T) {
	n := gatherNodes
	g := mustGraph(gen.Cycle(n)) // λ_n = 4: γ = 0.2 is stable
	th := &Throttler{Graph: g, Gamma: 0.2}
	server := make([]int, 2*n)
	mean := make([]float64, 2*n)
	for j := range server {
		server[j] = j / 2
		mean[j] = float64(j%7) + 0.5
	}
	x0 := make([]float64, n)
	for i := range x0 {
		x0[i] = float64(i%5) + 1
	}
	cl := &Clients{Server: server}
	var first *ClientTrajectory
	for _, w := range []int{1, 2} {
		rd := &recorder{d: &ClientStationary{Mean: mean, Sigma: mean, Src: rand.NewPCG(7, 7)}}
		ct, err := SimulateClients(th, cl, rd, x0, 4, &ClientSettings{Workers: w})
		require.NoError(t, err)
		tr, err := Simulate(th, aggregate(rd.rows, server, n), x0, 4, nil)
		require.NoError(t, err)
		assertSameTrajectory(t, tr, ct.Servers, "blocked")
		if first == nil {
			first = ct
			// The same requests replayed by a Demand (a row a cycle),
			// drawn on the caller's goroutine: the same record.
			replay, err := SimulateClients(th, cl, TraceDemand(rd.rows), x0, 4, nil)
			require.NoError(t, err)
			assert.Equal(t, ct, replay)
			continue
		}
		assert.Equal(t, first, ct, "workers = %d", w)
	}
}

// failing is a client demand that fails from cycle at on.
type failing struct {
	ClientDemand
	at int
}

func (f failing) Next(k int, r []float64) error {
	if k >= f.at {
		return errors.New("no data")
	}
	return f.ClientDemand.Next(k, r)
}

// TestClientsDrawAheadError checks that a demand error at cycle 2 ends
// the run there, with the record of cycles 0 and 1, whether the
// requests are drawn ahead (4096 clients) or not.
func TestClientsDrawAheadError(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Path(8)), Gamma: 0.2}
	for _, c := range []int{8, parallelNodes} {
		server := make([]int, c)
		mean := make([]float64, c)
		for j := range server {
			server[j] = j % 8
			mean[j] = 1
		}
		d := failing{&ClientStationary{Mean: mean, Sigma: mean, Src: rand.NewPCG(1, 1)}, 2}
		ct, err := SimulateClients(th, &Clients{Server: server}, d, make([]float64, 8), 5, nil)
		require.ErrorContains(t, err, "step 2: no data")
		assert.Equal(t, 2, ct.Servers.Steps)
		assert.Len(t, ct.JainAmount, 2)
	}
}

// TestClientsSplit checks every cycle of every case with the series:
// each server grants its clients min{x_i, r_i}₊ in total (spec deployed
// §5.2), no client more than it asks; Algorithm 1 grants the clients of
// a saturated server one ratio, so J_i = 1; Algorithm 2 is max–min fair:
// with t the largest grant, a client cut below its request gets t and
// every client asking at most t is served in full. The per-cycle and
// per-run records agree with the series.
func TestClientsSplit(t *testing.T) {
	for _, c := range clientCases() {
		ct, err := SimulateClients(c.th, c.cl, c.d(), c.x0, c.steps, &ClientSettings{States: true, Series: true})
		require.NoError(t, err, c.name)
		n := c.th.Graph.Order()
		members := make([][]int, n)
		for j, i := range c.cl.Server {
			members[i] = append(members[i], j)
		}
		tr := ct.Servers
		var saturated, idle int
		for k := range tr.Steps {
			for i, js := range members {
				checkServerSplit(t, c, ct, k, i, js, tr.X[k][i], tr.R[k][i])
				if tr.R[k][i] > tr.X[k][i] {
					saturated++
				}
			}
			idle += slices.Index(ct.R[k], 0) + 1 // > 0 once some client is idle
			checkCycleRecord(t, c.name, ct, k)
		}
		checkRunTotals(t, c.name, ct, members)
		// The cases reach both branches of the split.
		assert.Positive(t, saturated, c.name)
		assert.Less(t, saturated, n*tr.Steps, c.name)
		t.Logf("%s: %d of %d server-cycles saturated, idle clients seen: %v", c.name, saturated, n*tr.Steps, idle > 0)
	}
}

// checkServerSplit checks the split of server i at cycle k.
func checkServerSplit(t *testing.T, c clientCase, ct *ClientTrajectory, k, i int, js []int, x, r float64) {
	t.Helper()
	var sum, top float64
	for _, j := range js {
		a, rj := ct.A[k][j], ct.R[k][j]
		require.LessOrEqual(t, a, rj, "%s: cycle %d client %d", c.name, k, j)
		require.GreaterOrEqual(t, a, 0.0)
		sum += a
		top = max(top, a)
	}
	// UniformRatio: one rounding of R/m (compensated), of x/t and of
	// each product, ≤ 4u·x; WaterFill: one rounding per subtraction
	// from rem and of f, ≤ (c+1)u·x; the sum here adds ≤ c·u·Σ.
	want := max(min(x, r), 0)
	bound := float64(2*len(js)+4) * unit * max(x, r)
	require.InDelta(t, want, sum, bound, "%s: cycle %d server %d", c.name, k, i)
	saturated := r > x
	switch {
	case !saturated:
		for _, j := range js {
			assert.Equal(t, ct.R[k][j], ct.A[k][j], "%s: unsaturated server serves in full", c.name)
		}
	case c.cl.Split == UniformSplit && x > 0:
		// Ratios differ by a few roundings of (r/m)·(x m/R)/r: J_i
		// differs from 1 by the squared spread, far below 1e-14.
		assert.InDelta(t, 1, ct.ServerJain[k][i], 1e-14, "%s: cycle %d server %d", c.name, k, i)
		q0 := math.NaN()
		for _, j := range js {
			if ct.R[k][j] == 0 {
				continue // idle: outside the ratio index
			}
			q := ct.A[k][j] / ct.R[k][j]
			if math.IsNaN(q0) {
				q0 = q
			}
			assert.InDelta(t, q0, q, 8*unit, "%s: Algorithm 1 ratio", c.name)
		}
	case c.cl.Split == WaterFillSplit:
		for _, j := range js {
			a, rj := ct.A[k][j], ct.R[k][j]
			if a < rj {
				assert.Equal(t, top, a, "%s: a cut client is at the level", c.name)
			}
			if rj <= top {
				assert.Equal(t, rj, a, "%s: a client below the level is not cut", c.name)
			}
		}
	}
}

// checkCycleRecord checks the per-cycle record of cycle k against the
// series, with JainIndex as the reference index.
func checkCycleRecord(t *testing.T, name string, ct *ClientTrajectory, k int) {
	t.Helper()
	c := len(ct.A[k])
	q := []float64{} // the active clients' ratios
	var acc float64
	minq := 1.0
	for j, a := range ct.A[k] {
		acc += a
		if ct.R[k][j] > 0 {
			q = append(q, 1-ct.Share[k][j])
			minq = min(minq, q[len(q)-1])
		}
	}
	if len(q) == 0 {
		q = []float64{1} // no active client: index 1
	}
	jr, err := JainIndex(q)
	require.NoError(t, err)
	ja, err := JainIndex(ct.A[k])
	require.NoError(t, err)
	// Sums in another order: c roundings of values ≤ the total.
	tol := float64(4*c) * unit
	assert.InDelta(t, acc, ct.Accepted[k], tol*acc, name)
	assert.InDelta(t, jr, ct.JainRatio[k], tol, name)
	assert.InDelta(t, ja, ct.JainAmount[k], tol, name)
	assert.InDelta(t, minq, ct.MinRatio[k], 2*unit, name) // 1 − (1 − q) rounds once
}

// checkRunTotals checks the per-client totals and the per-server index
// statistics against the series.
func checkRunTotals(t *testing.T, name string, ct *ClientTrajectory, members [][]int) {
	t.Helper()
	for j := range ct.Requested {
		var r, a float64
		for k := range ct.R {
			r += ct.R[k][j]
			a += ct.A[k][j]
		}
		assert.Equal(t, r, ct.Requested[j], name) // same sums in the same order
		assert.Equal(t, a, ct.Granted[j], name)
	}
	for i := range members {
		var s float64
		lo := math.Inf(1)
		for k := range ct.ServerJain {
			s += ct.ServerJain[k][i]
			lo = min(lo, ct.ServerJain[k][i])
		}
		assert.Equal(t, s/float64(len(ct.ServerJain)), ct.ServerJainMean[i], name)
		assert.Equal(t, lo, ct.ServerJainMin[i], name)
	}
}

// TestClientsNegativeLimit checks that the negative-limit case reaches
// a negative limit, where the server grants nothing while its accepted
// amount min{x_i, r_i} in the servers' record is negative.
func TestClientsNegativeLimit(t *testing.T) {
	c := clientCases()[6]
	require.Equal(t, "negative limit", c.name)
	ct, err := SimulateClients(c.th, c.cl, c.d(), c.x0, c.steps, &ClientSettings{States: true, Series: true})
	require.NoError(t, err)
	k := ct.Servers.Steps - 1
	require.Negative(t, ct.Servers.X[k][0], "x_0 settles near 0.1 − (r_total − 3)/3 < 0")
	assert.Equal(t, 0.0, ct.A[k][0])
	assert.Less(t, ct.Servers.ATotal[k], ct.Accepted[k])
}

// TestJainIndex checks the equality cases by hand (spec deployed §5.3)
// and the range [1/c, 1], scale invariance and symmetry on random
// vectors.
func TestJainIndex(t *testing.T) {
	for _, c := range []struct {
		v    []float64
		want float64
	}{
		{[]float64{2, 2, 2}, 1},                // all equal
		{[]float64{0, 0, 0}, 1},                // all equal (zero)
		{[]float64{0, 0, 5}, 1.0 / 3},          // one alone: 1/c
		{[]float64{7}, 1},                      // one client
		{[]float64{1, 3}, 16.0 / 20},           // (1+3)²/(2·10)
		{[]float64{1, 1, 0, 0}, 4.0 / 8},       // k of c equal, others 0: k/c
		{[]float64{1e300, 1e300, 0}, 2.0 / 3},  // squares would overflow
		{[]float64{1e-300, 0, 0, 0}, 1.0 / 4},  // squares would underflow
		{[]float64{3, 4, 5}, 144.0 / (3 * 50)}, // (12)²/(3·50)
	} {
		got, err := JainIndex(c.v)
		require.NoError(t, err)
		assert.InDelta(t, c.want, got, 4*unit, "%v", c.v) // a few roundings of a value ≤ 1
	}
	rnd := rand.New(mc.Source(3))
	for range 200 {
		c := 1 + rnd.IntN(20)
		v := make([]float64, c)
		for j := range v {
			v[j] = rnd.ExpFloat64()
		}
		got, err := JainIndex(v)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, got, 1/float64(c))
		assert.LessOrEqual(t, got, 1.0)
		w := make([]float64, c)
		for j := range v {
			w[j] = 1e10 * v[c-1-j]
		}
		scaled, err := JainIndex(w)
		require.NoError(t, err)
		assert.InDelta(t, got, scaled, float64(4*c)*unit, "scale and order")
	}
}

// TestClientsSeed checks that the same seed gives the same record and
// another seed another, and that ClientStationary restarts at k = 0.
func TestClientsSeed(t *testing.T) {
	c := clientCases()[0]
	run := func(seed uint64) *ClientTrajectory {
		d := &ClientStationary{Mean: c.d().(*ClientStationary).Mean, Sigma: c.d().(*ClientStationary).Sigma, Src: rand.NewPCG(seed, 1)}
		ct, err := SimulateClients(c.th, c.cl, d, c.x0, c.steps, &ClientSettings{Series: true})
		require.NoError(t, err)
		return ct
	}
	a, b := run(1), run(1)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a.JainRatio, run(2).JainRatio)
}

// TestClientDemandModels checks the demand models: the censored normal
// of ClientStationary has its mean (a closed form) within 4 standard
// errors; ClientRandomWalk stays non-negative with increments of the
// stated size away from zero; ClientTrace replays.
func TestClientDemandModels(t *testing.T) {
	const cycles = 20000
	// E max{0, m + σZ} = m Φ(m/σ) + σ φ(m/σ); with m = σ = 1.
	want := 1*0.8413447460685429 + 1*0.24197072451914337
	d := &ClientStationary{Mean: []float64{1, 3}, Sigma: []float64{1, 0}, Src: rand.NewPCG(5, 5)}
	r := make([]float64, 2)
	var s, s2 float64
	for k := range cycles {
		require.NoError(t, d.Next(k, r))
		assert.Equal(t, 3.0, r[1], "no noise")
		require.GreaterOrEqual(t, r[0], 0.0)
		s += r[0]
		s2 += r[0] * r[0]
	}
	mean := s / cycles
	se := math.Sqrt((s2/cycles - mean*mean) / cycles)
	assert.InDelta(t, want, mean, 4*se)

	w := &ClientRandomWalk{Start: []float64{0.5, 2}, Sigma: []float64{1, 0}, Src: rand.NewPCG(6, 6)}
	for k := range 1000 {
		require.NoError(t, w.Next(k, r))
		require.GreaterOrEqual(t, r[0], 0.0)
		assert.Equal(t, 2.0, r[1])
	}
	tr := ClientTrace{{1, 2}, {3, 4}}
	require.NoError(t, tr.Next(1, r))
	assert.Equal(t, []float64{2, 4}, r)
}

// TestClientsErrors checks the errors in a run: a request turning
// negative at cycle 2 ends the run there with the record so far; an
// unstable γ returns the whole record with ErrUnstable.
func TestClientsErrors(t *testing.T) {
	th := &Throttler{Graph: path5(), Gamma: 0.2}
	cl := &Clients{Server: []int{0, 1, 2, 3, 4, 4}}
	trace := ClientTrace{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, -1}} // client 5 at cycle 2
	ct, err := SimulateClients(th, cl, trace, make([]float64, 5), 3, nil)
	require.ErrorIs(t, err, inv)
	assert.ErrorContains(t, err, "step 2: consensus: client 5 (server 4) requests r = -1")
	assert.Equal(t, 2, ct.Servers.Steps)
	assert.Len(t, ct.JainRatio, 2)

	th.Gamma = 0.6 // γλ_n ≈ 2.17
	ct, err = SimulateClients(th, cl, &ClientStationary{Mean: []float64{1, 2, 3, 4, 5, 6}}, []float64{1, 0, 0, 0, 0}, 30, nil)
	require.ErrorIs(t, err, ErrUnstable)
	assert.Equal(t, 30, ct.Servers.Steps)
}

// TestClientsEquilibriumFairness checks the fairness at the equilibria
// of throttlers §3.4 under constant demand (spec deployed §5.3): with
// Algorithm 1, Ratio equalises the servers' ratios x*_i/r_i = l/r, so
// the network ratio index is 1; Amount equalises the throttled amounts
// r_i − x*_i = (r_total − l_total)/n, and the index is that of the
// hand-computed ratios. Servers 0, 1, 2 of a path ask 2 (1+1), 4 and
// 6 (3+2+1); l_total = 9.
func TestClientsEquilibriumFairness(t *testing.T) {
	cl := &Clients{Server: []int{0, 0, 1, 2, 2, 2}}
	d := &ClientStationary{Mean: []float64{1, 1, 4, 3, 2, 1}}
	x0 := []float64{3, 3, 3}
	// Amount: x* = r − 1 = (1, 3, 5): ratios 1/2, 1/2, 3/4, 5/6, 5/6,
	// 5/6, Σq = 17/4, Σq² = 151/48, J = (17/4)²/(6·151/48) = 289/302.
	// Ratio: x* = 3r/4, every ratio 3/4, J = 1.
	for _, c := range []struct {
		m      Measure
		steps  int
		jratio float64
		grants []float64 // a⁽ʲ⁾ at the equilibrium
	}{
		{Amount, 300, 289.0 / 302, []float64{0.5, 0.5, 3, 2.5, 5.0 / 3, 5.0 / 6}},
		{Ratio, 1000, 1, []float64{0.75, 0.75, 3, 2.25, 1.5, 0.75}},
	} {
		th := &Throttler{Graph: mustGraph(gen.Path(3)), Gamma: 0.2, Measure: c.m}
		ct, err := SimulateClients(th, cl, d, x0, c.steps, nil)
		require.NoError(t, err)
		k := c.steps - 1
		// The slowest mode contracts by 0.8 a cycle for Amount (γλ₂ =
		// 0.2) and by 0.943 for Ratio (γμ₂, μ₂ ≈ 0.283 the least positive
		// eigenvalue of R⁻¹L at r = (2, 4, 6)): 0.8³⁰⁰ and 0.943¹⁰⁰⁰ are
		// below 1e-25 of the initial distance.
		assert.InDelta(t, c.jratio, ct.JainRatio[k], 1e-12, "%v", c.m)
		ja, err := JainIndex(c.grants)
		require.NoError(t, err)
		assert.InDelta(t, ja, ct.JainAmount[k], 1e-12, "%v", c.m)
		assert.InDelta(t, 1, ct.ServerJainMin[2], 1e-14, "Algorithm 1: J_i = 1 on every cycle")
	}
}

// TestClientsExtremeGrants checks the amount index where the squares of
// the grants overflow (1e300) or underflow (1e-300): it equals
// JainIndex of the grants, which scales by the largest first.
func TestClientsExtremeGrants(t *testing.T) {
	th := &Throttler{Graph: mustGraph(gen.Path(2)), Gamma: 0.2}
	cl := &Clients{Server: []int{0, 0, 1}}
	for _, scale := range []float64{1e300, 1e-300, 1} {
		d := ClientTrace{{scale}, {3 * scale}, {2 * scale}}
		x0 := []float64{2 * scale, 2 * scale} // grants: scale/2, 3·scale/2, 2·scale
		ct, err := SimulateClients(th, cl, d, x0, 1, &ClientSettings{Series: true})
		require.NoError(t, err)
		want, err := JainIndex(ct.A[0])
		require.NoError(t, err)
		assert.InDelta(t, want, ct.JainAmount[0], 16*unit, "scale %v", scale) // a few roundings of values ≤ 3
		assert.InDelta(t, 16.0/(3*6.5), ct.JainAmount[0], 16*unit, "(0.5+1.5+2)²/(3(0.25+2.25+4))")
	}
}
