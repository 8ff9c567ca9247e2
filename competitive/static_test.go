package competitive

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// staticByCost is the brute force of StaticBest: the k static schedules
// priced by Instance.Cost, the lowest id among the cheapest.
func staticByCost(in *Instance) (float64, int) {
	best, arg := math.Inf(1), -1
	sched := make([]int, in.Slots())
	for s := range in.Servers() {
		for t := range sched {
			sched[t] = s
		}
		if c := in.Cost(sched); c < best {
			best, arg = c, s
		}
	}
	return best, arg
}

// TestStaticBestFixtures: the hand instances of spec §9.1. On "D" and
// "E2" the optimum is static (C ≥ min_s Σ_t h_t(s), spec §3), so OPT =
// STATIC; on "A" the static best (server 1, 3 + 10) pays 7 more than OPT
// = 6, which switches once.
func TestStaticBestFixtures(t *testing.T) {
	for _, c := range []struct {
		name   string
		cost   float64 // C + the least column sum, by hand
		server int
	}{
		{"A", 13, 1}, // columns 15, 10
		{"D", 9, 0},  // columns 4, 8: C = 5 ≥ 4, the static regime
		{"E2", 26, 0},
		{"S", 8, 4}, // columns 7, 8, 16, 14, 3: the slide's optimum is static
	} {
		in := fixtureByName(t, c.name)
		cost, s := StaticBest(in)
		require.Equal(t, c.cost, cost, c.name)
		require.Equal(t, c.server, s, c.name)
	}
}

// TestStaticBestExhaustive checks, on every instance with costs in
// {0, 1, 2} (k = 2, T ≤ 5 and k = 3, T ≤ 3, C ∈ {0, 1, 2, 7}):
// StaticBest equals the brute force over the k static schedules;
// OPT ≤ STATIC ≤ cost(NeverMigrate); OPT = STATIC in the static regime
// C ≥ min_s Σ_t h_t(s) (spec §3); NeverMigrate stays on argmin h_1 with
// one setup. Integer costs make every sum exact: no tolerance.
func TestStaticBestExhaustive(t *testing.T) {
	for _, dims := range [][2]int{{2, 5}, {3, 3}} {
		k, maxT := dims[0], dims[1]
		for T := 1; T <= maxT; T++ {
			h := make([]float64, T*k)
			total := int(math.Pow(3, float64(T*k)))
			for code := range total {
				x := code
				for i := range h {
					h[i] = float64(x % 3)
					x /= 3
				}
				for _, C := range []float64{0, 1, 2, 7} {
					checkStatic(t, &Instance{t: T, k: k, c: C, h: h})
				}
			}
		}
	}
}

// checkStatic checks the properties of TestStaticBestExhaustive on in.
func checkStatic(t *testing.T, in *Instance) {
	t.Helper()
	cost, s := StaticBest(in)
	want, ws := staticByCost(in)
	opt := OptimumCost(in)
	sched, err := Run(&NeverMigrate{}, in)
	require.NoError(t, err)
	nm := in.Cost(sched)
	ok := cost == want && s == ws && opt <= cost && cost <= nm &&
		sched[0] == argmin(in.Row(0)) && Setups(sched) == 1
	if in.Setup() >= want-in.Setup() { // C ≥ min_s Σ_t h_t(s)
		ok = ok && opt == cost
	}
	if !ok {
		require.FailNowf(t, "static baseline", "h=%v C=%v: StaticBest %v (server %d), brute force %v (%d), OPT %v, NeverMigrate %v %v",
			in.h, in.Setup(), cost, s, want, ws, opt, nm, sched)
	}
}

// TestStaticBestRandom: on random instances of every family of spec
// §9.6, with real costs too, OPT ≤ STATIC ≤ cost(NeverMigrate) holds in
// floating point without tolerance (spec §12.7: the sums are accumulated
// in the dynamic program's order), StaticBest matches the brute force to
// rounding, and RunCost, Run and Ratio agree on NeverMigrate.
func TestStaticBestRandom(t *testing.T) {
	rng := newRand(71)
	for i := range 4000 {
		fam := family(i % int(nFamilies))
		k, T := 1+rng.IntN(6), 1+rng.IntN(40)
		C := 10 * rng.Float64()
		in := randomInstance(rng, fam, k, T, C, 10)
		cost, s := StaticBest(in)
		want, _ := staticByCost(in)
		// The two orders of summation differ by at most T + 1 roundings
		// of numbers below C + 10T.
		require.InDelta(t, want, cost, float64(T+1)*0x1p-52*(C+10*float64(T)))
		require.LessOrEqual(t, OptimumCost(in), cost)
		nm, err := RunCost(&NeverMigrate{}, in)
		require.NoError(t, err)
		require.LessOrEqual(t, cost, nm)
		sched, err := Run(&NeverMigrate{}, in)
		require.NoError(t, err)
		first := argmin(in.Row(0))
		for _, x := range sched {
			require.Equal(t, first, x)
		}
		if first == s {
			require.Equal(t, cost, nm, "the same server, the same order of summation")
		}
		r, err := Ratio(&NeverMigrate{}, in)
		require.NoError(t, err)
		require.Equal(t, ratio(nm, OptimumCost(in)), r)
	}
}

// TestNeverMigrateNotCompetitive: the instance of spec §12.7, h_1 =
// (0, 1) then (1, 0), costs NeverMigrate C + T − 1 against OPT = C + 1
// (stay on server 1), so its ratio grows without bound in T.
func TestNeverMigrateNotCompetitive(t *testing.T) {
	const C, T = 3, 200
	rows := make([][]float64, T)
	rows[0] = []float64{0, 1}
	for i := 1; i < T; i++ {
		rows[i] = []float64{1, 0}
	}
	in, err := NewInstance(rows, C)
	require.NoError(t, err)
	cost, err := RunCost(&NeverMigrate{}, in)
	require.NoError(t, err)
	require.Equal(t, float64(C+T-1), cost)
	require.Equal(t, float64(C+1), OptimumCost(in))
	sc, s := StaticBest(in)
	require.Equal(t, float64(C+1), sc)
	require.Equal(t, 1, s)
}

// TestNeverMigrateReset: a second Reset forgets the server of the first
// input, and a refused row leaves the state as it was.
func TestNeverMigrateReset(t *testing.T) {
	var a NeverMigrate
	require.NoError(t, a.Reset(3, 1))
	s, err := a.Step([]float64{5, 0, 5})
	require.NoError(t, err)
	require.Equal(t, 1, s)
	_, err = a.Step([]float64{0, math.NaN(), 0})
	require.ErrorIs(t, err, inv)
	s, err = a.Step([]float64{0, 9, 0})
	require.NoError(t, err)
	require.Equal(t, 1, s)
	require.NoError(t, a.Reset(3, 1))
	s, err = a.Step([]float64{0, 5, 5})
	require.NoError(t, err)
	require.Equal(t, 0, s)
	// A refused first row leaves it unassigned.
	require.NoError(t, a.Reset(2, 1))
	_, err = a.Step([]float64{-1, 0})
	require.ErrorIs(t, err, inv)
	s, err = a.Step([]float64{3, 2})
	require.NoError(t, err)
	require.Equal(t, 1, s)
}
