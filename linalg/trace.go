package linalg

import (
	"math/rand/v2"
	"slices"

	"github.com/loadlab/loadlab"
	"github.com/loadlab/loadlab/internal/mc"
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
	// ≥ 2; 0 means DefaultTraceMinProbes. A sequential stopping rule
	// that looks too early undercovers; 10 keeps the coverage near 95 %
	// (tested).
	MinProbes int
	// MaxProbes bounds the probes, ≥ MinProbes; 0 means DefaultTraceMaxProbes.
	MaxProbes int
	// Solver configures the solves; nil means defaults except that a
	// zero Tol means DefaultTraceSolveTol (the estimate's bias from
	// solve error is then far below RelAcc).
	Solver *SolverSettings
	// Method selects the path of the entry points that have both (the
	// stochastic estimators themselves ignore it); the zero value is
	// MethodAuto.
	Method Method
}

// Validate reports a field outside its domain.
func (s *TraceSettings) Validate() error {
	if s == nil {
		return nil
	}
	if s.RelAcc != 0 && !(s.RelAcc > 0 && s.RelAcc < 1) {
		return loadlab.Invalid("linalg", "TraceSettings.RelAcc = %v, want 0 (default) or in (0, 1)", s.RelAcc)
	}
	if s.MinProbes != 0 && s.MinProbes < 2 {
		return loadlab.Invalid("linalg", "TraceSettings.MinProbes = %d, want 0 (default) or ≥ 2", s.MinProbes)
	}
	if s.MaxProbes < 0 || (s.MaxProbes != 0 && s.MaxProbes < max(s.MinProbes, 2)) {
		return loadlab.Invalid("linalg", "TraceSettings.MaxProbes = %d, want 0 (default) or ≥ MinProbes", s.MaxProbes)
	}
	if err := s.Method.Validate(); err != nil {
		return err
	}
	return s.Solver.Validate()
}

func (s *TraceSettings) resolved() (TraceSettings, SolverSettings) {
	r := TraceSettings{RelAcc: DefaultTraceRelAcc, MinProbes: DefaultTraceMinProbes, MaxProbes: DefaultTraceMaxProbes}
	var solver SolverSettings
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
	}
	r.MaxProbes = max(r.MaxProbes, r.MinProbes)
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
	Method     Method           // the path that ran (KirchhoffIndexWith); MethodStochastic from EstimateKirchhoff
	Estimator  TraceEstimator   // the estimator that ran (EstimatorNone on the dense path)
	Solves     int              // Laplacian solves, every probe and sketch column included
	Sketch     int              // columns of the Hutch++ subspace (0 for Hutchinson)
}

// EstimateKirchhoff estimates the Kirchhoff index K_f = n tr L† (spec
// throttlers.md §2) by Hutchinson's estimator with one Laplacian solve per
// probe: for a Rademacher vector q, n qᵀ L† q has mean K_f and variance
// 2n²(‖L†‖_F² − Σ_u (L†_uu)²). Probes are drawn until the 95 % interval's
// relative half-width is at most RelAcc (after MinProbes). On an expander
// the per-probe relative spread is about √(2/n), so a few probes suffice;
// on a 2-D torus the few smallest eigenvalues dominate ‖L†‖_F and many are
// needed: when, after the first hppPilot probes or any later one, the
// observed spread projects more than hppSwitchProbes probes (on a graph of
// at least hppMinOrder nodes), the estimate switches to Hutch++
// (hutchpp.go), which computes the trace on a sketch of the low modes by
// solves and probes only the rest; TraceResult.Estimator says which ran.
// It returns the partial estimate with an error wrapping
// loadlab.ErrNotConverged at MaxProbes, and the errors of
// NewLaplacianSolver and Solve. It panics if g or src is nil.
func EstimateKirchhoff(g *Graph, set *TraceSettings, src rand.Source) (TraceResult, error) {
	return estimateKirchhoff(g, set, src, EstimatorNone)
}

// estimateKirchhoff is EstimateKirchhoff with the estimator forced to
// force (EstimatorHutchinson: never switch; EstimatorHutchPP: switch
// after the pilot probes on any graph with n ≥ 64) or chosen by the rule
// (EstimatorNone).
func estimateKirchhoff(g *Graph, set *TraceSettings, src rand.Source, force TraceEstimator) (TraceResult, error) {
	if g == nil || src == nil {
		panic("linalg: EstimateKirchhoff: nil graph or rand.Source")
	}
	if err := set.Validate(); err != nil {
		return TraceResult{}, err
	}
	ts, solverSet := set.resolved()
	s, err := NewLaplacianSolver(g, &solverSet, src)
	if err != nil {
		return TraceResult{}, err
	}
	n := g.Order()
	rng := rand.New(src)
	q, x := make([]float64, n), make([]float64, n)
	out := TraceResult{Method: MethodStochastic, Estimator: EstimatorHutchinson}
	var vals []float64
	var seeds [][]float64 // the solutions x, to seed a Hutch++ sketch
	canSwitch := (force == EstimatorNone && n >= hppMinOrder) || (force == EstimatorHutchPP && n >= 64)
	for len(vals) < ts.MaxProbes {
		rademacher(q, rng)
		res, err := s.Solve(x, q)
		out.Iterations += res.Iterations
		out.Solves++
		if err != nil {
			return out, err
		}
		vals = append(vals, float64(n)*dot(q, x))
		if len(seeds) < hppSketch && canSwitch {
			seeds = append(seeds, slices.Clone(x))
		}
		if len(vals) >= ts.MinProbes && summarize(vals).RelHalfWidth() <= ts.RelAcc {
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
	out.Estimate, out.Probes = summarize(vals), len(vals)
	return out, traceNotConverged(&out, ts)
}

// traceNotConverged sets the status of a finished estimate and returns
// the error of one that stopped at MaxProbes short of RelAcc.
func traceNotConverged(out *TraceResult, ts TraceSettings) error {
	if out.Status == loadlab.Success {
		return nil
	}
	out.Status = loadlab.IterationLimit
	return loadlab.Wrap(loadlab.ErrNotConverged, "linalg", "EstimateKirchhoff: relative half-width %.3g > RelAcc = %.3g after %d probes (%v)", out.Estimate.RelHalfWidth(), ts.RelAcc, out.Probes, out.Estimator)
}

// rademacher fills q with independent ±1 from 64-bit words of rng.
func rademacher(q []float64, rng *rand.Rand) {
	for i := 0; i < len(q); i += 64 {
		bits := rng.Uint64()
		for j := i; j < min(i+64, len(q)); j++ {
			q[j] = float64(int64(bits&1)*2 - 1)
			bits >>= 1
		}
	}
}

// summarize returns the estimate of the sample xs.
func summarize(xs []float64) loadlab.Estimate {
	s := mc.Summarize(xs)
	return loadlab.Estimate{Mean: s.Mean, Lo: s.Lo, Hi: s.Hi, StdErr: s.StdErr, N: s.N}
}
