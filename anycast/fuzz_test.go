package anycast

import (
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/stretchr/testify/require"
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
			require.ErrorIsf(t, err, loadlab.ErrInvalid, "error %v does not wrap ErrInvalid", err)
			return
		}
		require.Falsef(t, math.IsInf(a0+a1, 0), "accepted a total demand that overflows: %v + %v", a0, a1)
		for _, v := range []float64{a0, a1, c00, c01, c10, c11} {
			require.Falsef(t, !(v >= 0) || math.IsInf(v, 0), "accepted a negative or non-finite entry: %v", v)
		}
		require.Falsef(t, !(t0 > 0 && t1 > 0) || math.IsInf(t0, 0) || math.IsInf(t1, 0), "accepted T = (%v, %v)", t0, t1)
		require.Falsef(t, math.Abs(c00+c01-1) > RowSumTol || math.Abs(c10+c11-1) > RowSumTol, "accepted rows summing to %v, %v", c00+c01, c10+c11)
		// Total-load identity (spec §8 item 2) at x = 1: rows may miss 1
		// by RowSumTol, so Σ S misses Σ A by at most RowSumTol·Σ A, plus
		// a few roundings.
		s := nw.Loads(nil, []float64{1, 1})
		d := math.Abs(s[0] + s[1] - a0 - a1)
		require.Falsef(t, d > (RowSumTol+1e-15)*(a0+a1), "Σ S = %v, Σ A = %v", s[0]+s[1], a0+a1)
	})
}
