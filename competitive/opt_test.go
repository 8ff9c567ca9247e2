package competitive

import (
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tol bounds the rounding error of sums of at most a few hundred
// real-valued costs of order 10 (relative 1e-16 per operation).
const tol = 1e-9

func TestOptimumFixtures(t *testing.T) {
	for _, f := range fixtures {
		in := f.instance(t)
		opt, sched := optimum(t, in)
		assert.Equal(t, f.opt, opt, f.name)             // spec §9.1 table
		assert.Equal(t, f.opt, in.Cost(sched), f.name)  // backtracked schedule is optimal
		assert.Equal(t, f.opt, OptimumCost(in), f.name) // cost-only mode agrees
		assert.Equal(t, f.opt, bruteForce(in, NoServer), f.name)
		if f.unique {
			assert.Equal(t, f.sched, sched, f.name)
		}
	}
}

// TestOptimumTables checks the intermediate DP rows listed in spec §9.1.
func TestOptimumTables(t *testing.T) {
	tables := map[string][][]float64{
		"A": {{3, 8}, {3, 11}, {8, 6}, {13, 6}, {14, 6}},
		"C": {{5, 6, 7}, {6, 8, 10}, {15, 8, 19}, {21, 8, 21}, {12, 17, 21}, {12, 25, 25}},
		"S": {{8, 6, 7, 8, 6}, {10, 10, 11, 13, 6}, {12, 10, 13, 13, 7}, {12, 13, 20, 16, 8}},
	}
	for name, want := range tables {
		in := fixtureByName(t, name)
		for _, trace := range []bool{false, true} {
			var o Optimal
			require.NoError(t, o.Reset(in.Servers(), in.Setup(), NoServer, trace))
			for s := range in.Slots() {
				require.NoError(t, o.Push(in.Row(s)))
				assert.Equal(t, want[s], o.Values(), "%s slot %d", name, s)
			}
		}
	}
}

// TestOptimumBruteForce is spec §9.2: the DP equals exhaustive search
// and the backtracked schedule attains it, also with a warm start.
func TestOptimumBruteForce(t *testing.T) {
	rng := newRand(1)
	var o Optimal
	for i := range 3000 {
		k, T := 1+rng.IntN(3), 1+rng.IntN(6)
		C := float64(rng.IntN(7))
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 6)
		start := NoServer + rng.IntN(k+1)
		require.NoError(t, o.Reset(k, C, start, true))
		for s := range T {
			require.NoError(t, o.Push(in.Row(s)))
		}
		want := bruteForce(in, start)
		require.InDelta(t, want, o.Cost(), tol, "instance %d", i)
		sched := o.Schedule(nil)
		got := in.Cost(sched)
		if start != NoServer && sched[0] == start {
			got -= C // the warm start pays no setup for staying
		}
		require.InDelta(t, want, got, tol, "instance %d schedule %v", i, sched)
	}
}

// TestOptimumWide runs the DP over more than 64 servers (several bit
// words per row) against a schedule-free recomputation.
func TestOptimumWide(t *testing.T) {
	rng := newRand(2)
	for _, k := range []int{63, 64, 65, 130} {
		in := randomInstance(rng, realCost, k, 200, 3, 10)
		opt, sched := optimum(t, in)
		assert.InDelta(t, opt, in.Cost(sched), tol*opt)
		assert.Equal(t, opt, OptimumCost(in))
	}
}

