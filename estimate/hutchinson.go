package estimate

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"gonum.org/v1/gonum/floats"
)

// Trace estimates tr A for a symmetric linear operator A of order n,
// given by apply, which writes A x into dst and returns the iterations it
// took, if any (summed in TraceResult.Iterations; spec throttlers.md §12.9,
// "Hutchinson's estimator for any operator"). For a Rademacher vector q,
// qᵀAq has mean tr A and variance 2(‖A‖_F² − Σ_u A_uu²), so the values
// of independent probes give a 95 % Student-t interval; probes are drawn
// until its relative half-width is at most set.RelAcc (after MinProbes)
// or MaxProbes are spent. set.Solver and set.Estimator are not used.
// apply has the form of DiagTerm.Apply and may keep neither slice; an
// operator that needs solves (L†, a resolvent) does them in apply, to a
// tolerance well below RelAcc.
//
// It returns an error wrapping loadlab.ErrInvalid for n < 1 or a bad
// setting, the error of apply (with the partial result), an error
// wrapping loadlab.ErrInvalid when a probe's value qᵀAq is not finite,
// and the partial estimate with an error wrapping
// loadlab.ErrNotConverged at MaxProbes. It panics if apply or src is nil.
func Trace(n int, apply func(dst, x []float64) (iterations int, err error), set *TraceSettings, src rand.Source) (TraceResult, error) {
	if apply == nil || src == nil {
		panic("estimate: Trace: nil apply or rand.Source")
	}
	if n < 1 {
		return TraceResult{}, loadlab.Invalid("estimate", "Trace: n = %d, want ≥ 1", n)
	}
	if err := set.Validate(); err != nil {
		return TraceResult{}, err
	}
	if err := size.Check("estimate", "Trace: probe entries", n, 2*8); err != nil {
		return TraceResult{}, err
	}
	ts, _ := set.Resolved()
	rng := rand.New(src)
	q, aq := make([]float64, n), make([]float64, n)
	out := TraceResult{Estimator: EstimatorHutchinson}
	var vals []float64
	for len(vals) < ts.MaxProbes {
		mc.Rademacher(q, rng)
		it, err := apply(aq, q)
		out.Iterations += it
		if err != nil {
			out.Estimate, out.Probes = mc.Estimate(vals), len(vals)
			return out, err
		}
		v := floats.Dot(q, aq)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out.Estimate, out.Probes = mc.Estimate(vals), len(vals)
			return out, loadlab.Invalid("estimate", "Trace: probe %d: qᵀAq = %v, want finite", len(vals), v)
		}
		vals = append(vals, v)
		if len(vals) >= ts.MinProbes && mc.Estimate(vals).RelHalfWidth() <= ts.RelAcc {
			out.Status = loadlab.Success
			break
		}
	}
	out.Estimate, out.Probes = mc.Estimate(vals), len(vals)
	return out, notConverged("Trace", &out, ts)
}
