package estimate

import (
	"math"
	"math/rand/v2"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/lanczos"
	"github.com/loadlab/loadlab/internal/lapmat"
	"github.com/loadlab/loadlab/internal/mc"
	"github.com/loadlab/loadlab/internal/size"
	"github.com/loadlab/loadlab/laplacian"
	"github.com/loadlab/loadlab/wgraph"
	"gonum.org/v1/gonum/mat"
)

// Defaults of TraceSettings.
const (
	DefaultTraceRelAcc    = 0.01
	DefaultTraceMinProbes = 10
	DefaultTraceMaxProbes = 10000
	DefaultTraceSolveTol  = 1e-6
)

// TraceSettings configures a stochastic trace estimate. A nil pointer
// means all defaults; a zero field means that field's default.
type TraceSettings struct {
	// RelAcc is the relative half-width of the 95 % interval at which
	// probing stops, in (0, 1); 0 means DefaultTraceRelAcc (1 %).
	RelAcc float64
	// MinProbes is the number of probes before the first stopping test,
	// ≥ 2; 0 means DefaultTraceMinProbes, or MaxProbes when that is
	// set lower. A sequential stopping rule that looks too early
	// undercovers; 10 keeps the coverage near 95 % (tested). The
	// Lanczos path of Kirchhoff rounds it up to a whole number of blocks
	// of 8 probes (16 by default) on graphs of fewer than 2¹⁷ nodes,
	// where that costs no more (spec throttlers.md §12.12).
	MinProbes int
	// MaxProbes bounds the probes, ≥ MinProbes and ≥ 2; 0 means
	// DefaultTraceMaxProbes.
	MaxProbes int
	// Solver configures the solves; nil means defaults except that a
	// zero Tol means DefaultTraceSolveTol (the estimate's bias from
	// solve error is then far below RelAcc).
	Solver *laplacian.Settings
	// Estimator selects the estimator of Kirchhoff: the zero value
	// (EstimatorNone) and EstimatorLanczos choose by measurement (Lanczos
	// quadrature when it settles within 200 steps, else Hutchinson's
	// estimator with solves, switching to Hutch++ when the spread calls
	// for it); EstimatorHutchinson never switches; EstimatorHutchPP
	// switches after the pilot probes on any graph of at least 64 nodes.
	// The diagonal estimators ignore it.
	Estimator TraceEstimator
}

// Validate reports a field outside its domain.
func (s *TraceSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.RelAcc != 0 && !(s.RelAcc > 0 && s.RelAcc < 1) {
		return loadlab.Invalid("estimate", "TraceSettings.RelAcc = %v, want 0 (default) or in (0, 1)", s.RelAcc)
	}
	if s.MinProbes != 0 && s.MinProbes < 2 {
		return loadlab.Invalid("estimate", "TraceSettings.MinProbes = %d, want 0 (default) or ≥ 2", s.MinProbes)
	}
	if s.MaxProbes < 0 || (s.MaxProbes != 0 && s.MaxProbes < max(s.MinProbes, 2)) {
		return loadlab.Invalid("estimate", "TraceSettings.MaxProbes = %d, want 0 (default) or ≥ MinProbes", s.MaxProbes)
	}
	if s.Estimator < EstimatorNone || s.Estimator > EstimatorLanczos {
		return loadlab.Invalid("estimate", "TraceSettings.Estimator = %d, want one of the TraceEstimator constants", int(s.Estimator))
	}
	return s.Solver.Validate()
}

// Resolved returns the settings with defaults filled in and the solver
// settings of the probes' solves (Tol DefaultTraceSolveTol when zero).
func (s *TraceSettings) Resolved() (TraceSettings, laplacian.Settings) {
	r := TraceSettings{RelAcc: DefaultTraceRelAcc, MinProbes: DefaultTraceMinProbes, MaxProbes: DefaultTraceMaxProbes}
	var solver laplacian.Settings
	if s != nil {
		if s.RelAcc != 0 {
			r.RelAcc = s.RelAcc
		}
		if s.MinProbes != 0 {
			r.MinProbes = s.MinProbes
		}
		if s.MaxProbes != 0 {
			r.MaxProbes = s.MaxProbes
		}
		if s.Solver != nil {
			solver = *s.Solver
		}
		r.Estimator = s.Estimator
		if s.MinProbes == 0 && s.MaxProbes != 0 {
			r.MinProbes = min(DefaultTraceMinProbes, s.MaxProbes)
		}
	}
	if solver.Tol == 0 {
		solver.Tol = DefaultTraceSolveTol
	}
	return r, solver
}

