package estimate

import (
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// lanczosKirchhoff estimates K_f = n tr L† (spec throttlers.md §2, §12.9)
// by Hutchinson's estimator with each probe's a = qᵀL†q taken by Gauss
// quadrature on the Lanczos tridiagonal of L from Pq (stochastic Lanczos
// quadrature, lanczos.Probe, the resistance term of
// consensus.EstimateGammaH2's sampler), the probes' recurrences run eight
// at a time in one block, and no Laplacian solve. Gauss quadrature of 1/λ
// is a lower bound that converges at the rate of conjugate gradients; each
// probe's a is settled to a relative 10⁻³ RelAcc (lanczos.QuadRel), so the
// bias it leaves is 10⁻³ of the requested half-width. On a
// well-conditioned graph (an expander: 9 steps per probe at 10⁶ nodes)
// this costs a few block products, where a solve per probe costs a Krylov
// run of its own at the solve tolerance.
//
// It reports ok = false, having drawn seeds from rng but solved nothing,
// when a probe's quadrature would need more than lanczos.ResMax steps (a
// torus, a path: small eigenvalues), so that the caller solves instead;
// and ok = false when m is nil (lapmat.New found g empty or disconnected,
// or out of memory), whose errors the solver path reports. m is g's
// renumbered matrix. The interval and the stopping rule are Kirchhoff's:
// MinProbes, then about 25 % more probes at a time until the 95 % relative
// half-width is at most RelAcc, or MaxProbes (ErrNotConverged with the
// partial estimate).
func lanczosKirchhoff(g *wgraph.Graph, m *lapmat.Matrix, ts TraceSettings, set laplacian.Settings, rng *rand.Rand) (TraceResult, bool, error) {
	out := TraceResult{Estimator: EstimatorLanczos}
	if m == nil {
		return out, false, nil
	}
	br, err := spectral.LambdaMaxBounds(g)
	if err != nil {
		return out, false, nil
	}
	lq := lanczosQuad{m: m, q: make([]float64, g.Order()), tol: lanczos.QuadRel * ts.RelAcc,
		maxSteps: set.Resolved().MaxIter, gamma: 1 / br.Hi}
	n := float64(g.Order())
	next := ts.MinProbes
	for {
		slow, err := lq.add(next-len(lq.probes), rng)
		if slow {
			return out, false, nil
		}
		vals := make([]float64, len(lq.probes))
		for i, p := range lq.probes {
			vals[i] = n * p.A
		}
		out.Estimate, out.Probes = mc.Estimate(vals), len(vals)
		switch {
		case err != nil:
			out.Status = loadlab.Failure
			return out, true, err
		case out.Estimate.RelHalfWidth() <= ts.RelAcc:
			out.Status = loadlab.Success
			return out, true, nil
		case len(lq.probes) >= ts.MaxProbes:
			return out, true, traceNotConverged(&out, ts)
		}
		next = min(ts.MaxProbes, max(len(lq.probes)+1, len(lq.probes)*5/4))
	}
}

// lanczosQuad runs the probes of lanczosKirchhoff: each probe's a =
// qᵀL†q by quadrature, settled together with the shifted quadratures at
// a stable γ (1/λ_n⁺ keeps 2I − γL well conditioned, eigenvalues in
// [1, 2), so those settle alongside a).
type lanczosQuad struct {
	m        *lapmat.Matrix
	q        []float64
	tol      float64
	maxSteps int
	gamma    float64
	probes   []*lanczos.Probe
	qw       lanczos.QuadWork
}

// add draws the seeds of k new probes and runs them in blocks of
// lanczos.BlockLanes, appending each block once its quadratures have
// settled. It reports slow, having solved nothing, when some probe's a
// would need more than lanczos.ResMax steps.
func (lq *lanczosQuad) add(k int, rng *rand.Rand) (slow bool, err error) {
	ps := make([]*lanczos.Probe, k)
	for i := range ps {
		ps[i] = &lanczos.Probe{Seed: rng.Uint64()}
	}
	for lo := 0; lo < k; lo += lanczos.BlockLanes {
		chunk := ps[lo:min(lo+lanczos.BlockLanes, k)]
		lb, err := lanczos.NewBlock(lq.m, chunk, lq.q)
		if err != nil {
			return false, err
		}
		_, slow, err := lb.Settle(lq.gamma, lq.tol, true, lq.maxSteps, &lq.qw)
		if slow || err != nil {
			return slow, err
		}
		for _, p := range chunk {
			p.A, p.AFinal = p.ResistanceK(len(p.Alpha), &lq.qw), true
		}
		lq.probes = append(lq.probes, chunk...)
	}
	return false, nil
}
