package lanczos

import (
	"errors"
	"math"
	"testing"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/badarg"
	"github.com/loadlab/loadlab/internal/graphtest"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/wgraph/gen"
)

// TestValidate drives the entry points of lanczos that can fail: the
// operator's error ends a step and a second pass, a block that has not
// settled within maxSteps is ErrNotConverged, and a block whose
// interleaved vectors exceed the memory budget is ErrTooLarge before
// anything is allocated. The quadratures and the Christoffel bounds are
// arithmetic on a tridiagonal the recurrence built: they are exempt,
// with that reason.
func TestValidate(t *testing.T) {
	errApply := errors.New("apply failed")
	// fails returns an operator L of the path 0–1–2 that fails from call
	// k on.
	fails := func(k int) func(dst, src []float64) error {
		calls := 0
		return func(dst, src []float64) error {
			if calls++; calls >= k {
				return errApply
			}
			dst[0], dst[1], dst[2] = src[0]-src[1], 2*src[1]-src[0]-src[2], src[2]-src[1]
			return nil
		}
	}
	mat := graphtest.Must(lapmat.New(graphtest.Must(gen.Path(50))))
	p := badarg.Probe{Func: "Lanczos.Step", Err: errApply}
	cs := []badarg.Case{
		p.Fails("apply fails", "apply failed", func() error { return New(3, fails(1), nil, [2]uint64{1, 2}).Step() }),
		badarg.Probe{Func: "Lanczos.RitzVector", Err: errApply}.Fails("apply fails on the second pass", "apply failed", func() error {
			lz := New(3, fails(2), nil, [2]uint64{1, 2})
			if err := lz.Step(); err != nil {
				return err
			}
			_, err := lz.RitzVector([]float64{math.Sqrt2 / 2, math.Sqrt2 / 2}, 0)
			return err
		}),
		badarg.Probe{Func: "Block.Settle", Err: loadlab.ErrNotConverged}.Fails("maxSteps = 1", "did not settle in 1 steps", func() error {
			lb, err := NewBlock(mat, []*Probe{{Seed: 1}, {Seed: 2}}, make([]float64, 50))
			if err != nil {
				return err
			}
			_, _, err = lb.Settle(0.4, 1e-14, true, &Ends{LmaxHi: 4}, 1, &QuadWork{})
			return err
		}),
		// 2^40 rows of three interleaved vectors: far beyond the budget.
		badarg.Probe{Func: "NewBlock", Err: loadlab.ErrTooLarge}.Fails("n = 2^40", "interleaved Lanczos vectors", func() error {
			_, err := NewBlock(&lapmat.Matrix{N: 1 << 40}, []*Probe{{Seed: 1}}, nil)
			return err
		}),
	}
	badarg.Run(t, cs)
	const tri = "arithmetic on the tridiagonal the recurrence built; its length is the caller's step count"
	badarg.Coverage(t, ".", cs, map[string]string{
		"New":                      "starts a recurrence on the caller's operator and deflation vector of order n; failures surface at Step",
		"Lanczos.Deflate":          "a kernel on a vector of the recurrence's order",
		"Lanczos.Christoffel":      tri,
		"Lanczos.UpperBound":       tri,
		"Lanczos.RitzCoefficients": tri,
		"Probe.ResistanceK":        tri,
		"Probe.Shifted":            tri + " (γ < 2/λ_n, checked by the estimators)",
		"ProbeVector":              "fills any vector with a centred Rademacher draw",
		"ErrSteps":                 "builds the error of a block that reached maxSteps",
		"Probe.ResistanceBounds":   tri + "; a node that is not a lower bound on the Ritz values gives an open (+Inf) upper end",
		"Probe.ShiftedBounds":      tri + "; γ·lmaxHi ≥ 2 or a node below a Ritz value gives an open (+Inf) upper end",
		"Probe.ResolventQuads":     tri + "; a node on the wrong side of the pole or inside the Ritz values gives ok = false",
		"Probe.Weight":             "returns a field",
		"Probe.SetA":               tri + " (called after Settle has closed the bracket)",
		"BracketEstimate":          "arithmetic on the caller's samples, as mc.Estimate (fewer than two give NaN spreads)",
		"Widen":                    "arithmetic on an estimate",
	})
}
