package stability

import (
	"math"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
)

// twoNodes validates nw and checks that it has two nodes. It panics if nw
// is nil.
func twoNodes(fn string, nw *anycast.Network) error {
	if err := validNetwork(fn, nw); err != nil {
		return err
	}
	if nw.N() != 2 {
		return loadlab.Invalid("stability", "%s: N = %d, want a two-node network", fn, nw.N())
	}
	return nil
}

// Favorable reports whether the correlation matrix C (nodes a = 0, b = 1)
// and capacities T of a two-node network satisfy the favourable
// conditions of spec §5.5,
//
//	C_aa T_b > C_ab T_a   and   C_bb T_a > C_ba T_b,
//
// under which the greedy law controls demand A of any size: no locally
// uncontrollable overload can occur. For row-stochastic C and T_a = T_b
// they read C_aa > ½ and C_bb > ½. The demand nw.A is not used: the
// conditions hold for all demands or for none.
//
// Favorable returns an error wrapping loadlab.ErrInvalid for an invalid
// network or N ≠ 2, and panics if nw is nil.
func Favorable(nw *anycast.Network) (bool, error) {
	if err := twoNodes("Favorable", nw); err != nil {
		return false, err
	}
	c, t := corr(nw), nw.T
	return c.At(0, 0)*t[1] > c.At(0, 1)*t[0] && c.At(1, 1)*t[0] > c.At(1, 0)*t[1], nil // spec §5.5
}

// TwoNodeInterior returns y* = (A_a x_a, A_b x_b) at the interior
// equilibrium of a two-node network, the solution of Cᵀ y = T (spec §5.5):
//
//	y_a = (C_bb T_a − C_ba T_b)/det C,   y_b = (C_aa T_b − C_ab T_a)/det C.
//
// For A ≥ y* component-wise the state x* = (y_a/A_a, y_b/A_b) balances both
// nodes (S = T). The demand nw.A is not used.
//
// TwoNodeInterior returns an error wrapping loadlab.ErrInvalid for an
// invalid network or N ≠ 2, and one wrapping loadlab.ErrIllConditioned if
// det C is zero or within its rounding error of zero (no isolated interior
// equilibrium). It panics if nw is nil.
func TwoNodeInterior(nw *anycast.Network) (ya, yb float64, err error) {
	if err := twoNodes("TwoNodeInterior", nw); err != nil {
		return math.NaN(), math.NaN(), err
	}
	c, t := corr(nw), nw.T
	caa, cab, cba, cbb := c.At(0, 0), c.At(0, 1), c.At(1, 0), c.At(1, 1)
	det := caa*cbb - cab*cba
	// Each product carries a relative rounding error ≤ ε/2, the
	// difference another: 2ε(|caa cbb| + |cab cba|) bounds the error.
	if math.Abs(det) <= 2*eps*(math.Abs(caa*cbb)+math.Abs(cab*cba)) {
		return math.NaN(), math.NaN(), loadlab.Wrap(loadlab.ErrIllConditioned, "stability",
			"det C = %v is zero to rounding: no isolated interior equilibrium", det)
	}
	return (cbb*t[0] - cba*t[1]) / det, (caa*t[1] - cab*t[0]) / det, nil // spec §5.5
}

const eps = 0x1p-52

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

// MapSettings tunes TwoNodeMap. A nil *MapSettings or a zero field means
// the default; a negative, NaN or infinite field is an error naming it.
type MapSettings struct {
	Sensitivity float64    // β (default 1)
	Start       [2]float64 // start state in [0, 1]² (default (0.5, 0.5))
	Horizon     float64    // integration time (default 200/β)
	Workers     int        // parallel workers (default GOMAXPROCS)
}

// Validate returns an error wrapping loadlab.ErrInvalid, naming the field,
// for a field outside its domain. A nil *MapSettings is valid.
func (s *MapSettings) Validate() error {
	if s == nil {
		return nil
	}
	switch {
	case !(s.Sensitivity >= 0) || math.IsInf(s.Sensitivity, 1):
		return loadlab.Invalid("stability", "MapSettings.Sensitivity = %v, want a finite value > 0 (0 for the default)", s.Sensitivity)
	case !(s.Horizon >= 0) || math.IsInf(s.Horizon, 1):
		return loadlab.Invalid("stability", "MapSettings.Horizon = %v, want a finite value > 0 (0 for the default)", s.Horizon)
	case s.Workers < 0:
		return loadlab.Invalid("stability", "MapSettings.Workers = %d, want ≥ 0 (0 for GOMAXPROCS)", s.Workers)
	}
	for i, v := range s.Start {
		if !(v >= 0 && v <= 1) {
			return loadlab.Invalid("stability", "MapSettings.Start[%d] = %v, want a value in [0, 1]", i, v)
		}
	}
	return nil
}

// TwoNodeMap evaluates the greedy law over the grid of demands
// (aa[p], ab[q]) for the correlation matrix C and capacities T of the
// two-node network nw (its demand nw.A is not used: the grid replaces it).
// Outcomes are returned in row-major order, index p·len(ab) + q. The
// computation is deterministic for any number of workers.
//
// It returns an error wrapping loadlab.ErrInvalid for an invalid network,
// N ≠ 2, a negative or non-finite demand or invalid settings, and one
// wrapping loadlab.ErrTooLarge if the grid would not fit in memory. It
// panics if nw is nil.
func TwoNodeMap(nw *anycast.Network, aa, ab []float64, s *MapSettings) ([]Outcome, error) {
	if err := twoNodes("TwoNodeMap", nw); err != nil {
		return nil, err
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
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
	if set.Horizon == 0 {
		set.Horizon = 200 / set.Sensitivity
	}
	cells, ok := size.Mul(len(aa), len(ab))
	if !ok {
		return nil, loadlab.TooLarge("stability", "grid %d×%d overflows", len(aa), len(ab))
	}
	if err := size.Check("stability", "len(aa)·len(ab)", cells, 128); err != nil {
		return nil, err
	}
	out := make([]Outcome, cells)
	errs := make([]error, cells)
	mc.For(cells, set.Workers, func(k int) {
		a := []float64{aa[k/len(ab)], ab[k%len(ab)]}
		out[k], errs[k] = twoNodeOutcome(nw, a, &set)
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

func twoNodeOutcome(base *anycast.Network, a []float64, set *MapSettings) (Outcome, error) {
	nw, err := anycast.NewNetwork(a, corr(base), base.T)
	if err != nil {
		return Outcome{}, err
	}
	l, err := NewLaw(nw, set.Sensitivity)
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{A: [2]float64{a[0], a[1]}}
	o.InPolytope, _ = InPolytope(nw) // nw is valid: no error
	o.InExtended, _ = InExtended(nw)
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
	bad, err := Uncontrollable(nw, x, uncontrolledTol)
	o.Reached = len(bad) > 0
	return o, err
}
