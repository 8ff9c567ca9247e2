package competitive

import (
	"fmt"
	"math"
	"testing"

	"github.com/loadlab/loadlab"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func run(t testing.TB, alg Online, in *Instance) ([]int, float64) {
	t.Helper()
	sched, err := Run(alg, in)
	require.NoError(t, err)
	return sched, in.Cost(sched)
}

// TestDTrackSlide reproduces the execution example of spec §4.7 / §9.3
// (servers 1..5 on the slides are 0..4 here).
func TestDTrackSlide(t *testing.T) {
	in, err := NewInstance(slide, 5)
	require.NoError(t, err)

	// Strict trigger: tentative deficits at slot 3 are (3,-,0,0,5), the
	// maximum 5 does not exceed αC = 5, no transition, cost 13.
	d := NewDTrack(RoundRobin)
	require.NoError(t, d.Reset(5, 5))
	want := [][]float64{{0, 0, 0, 0, 0}, {2, 0, 0, 0, 4}, {0, 0, 0, 0, 3}, {3, 0, 0, 0, 5}} // slides t=0..3
	for s, row := range slide {
		assert.Equal(t, 1, mustStep(t, d, row))
		assert.Equal(t, want[s], d.Deficits(), "slot %d", s)
	}
	sched, cost := run(t, NewDTrack(RoundRobin), in)
	assert.Equal(t, []int{1, 1, 1, 1}, sched)
	assert.Equal(t, 13.0, cost)

	// Reach trigger: the transition of the slides.
	cases := []struct {
		name     string
		alg      *DTrack
		server   int
		deficits []float64
		cost     float64
	}{
		{"RR", &DTrack{Policy: RoundRobin, Alpha: 1}, 3, []float64{4, 1, 0, 0, 3}, 19},
		{"B(0)", &DTrack{Policy: Backward, Alpha: 1, Beta: 0}, 4, []float64{1, 0, 0, 0, 0}, 16},
		{"B(α)", &DTrack{Policy: Backward, Alpha: 1, Beta: 1}, 4, []float64{1, 0, 0, 0, 0}, 16},
		{"F", &DTrack{Policy: Forward, Alpha: 1}, 0, []float64{0, 0, 0, 0, 0}, 15},
		{"B(−∞)", &DTrack{Policy: Backward, Alpha: 1, Beta: math.Inf(-1)}, 3, []float64{4, 1, 0, 0, 3}, 19},
		{"B(−1e9)", &DTrack{Policy: Backward, Alpha: 1, Beta: -1e9}, 3, []float64{4, 1, 0, 0, 3}, 19},
	}
	for _, c := range cases {
		c.alg.Reach = true
		sched, cost := run(t, c.alg, in)
		assert.Equal(t, []int{1, 1, 1, c.server}, sched, c.name)
		assert.Equal(t, c.deficits, c.alg.Deficits(), c.name)
		assert.Equal(t, c.cost, cost, c.name)
		assert.Equal(t, 1, c.alg.Transitions(), c.name)
	}
}

func allPolicies() []*DTrack {
	return []*DTrack{
		{Policy: RoundRobin, Alpha: 1},
		{Policy: Forward, Alpha: 1},
		{Policy: Backward, Alpha: 1, Beta: 0},
		{Policy: Backward, Alpha: 1, Beta: 1},
	}
}

// TestDTrackTraces checks the traces of spec §9.3 on instances D, H, A,
// C and E.
func TestDTrackTraces(t *testing.T) {
	type trace struct {
		fixture string
		reach   bool
		policy  int // index into allPolicies, −1 for all
		sched   []int
		cost    float64
	}
	traces := []trace{
		{"D", false, -1, []int{1, 1, 1, 1, 0, 0}, 14},
		{"D", true, -1, []int{1, 1, 1, 1, 0, 0}, 14},
		{"H", false, 0, []int{0, 1, 1, 2, 1}, 10},
		{"H", false, 2, []int{0, 1, 1, 2, 1}, 10},
		{"H", false, 1, []int{0, 2, 2, 2, 1}, 6},
		{"H", false, 3, []int{0, 2, 2, 2, 1}, 6},
		{"H", true, 0, []int{0, 1, 2, 2, 1}, 9},
		{"H", true, 2, []int{0, 1, 2, 2, 1}, 9},
		{"H", true, 1, nil, 6},
		{"A", false, -1, []int{0, 0, 1, 1, 1}, 6},
		{"C", false, -1, []int{0, 0, 1, 1, 0, 0}, 14},
		{"E", false, -1, []int{1, 2, 1, 2}, 12},
	}
	for _, tr := range traces {
		in := fixtureByName(t, tr.fixture)
		for i, alg := range allPolicies() {
			if tr.policy >= 0 && i != tr.policy {
				continue
			}
			alg.Reach = tr.reach
			name := fmt.Sprintf("%s %v reach=%v β=%v", tr.fixture, alg.Policy, tr.reach, alg.Beta)
			sched, cost := run(t, alg, in)
			if tr.sched != nil {
				assert.Equal(t, tr.sched, sched, name)
			}
			assert.Equal(t, tr.cost, cost, name)
		}
	}
	// Instance D: deficit of server 0 after slots 1..4 is 0, 0, 2, 4.
	in := fixtureByName(t, "D")
	d := NewDTrack(RoundRobin)
	require.NoError(t, d.Reset(2, 5))
	for s, want := range []float64{0, 0, 2, 4} {
		mustStep(t, d, in.Row(s))
		assert.Equal(t, want, d.Deficits()[0], "slot %d", s)
	}
	// Instance H, strict: slot 2's tentative deficits (2, 3) trigger.
	in = fixtureByName(t, "H")
	d = &DTrack{Policy: Backward, Alpha: 1, Beta: 1}
	require.NoError(t, d.Reset(3, 2))
	mustStep(t, d, in.Row(0))
	assert.Equal(t, 2, mustStep(t, d, in.Row(1)))
}

// checkStays verifies invariant I2 of spec §4.6 and the transition rules
// of spec §9.4 on a DTrack schedule: within every maximal stay on s and
// for every other server s', the largest suffix sum of h(s) − h(s') is
// at most αC; every transition picks an admissible server other than
// the current one.
func checkStays(t *testing.T, in *Instance, sched []int, alpha float64, name string) {
	t.Helper()
	thr := alpha*in.Setup() + tol*float64(in.Slots()) // rounding of T real-valued sums
	for s := 0; s < in.Servers(); s++ {
		for a := 0; a < in.Slots(); {
			b := a
			for b+1 < in.Slots() && sched[b+1] == sched[a] {
				b++
			}
			run := 0.0
			for u := a; u <= b; u++ {
				run = math.Max(0, run+in.Hold(u, sched[a])-in.Hold(u, s))
				if run > thr {
					require.FailNowf(t, "run > thr", "%s: I2 fails on stay [%d,%d] on %d against %d: %v > %v", name, a, b, sched[a], s, run, thr)
				}
			}
			a = b + 1
		}
	}
	for u := 1; u < in.Slots(); u++ {
		if sched[u] != sched[u-1] {
			row := in.Row(u)
			if a := row[sched[u]] - row[argmin(row)]; !(a <= thr) {
				require.FailNowf(t, "a-priori deficit above αC", "%s: slot %d moves to %d with a-priori deficit %v > αC = %v", name, u, sched[u], a, thr)
			}
		}
	}
}

// checkOvertakes verifies invariant I3 of spec §4.6 on a DTrack-RR
// schedule, the fact the 2k proof charges to the optimum: when the
// session leaves j at slot u, j's hold cost over the stay, slot u
// included, exceeds αC (reaches it under the reach trigger); every
// server skipped in the cyclic scan at slot u has h_u > αC.
func checkOvertakes(t *testing.T, in *Instance, sched []int, alpha float64, reach bool, name string) {
	t.Helper()
	thr := alpha * in.Setup()
	slack := tol * float64(in.Slots()) // rounding of the sums
	a := 0
	for u := 1; u < in.Slots(); u++ {
		j := sched[u-1]
		if sched[u] == j {
			continue
		}
		sum := 0.0
		for v := a; v <= u; v++ {
			sum += in.Hold(v, j)
		}
		if sum < thr-slack || !reach && sum <= thr-slack {
			require.FailNowf(t, "sum < thr-slack || !reach && sum <= thr-slack", "%s: leaves %d at slot %d with stay cost %v, αC = %v", name, j, u, sum, thr)
		}
		for x := cyc(j+1, in.Servers()); x != sched[u]; x = cyc(x+1, in.Servers()) {
			if in.Hold(u, x) <= thr-slack {
				require.FailNowf(t, "in.Hold(u, x) <= thr-slack", "%s: skips %d at slot %d with h = %v ≤ αC = %v", name, x, u, in.Hold(u, x), thr)
			}
		}
		a = u
	}
}

// TestDTrackProperties is spec §9.4.
func TestDTrackProperties(t *testing.T) {
	rng := newRand(4)
	for i := range 1500 {
		k, T := 2+rng.IntN(4), 1+rng.IntN(40)
		C := []float64{1, 2, 3, 5, 8}[rng.IntN(5)]
		fam := family(i % int(nFamilies))
		in := randomInstance(rng, fam, k, T, C, 1+float64(rng.IntN(10)))
		for _, reach := range []bool{false, true} {
			for _, alpha := range []float64{0.5, 1, 2} {
				var rr []int
				for j, alg := range allPolicies() {
					alg.Alpha, alg.Reach = alpha, reach
					if alg.Beta > 0 {
						alg.Beta = alpha
					}
					sched, _ := run(t, alg, in)
					checkStays(t, in, sched, alpha, fmt.Sprintf("inst %d %v", i, alg.Policy))
					// Every trigger changes the server (spec §9.4).
					require.Equal(t, Setups(sched)-1, alg.Transitions(), "inst %d %v", i, alg.Policy)
					if j == 0 {
						rr = sched
						checkOvertakes(t, in, sched, alpha, reach, fmt.Sprintf("inst %d RR", i))
					}
					if alg.Policy == Forward && !reach {
						// Spec §4.4: under the strict trigger the current
						// server is never a minimiser at a trigger, so
						// DTrack-F moves to argmin h_t itself.
						for u := 1; u < T; u++ {
							if sched[u] != sched[u-1] {
								require.Equal(t, argmin(in.Row(u)), sched[u], "inst %d slot %d", i, u)
							}
						}
					}
					if k == 2 {
						require.Equal(t, rr, sched, "k = 2: all policies agree (inst %d)", i)
					}
				}
				b := &DTrack{Policy: Backward, Alpha: alpha, Beta: math.Inf(-1), Reach: reach}
				sched, _ := run(t, b, in)
				require.Equal(t, rr, sched, "B(−∞) = RR (inst %d)", i)
			}
		}
		// C = 0: every policy pays Σ_t min_s h_t(s) (spec §9.4).
		free, _ := in.WithSetup(0)
		want := OptimumCost(free)
		for _, reach := range []bool{false, true} {
			for _, alg := range allPolicies() {
				alg.Reach = reach
				_, cost := run(t, alg, free)
				require.InDelta(t, want, cost, tol, "C = 0 inst %d", i)
			}
		}
	}
}

func TestDTrackResetErrors(t *testing.T) {
	bad := []*DTrack{
		{Alpha: -1},
		{Alpha: math.NaN()},
		{Alpha: math.Inf(1)},
		{Alpha: 1, Beta: 2},
		{Alpha: 1, Beta: math.NaN()},
		{Alpha: 1, Policy: 7},
	}
	for _, d := range bad {
		assert.Error(t, d.Reset(3, 1), "%+v", d)
	}
	assert.Error(t, NewDTrack(RoundRobin).Reset(0, 1))
	d := NewDTrack(RoundRobin)
	require.NoError(t, d.Reset(2, 1))
	_, err := d.Step([]float64{1})
	assert.ErrorIs(t, err, loadlab.ErrInvalid)
}
