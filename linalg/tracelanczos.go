package linalg

import (
	"errors"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
)

// lanczosKirchhoff estimates K_f = n tr L† (spec throttlers.md §2) by Hutchinson's estimator with
// each probe's a = qᵀL†q taken by Gauss quadrature on the Lanczos
// tridiagonal of L from Pq (stochastic Lanczos quadrature, the resistance
// term of EstimateGammaH2's sampler; quadrature.go), the probes' recurrences
// run eight at a time in one block, and no Laplacian solve. Gauss
// quadrature of 1/λ is a lower bound that converges at the rate of
// conjugate gradients; each probe's a is settled to a relative 10⁻³
// RelAcc (quadRel), so the bias it leaves is 10⁻³ of the requested
// half-width. On a well-conditioned graph (an expander: 9 steps per probe
// at 10⁶ nodes) this costs a few block products, where a solve per probe
// costs a Krylov run of its own at the solve tolerance.
//
// It reports ok = false, having drawn seeds from rng but solved nothing,
// when a probe's quadrature would need more than resLanczosMax steps (a
// torus, a path: small eigenvalues), so that the caller solves instead;
// and ok = false when m is nil (newLapMatrix found g empty or
// disconnected, or out of memory), whose errors the solver path reports.
// m is g's renumbered matrix, which the solver path then reuses. The interval and the
// stopping rule are EstimateKirchhoff's: MinProbes, then about 25 % more
// probes at a time until the 95 % relative half-width is at most RelAcc,
// or MaxProbes (ErrNotConverged with the partial estimate).
func lanczosKirchhoff(g *Graph, m *lapMatrix, ts TraceSettings, set SolverSettings, rng *rand.Rand) (TraceResult, bool, error) {
	out := TraceResult{Method: MethodStochastic, Estimator: EstimatorLanczos}
	if m == nil {
		return out, false, nil
	}
	br, err := lambdaMaxBounds(g)
	if err != nil {
		return out, false, nil
	}
	hs := newH2Sampler(g, m, set, 0, br, ts)
	// The shifted quadratures settle alongside a at any stable γ; 1/λ_n⁺
	// keeps 2I − γL well conditioned (eigenvalues in [1, 2)).
	hs.fixed, hs.quadOnly = 1/br.Hi, true
	n := float64(g.Order())
	next := ts.MinProbes
	for {
		err := hs.addFixed(next-len(hs.probes), rng)
		if errors.Is(err, errQuadSlow) {
			return out, false, nil
		}
		vals := make([]float64, len(hs.probes))
		for i, p := range hs.probes {
			vals[i] = n * p.a
		}
		out.Estimate, out.Probes = summarize(vals), len(vals)
		switch {
		case err != nil:
			out.Status = loadlab.Failure
			return out, true, err
		case out.Estimate.RelHalfWidth() <= ts.RelAcc:
			out.Status = loadlab.Success
			return out, true, nil
		case len(hs.probes) >= ts.MaxProbes:
			return out, true, traceNotConverged(&out, ts)
		}
		next = min(ts.MaxProbes, max(len(hs.probes)+1, len(hs.probes)*5/4))
	}
}
