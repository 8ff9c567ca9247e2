package stability

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/dual"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

func hourGrid(hours float64, perHour int) []float64 {
	times := make([]float64, int(hours)*perHour+1)
	for k := range times {
		times[k] = float64(k) / float64(perHour)
	}
	return times
}

// constantDemand repeats a over the grid.
func constantDemand(a []float64, times []float64) [][]float64 {
	out := make([][]float64, len(times))
	for k := range out {
		out[k] = append([]float64(nil), a...)
	}
	return out
}

// On the paper's two-node example with constant demand, the greedy law
// sits in the uncontrollable overload 0.2 at node b all day (spec §2),
// while the optimal algorithm avoids it.
func TestCompareSeedExample(t *testing.T) {
	nw := seedNet(0.3)
	times := hourGrid(24, 4)
	cmp, err := Compare(nw, times, constantDemand(nw.A, times), nil)
	require.NoError(t, err)
	day := 24.25 // 97 periods of 15 min
	// The greedy starts in its steady state (1, 0) up to the guard 1e-3:
	// S_b = 0.9·0.999 + 0.7·0.001 ⇒ overload 0.2 − 2e-4 at worst.
	assert.InDelta(t, 0.2*day, cmp.Greedy.ExcessTotal, 1e-3*day)
	assert.InDelta(t, day, cmp.Greedy.UncontrolledHours, 1e-9)
	assert.InDelta(t, day, cmp.Greedy.OverloadHours, 1e-9)
	// The optimum overloads only by μ/Penalty; with Penalty = 1000 and
	// μ ≤ W·max A = 1 that is ≤ 1e-3 per node.
	assert.Less(t, cmp.Optimal.ExcessTotal, 2e-3*day)
	assert.Zero(t, cmp.Optimal.UncontrolledHours)
	assert.Less(t, cmp.Optimal.CostTotal, cmp.Greedy.CostTotal)
	assert.InDelta(t, 2*day, cmp.DemandTotal, 1e-9)
}

// With enough dual steps per period the optimal policy's cost equals the
// reference optimum of dual.Primal in every period; with the default 20
// warm-started steps it stays close, and below the greedy cost overall.
func TestCompareOptimalTracksPrimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	n := 6
	nw := randomNet(rng, n, 1, 0.3)
	base := make([]float64, n)
	for i := range base {
		base[i] = nw.T[i] * (0.6 + 0.6*rng.Float64())
	}
	times := hourGrid(24, 2)
	dem, err := Diurnal(base, times, nil, rand.NewPCG(5, 5))
	require.NoError(t, err)
	exact, err := Compare(nw, times, dem, &CompareSettings{DualSteps: 2000})
	require.NoError(t, err)
	def, err := Compare(nw, times, dem, nil)
	require.NoError(t, err)
	for k := range times {
		pnw, err := anycast.NewNetwork(dem[k], nw.C, nw.T)
		require.NoError(t, err)
		p, err := dual.Quadratic(pnw, 1, 1000)
		require.NoError(t, err)
		ref, err := dual.Primal(p, nil)
		require.NoError(t, err)
		require.True(t, ref.Status.Converged(), "period %d: reference not certified", k)
		// 2000 warm-started dual steps: the dual iterates converge
		// linearly (the quadratic costs make D strongly concave), so
		// the primal x*(μ) is at the optimum to ~1e-9 relative; 1e-6
		// leaves margin for the primal reference's own tolerance. At
		// low demand P* = 0 (x = 1, no overload): there the absolute
		// 1e-10 bounds the rounding of costs of size O(ΣA).
		tol := 1e-6*ref.Value + 1e-10
		assert.InDelta(t, ref.Value, exact.Optimal.Cost[4*k], tol, "period %d", k)
		// Every policy's cost is ≥ P*: a feasible point's value.
		assert.GreaterOrEqual(t, def.Optimal.Cost[4*k], ref.Value-tol)
		assert.GreaterOrEqual(t, def.Greedy.Cost[4*k], ref.Value-tol)
	}
	// Default: within 1% of the exact optimum over the day.
	assert.InEpsilon(t, exact.Optimal.CostTotal, def.Optimal.CostTotal, 1e-2)
	assert.LessOrEqual(t, def.Optimal.CostTotal, def.Greedy.CostTotal)
	// Both policies are sampled at the same times, Sub = 4 per period.
	assert.Len(t, def.Greedy.T, 4*len(times))
	assert.True(t, floats.Equal(def.Greedy.T, def.Optimal.T))
}

