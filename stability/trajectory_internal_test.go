package stability

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/asm"
	"github.com/loadlab/loadlab/ode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Recording every accepted step reuses the state and loads of the
// step's last right-hand side evaluation (FSAL). The recorded S must be
// the loads of the recorded X, as if recomputed, at every sample, for
// sparse and dense C, in logit and in Direct coordinates: exactly for
// sparse C; for dense C, where nodes settle at x = 1 and the loads come
// from the reduced operator (reduce.go), to the rounding of two sums of
// N non-negative terms, |ΔS_i| ≤ 2Nε·S_i (a stale state would be off by
// the change over a step, orders of magnitude more).
func TestRecordedLoadsAreThoseOfRecordedStates(t *testing.T) {
	sp, de := cdnPair(t, 3, 1, 150, 6)
	for _, nw := range []*anycast.Network{sp, de} {
		l := mustLaw(nw, 1)
		op, err := nw.LoadOp()
		require.NoError(t, err)
		x0 := randomInterior(rand.New(rand.NewPCG(2, 2)), nw.N())
		for _, set := range []*Settings{nil, {Direct: true}} {
			tr, err := l.Integrate(x0, 300, set)
			require.NoError(t, err)
			require.GreaterOrEqual(t, tr.Len(), 20, "samples")
			for k := range tr.T {
				want := op.Mul(nil, tr.X[k])
				if nw.Sparse != nil {
					require.Equal(t, want, tr.S[k], "sparse, direct %v: sample %d (t = %v): recorded S against the loads of X", set != nil, k, tr.T[k])
				}
				for i, w := range want {
					if d := math.Abs(tr.S[k][i] - w); !(d <= 2*float64(nw.N())*0x1p-52*w) {
						require.FailNowf(t, "recorded S differs from the loads of X", "direct %v: sample %d (t = %v): recorded S_%d = %v, loads of X %v", set != nil, k, tr.T[k], i, tr.S[k][i], w)
					}
				}
			}
		}
	}
}

// The split right-hand side (every node integrated: ode's fused passes
// over pieces of nodes on both cores) takes the steps of the serial one
// (rhs through ode.SolveStepsFunc) and records the same bits, for sparse
// and dense C around the parallel threshold (N = 150 dense: 22500 < 2¹⁵
// entries, one goroutine; N = 200 dense and N = 4000 sparse: all cores),
// in logit and Direct coordinates, with GOMAXPROCS 1 and 2. On the dense
// networks nodes settle at x = 1 within the run, so the loads of both
// come from the reduced operator after some step (reduce.go).
func TestSplitMatchesSerialRHS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	sp150, de150 := cdnPair(t, 3, 1, 150, 6)
	_, de200 := cdnPair(t, 4, 1, 200, 6)
	sp4000, _ := cdnPair(t, 5, 1, 4000, 10)
	for _, nw := range []*anycast.Network{sp150, de150, de200, sp4000} {
		l := mustLaw(nw, 1)
		x0 := randomInterior(rand.New(rand.NewPCG(2, 2)), nw.N())
		for _, set := range []*Settings{{}, {Direct: true}} {
			want, reductions := serialSteps(t, l, x0, 50, set)
			if nw.Sparse == nil {
				// Nodes settle at x = 1 by t = 50: the reduced
				// product (reduce.go) is compared too.
				require.Positive(t, reductions, "N = %d, direct %v", nw.N(), set.Direct)
			}
			for _, procs := range []int{1, 2} {
				runtime.GOMAXPROCS(procs)
				tr, err := l.Integrate(x0, 50, set)
				require.NoError(t, err)
				require.Equal(t, want.T, tr.T, "N = %d, sparse %v, direct %v", nw.N(), nw.Sparse != nil, set.Direct)
				require.Equal(t, want.X, tr.X)
				require.Equal(t, want.S, tr.S)
				require.Equal(t, want.Stats, tr.Stats)
				// Where nodes settle, the split steps lag (lag.go):
				// the settled nodes' rows come after the stages. Over
				// [0, 120] more of them settle, and earlier.
				if nw.Sparse == nil && procs == 2 {
					long, _ := serialSteps(t, l, x0, 120, set)
					tr, lagged := splitSteps(t, l, x0, 120, set)
					require.Positive(t, lagged, "N = %d, direct %v: no lagging step", nw.N(), set.Direct)
					require.Equal(t, long.X, tr.X, "N = %d, direct %v: lagging steps", nw.N(), set.Direct)
					require.Equal(t, long.S, tr.S)
					require.Equal(t, long.Stats, tr.Stats)
				}
			}
		}
	}
}