// TestOptimumFacts checks the closed forms and bounds of spec §3.
func TestOptimumFacts(t *testing.T) {
	rng := newRand(3)
	for i := range 2000 {
		k, T := 1+rng.IntN(5), 1+rng.IntN(30)
		C := float64(rng.IntN(20))
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 8)
		opt := OptimumCost(in)
		lo, static := C, 0.0
		col := make([]float64, k)
		for s := range T {
			row := in.Row(s)
			lo += row[argmin(row)]
			for j, x := range row {
				col[j] += x
			}
		}
		static = col[argmin(col)]
		require.LessOrEqual(t, lo-tol, opt, "lower bound C + Σ min h")
		require.LessOrEqual(t, opt, C+static+tol, "upper bound C + min Σ h")
		if C >= static { // static regime
			require.InDelta(t, C+static, opt, tol)
		}
		if k == 1 || T == 1 {
			require.InDelta(t, lo, opt, tol)
		}
		zero, _ := in.WithSetup(0)
		require.InDelta(t, lo-C, OptimumCost(zero), tol, "C = 0")
		more, _ := in.WithSetup(C + 1)
		require.LessOrEqual(t, opt, OptimumCost(more)+tol, "monotone in C")
		bump := *in
		bump.h = append([]float64(nil), in.h...)
		bump.h[rng.IntN(len(bump.h))] += 1
		require.LessOrEqual(t, opt, OptimumCost(&bump)+tol, "monotone in h")
	}
}

func TestNewInstanceErrors(t *testing.T) {
	inf := 1 / zero()
	cases := []struct {
		rows [][]float64
		C    float64
		msg  string
	}{
		{nil, 1, "T = 0"},
		{[][]float64{{}}, 1, "k = 0"},
		{[][]float64{{1, 2}, {1}}, 1, "slot 1 has 1"},
		{[][]float64{{1, 2}, {1, -3}}, 1, "h(slot 1, server 1) = -3"},
		{[][]float64{{1, inf}}, 1, "h(slot 0, server 1) = +Inf"},
		{[][]float64{{inf - inf}}, 1, "h(slot 0, server 0) = NaN"},
		{[][]float64{{1}}, -1, "C = -1"},
		{[][]float64{{1}}, inf, "C = +Inf"},
	}
	for _, c := range cases {
		_, err := NewInstance(c.rows, c.C)
		if assert.Error(t, err) {
			assert.Contains(t, err.Error(), c.msg)
		}
	}
	_, err := NewInstanceFlat(2, 2, []float64{1, 2, 3}, 1)
	assert.ErrorContains(t, err, "3 hold costs")
	in, err := NewInstance([][]float64{{1, 2}}, 0)
	require.NoError(t, err)
	assert.Equal(t, 1.0, in.Cost([]int{0}))
	assert.Panics(t, func() { in.Cost([]int{0, 0}) })
	assert.Panics(t, func() { in.Cost([]int{2}) })
	assert.Equal(t, 0, Setups(nil))
	var o Optimal
	assert.ErrorContains(t, o.Reset(0, 1, NoServer, false), "k = 0")
	assert.ErrorContains(t, o.Reset(2, 1, 2, false), "start = 2")
	assert.ErrorContains(t, o.Reset(2, 1, -2, false), "start = -2")
	assert.ErrorContains(t, o.Reset(2, zero()/zero(), NoServer, false), "C = NaN")
}

func zero() float64 { return 0 }

func TestRatio(t *testing.T) {
	in := fixtureByName(t, "D") // spec §9.3: DTrack pays 14, OPT 9
	r, err := Ratio(NewDTrack(RoundRobin), in)
	require.NoError(t, err)
	assert.Equal(t, 14.0/9, r)
	z, err := NewInstance([][]float64{{0, 1}, {1, 0}}, 0)
	require.NoError(t, err)
	r, err = Ratio(NewDTrack(Forward), z) // C = 0: follows the zeros
	require.NoError(t, err)
	assert.Equal(t, 1.0, r)
	r, err = Ratio(&CTrack{Alpha: 1, Cyclic: true}, fixtureByName(t, "A"))
	require.NoError(t, err)
	assert.Equal(t, 1.0, r) // spec §9.7: CTrack pays OPT = 6 on A
	zero, _ := z.WithSetup(0)
	r, err = Ratio(stubborn{}, zero)
	require.NoError(t, err)
	assert.True(t, math.IsInf(r, 1))
	_, err = Ratio(&DTrack{Alpha: -1}, in)
	assert.Error(t, err)
}

// stubborn always stays on server 0.
type stubborn struct{}

func (stubborn) Reset(int, float64) error    { return nil }
func (stubborn) Step([]float64) (int, error) { return 0, nil }

