package competitive

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/loadlab/loadlab/internal/mc"
	"github.com/stretchr/testify/require"
)

// fixture is a hand-checkable instance of spec §9.1.
type fixture struct {
	name   string
	C      float64
	rows   [][]float64
	opt    float64
	sched  []int // an optimal schedule; compared only when unique
	unique bool
}

// fixtures are the instances of spec §9.1 (0-based servers).
var fixtures = []fixture{
	{"A", 3, [][]float64{{0, 5}, {0, 5}, {5, 0}, {5, 0}, {5, 0}}, 6, []int{0, 0, 1, 1, 1}, true},
	{"C", 4, [][]float64{{1, 2, 3}, {1, 2, 3}, {9, 0, 9}, {9, 0, 9}, {0, 9, 9}, {0, 9, 9}}, 12, []int{1, 1, 1, 1, 0, 0}, true},
	{"D", 5, [][]float64{{2, 0}, {2, 0}, {0, 2}, {0, 2}, {0, 2}, {0, 2}}, 9, []int{0, 0, 0, 0, 0, 0}, true},
	{"E", 2, [][]float64{{4, 1, 7}, {4, 9, 1}, {4, 1, 9}, {4, 9, 1}}, 12, []int{1, 2, 1, 2}, true},
	{"E2", 10, [][]float64{{4, 1, 7}, {4, 9, 1}, {4, 1, 9}, {4, 9, 1}}, 26, []int{0, 0, 0, 0}, true},
	{"H", 2, [][]float64{{0, 5, 5}, {3, 1, 0}, {3, 1, 0}, {3, 2, 0}, {3, 0, 4}}, 6, []int{0, 2, 2, 2, 1}, true},
	{"S", 5, slide, 8, []int{4, 4, 4, 4}, true},
	{"Adv", 2, [][]float64{{0, 0}, {1, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 1}}, 4, []int{1, 1, 1, 1, 0, 0}, false},
}

// slide is the DTrack execution example of spec §4.7, k = 5, C = 5.
var slide = [][]float64{{3, 1, 2, 3, 1}, {2, 4, 4, 5, 0}, {2, 0, 2, 2, 1}, {0, 3, 8, 4, 1}}

func (f fixture) instance(t testing.TB) *Instance {
	t.Helper()
	in, err := NewInstance(f.rows, f.C)
	require.NoError(t, err)
	return in
}

func fixtureByName(t testing.TB, name string) *Instance {
	for _, f := range fixtures {
		if f.name == name {
			return f.instance(t)
		}
	}
	require.FailNowf(t, "no fixture", "%q", name)
	return nil
}

// bruteForce returns the least cost over all k^T schedules of in,
// starting from server start (NoServer for the plain problem).
func bruteForce(in *Instance, start int) float64 {
	best := math.Inf(1)
	sched := make([]int, in.Slots())
	var rec func(t int, cost float64)
	rec = func(t int, cost float64) {
		if t == in.Slots() {
			best = math.Min(best, cost)
			return
		}
		prev := start
		if t > 0 {
			prev = sched[t-1]
		}
		for s := 0; s < in.Servers(); s++ {
			c := cost + in.Hold(t, s)
			if s != prev {
				c += in.Setup()
			}
			sched[t] = s
			rec(t+1, c)
		}
	}
	rec(0, 0)
	return best
}

// family names the random instance families of spec §9.6.
type family int

const (
	uniform  family = iota // integer costs uniform on 0..hi
	twoValue               // costs in {0, hi}
	oneCheap               // one server costs 0, the others hi
	realCost               // real costs uniform on [0, hi)
	nFamilies
)

// randomInstance draws an instance of the given family with k servers,
// T slots, setup cost C and cost scale hi.
func randomInstance(rng *rand.Rand, fam family, k, T int, C, hi float64) *Instance {
	h := make([]float64, T*k)
	for t := range T {
		cheap := rng.IntN(k)
		for s := range k {
			var x float64
			switch fam {
			case uniform:
				x = float64(rng.IntN(int(hi) + 1))
			case twoValue:
				x = hi * float64(rng.IntN(2))
			case oneCheap:
				if s != cheap {
					x = hi
				}
			case realCost:
				x = hi * rng.Float64()
			}
			h[t*k+s] = x
		}
	}
	in, err := NewInstanceFlat(T, k, h, C)
	if err != nil {
		panic(err)
	}
	return in
}

func newRand(path ...uint64) *rand.Rand { return rand.New(mc.Source(20260707, path...)) }

// optimum is Optimum for instances that fit in memory.
func optimum(t testing.TB, in *Instance) (float64, []int) {
	t.Helper()
	opt, sched, err := Optimum(in)
	require.NoError(t, err)
	return opt, sched
}

// mustStep is alg.Step for a valid row.
func mustStep(t testing.TB, alg Online, row []float64) int {
	t.Helper()
	s, err := alg.Step(row)
	require.NoError(t, err)
	return s
}

// mustBound is CruelBound for valid arguments.
func mustBound(t testing.TB, k, T int, C, eps float64) float64 {
	t.Helper()
	b, err := CruelBound(k, T, C, eps)
	require.NoError(t, err)
	return b
}