// serialSteps integrates as Integrate does with every step recorded, but
// through the serial right-hand side rhs; it returns the trajectory and
// the number of builds of the reduced operator for settled nodes.
func serialSteps(t *testing.T, l *Law, x0 []float64, t1 float64, set *Settings) (*Trajectory, int) {
	sys := setUpSystem(t, l, x0, set.Direct)
	tr := newTrajectory(l.Net, sys.op, 0, false)
	res, err := ode.SolveStepsFunc(sys.rhs, 0, sys.y0, t1, set.ode(), func(tt float64, y []float64) error {
		x, s := sys.loadsAt(y)
		tr.addLoads(tt, x, s, nil)
		sys.reduce(x)
		return nil
	})
	require.NoError(t, err)
	tr.Stats = res.Stats
	return tr, sys.reductions
}

// splitSteps integrates as Integrate does with every step recorded; it
// returns the trajectory and the number of lagging steps.
func splitSteps(t *testing.T, l *Law, x0 []float64, t1 float64, set *Settings) (*Trajectory, int) {
	sys := setUpSystem(t, l, x0, set.Direct)
	tr, err := sys.solveSteps(t1, set)
	require.NoError(t, err)
	return tr, sys.lagSteps
}

// setUpSystem returns the set-up system of l from the interior state x0,
// integrated in logits, or in x for direct.
func setUpSystem(t *testing.T, l *Law, x0 []float64, direct bool) *system {
	z0 := make([]float64, len(x0))
	for i, v := range x0 {
		z0[i] = logit(v)
	}
	sys := newSystem(l, x0, z0, direct)
	require.NoError(t, sys.setup(nil))
	return sys
}

// A settled node that leaves 1 during a lagging step fails the check, and
// the step is computed again the ordinary way: the trajectory keeps the
// bits of the serial right-hand side, at six more evaluations a redone
// step. Eight nodes start at z = 37.2 (x = 1 exactly, summed once from
// t = 0) but overloaded, so their logits fall below 37 in the first steps.
func TestLaggingStepRedoneWhenANodeLeaves(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	nw := randomNet(rng, 64, 2, 0.5)
	z0 := make([]float64, 64)
	for i := range z0 {
		z0[i] = logit(0.01 + 0.98*rng.Float64())
	}
	for i := 0; i < 64; i += 8 {
		z0[i], nw.T[i] = 37.2, 1e-3
	}
	l := mustLaw(nw, 1)
	x0 := make([]float64, 64)
	for i, z := range z0 {
		x0[i] = asm.Sigmoid(z)
	}
	serial := newSystem(l, x0, z0, false)
	require.NoError(t, serial.setup(nil))
	want := newTrajectory(l.Net, serial.op, 0, false)
	res, err := ode.SolveStepsFunc(serial.rhs, 0, serial.y0, 20, (&Settings{}).ode(), func(tt float64, y []float64) error {
		x, s := serial.loadsAt(y)
		want.addLoads(tt, x, s, nil)
		serial.reduce(x)
		return nil
	})
	require.NoError(t, err)
	split := newSystem(l, x0, z0, false)
	require.NoError(t, split.setup(nil))
	got, err := split.solveSteps(20, &Settings{})
	require.NoError(t, err)
	require.Positive(t, split.lagRedos, "no lagging step was computed again")
	require.Equal(t, want.X, got.X)
	require.Equal(t, want.S, got.S)
	assert.Equal(t, res.Stats.Accepted, got.Stats.Accepted)
	assert.Equal(t, res.Stats.Evaluations+6*split.lagRedos, got.Stats.Evaluations)
}