// wild picks a server that does not exist.
type wild struct{ k int }

func (w *wild) Reset(k int, _ float64) error { w.k = k; return nil }
func (w *wild) Step([]float64) (int, error)  { return w.k, nil }

func TestRunRejectsBadServer(t *testing.T) {
	in := fixtureByName(t, "A")
	_, err := Run(&wild{}, in)
	assert.ErrorContains(t, err, "server 2 of 2")
	_, err = RunCost(&wild{}, in)
	assert.Error(t, err)
	_, _, err = Cruel(&wild{}, 3, 4, 1, 1)
	assert.Error(t, err)
}

// TestResetRejectsBadSetup: every online algorithm refuses k < 1 and a
// setup cost that is negative, NaN or infinite, naming the value.
func TestResetRejectsBadSetup(t *testing.T) {
	algs := []Online{NewDTrack(RoundRobin), NewCTrack(), &WFA{}, &Marking{Src: newRand(1)}, &Lookahead{Window: 2}}
	inf := 1 / zero()
	for _, alg := range algs {
		assert.ErrorContains(t, alg.Reset(0, 1), "k = 0", "%T", alg)
		for _, C := range []float64{-1, inf - inf, inf} {
			err := alg.Reset(2, C)
			assert.ErrorContains(t, err, fmt.Sprintf("C = %v", C), "%T", alg)
		}
		assert.NoError(t, alg.Reset(2, 0), "%T: C = 0 is a valid degenerate case", alg)
	}
}

// bruteCount returns the number of schedules of in whose cost equals
// opt exactly, by enumerating all k^T of them.
func bruteCount(in *Instance, opt float64) uint64 {
	var n uint64
	sched := make([]int, in.Slots())
	var rec func(t int)
	rec = func(t int) {
		if t == in.Slots() {
			if in.Cost(sched) == opt {
				n++
			}
			return
		}
		for s := range in.Servers() {
			sched[t] = s
			rec(t + 1)
		}
	}
	rec(0)
	return n
}

// TestCountOptimalBruteForce: the counting DP equals exhaustive
// enumeration on small integer instances (every sum exact, so ties are
// exact), including C = 0, where switches tie with stays, and the
// two-value and one-cheap families, which are full of ties.
func TestCountOptimalBruteForce(t *testing.T) {
	rng := newRand(12)
	multi := 0
	for i := range 3000 {
		k, T := 1+rng.IntN(4), 1+rng.IntN(6)
		C := float64(rng.IntN(4))
		in := randomInstance(rng, family(i%3), k, T, C, float64(1+rng.IntN(3))) // integer families only
		opt, sched := optimum(t, in)
		want := bruteCount(in, opt)
		got, exact := CountOptimal(in)
		require.True(t, exact)
		require.Equal(t, want, got, "instance %d: k = %d, T = %d, C = %v, rows %v", i, k, T, C, in.h)
		require.GreaterOrEqual(t, got, uint64(1), "Optimum's schedule %v is one of them", sched)
		if got > 1 {
			multi++
		}
	}
	require.Greater(t, multi, 500, "enough instances with several optima to test the ties")
	for _, f := range fixtures { // spec §9.1: "unique" is a count of 1
		in := f.instance(t)
		n, _ := CountOptimal(in)
		assert.Equal(t, f.unique, n == 1, "%s: %d optimal schedules", f.name, n)
	}
}

