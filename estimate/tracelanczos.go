package estimate

import (
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/spectral"
	"github.com/loadlab/loadlab/wgraph"
)

// lanczosKirchhoff estimates K_f = n tr L† (spec throttlers.md §2, §12.9)
// by Hutchinson's estimator with each probe's a = qᵀL†q bracketed by
// quadratures on the Lanczos tridiagonal of L from Pq (stochastic Lanczos
// quadrature, lanczos.Probe, the resistance term of
// consensus.EstimateGammaH2's sampler), the probes' recurrences run eight
// at a time in one block, and no Laplacian solve. The Gauss quadrature
// of 1/λ is a lower bound and the Gauss–Radau quadrature with its node
// at a lower bound on λ₂ an upper bound (spec throttlers.md §12.11; λ₂'s
// bound is the lower end of spectral.Lambda2Bracket at relative width
// lanczos.Lam2RelWidth and failure probability lanczos.Lam2Delta, asked
// for once); each probe's recurrence stops when its bracket has relative
// half-width ≤ RelAcc/10 (lanczos.QuadRel), and the interval is the
// Student-t interval of the brackets' midpoints widened by their mean
// half-width (lanczos.BracketEstimate), so it holds the quadrature error
// as well as the sampling error. On a well-conditioned graph (an
// expander: 9 steps per probe at 10⁶ nodes) this costs a few block
// products, where a solve per probe costs a Krylov run of its own at the
// solve tolerance.
//
// It reports ok = false, having drawn seeds from rng but solved nothing,
// when a probe's quadrature would need more than lanczos.ResMax steps (a
// torus, a path: small eigenvalues) or no positive lower bound on λ₂ is
// found, so that the caller solves instead; and, unless the estimator is
// forced, when the probes' spread projects more than hppSwitchProbes
// probes on a graph of at least hppMinOrder nodes (a barbell: a few low
// modes carry the variance, however fast each quadrature settles), so
// that the solver path's Hutch++ takes them;
// and ok = false when m is nil (lapmat.New found g empty or disconnected,
// or out of memory), whose errors the solver path reports. m is g's
// renumbered matrix. The stopping rule is Kirchhoff's, with MinProbes
// rounded up to whole blocks below blockRoundMaxOrder nodes
// (lanczosMinProbes), then about 25 % more probes at a time until the 95 % relative half-width is at most RelAcc,
// or MaxProbes (ErrNotConverged with the partial estimate). Each probe's
// value is n(n − 1) vᵀL†v, v = Pq/‖Pq‖ (lanczos.Probe; spec
// throttlers.md §12.12).
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
		maxSteps: set.Resolved().MaxIter, gamma: 1 / br.Hi,
		ends: lanczos.Ends{LmaxHi: br.Hi, Lam2Lo: func() float64 { return lam2Lower(g) }}}
	n := float64(g.Order())
	next := lanczosMinProbes(ts, g.Order())
	for {
		slow, err := lq.add(next-len(lq.probes), rng)
		if slow {
			return out, false, nil
		}
		mid, half := make([]float64, len(lq.probes)), make([]float64, len(lq.probes))
		for i, p := range lq.probes {
			mid[i], half[i] = n*p.A, n*p.AHalf
		}
		out.Estimate, _ = lanczos.BracketEstimate(mid, half)
		out.Probes = len(mid)
		switch {
		case err != nil:
			out.Status = loadlab.Failure
			return out, true, err
		case ts.Estimator == EstimatorNone && spreadSwitch(g.Order(), out.Estimate, ts.RelAcc):
			return out, false, nil // the solver path's Hutch++ takes the low modes exactly
		case out.Estimate.RelHalfWidth() <= ts.RelAcc:
			out.Status = loadlab.Success
			return out, true, nil
		case len(lq.probes) >= ts.MaxProbes:
			return out, true, traceNotConverged(&out, ts)
		}
		next = min(ts.MaxProbes, max(len(lq.probes)+1, len(lq.probes)*5/4))
	}
}

// blockRoundMaxOrder is the order below which the Lanczos path's first
// stop is rounded up to whole blocks: there a second block of 8 lanes
// costs no more than one of 2 (measured on random 6-regular graphs of
// 10³ to 10⁵ nodes, where the λ₂ bracket and the renumbering dominate),
// while at 10⁶ nodes 16 probes took 35 % more CPU than 10.
const blockRoundMaxOrder = 1 << 17

// lanczosMinProbes returns the probes before the Lanczos path's first
// stopping test on a graph of n nodes: MinProbes, rounded up to a whole
// number of blocks of lanczos.BlockLanes (16 by default) when n <
// blockRoundMaxOrder, at most MaxProbes. The t-interval of the skewed
// values of small stars covers about 0.93 at 10 probes and 0.95 at 16
// (spec throttlers.md §12.12).
func lanczosMinProbes(ts TraceSettings, n int) int {
	if n >= blockRoundMaxOrder {
		return ts.MinProbes
	}
	b := lanczos.BlockLanes
	return min(ts.MaxProbes, (ts.MinProbes+b-1)/b*b)
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
	ends     lanczos.Ends
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
		_, slow, err := lb.Settle(lq.gamma, lq.tol, true, &lq.ends, lq.maxSteps, &lq.qw)
		if slow || err != nil {
			return slow, err
		}
		for _, p := range chunk {
			p.SetA(lq.ends.Lam2(), &lq.qw)
		}
		lq.probes = append(lq.probes, chunk...)
	}
	return false, nil
}

// lam2Lower returns the lower end of g's λ₂ bracket at relative width
// lanczos.Lam2RelWidth and failure probability lanczos.Lam2Delta, or 0
// when the bracket fails (then a is left to solves).
func lam2Lower(g *wgraph.Graph) float64 {
	b, err := spectral.Lambda2Bracket(g, &spectral.EigenSettings{RelWidth: lanczos.Lam2RelWidth, Delta: lanczos.Lam2Delta})
	if err != nil {
		return 0
	}
	return b.Lo
}

// spreadSwitch reports whether the estimate e of a graph of n nodes
// projects more than hppSwitchProbes probes for relAcc (the rule by which
// the solver path turns to Hutch++), on a graph large enough for Hutch++.
func spreadSwitch(n int, e loadlab.Estimate, relAcc float64) bool {
	hw := e.RelHalfWidth()
	return n >= hppMinOrder && hw > relAcc && float64(e.N)*(hw/relAcc)*(hw/relAcc) > hppSwitchProbes
}
