package stability

import (
	"fmt"
	"math"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/mc"
	"gonum.org/v1/gonum/mat"
)

func twoByTwo(c mat.Matrix, t []float64) {
	if r, k := c.Dims(); r != 2 || k != 2 || len(t) != 2 {
		panic(fmt.Sprintf("stability: two-node analysis needs a 2×2 C and len(T) = 2, have %d×%d and %d", r, k, len(t)))
	}
}

// Favorable reports whether a two-node correlation matrix C (nodes a = 0,
// b = 1) and capacities T satisfy the favourable conditions of spec §5.5,
//
//	C_aa T_b > C_ab T_a   and   C_bb T_a > C_ba T_b,
//
// under which the greedy law controls demand A of any size: no locally
// uncontrollable overload can occur. For row-stochastic C and T_a = T_b
// they read C_aa > ½ and C_bb > ½.
//
// Favorable panics unless C is 2×2 and len(t) = 2.
func Favorable(c mat.Matrix, t []float64) bool {
	twoByTwo(c, t)
	return c.At(0, 0)*t[1] > c.At(0, 1)*t[0] && c.At(1, 1)*t[0] > c.At(1, 0)*t[1] // spec §5.5
}

// TwoNodeInterior returns y* = (A_a x_a, A_b x_b) at the interior
// equilibrium of a two-node system, the solution of Cᵀ y = T (spec §5.5):
//
//	y_a = (C_bb T_a − C_ba T_b)/det C,   y_b = (C_aa T_b − C_ab T_a)/det C.
//
// For A ≥ y* component-wise the state x* = (y_a/A_a, y_b/A_b) balances both
// nodes (S = T). It returns an error if det C = 0.
//
// TwoNodeInterior panics unless C is 2×2 and len(t) = 2.
func TwoNodeInterior(c mat.Matrix, t []float64) (ya, yb float64, err error) {
	twoByTwo(c, t)
	caa, cab, cba, cbb := c.At(0, 0), c.At(0, 1), c.At(1, 0), c.At(1, 1)
	det := caa*cbb - cab*cba
	if det == 0 {
		return math.NaN(), math.NaN(), fmt.Errorf("stability: det C = 0: no isolated interior equilibrium")
	}
	return (cbb*t[0] - cba*t[1]) / det, (caa*t[1] - cab*t[0]) / det, nil // spec §5.5
}

// Outcome is what the greedy law does at one demand A of a two-node map.
type Outcome struct {
	A          [2]float64
	InPolytope bool // A ∈ Π_C (28)
	InExtended bool // A ∈ Π′_C (§5.5)
	// Possible: some stable equilibrium is a locally uncontrollable
	// overload (found by enumerating all equilibria).
	Possible bool
	// Reached: the trajectory from the start state ends in a locally
	// uncontrollable overload.
	Reached bool
	Final   [2]float64 // end state of that trajectory
	Excess  float64    // total overload Σ_i (S_i − T_i)_+ at the end state
}

// MapSettings tunes TwoNodeMap. Nil means the defaults.
type MapSettings struct {
	Sensitivity float64    // β (default 1)
	Start       [2]float64 // start state (default (0.5, 0.5))
	Horizon     float64    // integration time (default 200/β)
	Workers     int        // parallel workers (≤ 0: GOMAXPROCS)
}

// TwoNodeMap evaluates the greedy law over the grid of demands
// (aa[p], ab[q]) for a two-node system with correlation matrix C and
// capacities T. Outcomes are returned in row-major order, index
// p·len(ab) + q. The computation is deterministic for any number of workers.
//
// It returns an error for invalid C, T or demands, and for a
// Sensitivity or Horizon that is not finite and positive or a Start
// outside [0, 1]² (zero fields take their defaults).
func TwoNodeMap(c mat.Matrix, t []float64, aa, ab []float64, s *MapSettings) ([]Outcome, error) {
	var set MapSettings
	if s != nil {
		set = *s
	}
	if set.Sensitivity == 0 {
		set.Sensitivity = 1
	}
	if set.Start == [2]float64{} {
		set.Start = [2]float64{0.5, 0.5}
	}
	if !(set.Sensitivity > 0) || math.IsInf(set.Sensitivity, 1) {
		return nil, fmt.Errorf("stability: Sensitivity = %v: want a finite value > 0", set.Sensitivity)
	}
	for i, v := range set.Start {
		if !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("stability: Start[%d] = %v: want a value in [0, 1]", i, v)
		}
	}
	if set.Horizon == 0 {
		set.Horizon = 200 / set.Sensitivity
	}
	if !(set.Horizon > 0) || math.IsInf(set.Horizon, 1) {
		return nil, fmt.Errorf("stability: Horizon = %v: want a finite value > 0", set.Horizon)
	}
	if _, err := anycast.NewNetwork([]float64{1, 1}, c, t); err != nil {
		return nil, err
	}
	out := make([]Outcome, len(aa)*len(ab))
	errs := make([]error, len(out))
	mc.For(len(out), set.Workers, func(k int) {
		a := []float64{aa[k/len(ab)], ab[k%len(ab)]}
		o, err := twoNodeOutcome(c, t, a, &set)
		out[k], errs[k] = o, err
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// uncontrolledTol is the overload margin (in load units) above which an
// integrated end state counts as a locally uncontrollable overload: the
// logit integration error at tolerance 1e-8 is orders of magnitude below
// it, and the genuine overloads of interest are ≥ 1e-3.
const uncontrolledTol = 1e-6

func twoNodeOutcome(c mat.Matrix, t, a []float64, set *MapSettings) (Outcome, error) {
	nw, err := anycast.NewNetwork(a, c, t)
	if err != nil {
		return Outcome{}, err
	}
	l, err := NewLaw(nw, set.Sensitivity)
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{A: [2]float64{a[0], a[1]}, InPolytope: InPolytope(nw), InExtended: InExtended(nw)}
	eqs, err := l.Equilibria()
	if err != nil {
		return o, err
	}
	for _, e := range eqs {
		if e.Uncontrollable() {
			o.Possible = true
		}
	}
	tr, err := l.Integrate(set.Start[:], set.Horizon, &Settings{Times: []float64{set.Horizon}})
	if err != nil {
		return o, err
	}
	x := tr.Final()
	o.Final = [2]float64{x[0], x[1]}
	o.Excess = tr.Excess[len(tr.Excess)-1]
	o.Reached = len(Uncontrollable(nw, x, uncontrolledTol)) > 0
	return o, nil
}