// TestCountOptimalSaturates: with C = 0 and all costs 0 every one of the
// k^T schedules is optimal; the count is exact up to 2⁶⁴ − 1 and then
// saturates with exact = false.
func TestCountOptimalSaturates(t *testing.T) {
	for _, c := range []struct {
		k, T  int
		want  uint64
		exact bool
	}{
		{2, 63, 1 << 63, true},
		{2, 64, math.MaxUint64, false},
		{3, 40, 12157665459056928801, true}, // 3⁴⁰ < 2⁶⁴
		{3, 41, math.MaxUint64, false},      // 3⁴¹ > 2⁶⁴
		{2, 500, math.MaxUint64, false},
	} {
		in, err := NewInstanceFlat(c.T, c.k, make([]float64, c.T*c.k), 0)
		require.NoError(t, err)
		n, exact := CountOptimal(in)
		assert.Equal(t, c.want, n, "k = %d, T = %d", c.k, c.T)
		assert.Equal(t, c.exact, exact)
	}
	// A last slot that is free on server 0 only: the schedules ending
	// there remain, 2⁶³ of the 2⁶⁴.
	h := make([]float64, 2*64)
	h[2*63+1] = 1
	in, err := NewInstanceFlat(64, 2, h, 0)
	require.NoError(t, err)
	n, exact := CountOptimal(in)
	assert.Equal(t, uint64(1<<63), n)
	assert.True(t, exact)
}

// TestPushValidates: Optimal.Push validates every row and a refused row
// changes nothing (guards: rows {NaN, 1} then {1, −5} giving Cost() = −3).
func TestPushValidates(t *testing.T) {
	for _, trace := range []bool{false, true} {
		var o Optimal
		require.NoError(t, o.Reset(2, 1, NoServer, trace))
		inf := math.Inf(1)
		bad := []struct {
			row []float64
			msg string
		}{
			{[]float64{math.NaN(), 1}, "row[0] = NaN at slot 0"},
			{[]float64{1, -5}, "row[1] = -5 at slot 0"},
			{[]float64{inf, 0}, "row[0] = +Inf at slot 0"},
			{[]float64{1}, "len(row) = 1 at slot 0, want k = 2"},
			{[]float64{1, 2, 3}, "len(row) = 3"},
		}
		for _, b := range bad {
			err := o.Push(b.row)
			assert.ErrorIs(t, err, loadlab.ErrInvalid)
			assert.ErrorContains(t, err, b.msg)
		}
		assert.Equal(t, 0, o.Slots(), "refused rows are not counted")
		require.NoError(t, o.Push([]float64{0, 5}))
		assert.ErrorContains(t, o.Push([]float64{-1, 0}), "row[0] = -1 at slot 1")
		require.NoError(t, o.Push([]float64{5, 0}))
		assert.Equal(t, 2.0, o.Cost(), "OPT of (0,5), (5,0) with C = 1: C on 0, then move")
		if trace {
			assert.Equal(t, []int{0, 1}, o.Schedule(nil))
		}
	}
	assert.PanicsWithValue(t, "competitive: Optimal.Push before Reset", func() { _ = new(Optimal).Push([]float64{1}) })
}

// TestPushNegativeZero: −0 is a valid hold cost (−0 ≥ 0), also next to
// positive values, where the fast bit-pattern check defers to the exact
// one and the overflow check must still see the largest value.
func TestPushNegativeZero(t *testing.T) {
	negz := math.Copysign(0, -1)
	var o Optimal
	require.NoError(t, o.Reset(2, 1, NoServer, true))
	require.NoError(t, o.Push([]float64{negz, 3}))
	require.NoError(t, o.Push([]float64{3, negz}))
	assert.Equal(t, 2.0, o.Cost())
	big := math.MaxFloat64 / 1.5
	require.NoError(t, o.Reset(2, 1, NoServer, false))
	require.NoError(t, o.Push([]float64{big, big}))
	assert.ErrorContains(t, o.Push([]float64{negz, big}), "overflows float64", "M + C + max h with a −0 in the row")
	assert.Equal(t, big+1, o.Cost())
}

// TestGrowAfterRefusal: a Grow beyond memory reserves nothing, and the
// solver grows and runs afterwards (the refusals: validate_test.go).
func TestGrowAfterRefusal(t *testing.T) {
	var o Optimal
	require.NoError(t, o.Reset(3, 1, NoServer, true))
	require.ErrorIs(t, o.Grow(1<<62), loadlab.ErrTooLarge)
	require.NoError(t, o.Grow(10))
	require.NoError(t, o.Push([]float64{0, 1, 1}))
	assert.Equal(t, []int{0}, o.Schedule(nil))
}