// A user-supplied cost family replaces the default one.
func TestCompareProblemHook(t *testing.T) {
	nw := seedNet(0.3)
	times := hourGrid(2, 2)
	calls := 0
	cmp, err := Compare(nw, times, constantDemand(nw.A, times), &CompareSettings{
		Problem: func(nw *anycast.Network) (*dual.Problem, error) {
			calls++
			return dual.Quadratic(nw, 1, 10)
		},
	})
	require.NoError(t, err)
	assert.Equal(t, len(times)+1, calls) // one per period plus the warm start
	// A softer overload price lets the optimum overload more than the
	// default Penalty = 1000 does, but still far less than the greedy.
	def, err := Compare(nw, times, constantDemand(nw.A, times), nil)
	require.NoError(t, err)
	assert.Greater(t, cmp.Optimal.ExcessTotal, def.Optimal.ExcessTotal)
	assert.Less(t, cmp.Optimal.ExcessTotal, cmp.Greedy.ExcessTotal)
}

// threeNet is a three-node network with every pair reachable both ways
// (C_ij > 0 ⇔ C_ji > 0) and demand that overloads nodes 0 and 1.
func threeNet(t *testing.T) *anycast.Network {
	nw, err := anycast.NewNetwork([]float64{1.4, 1.0, 0.3},
		mat.NewDense(3, 3, []float64{0.7, 0.2, 0.1, 0.3, 0.6, 0.1, 0.2, 0.2, 0.6}), []float64{0.8, 0.6, 0.9})
	require.NoError(t, err)
	return nw
}

// In the fluid limit (no window, no loss, no delay) FastControl delivers
// β exactly (spec §4.7), so its policy is the optimal one up to the
// rounding of the packet-rate sums; its packets are γ Σ_i μ_i Σ_j C_ji/C_ij
// per hour at the prices run, checked here by hand at the converged μ*.
func TestCompareFastControlFluidAndOverheadByHand(t *testing.T) {
	nw := threeNet(t)
	times := hourGrid(2, 2)
	set := &CompareSettings{DualSteps: 3000, FastControl: &dual.FastControl{Gamma: 50}}
	cmp, err := Compare(nw, times, constantDemand(nw.A, times), set)
	require.NoError(t, err)
	fc := cmp.FastControl
	require.NotNil(t, fc)
	// Both policies hold x*(μ) of the same iterates up to rounding in β
	// (a sum of C_ij·μ_j against a sum of (γ μ_j C_ij/C_ji)·C_ji/γ).
	assert.InEpsilon(t, cmp.Optimal.CostTotal, fc.CostTotal, 1e-10)
	assert.InEpsilon(t, cmp.Optimal.SecondTotal, fc.SecondTotal, 1e-10)
	assert.Zero(t, cmp.Optimal.ControlPackets)

	// μ* by a long exact solve of the same P1.
	p, err := dual.Quadratic(nw, 1, 1000)
	require.NoError(t, err)
	res, err := dual.Solve(p, &dual.Settings{Tol: 1e-13, MaxIter: 200000})
	require.NoError(t, err)
	var rate float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			rate += res.Mu[i] * nw.C.At(j, i) / nw.C.At(i, j) // C_ji/C_ij, spec §4.7
		}
	}
	rate *= 50
	require.Greater(t, rate, 0.0)
	// Five periods of half an hour (the last as long as the one before);
	// 3000 warm steps per period hold μ at μ* to ~1e-9 relative.
	assert.InEpsilon(t, rate*2.5, fc.ControlPackets, 1e-6)
	// Per request: packets / (requests per load-hour · served load).
	assert.InEpsilon(t, fc.ControlPackets/(3.6e6*fc.ServedLoad), fc.Overhead(3.6e6), 1e-15)
	var served float64
	for _, s := range p.Net.Loads(nil, res.X) {
		served += s
	}
	assert.InEpsilon(t, served*2.5, fc.ServedLoad, 1e-6)
}

// With a measurement window, loss and delay the learned β is noisy and
// biased (low by the factor 1 − Loss), so the policy departs from the
// optimal one; the run is the same for the same source.
func TestCompareFastControlLossDelay(t *testing.T) {
	nw := threeNet(t)
	times := hourGrid(4, 4)
	run := func(seed uint64) *Comparison {
		set := &CompareSettings{FastControl: &dual.FastControl{Gamma: 200, Window: 0.05, Loss: 0.2, Delay: 2, Src: rand.NewPCG(seed, 1)}}
		cmp, err := Compare(nw, times, constantDemand(nw.A, times), set)
		require.NoError(t, err)
		return cmp
	}
	a, b := run(1), run(1)
	assert.Equal(t, a.FastControl.CostTotal, b.FastControl.CostTotal)
	assert.NotEqual(t, a.Optimal.CostTotal, a.FastControl.CostTotal)
	// The optimum's cost is the lower one here: learned prices under loss
	// are biased, the optimal policy's are exact (both take 20 steps a
	// period from the same steady state).
	assert.Greater(t, a.FastControl.CostTotal, a.Optimal.CostTotal)
	assert.Greater(t, a.FastControl.ControlPackets, 0.0)
	assert.True(t, math.IsNaN((&Policy{}).Overhead(1)))
}
