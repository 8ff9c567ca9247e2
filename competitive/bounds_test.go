package competitive

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contestants are the online algorithms whose worst-case bounds are
// checked; bound returns the largest cost the theory allows on in given
// OPT, or +∞ where no bound holds.
type contestant struct {
	name  string
	alg   func() Online
	bound func(in *Instance, opt float64) float64
}

// contestants lists the bounds as the spec states them: DTrack-RR with
// α = 1 is 2k-competitive under either trigger (spec §6.3, §9.6), CTrack
// (both variants) is (2 + a)k-competitive with a = max h / C (spec §5,
// §9.6), and WFA is (2k − 1)-competitive (spec §6.2) with additive
// constant 0 (potential-function proof in doc.go).
var contestants = []contestant{
	{"DTrack-RR", func() Online { return NewDTrack(RoundRobin) }, func(in *Instance, opt float64) float64 { return float64(2*in.Servers()) * opt }},
	{"DTrack-RR-reach", func() Online { return &DTrack{Alpha: 1, Reach: true} }, func(in *Instance, opt float64) float64 { return float64(2*in.Servers()) * opt }},
	{"CTrack", func() Online { return NewCTrack() }, ctrackBound},
	{"CTrack-cyclic", func() Online { return &CTrack{Alpha: 1, Cyclic: true} }, ctrackBound},
	{"WFA", func() Online { return &WFA{} }, func(in *Instance, opt float64) float64 { return float64(2*in.Servers()-1) * opt }},
}

func ctrackBound(in *Instance, opt float64) float64 {
	a := in.MaxHold() / in.Setup() // spec §5: every hold cost ≤ aC
	return (2 + a) * float64(in.Servers()) * opt
}

// TestCompetitiveBounds is spec §9.6 plus the WFA bound, on random
// instances of every family (20,000, the size of one of the spec's
// batches) and on the adaptive adversary's instances built against each
// algorithm, and OPT ≤ every schedule. The adversary makes the check
// sharp: for every contestant some instance comes within 10% of its
// bound (measured: DTrack-RR 0.94, DTrack-RR-reach 0.97, both CTracks
// 0.91, WFA 1 exactly), so a bound tightened by a constant factor of
// 0.9 or less would fail here.
func TestCompetitiveBounds(t *testing.T) {
	rng := newRand(5)
	worst := make(map[string]float64) // max cost / bound over k ≥ 2
	check := func(c contestant, in *Instance, what string) {
		opt := OptimumCost(in)
		sched, cost := run(t, c.alg(), in)
		require.LessOrEqual(t, opt, cost+tol, "%s %s: OPT ≤ ALG", c.name, what)
		// Relative slack: the costs are sums of ≤ 2·10⁴ terms (rounding
		// ≤ 1e-12 relative); integer families are exact.
		b := c.bound(in, opt)
		if cost > b*(1+1e-12) {
			require.FailNowf(t, "cost > b*(1+1e-12)", "%s %s: cost %v > bound %v (OPT %v, schedule %v)", c.name, what, cost, b, opt, sched)
		}
		if in.Servers() >= 2 {
			worst[c.name] = math.Max(worst[c.name], cost/b)
		}
	}
	for i := range 20_000 {
		k, T := 2+rng.IntN(4), 1+rng.IntN(40)
		C := []float64{1, 2, 3, 5, 8}[rng.IntN(5)]
		in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(12)))
		for _, c := range contestants {
			check(c, in, fmt.Sprintf("random %d", i))
		}
	}
	for _, c := range contestants {
		for k := 1; k <= 6; k++ {
			for _, C := range []float64{1, 3, 10} {
				// Coarse steps (ε ∈ {0.5, 1, C}) over 300 slots, and the
				// fine-grained adversary of TestCruelFineGrained (ε =
				// C/16, (T−1)ε/C ≈ 300k), which is what pushes DTrack-RR
				// and CTrack close to 2k.
				for _, adv := range []struct {
					eps float64
					T   int
				}{{0.5, 300}, {1, 300}, {C, 300}, {C / 16, 300 * 16 * k}} {
					eps := adv.eps
					in, sched, err := Cruel(c.alg(), k, adv.T, C, eps)
					require.NoError(t, err)
					check(c, in, fmt.Sprintf("cruel k=%d C=%v eps=%v", k, C, eps))
					// Rule-independent assertions of spec §9.5.
					opt := OptimumCost(in)
					cost := in.Cost(sched)
					x := float64(in.Slots()-1) * eps
					require.GreaterOrEqual(t, cost, C+x-tol)
					require.LessOrEqual(t, opt, C+x/float64(k)+tol)
					require.GreaterOrEqual(t, cost/opt, mustBound(t, k, in.Slots(), C, eps)-tol)
				}
			}
		}
		trap, err := Trap(5, 9)
		require.NoError(t, err)
		check(c, trap, "trap")
	}
	for _, c := range contestants {
		// Deterministic inputs: the measured maxima above, not a
		// statistical threshold.
		assert.Greater(t, worst[c.name], 0.9, "%s: no instance near its bound", c.name)
		t.Logf("%s: max cost/bound %.4f", c.name, worst[c.name])
	}
}

