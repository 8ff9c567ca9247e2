package anycast

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"gonum.org/v1/gonum/mat"
)

// FuzzNewNetwork feeds arbitrary two-node models to NewNetwork: it must
// either return an error or a network that obeys the model's invariants
// (spec §1.2–§1.3), and never panic.
func FuzzNewNetwork(f *testing.F) {
	f.Add(1.0, 1.0, 0.1, 0.9, 0.5, 0.5, 0.7, 0.7)
	f.Add(-1.0, math.NaN(), 0.5, 0.6, 0.0, 1.0, 0.0, math.Inf(1))
	f.Fuzz(func(t *testing.T, a0, a1, c00, c01, c10, c11, t0, t1 float64) {
		nw, err := NewNetwork([]float64{a0, a1}, mat.NewDense(2, 2, []float64{c00, c01, c10, c11}), []float64{t0, t1})
		if err != nil {
			if !errors.Is(err, loadlab.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		if math.IsInf(a0+a1, 0) {
			t.Fatalf("accepted a total demand that overflows: %v + %v", a0, a1)
		}
		for _, v := range []float64{a0, a1, c00, c01, c10, c11} {
			if !(v >= 0) || math.IsInf(v, 0) {
				t.Fatalf("accepted a negative or non-finite entry: %v", v)
			}
		}
		if !(t0 > 0 && t1 > 0) || math.IsInf(t0, 0) || math.IsInf(t1, 0) {
			t.Fatalf("accepted T = (%v, %v)", t0, t1)
		}
		if math.Abs(c00+c01-1) > RowSumTol || math.Abs(c10+c11-1) > RowSumTol {
			t.Fatalf("accepted rows summing to %v, %v", c00+c01, c10+c11)
		}
		// Total-load identity (spec §8 item 2) at x = 1: rows may miss 1
		// by RowSumTol, so Σ S misses Σ A by at most RowSumTol·Σ A, plus
		// a few roundings.
		s := nw.Loads(nil, []float64{1, 1})
		if d := math.Abs(s[0] + s[1] - a0 - a1); d > (RowSumTol+1e-15)*(a0+a1) {
			t.Fatalf("Σ S = %v, Σ A = %v", s[0]+s[1], a0+a1)
		}
	})
}
