package stability

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/loadlab/loadlab/anycast"
	"github.com/loadlab/loadlab/internal/cdntest"
)

// The shortcut of sigmoid at z ≥ 37 returns what the formula returns:
// e^{−37} < 2⁻⁵³, so 1 + e^{−z} rounds to 1 from there on. Checked on a
// grid through the threshold and against the two-branch formula.
func TestSigmoidShortcutExact(t *testing.T) {
	ref := func(z float64) float64 {
		if z >= 0 {
			return 1 / (1 + math.Exp(-z))
		}
		e := math.Exp(z)
		return e / (1 + e)
	}
	for z := -800.0; z <= 800; z += 0.015625 {
		if got, want := sigmoid(z), ref(z); got != want {
			t.Fatalf("sigmoid(%v) = %v, want %v", z, got, want)
		}
	}
	for _, z := range []float64{36.7, 36.8, 37, math.Nextafter(37, 0), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64} {
		if got, want := sigmoid(z), ref(z); got != want {
			t.Fatalf("sigmoid(%v) = %v, want %v", z, got, want)
		}
	}
}

// Recording every accepted step reuses the state and loads of the
// step's last right-hand side evaluation (FSAL). The recorded S must be
// exactly the loads of the recorded X, as if recomputed, at every sample,
// for sparse and dense C, in logit and in Direct coordinates.
func TestRecordedLoadsAreThoseOfRecordedStates(t *testing.T) {
	sp, de := cdntest.Pair(t, 3, 1, 150, 6)
	for _, nw := range []*anycast.Network{sp, de} {
		l := mustLaw(nw, 1)
		op, err := nw.LoadOp()
		if err != nil {
			t.Fatal(err)
		}
		x0 := randomInterior(rand.New(rand.NewPCG(2, 2)), nw.N())
		for _, set := range []*Settings{nil, {Direct: true}} {
			tr, err := l.Integrate(x0, 300, set)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Len() < 20 {
				t.Fatalf("only %d samples", tr.Len())
			}
			for k := range tr.T {
				want := op.Mul(nil, tr.X[k])
				if !slices.Equal(want, tr.S[k]) {
					t.Fatalf("sparse %v, direct %v: sample %d (t = %v): recorded S differs from the loads of X", nw.Sparse != nil, set != nil, k, tr.T[k])
				}
			}
		}
	}
}