// Held accepts a stage argument only if it keeps every settled node at
// exactly x = 1: a logit from 37 on (σ rounds to 1), an x from 1 on in
// Direct; Hold lags only with settled nodes summed once.
func TestHeldChecksSettledNodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	l := mustLaw(randomNet(rng, 40, 2, 0.5), 1)
	for _, direct := range []bool{false, true} {
		x := randomInterior(rng, 40)
		sys := setUpSystem(t, l, x, direct)
		sys.split()
		assert.False(t, sys.Hold(true), "no settled nodes: no lagging")
		for _, i := range []int{3, 17, 18, 33} {
			x[i] = 1
		}
		sys.reduce(x)
		require.NotNil(t, sys.red)
		assert.True(t, sys.Hold(true))
		assert.False(t, sys.Hold(false))
		arg := make([]float64, 40) // free nodes' arguments do not matter
		top, low := 37.0, math.Nextafter(36.7, 0)
		if direct {
			top, low = 1, math.Nextafter(1, 0)
		}
		for _, i := range []int{3, 17, 18, 33} {
			arg[i] = top
		}
		assert.True(t, sys.Held(2, arg, 0, 40), "direct %v", direct)
		arg[18] = low
		assert.False(t, sys.Held(2, arg, 0, 40), "direct %v: node 18 left 1", direct)
		assert.True(t, sys.Held(2, arg, 0, 16), "direct %v: node 18 is not in [0, 16)", direct)
		arg[18] = math.NaN()
		assert.False(t, sys.Held(2, arg, 16, 32), "direct %v: NaN", direct)
	}
}

// The rebuild rule of reduce (reduce.go) on a dense network of 64 nodes
// (a step of N/16 = 4 nodes): no operator below 4 settled nodes; one
// after 4 settle, narrowed when 4 more do, rebuilt from B when a settled
// node leaves 1, dropped when fewer than 4 remain; and each operator's
// loads are B x to 2Nε.
func TestReduceRule(t *testing.T) {
	_, de := cdnPair(t, 6, 1, 64, 6)
	l := mustLaw(de, 1)
	x := randomInterior(rand.New(rand.NewPCG(6, 6)), 64)
	sys := newSystem(l, x, make([]float64, 64), false)
	require.NoError(t, sys.setup(nil))
	settle := func(nodes ...int) {
		for _, i := range nodes {
			x[i] = 1
		}
		sys.reduce(x)
	}
	check := func(free, builds int) {
		t.Helper()
		require.Equal(t, builds, sys.reductions)
		if free < 0 {
			require.Nil(t, sys.red)
			return
		}
		require.NotNil(t, sys.red)
		require.Equal(t, free, sys.red.Free())
		xf := make([]float64, sys.red.Cols())
		for j, v := range x {
			if k := sys.red.Rank(j); k >= 0 {
				xf[k] = v
			} else {
				require.Equal(t, 1.0, v, "node %d summed once but not at 1", j)
			}
		}
		got, want := make([]float64, 64), sys.op.Mul(nil, x)
		sys.red.MulRows(got, xf, 0, 64)
		for i, w := range want {
			require.LessOrEqual(t, math.Abs(got[i]-w), 2*64*0x1p-52*w, "S_%d", i)
		}
	}
	settle(1, 2, 3)
	check(-1, 0)
	settle(4)
	check(60, 1)
	settle(10, 11, 12)
	check(60, 1) // 3 more: below the step
	settle(13)
	check(56, 2) // narrowed
	x[2] = 0.5
	settle()
	check(57, 3) // node 2 left 1: rebuilt from B
	for _, i := range []int{1, 3, 4, 10, 11, 12, 13} {
		x[i] = 0.5
	}
	settle()
	check(-1, 3) // no settled node left: dropped
}