// TraceResult is a stochastic trace estimate and the work behind it.
type TraceResult struct {
	Estimate   loadlab.Estimate // mean and 95 % Student-t interval over the probes
	Probes     int              // probes (one solve each) behind the interval; for Hutch++ those of the residual
	Iterations int              // conjugate-gradient iterations over all solves
	Status     loadlab.Status   // Success when the interval met RelAcc, else IterationLimit
	Estimator  TraceEstimator   // the estimator that ran (EstimatorNone if none did)
	Solves     int              // Laplacian solves, every probe and sketch column included
	Sketch     int              // columns of the Hutch++ subspace (0 for Hutchinson)
}

// Kirchhoff estimates the Kirchhoff index K_f = n tr L† (spec
// throttlers.md §2, §12.9) by Hutchinson's estimator, each probe's qᵀL†q
// by Lanczos quadrature where that settles within 200 steps (no solves),
// else by one Laplacian solve per probe: for a Rademacher vector q,
// n qᵀ L† q has mean K_f and variance 2n²(‖L†‖_F² − Σ_u (L†_uu)²); each
// probe's value is taken as n(n − 1) vᵀL†v with v = Pq/‖Pq‖, also of
// mean K_f, without the skewed spread of ‖Pq‖² (spec throttlers.md
// §12.12).
// Probes are drawn until the 95 % interval's relative half-width is at
// most RelAcc (after MinProbes). On an expander the per-probe relative
// spread is about √(2/n), so a few probes suffice; on a 2-D torus the few
// smallest eigenvalues dominate ‖L†‖_F and many are needed: when, after
// the first 4 probes or any later one, the observed spread projects more
// than 60 probes (on a graph of at least 512 nodes), the estimate
// switches to Hutch++, which computes the trace on a sketch of the low
// modes by solves and probes only the rest; TraceResult.Estimator says
// which ran. It returns the partial estimate with an error wrapping
// loadlab.ErrNotConverged at MaxProbes, and the errors of
// laplacian.NewSolver and laplacian.Solver.Solve. It panics if g or src
// is nil.
func Kirchhoff(g *wgraph.Graph, set *TraceSettings, src rand.Source) (TraceResult, error) {
	if g == nil || src == nil {
		panic("estimate: Kirchhoff: nil graph or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return TraceResult{}, err
	}
	ts, solverSet := set.Resolved()
	rng := rand.New(src)
	if force := ts.Estimator; force == EstimatorNone || force == EstimatorLanczos {
		m, _ := lapmat.New(g) // on an error (nil m) the solver reports it
		if out, ok, err := lanczosKirchhoff(g, m, ts, solverSet, rng); ok {
			return out, err
		}
	}
	s, err := laplacian.NewSolver(g, &solverSet, src)
	if err != nil {
		return TraceResult{}, err
	}
	return hutchinsonKirchhoff(s, ts, rng)
}

// KirchhoffWithSolver is Kirchhoff with the solves done by s, a solver of
// the graph already built (its preconditioner reused): Hutchinson's
// estimator with one solve per probe, switching to Hutch++ as
// set.Estimator and the spread say (Lanczos quadrature, which needs no
// solver, is not tried). Hutchinson's solves stop at the solver's
// tolerance; Hutch++'s stop looser where a bound on their error, added to
// the interval, allows (spec throttlers.md §12.9), never tighter. set's
// Solver field is not used. Errors are those of Kirchhoff. It panics if s
// or src is nil.
func KirchhoffWithSolver(s *laplacian.Solver, set *TraceSettings, src rand.Source) (TraceResult, error) {
	if s == nil || src == nil {
		panic("estimate: KirchhoffWithSolver: nil solver or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return TraceResult{}, err
	}
	ts, _ := set.Resolved()
	return hutchinsonKirchhoff(s, ts, rand.New(src))
}

// hutchinsonKirchhoff draws Rademacher probes q from rng and takes the
// values n qᵀ L† q until the stopping rule of ts holds or the rule of
// switchToHutchPP hands over to Hutch++. The probes are solved in blocks
// with SolveBlock (see nextProbeBlock); the stopping and switching rules
// see the values one by one, in the order of the probes, as with one
// solve per probe, and the probes of a block after the one at which a
// rule fires are discarded. A solve error ends the loop with the partial
// result.
func hutchinsonKirchhoff(s *laplacian.Solver, ts TraceSettings, rng *rand.Rand) (TraceResult, error) {
	force := ts.Estimator
	n := s.Order()
	out := TraceResult{Estimator: EstimatorHutchinson}
	var vals []float64
	var seeds [][]float64 // the solutions x, to seed a Hutch++ sketch
	canSwitch := (force == EstimatorNone && n >= hppMinOrder) || (force == EstimatorHutchPP && n >= 64)
	// Size the block workspace for the widest of the first blocks at once
	// (4, then 6 by default), so that the second does not reallocate it;
	// no block where the solver prefers single solves (PreferredBlockCols).
	if w := min(ts.MaxProbes, s.PreferredBlockCols(), max(ts.MinProbes-hppPilot, hppPilot, 1)); w > 1 {
		if err := s.ReserveBlock(w); err != nil {
			return out, err
		}
	}
	var pb probeBlock
	for len(vals) < ts.MaxProbes && out.Status != loadlab.Success {
		k := min(ts.MaxProbes-len(vals), s.PreferredBlockCols(), nextProbeBlock(len(vals), mc.Estimate(vals), ts, canSwitch))
		qm, xm, err := pb.solve(s, k, rng, &out)
		if err != nil {
			return out, err
		}
		for j := range k {
			vals = append(vals, float64(n)*pb.wt[j]*colDot(qm, xm, j))
			if len(seeds) < hppSketch && canSwitch {
				seeds = append(seeds, mat.Col(nil, j, xm))
			}
			if len(vals) >= ts.MinProbes && mc.Estimate(vals).RelHalfWidth() <= ts.RelAcc {
				out.Status = loadlab.Success
				break
			}
			if switchToHutchPP(vals, ts.RelAcc, n, force) {
				if err := estimateHutchPP(s, ts, rng, seeds, &out); err != nil {
					return out, err
				}
				return out, traceNotConverged(&out, ts)
			}
		}
	}
	// The interval takes the rounding floor of lanczos.BracketEstimate:
	// where every probe's value is the same (two nodes, a complete graph)
	// a Student-t interval has width 0.
	out.Estimate, _ = lanczos.BracketEstimate(vals, make([]float64, len(vals)))
	out.Probes = len(vals)
	return out, traceNotConverged(&out, ts)
}

// nextProbeBlock returns the number of probes to solve next after m: up
// to hppPilot first when the estimate may switch to Hutch++ (whose rule
// is first applied there, so that a switch leaves rng where one solve per
// probe would), then up to MinProbes, then the number the relative
// half-width h of the estimate e says are still missing, m·(h/RelAcc)² − m
// (at least 1, at most MaxBlockCols).
func nextProbeBlock(m int, e loadlab.Estimate, ts TraceSettings, canSwitch bool) int {
	switch {
	case canSwitch && m < hppPilot:
		return hppPilot - m
	case m < ts.MinProbes:
		return ts.MinProbes - m
	}
	h := e.RelHalfWidth() / ts.RelAcc
	need := float64(m)*h*h - float64(m)
	if !(need < laplacian.MaxBlockCols) { // also NaN: a zero mean
		return laplacian.MaxBlockCols
	}
	return max(1, int(math.Ceil(need)))
}

// probeBlock holds the probes of one block and their solutions.
type probeBlock struct {
	q, qs, xs []float64 // a probe; the storage of the widest block so far
	qm, xm    *mat.Dense
	wt        []float64 // (n − 1)/‖Pq‖² per column
}

// solve draws k probes from rng into the columns of a block, solves them
// together (one alone by Solve) and adds the work to out. Each probe q is
// a Rademacher vector with Pq ≠ 0 (one with all entries equal is drawn
// again, on a graph of at least two nodes), and pb.wt holds the weight
// (n − 1)/‖Pq‖² that makes its value (n − 1) vᵀL†v, v = Pq/‖Pq‖
// (spec throttlers.md §12.12).
func (pb *probeBlock) solve(s *laplacian.Solver, k int, rng *rand.Rand, out *TraceResult) (qm, xm *mat.Dense, err error) {
	n := s.Order()
	if len(pb.qs) < n*k {
		if err := size.Check("estimate", "Kirchhoff: probe block entries", n*k, 2*8); err != nil {
			return nil, nil, err
		}
		pb.q, pb.qs, pb.xs = make([]float64, n), make([]float64, n*k), make([]float64, n*k)
	}
	pb.qm, pb.xm = mat.NewDense(n, k, pb.qs[:n*k]), mat.NewDense(n, k, pb.xs[:n*k])
	pb.wt = pb.wt[:0]
	for j := range k {
		pb.wt = append(pb.wt, drawCentred(pb.q, rng))
		pb.qm.SetCol(j, pb.q)
	}
	var res []laplacian.SolveResult
	if k == 1 { // a block of one is slower than Solve; an n×1 matrix is its vector
		r, e := s.Solve(pb.xs[:n], pb.qs[:n])
		res, err = []laplacian.SolveResult{r}, e
	} else {
		res, err = s.SolveBlock(pb.xm, pb.qm)
	}
	for _, r := range res {
		out.Iterations += r.Iterations
	}
	out.Solves += k
	return pb.qm, pb.xm, err
}

// drawCentred fills q with a Rademacher vector from rng, drawn again
// while Pq = 0 (all entries equal) on a graph of at least two nodes, and
// returns the weight (n − 1)/‖Pq‖² (0 for one node). With it the
// probe's value (n − 1) vᵀL†v, v = Pq/‖Pq‖, is unbiased for tr L†: the
// law of q, conditioned on Pq ≠ 0, is invariant under permutations, so
// E[v vᵀ] = P/(n − 1) (spec throttlers.md §12.12).
func drawCentred(q []float64, rng *rand.Rand) float64 {
	n := float64(len(q))
	for {
		mc.Rademacher(q, rng)
		var s float64
		for _, x := range q {
			s += x
		}
		if nn := n - s*s/n; nn > 0.5 || len(q) < 2 {
			return (n - 1) / max(nn, 1)
		}
	}
}

// colDot returns Σ_u a_uj b_uj, summed in row order.
func colDot(a, b *mat.Dense, j int) float64 {
	ra, rb := a.RawMatrix(), b.RawMatrix()
	var v float64
	for u := range ra.Rows {
		v += ra.Data[u*ra.Stride+j] * rb.Data[u*rb.Stride+j]
	}
	return v
}

// traceNotConverged is notConverged for Kirchhoff.
func traceNotConverged(out *TraceResult, ts TraceSettings) error {
	return notConverged("Kirchhoff", out, ts)
}

// notConverged sets the status of a finished estimate of the function
// fn and returns the error of one that stopped at MaxProbes short of
// RelAcc.
func notConverged(fn string, out *TraceResult, ts TraceSettings) error {
	if out.Status == loadlab.Success {
		return nil
	}
	out.Status = loadlab.IterationLimit
	return loadlab.Wrap(loadlab.ErrNotConverged, "estimate", "%s: relative half-width %.3g > RelAcc = %.3g after %d probes (%v)", fn, out.Estimate.RelHalfWidth(), ts.RelAcc, out.Probes, out.Estimator)
}