// TestDTrackAlphaBound checks the α-dependent bound that the spec's own
// bookkeeping of the 2k proof gives (spec §6.3, DERIVED; open question
// 7): cost ≤ max{k(1 + 1/α), (k − 1)α + k}·OPT for DTrack-RR under either
// trigger. It held on every instance tried; for k = 2 and α ≥ 1.5 it is
// attained (TestDTrackAlphaTight). At α = 1 it is the 2k bound.
func TestDTrackAlphaBound(t *testing.T) {
	rng := newRand(12)
	for _, alpha := range []float64{0.25, 0.5, 0.75, 1.25, 1.5, 2, 3} {
		for i := range 1500 {
			k, T := 2+rng.IntN(4), 1+rng.IntN(40)
			C := []float64{1, 2, 3, 4, 5, 8}[rng.IntN(6)]
			in := randomInstance(rng, family(i%int(nFamilies)), k, T, C, 1+float64(rng.IntN(12)))
			opt := OptimumCost(in)
			kf := float64(k)
			bound := math.Max(kf*(1+1/alpha), (kf-1)*alpha+kf) * opt
			for _, reach := range []bool{false, true} {
				cost, err := RunCost(&DTrack{Alpha: alpha, Reach: reach}, in)
				require.NoError(t, err)
				// Relative 1e-12: rounding of ≤ 40 real additions.
				require.LessOrEqual(t, cost, bound*(1+1e-12), "α = %v, instance %d, reach = %v", alpha, i, reach)
			}
		}
	}
}

// TestDTrackAlphaTight: with k = 2 the term (k − 1)α + k = 2 + α of the
// bound above is attained exactly by the strict trigger on (0,0),
// (αC,0), (αC,0): DTrack-RR starts on 0, stays while the deficit equals
// αC, then moves, paying C + αC + C; OPT sits on 1 and pays C (hand
// computation).
func TestDTrackAlphaTight(t *testing.T) {
	const C = 4.0
	for _, alpha := range []float64{1.5, 2, 2.5, 4} {
		a := alpha * C
		in, err := NewInstance([][]float64{{0, 0}, {a, 0}, {a, 0}}, C)
		require.NoError(t, err)
		sched, cost := run(t, &DTrack{Alpha: alpha}, in)
		require.Equal(t, []int{0, 0, 1}, sched)
		require.Equal(t, (2+alpha)*C, cost)
		require.Equal(t, C, OptimumCost(in))
	}
}

// TestBoundsExhaustive checks the worst-case bounds on every instance
// with costs in {0, 1, 2}: k = 2 with T ≤ 5 and k = 3 with T ≤ 3, for
// C ∈ {1, 2} (about 2·10⁵ instances per contestant). Integer costs make
// every sum exact, so the comparisons need no tolerance.
func TestBoundsExhaustive(t *testing.T) {
	for _, dims := range [][2]int{{2, 5}, {3, 3}} {
		k, maxT := dims[0], dims[1]
		for T := 1; T <= maxT; T++ {
			n := T * k
			h := make([]float64, n)
			total := 1
			for range n {
				total *= 3
			}
			for code := range total {
				x := code
				for i := range h {
					h[i] = float64(x % 3)
					x /= 3
				}
				for _, C := range []float64{1, 2} {
					in := &Instance{t: T, k: k, c: C, h: h}
					opt := OptimumCost(in)
					for _, c := range contestants {
						cost, err := RunCost(c.alg(), in)
						require.NoError(t, err)
						if cost < opt || cost > c.bound(in, opt) {
							require.FailNowf(t, "cost < opt || cost > c.bound(in, opt)", "%s: k=%d T=%d C=%v h=%v: cost %v, OPT %v, bound %v", c.name, k, T, C, h, cost, opt, c.bound(in, opt))
						}
					}
				}
			}
		}
	}
}
